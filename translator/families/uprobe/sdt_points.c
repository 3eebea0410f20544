// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * SDT markers: the .note.stapsdt notes <sys/sdt.h> leaves in a program
 * or library, one per marker: owner "stapsdt", type 3, a description of
 * three addresses (the marker's nop, the link-time address of
 * .stapsdt.base, the semaphore or 0) and three strings (provider, name,
 * the arguments as the compiler's assembler operands, "-4@%eax 8@$5").
 * An i386 file's notes have 4-byte addresses, and its operands i386's
 * registers ("4@8(%esp)", "%ebx"): a 32-bit program runs as a compat
 * task, whose pt_regs holds eax in ax's low half, esp in sp's, ...
 *
 * The addresses are as the linker wrote them; a tool that moved the
 * sections afterwards (prelink) moved .stapsdt.base with them, so the
 * difference between its address and the note's says by how much.
 *
 * Each operand becomes a struct sdt_arg sdt_var.c compiles into a read
 * of the probe's registers or of the process's memory.
 */
#include "sdt.h"
#include "../../symbols/elfsec.h"

#include <ctype.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { NT_STAPSDT = 3 };

/* ---- registers ---- */

/* The pt_regs member holding x86-64 register name (its 8-, 16-, 32- or
 * 64-bit name), and where in it the value starts; NULL when unknown.
 * An i386 program has only the 8-, 16- and 32-bit names of the first
 * eight, in the same members of a compat task's pt_regs. */
static const char *reg_member(const char *name, int *shift, int is32)
{
	static const char *const legacy[] = { "ax", "bx", "cx", "dx", "si", "di", "bp", "sp" };
	size_t n = strlen(name);
	char buf[8] = { 0 };

	*shift = 0;
	if (is32 && (name[0] == 'r' || (n == 3 && name[2] == 'l')))
		return NULL;		/* %rax, %r8, %rip, %sil: x86-64's */
	if (name[0] == 'r' && isdigit((unsigned char)name[1])) {
		int k = atoi(name + 1);
		const char *end = name + 1 + strspn(name + 1, "0123456789");

		if (k < 8 || k > 15 || (*end && (strchr("dwbl", *end) == NULL || end[1])))
			return NULL;
		return ar_printf("r%d", k);
	}
	if (!strcmp(name, "rip") || !strcmp(name, "eip"))
		return "ip";
	if (n == 3 && (name[0] == 'r' || name[0] == 'e'))
		name++;				/* rax, eax: ax */
	else if (n == 3 && name[2] == 'l')
		name = memcpy(buf, name, 2);	/* sil: si */
	else if (n == 2 && (name[1] == 'l' || name[1] == 'h') && strchr("abcd", name[0])) {
		*shift = name[1] == 'h' ? 8 : 0;	/* al: ax, ah: ax >> 8 */
		buf[0] = name[0];
		buf[1] = 'x';
		name = buf;
	}
	for (size_t i = 0; i < sizeof(legacy) / sizeof(legacy[0]); i++)
		if (!strcmp(name, legacy[i]))
			return legacy[i];
	return NULL;
}

/* "%name" at *s: its member, *s past it. */
static const char *reg_at(const char **s, int *shift, int is32)
{
	const char *p = *s;
	size_t n;

	if (*p != '%')
		return NULL;
	n = strspn(p + 1, "abcdefghijklmnopqrstuvwxyz0123456789");
	*s = p + 1 + n;
	return reg_member(ar_strndup(p + 1, n), shift, is32);
}

/* ---- symbols ---- */

/* The address of symbol name in .symtab, else .dynsym. */
static int symbol_addr(Elf *elf, const char *name, uint64_t *addr)
{
	for (int pass = 0; pass < 2; pass++) {
		Elf_Scn *scn = NULL;

		while ((scn = elf_nextscn(elf, scn))) {
			GElf_Shdr sh;
			Elf_Data *d;

			if (!gelf_getshdr(scn, &sh) ||
			    sh.sh_type != (pass ? SHT_DYNSYM : SHT_SYMTAB) ||
			    !(d = elf_getdata(scn, NULL)) || !sh.sh_entsize)
				continue;
			for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
				GElf_Sym sym;
				const char *n;

				if (gelf_getsym(d, (int)i, &sym) && sym.st_shndx != SHN_UNDEF &&
				    (n = elf_strptr(elf, sh.sh_link, sym.st_name)) && !strcmp(n, name)) {
					*addr = sym.st_value;
					return 1;
				}
			}
		}
	}
	return 0;
}

/* ---- operands ---- */

/* disp = [-]NUM | SYM, joined by + and -: at most one SYM. */
static int displacement(Elf *elf, const char **s, struct sdt_arg *a)
{
	const char *p = *s;

	while (*p && *p != '(') {
		int neg = 0;
		char *end;

		if (*p == '+' || *p == '-')
			neg = *p++ == '-';
		if (isdigit((unsigned char)*p)) {
			long long v = strtoll(p, &end, 0);

			a->disp += neg ? -v : v;
			p = end;
		} else if (isalpha((unsigned char)*p) || *p == '_' || *p == '.') {
			size_t n = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					  "0123456789_.$");

			if (a->sym || neg)
				return 0;
			a->sym = ar_strndup(p, n);
			if (!symbol_addr(elf, a->sym, &a->sym_addr))
				return 0;
			p += n;
		} else {
			return 0;
		}
	}
	*s = p;
	return 1;
}

/* (base[,index[,scale]]), or (,index,scale) */
static int address_regs(const char **s, struct sdt_arg *a, int is32)
{
	const char *p = *s + 1;
	int shift;

	if (*p == '%' && !(a->reg = reg_at(&p, &shift, is32)))
		return 0;
	a->rip = a->reg && !strcmp(a->reg, "ip");
	if (*p == ',') {
		p++;
		if (!(a->index = reg_at(&p, &shift, is32)) || !strcmp(a->index, "ip"))
			return 0;
		a->scale = 1;
		if (*p == ',') {
			a->scale = (int)strtol(p + 1, (char **)&p, 10);
			if (a->scale != 1 && a->scale != 2 && a->scale != 4 && a->scale != 8)
				return 0;
		}
	}
	if (*p != ')')
		return 0;
	*s = p + 1;
	return 1;
}

/* [-]N@ then %reg, $imm or memory; 0 when stp cannot read it.  Without
 * N@, the size is a word's: 8 bytes, 4 in an i386 file (is32). */
static int operand(Elf *elf, const char *text, struct sdt_arg *a, int is32)
{
	const char *p = text, *at = strchr(text, '@');
	char *end;

	a->text = text;
	a->size = is32 ? 4 : 8;
	if (at && (isdigit((unsigned char)*p) || *p == '-')) {
		int size = (int)strtol(p, &end, 10);

		if (end != at)
			return 0;
		a->is_signed = size < 0;
		a->size = abs(size);
		p = at + 1;
	}
	if (a->size != 1 && a->size != 2 && a->size != 4 && a->size != 8)
		return 0;
	if (*p == '%') {
		a->where = SDT_REG;
		return (a->reg = reg_at(&p, &a->shift, is32)) && !*p && strcmp(a->reg, "ip");
	}
	if (*p == '$') {
		a->where = SDT_IMM;
		a->disp = strtoll(p + 1, &end, 0);
		return end != p + 1 && !*end;
	}
	a->where = SDT_MEM;
	if (!displacement(elf, &p, a))
		return 0;
	if (*p == '(' && !address_regs(&p, a, is32))
		return 0;
	/* %rip-relative means relative to a symbol: an offset of code is
	 * nothing stp can place */
	return !*p && (!a->rip || a->sym) && (a->reg || a->index || a->sym || a->disp);
}

/* The operands of m->argstr, split at blanks. */
static void arguments(Elf *elf, struct sdt_marker *m)
{
	struct vec ops = { 0 };

	for (const char *p = m->argstr; *p;) {
		size_t n;

		p += strspn(p, " \t");
		n = strcspn(p, " \t");
		if (n)
			vec_push(&ops, ar_strndup(p, n));
		p += n;
	}
	m->nargs = ops.len;
	m->args = ar_alloc((size_t)(ops.len + 1) * sizeof(*m->args));
	for (int i = 0; i < ops.len; i++)
		m->args[i].unreadable = !operand(elf, ops.v[i], &m->args[i], m->addr32);
	free(ops.v);
}

/* ---- notes ---- */

static int section_addr(Elf *elf, const char *name, uint64_t *addr, Elf_Scn **found)
{
	GElf_Shdr sh;
	Elf_Scn *scn = elf_section(elf, name, &sh);

	if (!scn)
		return 0;
	*addr = sh.sh_addr;
	if (found)
		*found = scn;
	return 1;
}

/* An address of the note: 8 bytes, or 4 in an i386 file; both
 * little-endian, the host's byte order. */
static uint64_t word(const unsigned char *p, int w)
{
	uint64_t v = 0;

	memcpy(&v, p, (size_t)w);
	return v;
}

/* One note's description: 3 addresses, 3 strings. */
static struct sdt_marker *marker(Elf *elf, const unsigned char *desc, size_t n,
				 int have_base, uint64_t base)
{
	int w = gelf_getclass(elf) == ELFCLASS32 ? 4 : 8;
	struct sdt_marker *m;
	const char *s[3], *p = (const char *)desc + 3 * w, *end = (const char *)desc + n;

	if (n < (size_t)(3 * w + 3))
		return NULL;
	for (int i = 0; i < 3; i++) {
		const char *z = memchr(p, '\0', (size_t)(end - p));

		if (!z)
			return NULL;
		s[i] = p;
		p = z + 1;
	}
	m = ar_alloc(sizeof(*m));
	m->pc = word(desc, w);
	m->sem = word(desc + 2 * w, w);
	m->addr32 = w == 4;
	if (have_base && word(desc + w, w)) {
		m->pc += base - word(desc + w, w);
		if (m->sem)
			m->sem += base - word(desc + w, w);
	}
	m->provider = intern(s[0], strlen(s[0]));
	m->name = intern(s[1], strlen(s[1]));
	m->argstr = ar_strdup(s[2]);
	arguments(elf, m);
	return m;
}

int sdt_markers(Elf *elf, struct vec *out, const char **why)
{
	Elf_Scn *scn = NULL;
	Elf_Data *d;
	uint64_t base = 0, notes;
	int have_base = section_addr(elf, ".stapsdt.base", &base, NULL);
	size_t off = 0, next, name_off, desc_off;
	GElf_Nhdr nh;

	if (!section_addr(elf, ".note.stapsdt", &notes, &scn))
		return 1;
	if (!(d = elf_getdata(scn, NULL))) {
		*why = ar_printf("its .note.stapsdt cannot be read: %s", elf_errmsg(-1));
		return 0;
	}
	while ((next = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
		const char *owner = (const char *)d->d_buf + name_off;
		struct sdt_marker *m;

		off = next;
		if (nh.n_type != NT_STAPSDT || nh.n_namesz != 8 || memcmp(owner, "stapsdt", 8))
			continue;
		m = marker(elf, (const unsigned char *)d->d_buf + desc_off, nh.n_descsz,
			   have_base, base);
		if (m)
			vec_push(out, m);
	}
	return 1;
}

int sdt_matches(const struct sdt_marker *m, const char *provider, const char *name)
{
	return (!provider || !fnmatch(provider, m->provider, 0)) && !fnmatch(name, m->name, 0);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

const char *sdt_names(const struct vec *markers)
{
	struct vec names = { 0 };
	struct sbuf sb = { 0 };
	const char *r;

	for (int i = 0; i < markers->len; i++) {
		const struct sdt_marker *m = markers->v[i];

		vec_push(&names, (void *)ar_printf("%s:%s", m->provider, m->name));
	}
	if (names.len)	/* (qsort of NULL, even of nothing, is undefined) */
		qsort(names.v, (size_t)names.len, sizeof(void *), cmp_str);
	for (int i = 0; i < names.len; i++)
		if (!i || strcmp(names.v[i], names.v[i - 1]))
			sb_printf(&sb, "%s%s", sb.s ? ", " : "", (const char *)names.v[i]);
	r = sb.s ? ar_strdup(sb.s) : "none";
	free(sb.s);
	free(names.v);
	return r;
}

int sdt_file_offset(Elf *elf, uint64_t a, uint64_t *off)
{
	size_t n;

	if (elf_getphdrnum(elf, &n))
		return 0;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (a >= ph.p_vaddr && a < ph.p_vaddr + ph.p_filesz) {
			*off = a - ph.p_vaddr + ph.p_offset;
			return 1;
		}
	}
	return 0;
}

void sdt_no_match(const struct probe_comp *provider, const struct probe_comp *mark,
		  const char *of, Elf *elf)
{
	const char *pat = provider ? ar_printf("%s:%s", provider->arg->str, mark->arg->str)
				   : mark->arg->str;
	struct vec all = { 0 };
	const char *why;

	if (!elf) {
		sem_error(&mark->arg->loc, "no marker of %s matches '%s'", of, pat);
		return;
	}
	if (!sdt_markers(elf, &all, &why))
		all.len = 0;
	sem_error(&mark->arg->loc, "no marker of %s matches '%s' (it has: %s)", of, pat,
		  sdt_names(&all));
	free(all.v);
}

/* -c CMD's program: its first word past "exec" and VAR=value. */
static const char *command_program(const char *cmd)
{
	for (const char *p = cmd; *p;) {
		size_t n;
		const char *w;

		p += strspn(p, " \t");
		n = strcspn(p, " \t;|&<>");
		w = ar_strndup(p, n);
		p += n;
		if (!n)
			return NULL;
		if (strcmp(w, "exec") && !strchr(w, '='))
			return w;
	}
	return NULL;
}

int sdt_target_program(const struct session *s, struct probe_comp *proc)
{
	const char *prog = NULL;
	char buf[PATH_MAX];
	ssize_t n;
	struct node *arg;

	if (s->command) {
		prog = command_program(s->command);
	} else if (s->target_pid) {
		n = readlink(ar_printf("/proc/%ld/exe", s->target_pid), buf, sizeof(buf) - 1);
		if (n > 0)
			prog = ar_strndup(buf, (size_t)n);
	}
	if (!prog)
		return 0;
	arg = node_new(N_STR, &proc->loc);
	arg->str = prog;
	proc->arg = arg;
	return 1;
}
