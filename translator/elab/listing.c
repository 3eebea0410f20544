// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stp -p2: the resolved program, in SystemTap's layout: the globals with
 * their types, the functions kept, then each derived probe (the concrete
 * point, and after "<-" what the script wrote) with its locals and its
 * handler, aliases' prologues and epilogues in place.  A probe hoist.c
 * split shows its prefix under "# before the context:" and the rest
 * under "# in the context:", in one block.
 */
#include "elab.h"

static const char *tn(enum type t)
{
	return t ? type_name(t) : "unknown";
}

static void symbol(struct sbuf *o, const struct symbol *s, const char *indent)
{
	sb_printf(o, "%s%s:%s", indent, s->name, tn(s->type));
	if (s->arity > 0) {
		sb_puts(o, " [");
		for (int i = 0; i < s->arity && i < 9; i++)
			sb_printf(o, "%s%s", i ? ", " : "", tn(s->keys[i]));
		sb_putc(o, ']');
	}
	sb_putc(o, '\n');
}

static void locals(struct sbuf *o, const struct vec *v)
{
	int any = 0;

	for (int i = 0; i < v->len; i++) {
		const struct symbol *s = v->v[i];

		if (!s->used)
			continue;
		if (!any++)
			sb_puts(o, "  # locals\n");
		symbol(o, s, "  ");
	}
}

static void function(struct sbuf *o, const struct function *f)
{
	const struct node *d = f->decl;

	sb_printf(o, "%s:%s (", f->name, tn(f->ret));
	for (int i = 0; i < d->nparams; i++)
		sb_printf(o, "%s%s:%s", i ? ", " : "", f->params[i]->name,
			  tn(f->params[i]->type));
	sb_puts(o, ")\n");
	locals(o, &f->locals);
	if (d->body->kind == N_EMBEDDED)
		sb_printf(o, "%%{%s%%}\n", d->body->str);
	else
		print_stmt(o, d->body, 0);
}

static void split(struct sbuf *o, const struct hoist *h)
{
	sb_puts(o, "{\n\t# before the context:\n");
	for (int i = 0; i < h->prefix.len; i++)
		print_stmt(o, h->prefix.v[i], 1);
	sb_puts(o, "\t# in the context:\n");
	for (int i = 0; i < h->rest->args.len; i++)
		print_stmt(o, h->rest->args.v[i], 1);
	sb_puts(o, "}\n");
}

void dump_program(struct elab *e, struct sbuf *o)
{
	int any = 0;

	for (int i = 0; i < e->global_list.len; i++) {
		const struct symbol *s = e->global_list.v[i];

		if (!s->used)
			continue;
		if (!any++)
			sb_puts(o, "# globals\n");
		symbol(o, s, "");
	}
	if (e->used_functions.len)
		sb_puts(o, "# functions\n");
	for (int i = 0; i < e->used_functions.len; i++)
		function(o, e->used_functions.v[i]);
	if (e->probes.len)
		sb_puts(o, "# probes\n");
	for (int i = 0; i < e->probes.len; i++) {
		const struct derived_probe *d = e->probes.v[i];

		sb_printf(o, "%s /* <- %s */\n", d->name, d->user_name);
		if (d->cond) {
			sb_puts(o, "  # condition\n  ");
			print_expr(o, d->cond);
			sb_putc(o, '\n');
		}
		locals(o, &d->locals);
		if (d->hoist)
			split(o, d->hoist);
		else
			print_stmt(o, d->body, 0);
	}
}
