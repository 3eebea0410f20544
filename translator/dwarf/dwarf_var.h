/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Target variables, inside: what dwarf_loc.c (location expressions),
 * dwarf_type.c (types, values by type, pretty printing) and dwarf_var.c
 * (finding a variable, the member chain, the generated function) share.
 * Nothing outside those three includes this; the rest of stp sees
 * dw_target() and dw_list_vars() in dw.h.
 *
 * A target expression compiles to the body of an embedded-C function:
 * code is appended to tv.c, its temporaries to tv.decls, and the first
 * error is kept to be reported once, at the end.
 */
#ifndef STP_DWARF_VAR_H
#define STP_DWARF_VAR_H

#include "dw.h"
#include "../elab/elab.h"

struct tv {
	struct elab *e;
	struct derived_probe *d;
	struct dwarf_file *f;
	struct node *n;
	const char *what;	/* the expression so far, for messages */
	struct sbuf c;		/* the function's body */
	struct sbuf decls;	/* its temporaries, declared first */
	int ntmp;
	const char *err;	/* the first error, reported at the end */
	struct loc err_loc;
	int user;
	int nparams;		/* parameters i0, i1...: the @cast/@var's own
				 * arguments, then subscripts */
	enum type ptype[64];	/* theirs (T_UNKNOWN: a number) */
	int uses_regs;
	uint64_t pc;
	Dwarf_Die fn_scope;	/* the subprogram (frame base) */
	int have_fn_scope;
};

/* A value's whereabouts: in memory (expr is the address), in a
 * register or computed (expr is the value). */
enum where { W_MEM, W_VALUE };

/* A part of a value held in parts (DW_OP_piece): a struct passed in
 * two registers, a variable partly in a register and partly on the
 * stack. */
struct piece {
	enum where w;
	const char *expr;	/* NULL: this part is optimized out */
	int off, size;		/* bytes */
};

struct lval {
	enum where w;
	const char *expr;	/* NULL for a value in parts of more than 8 bytes */
	const struct piece *pieces;
	int npieces;
};

/* dwarf_loc.c: code generation and locations */
void tv_fail(struct tv *t, const struct loc *l, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
const char *tv_tmp(struct tv *t);
/* DWARF register r of the probe's pt_regs, as C. */
const char *tv_reg(struct tv *t, unsigned r);
/* Read size bytes at addr into a new temporary; a fault is an error. */
const char *tv_read_mem(struct tv *t, const char *addr, int size, int is_signed);
/* The address static storage at link-time address a has now. */
const char *tv_static_addr(struct tv *t, uint64_t a);
/* Where variable var is at t->pc (name for messages). */
int tv_var_location(struct tv *t, Dwarf_Die *var, const char *name, struct lval *out);

/* dwarf_type.c: types */
Dwarf_Die *dw_type_of(Dwarf_Die *die, Dwarf_Die *out);
/* Typedefs and qualifiers off; NULL for void. */
Dwarf_Die *dw_peel(Dwarf_Die *t, Dwarf_Die *buf);
/* "struct file*", "size_t", "char*": SystemTap's spelling for -L. */
const char *dw_type_text(Dwarf_Die *t);
int dw_byte_size(Dwarf_Die *t);
int dw_is_signed(Dwarf_Die *p);
/* A member of a struct or union by name, looking into anonymous
 * members; *off gets its offset from the start. */
int dw_find_member(Dwarf_Die *agg, const char *name, Dwarf_Die *out, int64_t *off);

/* dwarf_type.c: values by type */
const char *tv_known(struct tv *t, const struct lval *v);
/* v (of type p) as an address to go through: a pointer's value, an
 * array's or struct's address. */
const char *tv_as_pointer(struct tv *t, struct lval *v, Dwarf_Die *p);
/* The scalar value of v, typed by p. */
const char *tv_rvalue(struct tv *t, struct lval *v, Dwarf_Die *p);
/* The bytes [off, off + size) of v, a struct or union; 0 when no part
 * holds them all.  out may be v. */
int lval_part_of(const struct lval *v, int64_t off, int size, struct lval *out);
/* A function's return value (of type rt) in a .return probe. */
void tv_return_value(struct tv *t, Dwarf_Die *rt, struct lval *out);
/* Append v's text (of type type) to the string out; strings: how deep
 * to show structs, and whether char pointers are read. */
void tv_pretty(struct tv *t, struct lval *v, Dwarf_Die *type, int depth, int strings,
	       const char *out);

#endif
