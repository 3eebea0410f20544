/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Pass 3, translation: the resolved program becomes one C file for a
 * kernel module (stp -p3 prints it).  Its layout:
 *
 *   options (-D), runtime declarations, top-level embedded C
 *   globals: scalars, maps, statistics, their locks, module parameters
 *   struct stp_context: the runtime's part, then a union of every
 *     probe's locals and MAXNESTING+1 frames of every function's
 *   functions, probe handlers, probe tables, allocation of the globals
 *   #include "runtime/runtime.c"
 *
 * access.c first finds each handler's lock set and the facts the globals'
 * declarations need; then emit.c lays out the file and the globals,
 * emit_expr.c translates expressions, emit_stmt.c statements and the
 * print family, emit_hoist.c the prefixes that run in a probe's
 * callback before its context (translator/elab/hoist.c).
 */
#ifndef STP_EMIT_H
#define STP_EMIT_H

#include "access.h"

struct emit {
	struct elab *e;
	struct session *s;
	struct sbuf *o;			/* where code goes now */
	struct sbuf *frame;		/* fields of the current frame */
	const char *frame_ptr;		/* "l" or "fr": its C name */
	struct function *fn;		/* function being emitted, or NULL */
	struct derived_probe *probe;	/* probe being emitted, or NULL */
	const char *unwind;		/* label errors jump to */
	const char *brk, *cont;		/* loop labels */
	int tmp;			/* counter for names */
	int indent;
	struct pmap cname;		/* struct symbol * -> C lvalue */
	const struct access_facts *ax;	/* the access pass's */
	struct vec display_arrays;	/* arrays shown at the end: scratch */
	int probe_idx;			/* the probe being emitted */
	struct pmap entry_slot;		/* @entry node -> slot + 1 */
	struct vec entries;		/* this probe's @entry nodes */
	struct vec extra_locals;	/* more members of the locals union */
	int nkprobes;
	struct sbuf kprobes, kp_hits;	/* kprobe_kmod.c's entries, hits */
	struct sbuf timers;		/* timer_kmod.c's entries */
	int ntimers;
	struct vec begin, end, err;	/* session_kmod.c: "&stp_probe_N" */
	struct sbuf uprobes, procs;	/* uprobe_kmod.c's, process_kmod.c's
					 * table entries */
	struct sbuf proc_hits;		/* process_kmod.c's dispatch cases */
	int nuprobes, nprocs;
	struct sbuf traces, trace_cbs;	/* trace_kmod.c's entries, callbacks */
	int ntraces;
	struct vec trace_pts;		/* trace_kmod.c: each tracepoint probe
					 * (struct em_trace_pt), for its table */
	const char *script_name;	/* for error positions */
	int act_total;			/* the probe's handler: its statements
					 * when counted at compile time, or -1 */
	/* netfilter probes (netfilter_kmod.c): */
	struct sbuf nf_hooks, nf_ops;	/* hook functions; stp_nf_ops[] */
	int nnf;
	/* procfs_kmod.c: */
	struct vec procfs;		/* procfs probes, in table order */
	struct vec procfs_idx;		/* each one's index (intptr_t) */
	struct sbuf perfs, perf_cbs;	/* perf_kmod.c's entries, handlers */
	struct sbuf pre_hits;		/* emit_hoist.c's hits after a prefix,
					 * out of the callbacks' line */
	int nperfs;
	int prefix;			/* emitting a prefix (emit_hoist.c):
					 * no context; calls inline */
	const char *prefix_skip;	/* what its next is: "return;" */
	struct pmap early_sites;	/* a prefix's early calls (node) ->
					 * their e_K's K + 1 */
	int nearly;			/* how many the prefix has */
	int replay;			/* the hit's copy of the prefix: an
					 * early call is its e_K */
	void *family_state[PF_N];	/* a family's own state while the
					 * module is written, when it has no
					 * fields above (its NAME_kmod.c's) */
	int family_probes[PF_N];	/* how many probes each family has */
};

/*
 * The probe families' parts of the module are in ../families/NAME/
 * NAME_kmod.c: each family's row (family.h) names its entry, which
 * emit.c calls once probe idx's handler is emitted, and its tables,
 * written after every handler in ../families/list.h's order.
 */
/* emit.c: a probe whose point was a wildcard is not required to arm */
int em_from_wildcard(const struct derived_probe *d);

/* emit_stmt.c: the statements handler body and condition cond can run
 * when it has no loop and calls no function, else -1; *calls: whether
 * they call anything (a print builtin included). */
int em_static_actions(struct node *body, struct node *cond, int *calls);

/* emit.c */
/* Embedded C between "#line" directives: the compiler's errors in it
 * name the script's file and line; build.c points the marker after it
 * (BUILD_LINE_BACK) back at the generated file. */
void em_embedded(struct sbuf *o, const struct node *n);
/* "static struct TYPE NAME[] = { entries };" and "#define COUNT n", an
 * empty array holding one zeroed entry; entries' text is freed. */
void em_array(struct sbuf *o, const char *type, const char *name, struct sbuf *entries,
	      const char *count, int n);
void em_line(struct emit *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
const char *em_tmp(struct emit *m, const char *prefix);
const char *em_str_tmp(struct emit *m);	/* a char[MAXSTRINGLEN] field */
const char *em_where(struct emit *m, const struct loc *l, const char *what);
const char *em_sym(struct emit *m, const struct symbol *s);
int em_is_pmap(const struct symbol *s);
const char *em_cstr(const char *stp_literal);	/* N_STR -> C literal */
const char *em_cstr_raw(const char *bytes);
/* The C file of e, with its access facts (access.c); 1 on errors. */
int pass3_translate(struct elab *e, const struct access_facts *ax, struct sbuf *out);
void em_error(const struct loc *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* emit_expr.c: a C expression of type int64_t or const char *. */
void em_expr(struct emit *m, struct node *n);
/* Keys of an index into "union stp_val NAME[]" (statements before). */
const char *em_keys(struct emit *m, struct vec *args);
/* The aggregate (STP_AGG_*) name for ATOP_COUNT etc. */
const char *em_agg(enum at_op at);
/* The map an array's values are read from (aggregated for statistics). */
const char *em_map(struct emit *m, const struct symbol *s);
/*
 * The statistic "s" or "a[k]" reads, as a struct stp_stat * expression
 * (NULL for an absent element), after declaring what it needs; *desc is
 * its struct stp_stat_desc.
 */
const char *em_stat(struct emit *m, struct node *arg, const char **desc);
/* A call of a script function (value: its return, or 0). */
void em_call(struct emit *m, struct node *n);

/* emit_hoist.c: the prefixes hoist.c split off */
/* Whether probe d's callback runs its prefix (d->hoist). */
int em_hoisted(const struct derived_probe *d);
/* The handler of probe idx's start: struct pN_pre (in types) and the
 * copy of the prefix's locals (in body); what the handler then runs. */
struct node *em_handler_body(struct emit *m, int idx, struct derived_probe *d,
			     struct sbuf *types, struct sbuf *body);
/* The prefix flavour of each embedded-C function a prefix calls. */
void em_prefix_functions(struct emit *m, struct sbuf *o);
/*
 * Probe idx's callback's hit, into o: the session check, the prefix
 * (args: the callback's arguments as a C initializer, or NULL; regs: its
 * registers, or "NULL"; skip: the statement that ends the hit early),
 * then the hit with the prefix's locals in its entry.
 */
void em_prefix(struct emit *m, int idx, const struct derived_probe *d, struct sbuf *o,
	       const char *args, const char *regs, const char *skip);
/* A call, in a prefix: the function's prefix flavour, inline. */
void em_prefix_call(struct emit *m, struct node *n);

/* emit_stmt.c */
void em_stmt(struct emit *m, struct node *n);
/* print, printf, ... as a statement; sprint... as an expression */
void em_print(struct emit *m, struct node *n);
int em_is_sprint(const char *name);
void em_sprint(struct emit *m, struct node *n);

#endif
