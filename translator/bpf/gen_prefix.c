// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The prefixes hoist.c splits off a probe's handler, at the top of its
 * BPF program: before the program looks up its per-CPU context and
 * marks it busy, so a hit its filter turns down costs the filter alone.
 *
 *   int pN(ctx)
 *   {
 *           u32 zero = 0;
 *           struct stp_ctx *c;
 *           struct stp_kctx k = { ... }, *stp_k = &k;
 *           int64_t pl_x = 0;
 *
 *           if (stp_g.stp_stopping)
 *                   return 0;
 *           the prefix, its locals pl_x, its next "return 0;"
 *           c = bpf_map_lookup_elem(&stp_ctxmap, &zero);
 *           ... as before, then c->pN_x = pl_x; and the rest
 *
 * The prefix's embedded C (pass 2's $arg code, a tapset's BPF flavour)
 * is called through a flavour that takes its arguments by value, since
 * the usual one reads them from the context's frame; builtins and the
 * register readers need no context and are written as usual.  Nothing
 * in a prefix can fail (hoist.c), so it has no error checks.
 */
#include "bpf.h"

int bx_hoisted(const struct derived_probe *d)
{
	return d->hoist && family_row(d->family)->bpf_hoists;
}

/* The program's head when it has a prefix: the context comes after. */
void bx_prefix(struct bx *x, struct derived_probe *d, const char *entry, const char *regs)
{
	const struct hoist *h = d->hoist;

	sb_printf(&x->code, "\tu32 zero = 0;\n\tstruct stp_ctx *c;\n"
		  "\tstruct stp_kctx k = { .entry = %s, .regs = %s, .ctx = ctx }, *stp_k = &k;\n",
		  entry, regs);
	for (int i = 0; i < h->vars.len; i++)
		sb_printf(&x->code, "\tint64_t pl_%s = 0;\n", ((struct symbol *)h->vars.v[i])->name);
	sb_puts(&x->code, "\n\tif (stp_g.stp_stopping)\n\t\treturn 0;\n\t/* before the context */\n");
	x->prefix = 1;
	for (int i = 0; i < h->prefix.len; i++)
		bx_stmt(x, h->prefix.v[i], 1);
	x->prefix = 0;
	sb_puts(&x->code, "\tc = bpf_map_lookup_elem(&stp_ctxmap, &zero);\n\tif (!c)\n\t\treturn 0;\n");
}

/* The prefix's locals into the context's, first in the handler. */
void bx_prefix_copy(struct bx *x, struct derived_probe *d)
{
	const struct hoist *h = d->hoist;

	for (int i = 0; i < h->vars.len; i++) {
		const char *n = ((struct symbol *)h->vars.v[i])->name;

		sb_printf(&x->code, "\tc->%s_%s = pl_%s;\n", x->pfx, n, n);
	}
}

const char *bx_prefix_call(struct bx *x, struct node *n, struct function *f)
{
	int j = bx_fn_index(x, f);
	struct sbuf b = { 0 };

	sb_puts(&b, "({ ");
	for (int i = 0; i < n->args.len && i < f->decl->nparams; i++)
		sb_printf(&b, "int64_t _p%d_%d = %s; ", j, i, bx_long(x, n->args.v[i]));
	sb_printf(&b, "fn%d_pre(stp_k", j);
	for (int i = 0; i < n->args.len && i < f->decl->nparams; i++)
		sb_printf(&b, ", _p%d_%d", j, i);
	sb_puts(&b, "); })");
	for (int i = 0; i < x->pre_wanted.len; i++)
		if (x->pre_wanted.v[i] == f)
			return b.s;
	vec_push(&x->pre_wanted, f);
	return b.s;
}

/* f's flavour with its arguments by value: the names its C uses. */
static void flavour(struct bx *x, struct function *f, struct sbuf *o)
{
	const struct node *d = f->decl;

	sb_printf(o, "/* %s, before the context */\nSTP_INLINE int64_t fn%d_pre(struct stp_kctx *stp_k",
		  f->name, bx_fn_index(x, f));
	for (int i = 0; i < d->nparams; i++)
		sb_printf(o, ", int64_t _stp_a_%s", f->params[i]->name);
	sb_puts(o, ")\n{\n\tint64_t __ret = 0;\n\n");
	for (int i = 0; i < d->nparams; i++)
		sb_printf(o, "#define STAP_ARG_%s _stp_a_%s\n", f->params[i]->name,
			  f->params[i]->name);
	sb_printf(o, "#define STAP_RETVALUE __ret\n%s\n#undef STAP_RETVALUE\n", d->body->str);
	for (int i = 0; i < d->nparams; i++)
		sb_printf(o, "#undef STAP_ARG_%s\n", f->params[i]->name);
	sb_puts(o, "\tgoto out;\nout:\n\treturn __ret;\n}\n\n");
}

void bx_prefix_functions(struct bx *x, struct sbuf *o)
{
	for (int i = 0; i < x->pre_wanted.len; i++)
		flavour(x, x->pre_wanted.v[i], o);
}
