// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Calls: the script's functions (inlined: BPF has no recursion), the
 * tapsets' functions of embedded C by their BPF flavours (flavour.c:
 * the simplest written in place), the embedded C pass 2 makes for
 * $target values (it reads CONTEXT->entry, which kern.h maps to the raw
 * tracepoint's arguments), and the print family (a ring buffer record
 * in the kernel, formatted by id in user space).
 */
#include "bpf.h"

#include <string.h>

int bx_fn_index(struct bx *x, struct function *f)
{
	for (int i = 0; i < x->e->used_functions.len; i++)
		if (x->e->used_functions.v[i] == f)
			return i;
	return -1;
}

/* Whether f's C runs on this side: its flavour's pragmas say (flavour.c). */
static int passes_through(struct bx *x, struct function *f)
{
	return bx_flavour(f) & (x->side == BX_KERN ? BXF_KERN : BXF_USER);
}

/* Arguments into the callee's frame, then the call. */
static const char *call_fn(struct bx *x, struct node *n, struct function *f, const char *tail)
{
	int j = bx_fn_index(x, f);
	struct sbuf b = { 0 };

	if (f->decl->body->kind == N_EMBEDDED && !passes_through(x, f)) {
		bx_refuse(x, &n->loc, "function %s is embedded C, which --runtime=bpf %s", f->name,
			  x->side == BX_KERN ? "cannot run in a kernel probe"
			  : "cannot run in user space (begin, end and error probes)");
		return "0";
	}
	if (x->prefix)		/* no context, no frame yet */
		return bx_prefix_call(x, n, f);
	sb_puts(&b, "({ ");
	for (int i = 0; i < n->args.len && i < f->decl->nparams; i++) {
		struct node *a = n->args.v[i];

		if (f->params[i]->type == T_STRING)
			sb_printf(&b, "const char *_p%d_%d = %s; ", j, i, bx_str(x, a));
		else
			sb_printf(&b, "int64_t _p%d_%d = %s; ", j, i, bx_long(x, a));
	}
	for (int i = 0; i < n->args.len && i < f->decl->nparams; i++) {
		if (f->params[i]->type == T_STRING)
			sb_printf(&b, "stp_strcpy(c->f%d_%s, _p%d_%d); ", j, f->params[i]->name, j, i);
		else
			sb_printf(&b, "c->f%d_%s = _p%d_%d; ", j, f->params[i]->name, j, i);
	}
	sb_printf(&b, "fn%d(c, stp_k)%s; })", j, tail);
	bx_want_function(x, f);
	return b.s;
}

/* error(msg): the run stops with msg and the probe's name. */
static const char *error_call(struct bx *x, struct node *n)
{
	int id;

	vec_push(&x->t->errors, ar_printf("(probe %s)", x->pp ? x->pp : "?"));
	vec_push(&x->t->whats, "");
	id = x->t->errors.len - 1;
	return ar_printf("({ stp_error_msg(stp_k, %d, %s); (int64_t)0; })", id,
			 n->args.len ? bx_str(x, n->args.v[0]) : "\"\"");
}

/* Call n of f, written in place when its flavour runs on this side and
 * is that simple (dst: where a string goes), else NULL. */
static const char *in_place(struct bx *x, struct node *n, struct function *f, const char *dst)
{
	return passes_through(x, f) ? bx_inline_call(x, n, f, dst) : NULL;
}

const char *bx_call_long(struct bx *x, struct node *n)
{
	struct function *f = n->ref;
	const char *r;

	if (n->kind == N_CALL && is_print_builtin(n->name))
		return bx_print(x, n);
	/* $return without DWARF: the return register, as kmod reads it */
	if (!f && n->kind == N_TARGET && !strcmp(n->name, "$return") && !n->comps.len &&
	    x->side == BX_KERN)
		return "stp_returnval(stp_k)";
	if (!f) {
		bx_refuse(x, &n->loc, "'%s' is not supported by --runtime=bpf yet", n->name);
		return "0";
	}
	if (f->decl->body->kind == N_EMBEDDED && !strcmp(f->name, "error"))
		return error_call(x, n);
	if ((r = in_place(x, n, f, NULL)))
		return r;
	return call_fn(x, n, f, "");
}

/* A statement that writes string call n straight into dst (an array
 * key's field: no temporary and no copy on the hot path), or NULL when
 * n's flavour is not written in place in a kernel probe. */
const char *bx_str_into(struct bx *x, struct node *n, const char *dst)
{
	struct function *f = n->ref;

	/* execname's 16 bytes must fit */
	if (x->side != BX_KERN || n->kind != N_CALL || !f || bx_string_len(x->e) < 16)
		return NULL;
	return in_place(x, n, f, dst);
}

const char *bx_call_str(struct bx *x, struct node *n)
{
	struct function *f = n->ref;
	const char *t, *r;

	if (n->kind == N_CALL && is_print_builtin(n->name))
		return bx_print(x, n);
	if (!f) {
		bx_refuse(x, &n->loc, "'%s' is not supported by --runtime=bpf yet", n->name);
		return "\"\"";
	}
	t = bx_temp(x);
	if ((r = in_place(x, n, f, t)))
		return ar_printf("({ %s; %s; })", r, t);
	return call_fn(x, n, f, ar_printf("; stp_strcpy(%s, c->f%d__ret); %s", t,
					  bx_fn_index(x, f), t));
}
