// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A function as C.  Its parameters and locals live in struct stp_ctx
 * (c->fJ_name), so calls pass nothing but the context; a string result
 * goes to c->fJ__ret.  Functions are inlined: BPF has no recursion, and
 * a recursive script function is refused (in user space too, for now:
 * one frame per function).  Pass 2's embedded C for
 * $target values is copied as it is, with kern.h's CONTEXT.
 */
#include "bpf.h"

#include <string.h>

void bx_want_function(struct bx *x, struct function *f)
{
	for (int i = 0; i < x->wanted.len; i++)
		if (x->wanted.v[i] == f)
			return;
	vec_push(&x->wanted, f);
}

static void frame(struct bx *x, struct function *f, const char *pfx)
{
	for (int i = 0; i < f->decl->nparams; i++) {
		const struct symbol *p = f->params[i];

		if (p->type == T_STRING)
			sb_printf(&x->ctx, "\tchar %s_%s[MAXSTRINGLEN];\n", pfx, p->name);
		else
			sb_printf(&x->ctx, "\tint64_t %s_%s;\n", pfx, p->name);
	}
	for (int i = 0; i < f->locals.len; i++) {
		const struct symbol *l = f->locals.v[i];

		if (l->type == T_STRING)
			sb_printf(&x->ctx, "\tchar %s_%s[MAXSTRINGLEN];\n", pfx, l->name);
		else if (l->type == T_LONG)
			sb_printf(&x->ctx, "\tint64_t %s_%s;\n", pfx, l->name);
	}
	if (f->ret == T_STRING)
		sb_printf(&x->ctx, "\tchar %s__ret[MAXSTRINGLEN];\n", pfx);
}

static void embedded(struct bx *x, struct function *f, const char *pfx)
{
	int id = bx_error_site(x, &f->decl->loc, ar_printf("fault in %s", f->name));

	for (int i = 0; i < f->decl->nparams; i++)
		sb_printf(&x->code, "#define STAP_ARG_%s c->%s_%s\n", f->params[i]->name, pfx,
			  f->params[i]->name);
	sb_printf(&x->code, "#define STAP_RETVALUE %s\n", f->ret == T_STRING ?
		  ar_printf("c->%s__ret", pfx) : "__ret");
	sb_printf(&x->code, "#define STAP_ERROR(...) do { stp_error(stp_k, %d); goto out; } "
		  "while (0)\n", id);
	sb_printf(&x->code, "%s\n", f->decl->body->str);
	sb_puts(&x->code, "#undef STAP_RETVALUE\n#undef STAP_ERROR\n");
	for (int i = 0; i < f->decl->nparams; i++)
		sb_printf(&x->code, "#undef STAP_ARG_%s\n", f->params[i]->name);
}

/* Whether g's calls reach f again (depth-bounded: call graphs are
 * small, and a cycle not through f is found from its own members). */
static int reaches(struct function *g, struct function *f, int depth)
{
	if (depth > 64)
		return 0;
	for (int i = 0; i < g->calls.len; i++) {
		struct function *h = g->calls.v[i];

		if (h == f || reaches(h, f, depth + 1))
			return 1;
	}
	return 0;
}

void bx_function(struct bx *x, struct function *f)
{
	int j = bx_fn_index(x, f);
	const char *pfx = ar_printf("f%d", j);
	struct function *outer = x->fn;
	const char *outer_pfx = x->pfx;

	/* frames live in struct stp_ctx, one per function */
	if (reaches(f, f, 0)) {
		bx_refuse(x, &f->decl->loc, "function %s is recursive: %s", f->name,
			  x->side == BX_KERN ? "BPF programs cannot recurse"
			  : "not supported by --runtime=bpf yet");
		return;
	}
	frame(x, f, pfx);
	sb_printf(&x->code, "/* %s */\nSTP_INLINE int64_t fn%d(struct stp_ctx *c, "
		  "struct stp_kctx *stp_k)\n{\n\tint64_t __ret = 0;\n\n", f->name, j);
	x->fn = f;
	x->pfx = pfx;
	if (f->decl->body->kind == N_EMBEDDED) {
		embedded(x, f, pfx);
	} else {
		for (int i = 0; i < f->locals.len; i++) {
			const struct symbol *l = f->locals.v[i];

			if (l->type == T_STRING)
				sb_printf(&x->code, "\tc->%s_%s[0] = 0;\n", pfx, l->name);
			else if (l->type == T_LONG)
				sb_printf(&x->code, "\tc->%s_%s = 0;\n", pfx, l->name);
		}
		bx_stmt(x, f->decl->body, 1);
	}
	sb_puts(&x->code, "\tgoto out;\nout:\n\treturn __ret;\n}\n\n");
	x->fn = outer;
	x->pfx = outer_pfx;
}
