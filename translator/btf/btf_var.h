/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A BTF target expression being compiled (btf_var.c) and its text
 * ($x$, $$parms: btf_pretty.c).  As for DWARF's (dwarf_var.h), code is
 * appended to c, its temporaries to decls, and the first error kept to
 * be reported once, at the end.  Nothing but those two (and btf_cast.c)
 * includes this.
 */
#ifndef STP_BTF_VAR_H
#define STP_BTF_VAR_H

#include "btf.h"

struct bv {
	const struct btf *b;
	struct derived_probe *d;
	struct node *n;
	const char *what;	/* the expression so far, for messages */
	struct sbuf decls, c;	/* its temporaries; its body */
	int ntmp, nparams;
	const char *err;
	struct loc err_loc;
	/* the value walked so far: */
	int mem;		/* expr is its address, else its value */
	const char *expr;
	uint32_t type;
	int bit, bits;		/* a bitfield */
	/* the piece of the chain since its last pointer: one offset, a
	 * relocation under --runtime=bpf (btf_core.c) */
	const char *core_base, *core_path;
	uint32_t core_root;
	int64_t core_off;
};

int bv_is_signed(const struct btf_type *t);
/* The value (v->mem, v->expr) as a number of type t, size bytes; a read
 * that faults is an error of the script. */
const char *bv_scalar(struct bv *v, const struct btf_type *t, int size);
/* Append the text of the value (an address when mem, else the value
 * itself) of type id to the string out: numbers and pointers in hex,
 * char arrays (and char pointers with strings) quoted, structs as
 * {.m=...} down to strings levels; a read that faults shows "?". */
void bv_pretty(struct bv *v, int mem, const char *expr, uint32_t id, int depth, int strings,
	       const char *out);
/* The chain of v->n's members and subscripts from the value v holds,
 * then the function that computes it (v->n->ref); 0 after an error,
 * reported unless quiet. */
int bv_chain(struct bv *v, int quiet);
int bv_finish(struct bv *v, enum type ret, int quiet);

#endif
