/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Pass 2, elaboration: the parsed script and the tapset library become a
 * resolved program.  The steps, each in its own file, run in this order
 * (pass2.c):
 *
 *   library.c  parse the tapset files and index what each defines
 *              (libscan.c: only those the script can need)
 *   probes.c   expand probe aliases, match builtin probe points (ksyms.c
 *              for kernel symbols), giving derived probes
 *   resolve.c  bind every name to a local, global or function, pulling
 *              in the tapset files that define them
 *   infer.c    give every expression, variable and function a type
 *   deadstore.c  drop a tapset's assignments to locals nothing reads
 *   prune.c    drop what nothing uses; warn about it
 *   frozen.c   mark the numeric globals no event-time code writes: the
 *              program is final only after prune.c (its functions and
 *              probes), and hoist.c reads the marks
 *   hoist.c    split an event probe's handler into what runs before its
 *              context (filters) and the rest; last, so that it sees the
 *              statements every other step left, and its result is only
 *              data the backends read (the handler itself is unchanged)
 *   listing.c  stp -p2's listing
 *
 * and what they use (the rest of translator/elab/):
 *
 *   tapset.c   the tapset search path (roots, ARCH/, linux/)
 *   clone.c    deep copies of alias and handler bodies
 *   genfn.c    the embedded-C functions made for target values
 *   walk.c     a parents-first walk of a tree, for both backends (walk.h)
 *   dump_names.c   --dump-functions, --dump-probe-aliases
 *   probe_types.c  --dump-probe-types
 */
#ifndef STP_ELAB_H
#define STP_ELAB_H

#include "../front/session.h"
#include "../symbols/symbols.h"

#include <string.h>

enum sym_kind {
	SYM_GLOBAL,
	SYM_LOCAL,
	SYM_PARAM,
};

struct lib_file {
	struct script *script;
	int is_user;		/* the user's script */
	int included;		/* part of the program */
};

struct symbol {
	const char *name;
	enum sym_kind kind;
	enum type type;		/* value type; T_STATS for statistics */
	int arity;		/* -1 not known yet, 0 scalar, N keys */
	enum type keys[9];
	struct loc type_loc;	/* where the type was decided */
	struct loc loc;		/* declaration, or first use */
	struct node *decl;	/* N_GLOBAL, or NULL */
	struct lib_file *file;
	int reads, writes;
	int rmw_reads;		/* of reads: x++, x += y (read to write) */
	struct node *cast;	/* a local last assigned @cast(p, T[, M]): its
				 * type, for x->member (autocast) */
	int used;
	int frozen;		/* frozen.c: a numeric scalar global only
				 * begin, end and error probes (and -G) write:
				 * constant while event probes run */
	int quiet;		/* no unused warnings (foreach keys) */
	const struct node *hist;	/* first @hist_log/@hist_linear of it */
};

/* A global the script writes and never reads but to update it (x++,
 * x += y), shown at the end, as SystemTap 4.8 does: both runtimes ask. */
static inline int sym_displayed_at_end(const struct symbol *s)
{
	return s->used && s->writes && s->reads == s->rmw_reads && s->file &&
	       s->file->is_user;
}


struct function {
	const char *name;
	struct node *decl;	/* N_FUNCTION */
	struct lib_file *file;
	struct symbol **params;
	struct vec locals;	/* struct symbol * */
	enum type ret;
	struct loc ret_loc;
	struct function *next;	/* next overload of the same arity */
	struct vec writes;	/* globals it writes (struct symbol *) */
	struct vec calls;	/* functions it calls */
	int resolved, used;
};

/* enum probe_family: PF_BEGIN ... (../families/list.h) */
#include "../families/family.h"

struct dwarf_file;
struct tracepoint_info;
struct sdt_marker;

/*
 * hoist.c: a probe's handler split in two.  The prefix runs in the
 * callback the backend generates, before the hit takes its context:
 * context-free statements only (numbers, the callback's arguments,
 * frozen globals, pure or early embedded C that cannot fail); its next
 * ends the hit there.  When it falls through, the handler runs with
 * the prefix's locals copied in, then rest.  d->body stays whole: a
 * backend that does not split a family runs it as before.
 */
struct hoist {
	struct vec prefix;	/* struct node *: statements, in order; a
				 * trailing "if (c) s" and a probe point's
				 * condition show as "if (!(c)) next" */
	struct node *rest;	/* N_BLOCK: the statements sunk past the
				 * prefix, then the rest of the body */
	struct vec vars;	/* struct symbol *: the numeric locals the
				 * prefix reads or writes, handed to the
				 * handler */
	struct vec calls;	/* struct function *: embedded C it calls */
};

struct derived_probe {
	struct probe_point *pp;		/* concrete probe point */
	const char *name;		/* its printed form */
	const char *user_name;		/* the point as the script wrote it */
	const char *list_name;		/* -l: first alias or builtin matched */
	struct loc loc;			/* the script's probe point */
	struct node *body;		/* N_BLOCK: prologues, handler, epilogues */
	struct node *handler;		/* the script's own block, inside body */
	struct node *cond;		/* probe point condition, or NULL */
	struct vec locals;		/* struct symbol * */
	struct lib_file *file;		/* whose handler it is */
	enum probe_family family;
	int64_t order;			/* begin(N), end(N), error(N) */
	int64_t interval_ns, randomize_ns, jiffies, hz;
	const char *symbol;		/* kprobe: kernel symbol */
	const char *module;		/* kprobe: module, or NULL */
	int is_return, maxactive;
	/* DWARF probes (kernel.function, .statement, process(...)): */
	struct dwarf_file *dwf;		/* the debuginfo, or NULL */
	uint64_t die;			/* the function, or inlined instance */
	uint64_t pc;			/* where it fires (link-time address) */
	uint64_t entry_pc;		/* the function's entry (for @entry) */
	const char *kp_symbol;		/* kprobe: the symbol it is placed by
					 * (symbol is the function's name) */
	int64_t offset;			/* kprobe: from kp_symbol */
	int inlined;			/* an inlined instance */
	/* uprobes: */
	const char *path;		/* the program or library */
	uint64_t file_offset;		/* of pc in that file */
	/* a .return's @entry: where its saves are made (past the
	 * prologue, where -O0 code's parameters are in place), and the
	 * CFA there as register + offset, to know the call by */
	uint64_t entry_offset;
	unsigned entry_cfa_reg;
	int64_t entry_cfa_off;
	int process_end;		/* PF_PROCESS: .end, else .begin */
	const char *exe;		/* .library(): fires in processes of
					 * this program only; else NULL */
	const struct tracepoint_info *tp;	/* PF_TRACE: the tracepoint
					 * (btf.h) */
	int tp_args_read;		/* PF_TRACE: a $var reads its arguments */
	int tp_proto, tp_record;	/* PF_TRACE: a $var read a prototype's
					 * argument; one a field of the event's
					 * record (--runtime=bpf: a tracepoint
					 * program, its context the record) */
	/* SDT markers (PF_UPROBE on a marker's nop): */
	const struct sdt_marker *sdt;	/* the marker (sdt.h), or NULL */
	uint64_t sem_offset;		/* its semaphore's file offset, or 0 */
	/*
	 * What one family's probes alone have, a struct each (its fields
	 * are the family's, whatever probe shares the struct).
	 */
	struct probe_nf {		/* netfilter.hook(...).pf(...) (netfilter_family.h) */
		int pf, hook, priority;	/* NFPROTO_*, hook, priority */
	} nf;
	struct probe_procfs {		/* procfs("PATH").read/.write (procfs_points.c) */
		const char *path;	/* under /proc/systemtap/MODULE/ */
		int write;		/* .write, else .read */
		int64_t umask;		/* .umask(N), or -1 */
		int64_t maxsize;	/* .read.maxsize(N), or 0 */
	} procfs;
	struct probe_perf {		/* perf.* (perf_points.c) */
		int type;		/* perf_event_attr.type */
		uint64_t config;	/* perf_event_attr.config */
		int64_t period;		/* .sample(N), or .hz(N) when freq */
		int freq;
		int task;		/* PERF_TASK_*: CPUs or a process */
		const char *path;	/* .process("PATH") */
		const char *counter;	/* .counter("NAME"), or NULL */
	} perf;
	struct probe_proc {		/* PF_PROCESS (process_points.c) */
		int event;		/* enum proc_event (process_family.h) */
		int64_t pid;		/* process(PID), else 0 */
	} proc;
	struct probe_hw {		/* kernel.data(...) (hwbkpt_points.c) */
		uint64_t addr;		/* the address, or the symbol's at link time */
		const char *symbol;	/* "SYMBOL", or NULL */
		uint64_t base;		/* _printk at link time, with a symbol */
		int len, rw;		/* bytes; .rw, else .write */
	} hw;
	struct probe_sc {		/* kernel.syscall(NR)[.return] (syscall_points.c;
					 * is_return too) */
		int nr;			/* NR */
		int args_read;		/* a $var reads the registers */
	} sc;
	struct hoist *hoist;		/* hoist.c: its prefix, or NULL */
	void *data;			/* a family's own probe data, when it
					 * has no struct above: the struct
					 * its folder's header declares */
};

/* Begin, end and error probes run while no event probe can: the
 * runtimes arm event probes after begin and disarm them before end. */
static inline int probe_at_event_time(const struct derived_probe *d)
{
	return !family_row(d->family)->session;
}

/* The kernel's symbol table, for probe points resolved by symbol. */
struct ksyms;

struct elab {
	struct session *s;
	struct vec files;		/* struct lib_file *: user first */
	struct vec aliases;		/* N_ALIAS nodes, any file */
	struct vec alias_files;		/* struct lib_file *, same index */
	struct pmap functions;		/* name -> struct vec of function */
	struct pmap globals_lib;	/* name -> struct vec of N_GLOBAL */
	struct pmap node_file;		/* decl node -> struct lib_file */
	struct pmap globals;		/* name -> struct vec of struct symbol:
					 * the program's globals, private
					 * ones included */
	struct vec global_list;		/* struct symbol *, declaration order */
	struct vec probes;		/* struct derived_probe * */
	struct vec used_functions;	/* struct function *, in order found */
	struct pmap decl_function;	/* N_FUNCTION -> struct function */
	struct pmap autocast;		/* a resolved target expression -> the
					 * type its value points to (dw_target's,
					 * btf's): a local given it carries the
					 * type, SystemTap's autocast */
	struct vec pending_files;	/* included, probes not yet expanded */
	struct vec foreach_calls;	/* calls made inside a foreach: the call
					 * node, then the iterated symbol */
	struct ksyms *ksyms;
	int ksyms_tried;
};

/* library.c */
void lib_load(struct elab *e);
void lib_include(struct elab *e, struct lib_file *f);
struct lib_file *lib_file_of(struct elab *e, const struct node *decl);
struct symbol *global_lookup(struct elab *e, const char *name,
			     struct lib_file *f);

/* probes.c */
void probes_expand_file(struct elab *e, struct lib_file *f);
/* pp as the script writes it, without its condition, '?' or '!' */
const char *pp_text(const struct probe_point *pp);
/* c's argument, a number at least min, into *v; else 0 after an error
 * ("'maxactive' takes a number, as in maxactive(100)") */
int pp_num_arg(const struct probe_comp *c, int64_t *v, int64_t min);

/* "FILE has none: install PKG-dbg ...": why uprobe d, found by symbol
 * table, has no $vars. */
const char *uprobes_no_debuginfo(const struct derived_probe *d);

/* btf_module.c: a module's .ko as on disk (.ko, .ko.xz or .ko.zst) and
 * its ELF bytes, decompressed (malloc'ed) */
const char *modko_path(const struct session *s, const char *module);
char *modko_read(const char *path, size_t *n);

/* @cast(...) or @var(...): typed values DWARF resolves (dwarf_var.c). */
static inline int is_cast_or_var(const struct node *n)
{
	return n->kind == N_AT && (n->at == ATOP_CAST || n->at == ATOP_VAR);
}

/* resolve.c */
void resolve_program(struct elab *e);
int is_print_builtin(const char *name);
struct function *function_of(struct elab *e, struct node *decl);
struct symbol *sym_new(const char *name, enum sym_kind kind,
		       const struct loc *loc);

/* infer.c */
void infer_program(struct elab *e);

/* libscan.c */
void libscan_select(struct session *s, struct source **src, int n, char *want);

/* deadstore.c */
void deadstore_program(struct elab *e);

/* prune.c */
void prune_program(struct elab *e);

/* frozen.c */
void frozen_program(struct elab *e);

/* hoist.c */
void hoist_program(struct elab *e);
/* Whether embedded-C function f can end in an error (its text raises
 * one: STAP_ERROR, the runtime's stp_error_*, the argument and register
 * readers that do); a script function always can. */
int fn_may_fail(const struct function *f);

/* probe_types.c: the builtin points a point with wildcards in its names
 * stands for, by the families' types, each with pp's arguments, into
 * out; how many. */
int probe_types_expand(const struct probe_point *pp, struct vec *out);

/* listing.c */
void dump_program(struct elab *e, struct sbuf *out);

/* genfn.c: a function of embedded C that pass 2 makes for a target
 * value, named name, returning ret; genfn_param() adds a parameter. */
struct node *genfn_new(const struct loc *l, const char *name, enum type ret, const char *body);
void genfn_param(struct node *fd, const char *name, enum type type);
const char *genfn_entry_slot(struct node *n, const char *prefix, int slot, int write);

/* clone.c: a deep copy, each node marked as expanded at origin o. */
struct node *node_clone(const struct node *n, const struct origin *o);
struct probe_point *pp_clone(const struct probe_point *pp,
			     const struct origin *o);

void sem_error(const struct loc *loc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sem_warn(const struct loc *loc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
