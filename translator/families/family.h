/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A probe family's operations: what each pass does with its points, in
 * one struct (the kernel's struct dyn_event_operations is the model).
 * Each family defines its row, NAME_family, in its folder; list.h names
 * every family once, and the enum probe_family and the table
 * (family_of) are made from it.  Pass 2 calls match; the backends call
 * their own members and know nothing of the others'.  The backends'
 * structs are incomplete here: a family's row points at functions, it
 * does not see their insides.
 */
#ifndef STP_FAMILY_H
#define STP_FAMILY_H

#include <stddef.h>

struct elab;
struct probe_point;
struct derived_probe;
struct node;
struct vec;
struct sbuf;
struct emit;	/* kmod/emit.h */
struct bx;	/* bpf/bpf.h */

enum probe_family {
	PF_NONE = -1,		/* no family's */
#define FAMILY(ID, name) PF_##ID,
#include "list.h"
#undef FAMILY
	PF_N
};

/* What a BPF program of the family gets as its context. */
enum bx_ctx {
	BX_CTX_VOID,	/* no arguments read through ctx */
	BX_CTX_RAW,	/* struct bpf_raw_tracepoint_args */
	BX_CTX_REGS,	/* struct pt_regs */
	BX_CTX_KFUNC,	/* pt_regs on a kprobe, else none (kprobe_bpf.c) */
};

struct family_ops {
	const char *name;
	/* its probes run at the session's start or end, or never: not at
	 * an event (begin, end, error, never) */
	int session;
	/*
	 * Pass 2: the templates of pp (struct derived_probe *, each with
	 * its pp, family and the family's fields): -1 when pp is none of
	 * the family's points, 0 after an error, 1 with out filled.  NULL:
	 * the elaboration core matches them (begin, end, timers, DWARF's
	 * kernel.function).  Tried in list.h's order.
	 */
	int (*match)(struct elab *e, struct probe_point *pp, struct vec *out);
	/* its points' shapes ("perf.sw"), for "did you mean"; and its
	 * points as --dump-probe-types lists them, written with [x] (x or
	 * nothing) and {a|b} (one of them): elab/probe_types.c */
	const char *const *shapes;
	const char *const *types;
	/*
	 * Pass 2, its own $vars (NULL: DWARF's, BTF's or a marker's, as the
	 * probe has them): target resolves $var n (n->ref its reader, or
	 * its writer with write), 1, or 0 after an error (said unless
	 * quiet); defined is @defined(n) (NULL: target, quietly, on a copy
 * of n); list_vars -L's " $a:long ...";
	 * vars_lvalue: a $var is a place guru mode writes as DWARF's are;
	 * assign: "$var = x" (or .=) outside guru mode, 1 with a->lhs->ref
	 * the setter taking x, 0 after an error (NULL: none is written so).
	 */
	int (*target)(struct elab *e, struct derived_probe *d, struct node *n, int write,
		      int quiet);
	int (*assign)(struct elab *e, struct derived_probe *d, struct node *a);
	int (*defined)(struct elab *e, struct derived_probe *d, const struct node *n);
	const char *(*list_vars)(struct elab *e, const struct derived_probe *d);
	int vars_lvalue;
	/* Pass 2: whether probe d's hits come through a callback a backend
	 * generates, where hoist.c's prefix can run (NULL: none do) */
	int (*hoistable)(const struct derived_probe *d);
	/*
	 * kmod: entry, once probe idx's handler is emitted; tables, after
	 * every handler, in list.h's order.  kmod_hoists: its callbacks
	 * may call the hit behind a hoisted prefix (emit_hoist.c), whose
	 * functions go before the first such family's tables, and it runs
	 * the prefix there.  kmod_kind: the runtime's STP_PK_* (NULL:
	 * STP_PK_EVENT); kmod_fields: what its struct stp_probe has more.
	 */
	void (*kmod_entry)(struct emit *m, int idx, const struct derived_probe *d);
	void (*kmod_tables)(struct emit *m, struct sbuf *o);
	int kmod_hoists;
	/* the C functions its tables define to arm and disarm its probes,
	 * "int NAME(void)" and "void NAME(void)", when runtime/ has no part
	 * of its own for it (NULL: runtime/session.c arms it) */
	const char *kmod_arm, *kmod_disarm;
	const char *kmod_kind;
	void (*kmod_fields)(struct sbuf *o, const struct derived_probe *d);
	/*
	 * BPF: the program's section, its row in the runner's attach table
	 * written into att (NULL when it cannot: why says so, unless the
	 * section function said it); its context; what goes before the
	 * handler and after it; bpf_hoists: its program runs a hoisted
	 * prefix (gen_prefix.c).
	 */
	const char *(*bpf_section)(struct bx *x, struct derived_probe *d, int i,
				   struct sbuf *att);
	enum bx_ctx bpf_ctx;
	void (*bpf_prologue)(struct bx *x, const struct derived_probe *d, int i);
	void (*bpf_epilogue)(struct bx *x, const struct derived_probe *d, int i);
	const char *bpf_why;
	int bpf_hoists;
};

#define FAMILY(ID, name) extern const struct family_ops name##_family;
#include "list.h"
#undef FAMILY

/* pf's row (PF_NONE: NULL). */
const struct family_ops *family_row(int pf);

#endif
