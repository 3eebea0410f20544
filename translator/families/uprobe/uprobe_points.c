// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * User-space probe points (SystemTap's names):
 *
 *   process("PATH").function("PATTERN")[.call|.return|.inline]
 *   process("PATH").statement("FUNC@FILE:LINE") or .statement(ADDRESS)
 *   process("PATH").library("LIB").function(...) or .statement(...)
 *   process.begin, process.end, process("PATH").begin, .end
 *   process("PATH").mark("NAME"), .provider("P").mark("NAME")  (sdt_points.c)
 *
 * PATH is found as a shell finds a command: as given when it holds a
 * '/' (a relative one from here), else in $PATH.  A path names a file of
 * the target, looked for under --sysroot first, then on this machine; a
 * path with glob characters names every x86-64 or i386 ELF file it
 * matches, as a shell would expand it (under --sysroot when anything matches
 * there).  LIB is a path, or a glob over the program's DT_NEEDED names,
 * found in its DT_RPATH/DT_RUNPATH and the usual library directories;
 * its probes fire only in processes of PATH.
 *
 * Functions and lines come from the file's DWARF (its own, else a
 * separate file found by build-id or .gnu_debuglink, or given with -d:
 * dwarf_find.c) through dw_points(), which places a function's probe
 * after its prologue; a function pattern also matches the ELF symbols
 * of functions DWARF names otherwise (glibc's malloc).  Without DWARF,
 * .function("NAME") and .return come from the symbol table
 * (uprobe_syms.c), with registers, *_arg(N) and $return but no $vars.
 * Each address becomes what uprobes want, an offset in the file,
 * through the PT_LOAD segment that maps it.  The runtime's half is
 * runtime/uprobes.c.
 */
#include "../../dwarf/dw.h"
#include "../../symbols/elfsec.h"
#include "../../elab/elab.h"
#include "uprobe_family.h"
#include "../process/process_family.h"
#include "sdt.h"
#include "plt.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <gelf.h>
#include <glob.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What a process(...) point names, component by component. */
struct uspec {
	struct probe_comp *proc;	/* process("PATH") or process */
	struct probe_comp *lib;		/* library("LIB"), or NULL */
	struct probe_comp *what;	/* function, statement, begin, end */
	int flags;			/* DWP_* */
	int ret;			/* .return */
	struct probe_comp *provider;	/* .provider("P") before .mark, or NULL */
	int mark;			/* .mark("NAME"): what is the marker */
	int plt;			/* .plt[("NAME")]: what is the plt */
};

/* A program or library: where it is, its ELF and its DWARF. */
struct ufile {
	const char *target;		/* its path on the target */
	const char *host;		/* where this machine reads it */
	int fd;
	Elf *elf;
	struct dwarf_file *dwf;		/* NULL until needed */
	int no_dwarf;			/* looked for, none found */
	const char *remedy;		/* then what to install, once asked */
	int dwarf_broken;		/* found, but not read: reported */
	int is32;			/* i386 (ELFCLASS32), run as a compat task */
};

static int is(const struct probe_comp *c, const char *name)
{
	return c->name && !strcmp(c->name, name);
}

static int str_arg(const struct probe_comp *c)
{
	return c->arg && c->arg->kind == N_STR;
}

/* ---- the probe point ---- */

/* SystemTap's process probes stp does not have. */
static const char *const unsupported[] = {
	"mark", "provider", "insn", "label",
	"callee", "callees", "exported", "nearest", "absolute",
};

static int refuse_unsupported(const struct probe_comp *c)
{
	for (size_t i = 0; i < sizeof(unsupported) / sizeof(unsupported[0]); i++) {
		if (is(c, unsupported[i])) {
			sem_error(&c->loc, "'.%s' probes of processes are not supported", c->name);
			return 1;
		}
	}
	return 0;
}

/* The suffixes after .function(...): one of .call, .return, .inline. */
static int fn_suffix(struct probe_point *pp, int k, struct uspec *u)
{
	struct probe_comp *c;

	if (k >= pp->ncomps)
		return 1;
	c = &pp->comps[k];
	if (k + 1 < pp->ncomps || c->arg) {
		if (refuse_unsupported(c))
			return 0;
		return -1;
	}
	if (is(c, "return")) {
		u->ret = 1;
		u->flags = DWP_NO_INLINE | DWP_AT_ENTRY;
	} else if (is(c, "call")) {
		u->flags = DWP_NO_INLINE;
	} else if (is(c, "inline")) {
		u->flags = DWP_NO_CALL;
	} else {
		return refuse_unsupported(c) ? 0 : -1;
	}
	return 1;
}

/* .mark("NAME") or .provider("P").mark("NAME") from comps[i] on; of
 * process, the program -c or -x runs. */
static int mark_spec(const struct session *s, struct probe_point *pp, int i, struct uspec *u)
{
	struct probe_comp *c = pp->comps;

	if (is(&c[i], "provider")) {
		if (!str_arg(&c[i]) || i + 1 >= pp->ncomps)
			return -1;
		u->provider = &c[i++];
	}
	if (!is(&c[i], "mark") || !str_arg(&c[i]) || i + 1 != pp->ncomps)
		return -1;
	u->what = &c[i];
	u->mark = 1;
	if (!c[0].arg && !sdt_target_program(s, &c[0])) {
		sem_error(&c[0].loc, "process.mark needs the program: process(\"PATH\").mark(...), "
			  "or -c CMD or -x PID");
		return 0;
	}
	return 1;
}

/* process[("PATH")][.library("LIB")].plt[("NAME")][.return]; of
 * process, the program -c or -x runs. */
static int plt_spec(const struct session *s, struct probe_point *pp, struct uspec *u)
{
	struct probe_comp *c = pp->comps;
	int i = 1;

	if (i < pp->ncomps && is(&c[i], "library") && str_arg(&c[i]))
		u->lib = &c[i++];
	if (i >= pp->ncomps || !is(&c[i], "plt") || (c[i].arg && !str_arg(&c[i])))
		return -1;
	u->what = &c[i];
	u->plt = 1;
	if (i + 1 < pp->ncomps) {
		if (i + 2 != pp->ncomps || !is(&c[i + 1], "return") || c[i + 1].arg)
			return -1;
		u->ret = 1;
	}
	if (!c[0].arg && !sdt_target_program(s, &c[0])) {
		sem_error(&c[0].loc, "process.plt needs the program: process(\"PATH\").plt, "
			  "or -c CMD or -x PID");
		return 0;
	}
	return 1;
}

/* -1: pp is no process point; 0: an error was reported; 1: u is set. */
static int uspec(const struct session *s, struct probe_point *pp, struct uspec *u)
{
	struct probe_comp *c = pp->comps;
	int i = 1;

	memset(u, 0, sizeof(*u));
	if (!is(&c[0], "process"))
		return -1;
	u->proc = &c[0];
	if (c[0].arg && c[0].arg->kind != N_STR) {
		sem_error(&c[0].arg->loc, "process(PID).%s needs the program when the script is "
			  "translated, and a process id names it only when it runs: name the "
			  "program, process(\"PATH\").%s, and run with -x PID",
			  pp->ncomps > 1 && pp->comps[1].name ? pp->comps[1].name : "function",
			  pp->ncomps > 1 && pp->comps[1].name ? pp->comps[1].name : "function");
		return 0;
	}
	if ((i = plt_spec(s, pp, u)) >= 0)
		return i;
	memset(u, 0, sizeof(*u));
	u->proc = &c[0];
	i = 1;
	if (i < pp->ncomps && is(&c[i], "library")) {
		if (!c[0].arg || !str_arg(&c[i]))
			return -1;
		u->lib = &c[i++];
	}
	if (i >= pp->ncomps)
		return -1;
	u->what = &c[i];
	if (is(u->what, "begin") || is(u->what, "end"))
		return !u->lib && !u->what->arg && pp->ncomps == i + 1 ? 1 : -1;
	if (is(u->what, "mark") || is(u->what, "provider"))
		return mark_spec(s, pp, i, u);
	if (!c[0].arg && (is(u->what, "function") || is(u->what, "statement"))) {
		sem_error(&u->what->loc, "process.%s needs the program: "
			  "process(\"PATH\").%s(...)", u->what->name, u->what->name);
		return 0;
	}
	if (!c[0].arg)
		return refuse_unsupported(u->what) ? 0 : -1;
	if (is(u->what, "function") && str_arg(u->what))
		return fn_suffix(pp, i + 1, u);
	if (is(u->what, "statement") && u->what->arg && pp->ncomps == i + 1) {
		u->flags = DWP_STATEMENT;
		return 1;
	}
	if (i + 1 < pp->ncomps && is(u->what, "statement") && refuse_unsupported(&c[i + 1]))
		return 0;
	return refuse_unsupported(u->what) ? 0 : -1;
}

/* x86-64's DWARF number of %rsp: the CFA register at a function's entry. */
enum { DW_REG_RSP = 7 };

struct ctx {
	struct elab *e;
	struct probe_point *pp;
	struct uspec *u;
	struct ufile *prog;	/* process("PATH") */
	struct vec *out;
};

/* Something the point names is not there: an error, unless "?". */
static void miss(struct ctx *x, const struct loc *loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void miss(struct ctx *x, const struct loc *loc, const char *fmt, ...)
{
	va_list ap;

	if (x->pp->optional)
		return;
	va_start(ap, fmt);
	diag_vat(loc, "semantic error", fmt, ap);
	va_end(ap);
}

/* ---- finding files ---- */

/* A program named as a shell would run it; 0 when there is none. */
static int find_program(const struct session *s, const char *name, const char **target,
			const char **host)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];

	if (strchr(name, '/')) {
		if (name[0] != '/') {
			if (!realpath(name, buf) || !regular_file(buf))
				return 0;
			*target = *host = ar_strdup(buf);
			return 1;
		}
		*target = name;
		*host = target_path(s, name);
		return *host != NULL;
	}
	while (path && *path) {
		const char *colon = strchr(path, ':');
		size_t n = colon ? (size_t)(colon - path) : strlen(path);
		const char *t = ar_printf("%.*s/%s", (int)n, n ? path : ".", name);

		path += n + (colon != NULL);
		if (t[0] == '/' && (*host = target_path(s, t)) && !access(*host, X_OK)) {
			*target = t;
			return 1;
		}
	}
	return 0;
}

static int has_section(Elf *elf, const char *name)
{
	GElf_Shdr sh;

	return elf_section(elf, name, &sh) && sh.sh_type != SHT_NOBITS;
}

/* The ELF of a found file, if stp can probe it: x86-64, or i386 (a
 * 32-bit program runs as a compat task, uprobes see the same inode and
 * offsets); else NULL, and *why says what it is. */
static struct ufile *open_file(const char *target, const char *host, const char **why)
{
	struct ufile *f = ar_alloc(sizeof(*f));
	GElf_Ehdr eh;

	f->target = target;
	f->host = host;
	f->fd = open(host, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0) {
		*why = ar_printf("cannot read '%s': %s", host, strerror(errno));
		return NULL;
	}
	elf_version(EV_CURRENT);
	f->elf = elf_begin(f->fd, ELF_C_READ_MMAP, NULL);
	if (!f->elf || elf_kind(f->elf) != ELF_K_ELF || !gelf_getehdr(f->elf, &eh)) {
		*why = ar_printf("'%s' is not an ELF program or library", target);
		return NULL;
	}
	f->is32 = eh.e_ident[EI_CLASS] == ELFCLASS32;
	if (f->is32 ? eh.e_machine != EM_386 : eh.e_machine != EM_X86_64) {
		*why = ar_printf("'%s' is neither an x86-64 nor an i386 program or library",
				 target);
		return NULL;
	}
	return f;
}

/* The file's DWARF, looked for once; NULL without (f->no_dwarf), or
 * with an error at where when it cannot be read (f->dwarf_broken). */
static struct dwarf_file *find_dwarf(struct ctx *x, struct ufile *f, const struct loc *where)
{
	const struct session *s = x->e->s;
	struct sbuf tried = { 0 };
	const char *dbg, *why = NULL;

	if (f->dwf || f->no_dwarf || f->dwarf_broken)
		return f->dwf;
	if (f->is32) {
		/* its DWARF numbers i386's registers, which dw_* do not */
		f->no_dwarf = 1;
		f->remedy = "stp does not read the DWARF of i386 programs and libraries "
			    "(their functions come from the symbol table)";
		return NULL;
	}
	sb_printf(&tried, "%s", f->host);
	dbg = has_section(f->elf, ".debug_info") ? f->host :
	      dw_find_user(s, f->elf, f->target, f->host, &tried);
	if (!dbg) {
		f->no_dwarf = 1;
		if (s->verbose)
			fprintf(stderr, "note: %s: no debuginfo, looked in %s\n", f->target, tried.s);
		free(tried.s);
		return NULL;
	}
	free(tried.s);
	f->dwf = dw_open(dbg, f->target, 1, &why);
	if (!f->dwf) {
		f->dwarf_broken = 1;
		sem_error(where, "process(\"%s\"): %s", f->target, why);
		return NULL;
	}
	if (s->verbose)
		fprintf(stderr, "note: %s: debuginfo %s\n", f->target, dbg);
	return f->dwf;
}

/* What to install for f's DWARF: asked only for an error (dpkg -S
 * takes a while). */
static const char *remedy(struct ufile *f)
{
	if (!f->remedy)
		f->remedy = dw_user_remedy(f->elf, f->target, f->host);
	return f->remedy;
}

/* The file's DWARF; NULL with an error at where. */
static struct dwarf_file *need_dwarf(struct ctx *x, struct ufile *f, const struct loc *where)
{
	if (find_dwarf(x, f, where) || f->dwarf_broken)
		return f->dwf;
	if (!x->pp->optional)
		miss(x, where, "process(\"%s\") has no debuginfo: %s", f->target, remedy(f));
	return NULL;
}

/* Each file is opened once, however many points name it; by_target
 * finds it again for a probe's $var. */
static struct pmap opened, by_target;

static struct ufile *known(const char *host)
{
	return pmap_get(&opened, intern(host, strlen(host)));
}

static struct ufile *remember(struct elab *e, struct ufile *f)
{
	pmap_put(&opened, intern(f->host, strlen(f->host)), f);
	pmap_put(&by_target, intern(f->target, strlen(f->target)), f);
	/* what the module is built from: part of its cache key */
	vec_push(&e->s->user_files, (void *)f->host);
	return f;
}

static struct ufile *file_at(struct elab *e, const char *target, const char *host,
			     const struct loc *where)
{
	struct ufile *f = known(host);
	const char *why;

	if (f)
		return f;
	f = open_file(target, host, &why);
	if (!f) {
		sem_error(where, "%s", why);
		return NULL;
	}
	return remember(e, f);
}

static const char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash != path ? ar_strndup(path, (size_t)(slash - path)) : "/";
}

/* The program's DT_NEEDED names and its library path (DT_RPATH, then
 * DT_RUNPATH, then the usual directories: an i386 program's are
 * Debian's /lib32 and i386-linux-gnu ones). */
static void dynamic(struct ufile *f, struct vec *needed, struct vec *dirs)
{
	static const char *const usual64[] = {
		"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64",
		"/usr/lib64", "/lib", "/usr/lib", "/usr/local/lib", NULL,
	};
	static const char *const usual32[] = {
		"/lib/i386-linux-gnu", "/usr/lib/i386-linux-gnu", "/lib32",
		"/usr/lib32", "/lib", "/usr/lib", "/usr/local/lib", NULL,
	};
	const char *const *usual = f->is32 ? usual32 : usual64;
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(f->elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC ||
		    !(data = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; i < sh.sh_size / (sh.sh_entsize ? sh.sh_entsize : 1); i++) {
			GElf_Dyn d;
			const char *v;

			if (!gelf_getdyn(data, (int)i, &d))
				break;
			v = elf_strptr(f->elf, sh.sh_link, d.d_un.d_val);
			if (!v)
				continue;
			if (d.d_tag == DT_NEEDED) {
				vec_push(needed, (void *)ar_strdup(v));
			} else if (d.d_tag == DT_RPATH || d.d_tag == DT_RUNPATH) {
				for (const char *p = v; *p;) {
					size_t n = strcspn(p, ":");
					const char *dir = ar_strndup(p, n);

					if (!strncmp(dir, "$ORIGIN", 7))
						dir = ar_printf("%s%s", dir_of(f->target), dir + 7);
					vec_push(dirs, (void *)dir);
					p += n + (p[n] == ':');
				}
			}
		}
	}
	for (size_t i = 0; usual[i]; i++)
		vec_push(dirs, (void *)usual[i]);
}

/* The libraries of prog that lib names, into out (struct ufile *). */
static int find_libraries(struct ctx *x, const struct probe_comp *c, struct vec *out)
{
	struct elab *e = x->e;
	struct ufile *prog = x->prog;
	const char *lib = c->arg->str, *host;
	struct vec needed = { 0 }, dirs = { 0 };
	struct sbuf names = { 0 };
	const char *lost = NULL;	/* a match the library path lacks */
	struct ufile *f;

	if (strchr(lib, '/')) {
		const char *target;

		if (!find_program(e->s, lib, &target, &host)) {
			miss(x, &c->arg->loc, "no library '%s': no such file", lib);
			return 0;
		}
		f = file_at(e, target, host, &c->arg->loc);
		if (f)
			vec_push(out, f);
		return f != NULL;
	}
	dynamic(prog, &needed, &dirs);
	for (int i = 0; i < needed.len; i++) {
		const char *n = needed.v[i];
		int k;

		sb_printf(&names, "%s%s", i ? ", " : "", n);
		if (fnmatch(lib, n, 0))
			continue;
		for (k = 0; k < dirs.len; k++) {
			const char *t = ar_printf("%s/%s", (const char *)dirs.v[k], n);

			if ((host = target_path(e->s, t))) {
				if ((f = file_at(e, t, host, &c->arg->loc)))
					vec_push(out, f);
				break;
			}
		}
		if (k == dirs.len && !lost)
			lost = n;
	}
	if (!out->len && lost)
		miss(x, &c->arg->loc, "library '%s' of %s is not in its library path "
		     "(DT_RPATH, DT_RUNPATH, /lib, /usr/lib, ...)", lost, prog->target);
	else if (!out->len)
		miss(x, &c->arg->loc, "no library of %s matches '%s' (it needs: %s)",
		     prog->target, lib, names.s ? names.s : "none");
	free(names.s);
	free(needed.v);
	free(dirs.v);
	return out->len > 0;
}

/* ---- addresses ---- */

/* The file offset of link-time address pc, in an executable PT_LOAD. */
static int file_offset(Elf *elf, uint64_t pc, uint64_t *off)
{
	size_t n;

	if (elf_getphdrnum(elf, &n))
		return 0;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD ||
		    !(ph.p_flags & PF_X))
			continue;
		if (pc >= ph.p_vaddr && pc < ph.p_vaddr + ph.p_filesz) {
			*off = pc - ph.p_vaddr + ph.p_offset;
			return 1;
		}
	}
	return 0;
}

/* The function whose code holds pc, or NULL. */
static const struct dw_entry *function_at(struct dwarf_file *f, uint64_t pc)
{
	return dw_function_at(f, pc);
}

/* ---- derived probes ---- */

static struct probe_point *copy_point(const struct probe_point *pp)
{
	struct probe_point *p = ar_alloc(sizeof(*p));

	*p = *pp;
	p->comps = ar_alloc((size_t)pp->ncomps * sizeof(*p->comps));
	memcpy(p->comps, pp->comps, (size_t)pp->ncomps * sizeof(*p->comps));
	return p;
}

static void set_str(struct probe_comp *c, const char *s)
{
	struct node *n = node_new(N_STR, &c->arg->loc);

	n->str = s;
	c->arg = n;
}


/* A template for probes.c: the point, its family, the uprobe fields. */
static struct derived_probe *templ(struct ctx *x, struct ufile *f, const char *fn,
				   const char *arg)
{
	struct derived_probe *t = ar_alloc(sizeof(*t));
	int at = (int)(x->u->what - x->pp->comps);

	t->pp = copy_point(x->pp);
	set_str(&t->pp->comps[0], x->prog->target);
	if (x->u->lib)
		set_str(&t->pp->comps[1], f->target);
	if (arg)
		set_str(&t->pp->comps[at], arg);
	t->family = PF_UPROBE;
	t->dwf = f->dwf;
	t->path = f->target;
	t->module = f->target;
	t->exe = x->u->lib ? x->prog->target : NULL;
	t->symbol = fn;
	t->is_return = x->u->ret;
	vec_push(x->out, t);
	return t;
}

/*
 * Where a return probe's @entry is evaluated: past the prologue, as a
 * .function probe would be (unoptimized code keeps its parameters in
 * the frame, set up there), with the CFA there to find the call by at
 * its return; else at the entry, as the return probe is.
 */
static void entry_site(struct ufile *f, const struct dw_point *pt, struct derived_probe *t)
{
	uint64_t pc = dw_prologue_end(f->dwf, pt->fn), off;

	if (!file_offset(f->elf, pc, &off) ||
	    !dw_cfa_rule(f->dwf, pc, pt->fn->lowpc, &t->entry_cfa_reg, &t->entry_cfa_off) ||
	    !dw_regname(t->entry_cfa_reg)) {
		pc = pt->fn->lowpc;
		off = t->file_offset;
		dw_cfa_rule(f->dwf, pc, pc, &t->entry_cfa_reg, &t->entry_cfa_off);
	}
	t->entry_pc = pc;
	t->entry_offset = off;
}

/* .statement(ADDRESS) */
static int address_point(struct ctx *x, struct ufile *f)
{
	uint64_t pc = (uint64_t)x->u->what->arg->num, off;
	const struct dw_entry *fn = function_at(f->dwf, pc);
	struct derived_probe *t;

	if (!file_offset(f->elf, pc, &off)) {
		sem_error(&x->u->what->arg->loc, "address 0x%llx is not in the code of %s",
			  (unsigned long long)pc, f->target);
		return 0;
	}
	t = templ(x, f, fn ? fn->name : NULL, NULL);
	t->pc = pc;
	t->file_offset = off;
	t->die = fn ? fn->die : 0;
	t->entry_pc = fn ? fn->lowpc : pc;
	return 1;
}

/* A DWARF point the pattern names. */
static void dw_point_probe(struct ctx *x, struct ufile *f, const struct dw_point *pt)
{
	int statement = x->u->flags & DWP_STATEMENT;
	struct derived_probe *t;
	uint64_t off;

	if (!file_offset(f->elf, pt->pc, &off))
		return;		/* not in the file's code */
	t = templ(x, f, pt->fn->name, dw_point_text(pt, statement));
	dw_point_place(t, pt);
	t->file_offset = off;
	if (t->is_return)
		entry_site(f, pt, t);
}

/* Whether the symbol table can serve pattern p: a function by name,
 * out of line. */
static int by_symbol(const struct ctx *x, const struct dw_pattern *p)
{
	return !p->file && !(x->u->flags & (DWP_STATEMENT | DWP_NO_CALL));
}

/*
 * Functions the DWARF names otherwise than the symbol the pattern
 * matches (glibc's malloc is __libc_malloc there): the DWARF function
 * that starts at the symbol, once each, into pts; 1 when any was added.
 */
static int alias_points(struct ctx *x, struct ufile *f, const struct dw_pattern *p,
			struct vec *pts)
{
	struct vec syms = { 0 };
	struct pmap seen = { 0 };	/* DIE + 1 -> its point */
	int before = pts->len;

	for (int i = 0; i < pts->len; i++)
		pmap_put(&seen, (void *)(uintptr_t)(((struct dw_point *)pts->v[i])->die + 1),
			 pts->v[i]);
	up_symbols(f->elf, p->name, &syms);
	for (int i = 0; i < syms.len; i++) {
		const struct up_sym *u = syms.v[i];
		const struct dw_entry *e = function_at(f->dwf, u->addr);
		struct dw_point *pt;

		if (!e || e->lowpc != u->addr || pmap_get(&seen, (void *)(uintptr_t)(e->die + 1)))
			continue;
		pt = ar_alloc(sizeof(*pt));
		pt->fn = e;
		pt->die = e->die;
		pt->entry_pc = e->lowpc;
		pt->pc = x->u->ret ? e->lowpc : dw_prologue_end(f->dwf, e);
		pt->line = e->line;
		pmap_put(&seen, (void *)(uintptr_t)(e->die + 1), pt);
		vec_push(pts, pt);
	}
	free(syms.v);
	free(seen.keys);
	free(seen.vals);
	return pts->len > before;
}

/* Without DWARF: the functions of the symbol table, each probed at its
 * first instruction (nothing says where its prologue ends), where the
 * arguments are in their registers (i386: on the stack) and the CFA is
 * past the return address: %rsp + 8, or %esp + 4 in an i386 file. */
static void symbol_points(struct ctx *x, struct ufile *f, const struct dw_pattern *p)
{
	struct vec syms = { 0 };

	up_symbols(f->elf, p->name, &syms);
	up_unique(&syms);
	for (int i = 0; i < syms.len; i++) {
		const struct up_sym *u = syms.v[i];
		struct derived_probe *t;
		uint64_t off;

		if (!file_offset(f->elf, u->addr, &off))
			continue;
		t = templ(x, f, u->name, u->name);
		t->pc = t->entry_pc = u->addr;
		t->file_offset = t->entry_offset = off;
		t->entry_cfa_reg = DW_REG_RSP;
		t->entry_cfa_off = f->is32 ? 4 : 8;
	}
	free(syms.v);
}

/* The pattern's own mistakes, whatever the file. */
static int check_pattern(struct ctx *x, struct dw_pattern *p)
{
	struct probe_comp *w = x->u->what;

	if (w->arg->kind != N_STR)
		return 1;
	if (!dw_parse_pattern(w->arg->str, p)) {
		sem_error(&w->arg->loc, "'%s' is no function pattern: "
			  "NAME[@FILE[:LINE|:N-M|:*|+N]]", w->arg->str);
		return 0;
	}
	if ((x->u->flags & DWP_STATEMENT) && p->line_lo < 0 && !p->all_lines) {
		sem_error(&w->arg->loc, "'.statement' needs a line: \"%s@FILE:LINE\"", p->name);
		return 0;
	}
	return 1;
}

/* The markers of f the point names: a uprobe on each one's nop, its
 * semaphore (a file offset: the kernel finds it in each process)
 * counted while the probe is armed. */
static int mark_points(struct ctx *x, struct ufile *f)
{
	const char *prov = x->u->provider ? x->u->provider->arg->str : NULL, *why;
	int at = (int)(x->u->what - x->pp->comps);
	struct vec all = { 0 };

	if (!sdt_markers(f->elf, &all, &why)) {
		sem_error(&x->u->proc->arg->loc, "%s: %s", f->target, why);
		return 0;
	}
	for (int i = 0; i < all.len; i++) {
		const struct sdt_marker *m = all.v[i];
		struct derived_probe *t;
		uint64_t off, sem = 0;

		if (!sdt_matches(m, prov, x->u->what->arg->str) ||
		    !file_offset(f->elf, m->pc, &off))
			continue;
		/* the kernel counts a semaphore in the file's mapping */
		if (m->sem && !sdt_file_offset(f->elf, m->sem, &sem)) {
			sem_error(&x->u->what->arg->loc, "marker '%s:%s' of %s has its semaphore "
				  "at 0x%llx, outside the file's data", m->provider, m->name,
				  f->target, (unsigned long long)m->sem);
			free(all.v);
			return 0;
		}
		t = templ(x, f, NULL, m->name);
		if (prov)
			set_str(&t->pp->comps[at - 1], m->provider);
		t->dwf = NULL;		/* a marker's variables are its operands */
		t->pc = m->pc;
		t->file_offset = off;
		t->sdt = m;
		t->sem_offset = sem;
	}
	free(all.v);
	return 1;
}

/* .plt, .plt("NAME"): a uprobe on each PLT stub of f whose function
 * the glob names; its marker, named so, gives $$name. */
static int plt_points(struct ctx *x, struct ufile *f)
{
	struct probe_comp *w = x->u->what;
	int at = (int)(w - x->pp->comps);
	struct vec stubs = { 0 };

	if (f->is32) {	/* plt.c reads x86-64's .rela.plt and 16-byte entries */
		sem_error(&w->loc, "'.plt' probes of i386 programs and libraries (%s) are "
			  "not supported", f->target);
		return 0;
	}
	plt_stubs(f->elf, w->arg ? w->arg->str : "*", &stubs);
	for (int i = 0; i < stubs.len; i++) {
		const struct plt_stub *p = stubs.v[i];
		struct sdt_marker *m;
		struct derived_probe *t;
		struct node *arg;
		uint64_t off;

		if (!file_offset(f->elf, p->addr, &off))
			continue;
		m = ar_alloc(sizeof(*m));
		m->provider = "plt";
		m->name = p->name;
		m->pc = p->addr;
		m->argstr = "";
		t = templ(x, f, p->name, NULL);
		arg = node_new(N_STR, &w->loc);
		arg->str = p->name;
		t->pp->comps[at].arg = arg;
		t->dwf = NULL;
		t->pc = p->addr;
		t->file_offset = off;
		t->sdt = m;
	}
	free(stubs.v);
	return 1;
}

/* The functions or lines of one file that the pattern names. */
static int file_points(struct ctx *x, struct ufile *f)
{
	struct probe_comp *w = x->u->what;
	const struct loc *where = &x->u->proc->arg->loc;
	struct dw_pattern p;
	struct vec pts = { 0 };

	if (x->u->mark)
		return mark_points(x, f);
	if (x->u->plt)
		return plt_points(x, f);
	if (!check_pattern(x, &p))
		return 0;
	if (w->arg->kind == N_STR && by_symbol(x, &p) && !find_dwarf(x, f, where)) {
		if (f->dwarf_broken)
			return 0;
		symbol_points(x, f, &p);
		return 1;
	}
	if (!need_dwarf(x, f, where))
		return 0;
	if (w->arg->kind == N_NUM)
		return address_point(x, f);
	dw_points(f->dwf, &p, x->u->flags, &pts);
	if (by_symbol(x, &p) && alias_points(x, f, &p, &pts))
		qsort(pts.v, (size_t)pts.len, sizeof(void *), dw_cmp_point);
	for (int i = 0; i < pts.len; i++)
		dw_point_probe(x, f, pts.v[i]);
	free(pts.v);
	return 1;
}

/* process.begin, process.end, process("PATH").begin, .end */
static int lifetime_point(struct ctx *x)
{
	struct derived_probe *t = ar_alloc(sizeof(*t));

	t->pp = copy_point(x->pp);
	t->family = PF_PROCESS;
	t->process_end = is(x->u->what, "end");
	if (x->prog) {
		set_str(&t->pp->comps[0], x->prog->target);
		t->path = t->module = x->prog->target;
	}
	vec_push(x->out, t);
	return 1;
}

static int has_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* The regular files glob pattern pat names under root, as a shell
 * expands it, each file once however many names it has, into targets
 * (the target's paths) and hosts (where they are read here). */
static void glob_under(const char *root, const char *pat, struct vec *targets,
		       struct vec *hosts)
{
	struct pmap seen = { 0 };	/* "dev:ino" -> the first name */
	size_t n = strlen(root);
	glob_t g;

	if (glob(ar_printf("%s%s", root, pat), 0, NULL, &g))
		return;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		const char *h = g.gl_pathv[i], *key;
		char real[PATH_MAX];
		struct stat st;

		if (stat(h, &st) || !S_ISREG(st.st_mode))
			continue;
		key = ar_printf("%llx:%llx", (unsigned long long)st.st_dev,
				(unsigned long long)st.st_ino);
		if (pmap_get(&seen, intern(key, strlen(key))))
			continue;
		pmap_put(&seen, intern(key, strlen(key)), (void *)h);
		if (pat[0] != '/' && realpath(h, real))
			h = real;
		vec_push(hosts, ar_strdup(h));
		vec_push(targets, ar_strdup(pat[0] == '/' ? h + n : h));
	}
	globfree(&g);
	free(seen.keys);
	free(seen.vals);
}

/* The x86-64 and i386 ELF files process("GLOB") names: under --sysroot,
 * else here.  Others (an ARM library) are left out; *skipped says why
 * one was. */
static void glob_programs(struct ctx *x, const char *pat, struct vec *out,
			  const char **skipped)
{
	const struct session *s = x->e->s;
	struct vec targets = { 0 }, hosts = { 0 };

	if (s->sysroot && pat[0] == '/')
		glob_under(s->sysroot, pat, &targets, &hosts);
	if (!targets.len)
		glob_under("", pat, &targets, &hosts);
	for (int i = 0; i < targets.len; i++) {
		const char *why;
		struct ufile *f = known(hosts.v[i]);

		if (!f && (f = open_file(targets.v[i], hosts.v[i], &why)))
			remember(x->e, f);
		if (f) {
			vec_push(out, f);
			continue;
		}
		*skipped = why;
		if (s->verbose)
			fprintf(stderr, "note: %s\n", why);
	}
	free(targets.v);
	free(hosts.v);
}

/* The programs process("PATH") names (struct ufile *); 0 when none. */
static int programs(struct ctx *x, struct vec *out)
{
	const struct probe_comp *c = x->u->proc;
	const char *target, *host, *skipped = NULL, *where;
	struct ufile *f;

	where = x->e->s->sysroot ? " (under --sysroot or here)" : "";
	if (strchr(c->arg->str, '/') && has_glob(c->arg->str)) {
		glob_programs(x, c->arg->str, out, &skipped);
		if (!out->len && skipped)
			miss(x, &c->arg->loc, "no x86-64 or i386 program or library matches "
			     "'%s': %s", c->arg->str, skipped);
		else if (!out->len)
			miss(x, &c->arg->loc, "no file matches '%s'%s", c->arg->str, where);
		return out->len > 0;
	}
	if (!find_program(x->e->s, c->arg->str, &target, &host)) {
		if (strchr(c->arg->str, '/'))
			miss(x, &c->arg->loc, "no program '%s': no such file%s", c->arg->str, where);
		else
			miss(x, &c->arg->loc, "no program '%s' in $PATH", c->arg->str);
		return 0;
	}
	f = file_at(x->e, target, host, &c->arg->loc);
	if (f)
		vec_push(out, f);
	return f != NULL;
}

/* No point matched: say what was searched, and without DWARF, what
 * would have more. */
static void no_match(struct ctx *x, struct ufile *only)
{
	const struct probe_comp *w = x->u->what;
	const char *what = x->u->flags & DWP_STATEMENT ? "line" : "function";
	const char *of = only ? only->target : x->u->proc->arg->str;
	const char *table;

	if (x->u->plt) {
		sem_error(&w->loc, "no PLT stub of %s calls %s", of,
			  w->arg ? ar_printf("a function matching '%s'", w->arg->str) : "a function");
		return;
	}
	if (w->arg->kind != N_STR)
		return;
	if (x->u->mark) {
		sdt_no_match(x->u->provider, w, of, only ? only->elf : NULL);
		return;
	}
	if (only && only->no_dwarf && (table = up_symtab_name(only->elf)))
		sem_error(&w->arg->loc, "no %s of %s matches '%s' in its symbol table (%s), "
			  "and it has no debuginfo: %s", what, of, w->arg->str, table,
			  remedy(only));
	else if (only && only->no_dwarf)
		sem_error(&w->arg->loc, "%s has neither debuginfo nor a symbol table: %s",
			  of, remedy(only));
	else
		sem_error(&w->arg->loc, "no %s of %s matches '%s'", what, of, w->arg->str);
}

/* The points of x->prog, or of its libraries; the file searched when
 * only one was, into *only. */
static int program_points(struct ctx *x, struct ufile **only)
{
	struct vec libs = { 0 };
	int ok = 1;

	if (x->u->what->arg == NULL && !x->u->plt)
		return lifetime_point(x);
	if (x->u->lib) {
		if (!find_libraries(x, x->u->lib, &libs))
			return 0;
	} else {
		vec_push(&libs, x->prog);
	}
	for (int i = 0; ok && i < libs.len; i++)
		ok = file_points(x, libs.v[i]);
	*only = libs.len == 1 ? libs.v[0] : NULL;
	free(libs.v);
	return ok;
}

static int match(struct ctx *x)
{
	struct vec progs = { 0 };
	struct ufile *only = NULL;
	int ok = 1, before = x->out->len;

	if (!x->u->proc->arg)
		return lifetime_point(x);
	if (!programs(x, &progs))
		return 0;
	for (int i = 0; ok && i < progs.len; i++) {
		x->prog = progs.v[i];
		ok = program_points(x, &only);
	}
	if (progs.len > 1)
		only = NULL;
	free(progs.v);
	if (ok && x->out->len == before && !x->pp->optional) {
		no_match(x, only);
		return 0;
	}
	return ok;
}

const char *uprobes_no_debuginfo(const struct derived_probe *d)
{
	struct ufile *f = d->path ? pmap_get(&by_target, intern(d->path, strlen(d->path))) : NULL;

	if (!f || !f->no_dwarf)
		return ar_printf("%s has none", d->path ? d->path : "the program");
	return ar_printf("%s has none: %s", f->target, remedy(f));
}

int uprobes_match(struct elab *e, struct probe_point *pp, struct vec *out)
{
	struct uspec u;
	struct ctx x = { e, pp, &u, NULL, out };
	int r = uspec(e->s, pp, &u), errors = diag_errors(), ok;

	if (r <= 0)
		return r;
	ok = match(&x);
	if (!ok && pp->optional && diag_errors() == errors)
		return 1;
	return ok;
}


/* ---- the family's row (family.h) ---- */

/* process.begin, process("PATH").end, ... are the process family's
 * (tried after this one in list.h's order): not this one's to refuse. */
static int family_match(struct elab *e, struct probe_point *pp, struct vec *out)
{
	return process_claims(pp) ? -1 : uprobes_match(e, pp, out);
}

static const char *const shapes[] = {
	"process.function", "process.statement", "process.mark", "process.provider.mark", NULL,
};
static const char *const types[] = {
	"process(string)[.library(string)].function(string)[.{call|inline|return}]",
	"process(string)[.library(string)].statement({number|string})",
	"process[(string)][.provider(string)].mark(string)",
	"process[(string)][.library(string)].plt[(string)][.return]",
	NULL,
};

const struct family_ops uprobe_family = {
	.name = "uprobe", .match = family_match, .shapes = shapes, .types = types,
	.kmod_entry = em_uprobe_entry, .kmod_tables = em_uprobe_tables,
	.kmod_fields = em_uprobe_fields,
	.bpf_section = bx_uprobe_section, .bpf_ctx = BX_CTX_REGS,
};
