// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Symbols of the stacks a BPF program took (runtime/bpf/stack.h,
 * tapsets/stack.stp's BPF flavours).  A kernel probe cannot read
 * kallsyms or ELF files, so what it prints of a stack is a marker
 *
 *     STP_USYM_OPEN KIND [PID8 " "] "0x... 0x..." STP_USYM_CLOSE
 *
 * (the close may be lost to MAXSTRINGLEN: the list then ends at its
 * first character that is no part of one), which the output writer
 * replaces as the kmod runtime prints the same functions:
 *   K  print_stack, sprint_stack: " 0x... : sym+0xoff/0xsize [mod]\n" a frame
 *   U  print_ustack: " 0x..." and staprun/usym.c's symbols, a frame a line
 *   V  sprint_ustack: usym.c's "sym+0xoff/0xsize [/path]", a frame a line
 *   B  sprint_backtrace: "sym+0xoff [mod]\n" a frame
 *   L  sprint_ubacktrace: "0x...\n" a frame
 *   N  symname(addr): "sym", D  symdata(addr): "sym+0xoff/0xsize [mod]"
 * Kernel symbols come from /proc/kallsyms, read once; user symbols from
 * the process's maps and ELF symbol tables, by the kmod runner's usym.c.
 */
#include "run.h"
#include "../stprun.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MARK_OPEN	'\036'
#define MARK_CLOSE	'\037'

struct ksym {
	uint64_t addr;
	char *name;		/* "name" or "name [mod]" */
};

static struct ksym *ksyms;
static size_t nksyms;
static int ksyms_read;

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void ksyms_load(void)
{
	char line[512], name[256], mod[128];
	unsigned long long a;
	size_t cap = 0;
	FILE *f;
	char t;

	ksyms_read = 1;
	f = fopen("/proc/kallsyms", "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		int n = sscanf(line, "%llx %c %255s [%127[^]]]", &a, &t, name, mod);

		if (n < 3 || !a)
			continue;
		if (nksyms == cap) {
			cap = cap ? cap * 2 : 65536;
			ksyms = realloc(ksyms, cap * sizeof(*ksyms));
			if (!ksyms)
				abort();
		}
		ksyms[nksyms].addr = a;
		if (n == 4) {
			size_t l = strlen(name) + strlen(mod) + 4;

			ksyms[nksyms].name = malloc(l);
			if (!ksyms[nksyms].name)
				abort();
			snprintf(ksyms[nksyms].name, l, "%s [%s]", name, mod);
		} else {
			ksyms[nksyms].name = strdup(name);
		}
		nksyms++;
	}
	fclose(f);
	qsort(ksyms, nksyms, sizeof(*ksyms), ksym_cmp);
}

/* symdata(addr) as the kmod runtime gives it: "sym+0xoff/0xsize [mod]",
 * [kernel] for vmlinux, or "0x%016llx" when no symbol holds it. */
void stp_u_ksymdata(char *dst, size_t n, uint64_t addr)
{
	size_t lo = 0, hi;
	const struct ksym *s, *next;

	if (!ksyms_read)
		ksyms_load();
	hi = nksyms;
	while (lo < hi) {	/* the last symbol at or below addr */
		size_t mid = lo + (hi - lo) / 2;

		if (ksyms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || !addr) {
		snprintf(dst, n, "0x%016llx", (unsigned long long)addr);
		return;
	}
	s = &ksyms[lo - 1];
	for (next = s + 1; next < ksyms + nksyms && next->addr == s->addr; next++)
		;
	if (next == ksyms + nksyms) {
		snprintf(dst, n, "0x%016llx", (unsigned long long)addr);
		return;
	}
	const char *mod = strchr(s->name, ' ');

	snprintf(dst, n, "%.*s+0x%llx/0x%llx%s", mod ? (int)(mod - s->name) : (int)strlen(s->name),
		 s->name, (unsigned long long)(addr - s->addr),
		 (unsigned long long)(next->addr - s->addr), mod ? mod : " [kernel]");
}

/* The next token of a hex list; its length, 0 at the list's end (a
 * character that is no part of one). */
static size_t next_tok(const char **p, const char *end, const char **tok)
{
	const char *s = *p;
	size_t l = 0;

	while (s < end && *s == ' ')
		s++;
	while (s + l < end && strchr("0123456789abcdefABCDEFxX", s[l]) && s[l])
		l++;
	*tok = s;
	*p = s + l;
	return l;
}

/* One K marker's frames, a line each, into out. */
static void kframes(FILE *out, const char *p, const char *end, const char **stop)
{
	const char *tok;
	char sym[512];
	size_t l;

	while ((l = next_tok(&p, end, &tok))) {
		stp_u_ksymdata(sym, sizeof(sym), strtoull(tok, NULL, 16));
		fprintf(out, " %.*s : %s\n", (int)l, tok, sym);
	}
	*stop = p;
}

/* symname(addr): the symbol's name, or the address as "0x%016llx". */
void stp_u_ksymname(char *dst, size_t n, uint64_t addr)
{
	stp_u_ksymdata(dst, n, addr);
	if (strncmp(dst, "0x", 2))
		dst[strcspn(dst, "+ ")] = 0;
}

/* One B, L, N or D marker's frames (N and D: one address). */
static void kother(FILE *out, char kind, const char *p, const char *end, const char **stop)
{
	const char *tok;
	char sym[512];
	size_t l;

	while ((l = next_tok(&p, end, &tok))) {
		uint64_t a = strtoull(tok, NULL, 16);

		if (kind == 'L') {
			fprintf(out, "%.*s\n", (int)l, tok);
			continue;
		}
		if (kind == 'N') {
			stp_u_ksymname(sym, sizeof(sym), a);
			fputs(sym, out);
			continue;
		}
		stp_u_ksymdata(sym, sizeof(sym), a);
		if (kind == 'D') {
			fputs(sym, out);
			continue;
		}
		/* B: "sym+0xoff [mod]", the size left out */
		char *slash = strchr(sym, '/'), *sp = strchr(sym, ' ');

		if (slash && sp && slash < sp)
			memmove(slash, sp, strlen(sp) + 1);
		fprintf(out, "%s\n", sym);
	}
	*stop = p;
}

/* One U or V marker's frames: "PID8 0x... 0x...". */
static void uframes(FILE *out, char kind, const char *p, const char *end, const char **stop)
{
	char line[96];
	const char *tok;
	unsigned pid = 0;
	size_t l;

	if (end - p >= 9 && sscanf(p, "%8x", &pid) == 1)
		p += 9;
	while ((l = next_tok(&p, end, &tok))) {
		unsigned long long a = strtoull(tok, NULL, 16);
		int k = kind == 'U' ?
			snprintf(line, sizeof(line), " 0x%016llx%c%u %llx%c\n", a, MARK_OPEN, pid,
				 a, MARK_CLOSE) :
			snprintf(line, sizeof(line), "%c%u %llx d%c\n", MARK_OPEN, pid, a, MARK_CLOSE);

		usym_write(line, k, out);
	}
	*stop = p;
}

/* fwrite(p, 1, n, out) with the stack markers replaced. */
void stp_u_symwrite(const char *p, size_t n, FILE *out)
{
	const char *end = p + n, *o;

	while (p < end && (o = memchr(p, MARK_OPEN, end - p))) {
		fwrite(p, 1, o - p, out);
		if (o + 1 < end && o[1] == 'K')
			kframes(out, o + 2, end, &p);
		else if (o + 1 < end && (o[1] == 'U' || o[1] == 'V'))
			uframes(out, o[1], o + 2, end, &p);
		else if (o + 1 < end && strchr("BLND", o[1]) && o[1])
			kother(out, o[1], o + 2, end, &p);
		else {		/* not ours: the kmod runner's own markers */
			fwrite(o, 1, 1, out);
			p = o + 1;
			continue;
		}
		if (p < end && *p == MARK_CLOSE)
			p++;
	}
	if (p < end)
		fwrite(p, 1, end - p, out);
}

/* A marker's expansion as a string (begin, end and error probes):
 * whole lines only, within MAXSTRINGLEN. */
static void expand_str(char *dst, char kind, const char *stk, int pid)
{
	char buf[8192], mark[16];
	size_t len = 0, cut = 0;
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

	dst[0] = 0;
	if (!f)
		return;
	snprintf(mark, sizeof(mark), kind == 'K' ? "%c%c" : "%c%c%08x ", MARK_OPEN, kind,
		 (unsigned)pid);
	fputs(mark, f);
	fputs(stk, f);
	fputc(MARK_CLOSE, f);
	fclose(f);
	f = fmemopen(NULL, sizeof(buf), "w+");
	if (!f)
		return;
	stp_u_symwrite(buf, strlen(buf), f);
	len = ftell(f);
	rewind(f);
	len = fread(buf, 1, len < sizeof(buf) - 1 ? len : sizeof(buf) - 1, f);
	fclose(f);
	buf[len] = 0;
	for (size_t i = 0; i < len; i++)
		if (buf[i] == '\n' && i + 1 < (size_t)stp_prog.strlen)
			cut = i + 1;
	memcpy(dst, buf, cut);
	dst[cut] = 0;
}

void stp_u_sprint_stack(char *dst, const char *stk)
{
	expand_str(dst, 'K', stk, 0);
}

void stp_u_sprint_ustack(char *dst, const char *stk)
{
	expand_str(dst, 'V', stk, (int)stp_pid());
}

/* symname() and symdata() in begin and end */
void stp_u_symname(char *dst, int64_t addr)
{
	stp_u_ksymname(dst, stp_prog.strlen, (uint64_t)addr);
}

void stp_u_symdata(char *dst, int64_t addr)
{
	stp_u_ksymdata(dst, stp_prog.strlen, (uint64_t)addr);
}
