/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the BPF flavours of the system call tapset's argument decoders
 * (tapsets/linux/syscall_args.stp, syscalls_names.stp) use: flag and
 * value tables decoded into a string, user strings quoted, as the kmod
 * flavours write them.  Names stand for the UAPI headers' own macros.
 * Strings are built a byte at a time through STP_KPUT (ksprintf.h), so
 * every index is one the verifier can bound.
 */
#ifndef STP_BPF_SC_ARGS_H
#define STP_BPF_SC_ARGS_H

#include <asm/unistd.h>
#include <linux/fcntl.h>
#include <linux/fs.h>
#include <linux/mman.h>
#include <linux/sched.h>
#include <linux/time.h>
#include <linux/wait.h>
#include <linux/resource.h>
#include <linux/eventpoll.h>
#include <linux/futex.h>
#include <asm/prctl.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* A value and its name, as in the kmod tables; the names are arrays,
 * not pointers: BPF's data cannot hold pointers. */
struct stp_sc_kname {
	u64 v;
	char n[24];
};
#define STP_SCK(x) { (u64)(x), #x }

/* src (a name of up to 24 bytes, in an array of at least 24: the
 * verifier checks every byte the loop may read) at dst + pos; the new pos. */
STP_INLINE int stp_kcat(char *dst, int pos, const char *src)
{
	for (int i = 0; i < 24 && src[i]; i++)
		STP_KPUT(dst, pos, src[i]);
	return pos;
}

STP_INLINE void stp_kend(char *dst, int pos)
{
	dst[(pos < MAXSTRINGLEN - 1 ? pos : MAXSTRINGLEN - 1) & (MAXSTRINGLEN - 1)] = 0;
}

/* "0x" and v in hex at dst + pos; the new pos. */
STP_INLINE int stp_khex(char *dst, int pos, u64 v)
{
	char d[32];
	int n = 0;

	for (int i = 0; i < 16; i++) {
		d[n++ & 31] = stp_kdigit(v & 15, 0);
		v >>= 4;
		if (!v)
			break;
	}
	STP_KPUT(dst, pos, '0');
	STP_KPUT(dst, pos, 'x');
	return stp_krun(dst, pos, d, n & 31, 1, 0);
}

/* stp_kflags's walk of its table: a bpf_loop callback (Linux 5.17), so
 * the verifier checks one entry, not every path through all of them. */
struct stp_kflags_walk {
	char *dst;
	const struct stp_sc_kname *t;
	u64 v;
	u64 n;		/* 64 bits: the verifier keeps an 8-byte spill's value,
			 * which bounds the index into a small table */
	int start;
};

static long stp_kflags_one(u32 i, struct stp_kflags_walk *w)
{
	const struct stp_sc_kname *e;
	char *dst = w->dst;
	int *pp = stp_kposp(), pos;
	u64 k = i;

	/* opaque to clang, which would index by a copy the check missed */
	asm volatile("" : "+r"(k));
	if (!pp || k >= 32 || k >= w->n)
		return 1;
	e = &w->t[k];
	if (!e->v || (w->v & e->v) != e->v)
		return 0;
	pos = *pp;
	if (pos > w->start)
		STP_KPUT(dst, pos, '|');
	*pp = stp_kcat(dst, pos, e->n);
	w->v &= ~e->v;
	return 0;
}

/* v's bits by name from t (n entries) joined by '|' from dst + pos, the
 * rest in hex; "0x0" when nothing was written and v is 0 (SystemTap's). */
STP_INLINE void stp_kflags(char *dst, int pos, const struct stp_sc_kname *t, int n, u64 v)
{
	struct stp_kflags_walk w = { dst, t, v, (u64)n, pos };
	int *pp = stp_kposp();

	if (!pp)
		return;
	*pp = pos;
	bpf_loop(n, stp_kflags_one, &w, 0);
	pos = *pp;
	v = w.v;
	if (v) {
		if (pos > w.start)
			STP_KPUT(dst, pos, '|');
		pos = stp_khex(dst, pos, v);
	} else if (pos == w.start) {
		pos = stp_khex(dst, pos, 0);
	}
	stp_kend(dst, pos);
}

/* v's name in t, else v in hex (decimal: dec), as SystemTap's. */
STP_INLINE void stp_kenum_base(char *dst, const struct stp_sc_kname *t, int n, int64_t v, int dec)
{
	/* opaque: knowing the table, clang would index it by v, by a copy
	 * of v the verifier has no bounds for */
	asm volatile("" : "+r"(t));
	for (int i = 0; i < 32 && i < n; i++)
		if (t[i].v == (u64)v) {
			stp_kend(dst, stp_kcat(dst, 0, t[i].n));
			return;
		}
	if (dec)
		stp_kfmt_int(dst, (u64)v, 10, STP_F_SIGN, -1, -1);
	else
		stp_kend(dst, stp_khex(dst, 0, (u64)v));
}
#define stp_kenum(dst, t, n, v) stp_kenum_base(dst, t, n, v, 0)

/* A scratch string per CPU: the user bytes _sc_ustr_q quotes. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, char[MAXSTRINGLEN]);
} stp_sc_scratch SEC(".maps");

/* Byte c as it shows inside a quoted string, at dst + pos. */
STP_INLINE int stp_kquote_char(char *dst, int pos, unsigned char c)
{
	char e = c == '"' ? '"' : c == '\\' ? '\\' : c == '\n' ? 'n' : c == '\t' ? 't'
		 : c == '\r' ? 'r' : 0;

	if (e) {
		STP_KPUT(dst, pos, '\\');
		STP_KPUT(dst, pos, e);
	} else if (c >= 0x20 && c < 0x7f) {
		STP_KPUT(dst, pos, c);
	} else {
		STP_KPUT(dst, pos, '\\');
		if (c >= 64)
			STP_KPUT(dst, pos, '0' + (c >> 6));
		if (c >= 8)
			STP_KPUT(dst, pos, '0' + ((c >> 3) & 7));
		STP_KPUT(dst, pos, '0' + (c & 7));
	}
	return pos;
}

/* stp_kquote_ustr's walk of the string: a bpf_loop callback. */
struct stp_kquote_walk {
	char *dst;
	const char *s;
	int cut, buf;	/* buf: n bytes, NULs and all; else a string */
	u32 n;
	int limit;	/* dst's size: cut 8 bytes short of it */
};

static long stp_kquote_one(u32 i, struct stp_kquote_walk *w)
{
	char c = w->s[i & (MAXSTRINGLEN - 1)];
	int *pp = stp_kposp();

	if ((!c && !w->buf) || (w->buf && i >= w->n) || !pp)
		return 1;
	if (*pp + 8 >= (w->limit ? w->limit : MAXSTRINGLEN)) {
		w->cut = 1;
		return 1;
	}
	*pp = stp_kquote_char(w->dst, *pp, c);
	return 0;
}

/* text after the string in dst, as the kmod tapset's stp_sc_cat */
STP_INLINE void stp_sc_cat(char *dst, int len, const char *text)
{
	u32 zero = 0;
	char *s = bpf_map_lookup_elem(&stp_kstr, &zero);
	long n;

	(void)len;
	if (!s)
		return;
	n = bpf_probe_read_kernel_str(s, MAXSTRINGLEN, dst) - 1;
	stp_kend(dst, stp_kcat(dst, n < 0 ? 0 : (int)n, text));
}

/* The first n (at most 32) user bytes at addr quoted, NULs and all,
 * "..." after the quote when more is set; "NULL" for 0, addr in hex
 * when it cannot be read: _sc_ubuf_q, as the kmod flavour. */
STP_INLINE void stp_kquote_ubuf(char *dst, u64 addr, u64 n, int more)
{
	u32 zero = 0;
	char *s = bpf_map_lookup_elem(&stp_sc_scratch, &zero);
	int *pp = stp_kposp();

	if (!addr) {
		stp_kend(dst, stp_kcat(dst, 0, "NULL"));
		return;
	}
	n &= 63;
	if (!s || !pp || (n && bpf_probe_read_user(s, n, (const void *)addr))) {
		stp_kend(dst, stp_khex(dst, 0, addr));
		return;
	}
	struct stp_kquote_walk w = { dst, s, 0, 1, (u32)n, 0 };

	dst[0] = '"';
	*pp = 1;
	bpf_loop(n, stp_kquote_one, &w, 0);
	stp_kend(dst, stp_kcat(dst, *pp, more ? "\"..." : "\""));
}

/* The user string at addr quoted, "NULL" for 0, addr in hex when it
 * cannot be read; cut with "..." after the quote 8 bytes short of
 * MAXSTRINGLEN, as the kmod flavour. */
STP_INLINE void stp_kquote_ustr(char *dst, u64 addr)
{
	u32 zero = 0;
	char *s = bpf_map_lookup_elem(&stp_sc_scratch, &zero);
	struct stp_kquote_walk w = { dst, s, 0, 0, 0, 0 };
	int *pp = stp_kposp();

	if (!addr) {
		stp_kend(dst, stp_kcat(dst, 0, "NULL"));
		return;
	}
	if (!s || !pp || bpf_probe_read_user_str(s, MAXSTRINGLEN, (const void *)addr) <= 0) {
		stp_kend(dst, stp_khex(dst, 0, addr));
		return;
	}
	dst[0] = '"';
	*pp = 1;
	bpf_loop(MAXSTRINGLEN, stp_kquote_one, &w, 0);
	stp_kend(dst, stp_kcat(dst, *pp, w.cut ? "\"..." : "\""));
}

/* The user string at addr quoted into one (limit bytes), at most max
 * bytes of it, "..." after the quote when it is longer; "NULL" for 0,
 * addr in hex when it cannot be read.  Its length. */
STP_INLINE int stp_kquote_str(char *one, int limit, u64 addr, u32 max)
{
	u32 zero = 0;
	char *s = bpf_map_lookup_elem(&stp_sc_scratch, &zero);
	struct stp_kquote_walk w = { one, s, 0, 0, 0, limit };
	int *pp = stp_kposp(), pos;
	long n;

	if (!addr)
		return stp_kcat(one, 0, "NULL");
	max &= 127;
	if (!s || !pp || (n = bpf_probe_read_user_str(s, max + 1, (const void *)addr)) <= 0)
		return stp_khex(one, 0, addr);
	one[0] = '"';
	*pp = 1;
	bpf_loop(max, stp_kquote_one, &w, 0);
	pos = stp_kcat(one, *pp, w.cut ? "\"..." : "\"");
	if (!w.cut && n == max + 1)
		pos = stp_kcat(one, pos, "...");
	return pos;
}

/* _sc_argv's walk of the pointers: a bpf_loop callback that quotes
 * each string into one, then appends it to dst if it fits. */
struct stp_kargv_walk {
	char *dst, *one;
	u64 a;
};

static long stp_kargv_one(u32 i, struct stp_kargv_walk *w)
{
	int *pp = stp_kposp_outer(), len;
	u64 p = 0;

	if (!pp || i >= 32 || bpf_probe_read_user(&p, sizeof(p), (const void *)(w->a + 8 * i)) || !p)
		return 1;
	len = stp_kquote_str(w->one, 128, p, 100);
	if (*pp + len + 8 >= MAXSTRINGLEN) {
		*pp = stp_kcat(w->dst, *pp, i ? ", ..." : "...");
		return 1;
	}
	if (i)
		*pp = stp_kcat(w->dst, *pp, ", ");
	*pp = stp_krun(w->dst, *pp, w->one, len, 0, 0);
	return 0;
}

/* execve's argument list at addr: ["prog", "arg"], as the kmod flavour. */
STP_INLINE void stp_kargv(char *dst, u64 addr)
{
	u32 zero = 0;
	char *one = bpf_map_lookup_elem(&stp_kstr, &zero);
	struct stp_kargv_walk w = { dst, one, addr };
	int *pp = stp_kposp_outer();
	u64 p;

	if (!addr) {
		stp_kend(dst, stp_kcat(dst, 0, "NULL"));
		return;
	}
	if (!one || !pp || bpf_probe_read_user(&p, sizeof(p), (const void *)addr)) {
		stp_kend(dst, stp_khex(dst, 0, addr));
		return;
	}
	dst[0] = '[';
	*pp = 1;
	bpf_loop(32, stp_kargv_one, &w, 0);
	stp_kend(dst, stp_kcat(dst, *pp, "]"));
}

/* _sc_envc's count of the pointers before the NULL (at most 4096), kept
 * where the verifier does not follow it (stp_kpos): counted on the
 * stack, it walks the callback once per count. */
static long stp_kenvc_one(u32 i, u64 *a)
{
	int *pp = stp_kposp();
	u64 p = 0;

	if (!pp || bpf_probe_read_user(&p, sizeof(p), (const void *)(*a + 8 * (u64)i)) || !p)
		return 1;
	(*pp)++;
	return 0;
}

STP_INLINE void stp_kenvc(char *dst, u64 addr)
{
	int *pp = stp_kposp();
	u64 d[2];

	if (!addr || !pp) {
		stp_kend(dst, stp_kcat(dst, 0, "NULL"));
		return;
	}
	*pp = 0;
	bpf_loop(4096, stp_kenvc_one, &addr, 0);
	d[0] = (u64)*pp;
	d[1] = (u64)(*pp == 1 ? "" : "s");
	bpf_snprintf(dst, MAXSTRINGLEN, "[/* %llu var%s */]", d, sizeof(d));
}

#endif
