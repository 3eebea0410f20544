// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The tree dump: AST -> one S-expression per declaration, every node
 * with its kind or operator, every grouping explicit.  The printer's
 * text only shows that printing is stable; this shows what the parser
 * built, so tests can state the exact tree (tests/unit/test_tree.c).
 *
 *   expressions   5  "s"  x  $x  *   (+ a b)  (- a)  (pre++ x)
 *                 (post-- x)  (= x e)  (<<< s v)  (? c a b)
 *                 (in arr k...)  (index arr k...)  (call f a...)
 *                 (@cast p "t")  (-> e name)  ([] e i)  (& e)
 *                 (pretty $ e)  (autocast e)  (embedded "c")
 *   statements    (block s...)  (nop)  (if c then [else])
 *                 (while c s)  (for init cond incr s)  (foreach ...)
 *                 (break)  (continue)  (next)  (return [e])
 *                 (delete e)  (try block (catch [var] block))
 *                 an expression statement is its expression
 *   declarations  (probe (point TEXT [(if c)])... block)
 *                 (alias = (names ...) (points ...) block [epilogue])
 *                 (global name ...)  (function name ... block)
 * An absent part of "for" is _.
 */
#include "dump.h"

static void dump(struct sbuf *o, const struct node *n);

static void list(struct sbuf *o, const struct vec *v)
{
	for (int i = 0; i < v->len; i++) {
		sb_putc(o, ' ');
		dump(o, v->v[i]);
	}
}

/* "(head args...)" */
static void form(struct sbuf *o, const char *head, const struct vec *args)
{
	sb_printf(o, "(%s", head);
	list(o, args);
	sb_putc(o, ')');
}

/* " n", or nothing for an absent part */
static void sp(struct sbuf *o, const struct node *n)
{
	if (n) {
		sb_putc(o, ' ');
		dump(o, n);
	}
}

/* "(head a b)"; b may be absent */
static void form2(struct sbuf *o, const char *head, const struct node *a,
		  const struct node *b)
{
	sb_printf(o, "(%s", head);
	sp(o, a);
	sp(o, b);
	sb_putc(o, ')');
}

static void opt(struct sbuf *o, const struct node *n)
{
	if (n)
		dump(o, n);
	else
		sb_putc(o, '_');
}

/* The node itself, before its member chain, "&" and "$" wrap it. */
static void core(struct sbuf *o, const struct node *n);

/* Components apply inside out: "$p->a[1]" is ([] (-> $p a) 1). */
static void with_comps(struct sbuf *o, const struct node *n, int k)
{
	const struct node *c;

	if (k == 0) {
		core(o, n);
		return;
	}
	c = n->comps.v[k - 1];
	sb_puts(o, c->kind == N_MEMBER ? "(-> " : "([] ");
	with_comps(o, n, k - 1);
	sb_putc(o, ' ');
	if (c->kind == N_MEMBER)
		sb_puts(o, c->name);
	else
		dump(o, c->lhs);
	sb_putc(o, ')');
}

static void decorated(struct sbuf *o, const struct node *n)
{
	const struct vec *c = node_comps(n);
	int k = c ? c->len : 0;

	if (n->addr)
		sb_puts(o, "(& ");
	if (n->pretty)
		sb_puts(o, n->pretty == 2 ? "(pretty $$ " : "(pretty $ ");
	with_comps(o, n, k);
	if (n->pretty)
		sb_putc(o, ')');
	if (n->addr)
		sb_putc(o, ')');
}

static void string(struct sbuf *o, const char *s)
{
	sb_printf(o, "\"%s\"", s);
}

static void core(struct sbuf *o, const struct node *n)
{
	switch (n->kind) {
	case N_VAR: case N_TARGET:
		sb_puts(o, n->name);
		return;
	case N_INDEX:
		sb_puts(o, "(index ");
		dump(o, n->lhs);
		list(o, &n->args);
		sb_putc(o, ')');
		return;
	case N_CALL:
		sb_printf(o, "(call %s", n->name);
		list(o, &n->args);
		sb_putc(o, ')');
		return;
	case N_AT:
		form(o, n->name, &n->args);
		return;
	case N_AUTOCAST:
		form2(o, "autocast", n->lhs, NULL);
		return;
	default:
		sb_puts(o, "<?>");
	}
}

static void foreach(struct sbuf *o, const struct node *n)
{
	static const char *const mark[] = { "-", "", "+" };
	const struct foreach *fe = n->fe;

	sb_puts(o, "(foreach");
	if (fe->value)
		sb_printf(o, " (value %s)", fe->value);
	sb_puts(o, " (keys");
	for (int i = 0; i < fe->keys.len; i++) {
		const struct node *k = fe->keys.v[i];

		sb_printf(o, " %s%s", k->name, mark[fe->key_sort[i] + 1]);
	}
	sb_putc(o, ')');
	sp(o, fe->array);
	if (fe->slice.len) {
		sb_puts(o, " (slice");
		list(o, &fe->slice);
		sb_putc(o, ')');
	}
	if (fe->sort_agg || fe->value_sort)
		sb_printf(o, " (sort %s%s)", fe->sort_agg ? fe->sort_agg : "value",
			  mark[fe->value_sort + 1]);
	if (fe->limit) {
		sb_puts(o, " (limit ");
		dump(o, fe->limit);
		sb_putc(o, ')');
	}
	sp(o, n->body);
	sb_putc(o, ')');
}

static void try_catch(struct sbuf *o, const struct node *n)
{
	sb_puts(o, "(try");
	sp(o, n->body);
	sb_puts(o, " (catch");
	if (n->name)
		sb_printf(o, " %s", n->name);
	sp(o, n->els);
	sb_puts(o, "))");
}

static void for_loop(struct sbuf *o, const struct node *n)
{
	sb_puts(o, "(for ");
	opt(o, n->init);
	sb_putc(o, ' ');
	opt(o, n->cond);
	sb_putc(o, ' ');
	opt(o, n->incr);
	sp(o, n->body);
	sb_putc(o, ')');
}

static void dump(struct sbuf *o, const struct node *n)
{
	switch (n->kind) {
	case N_NUM:
		sb_puts(o, n->str);
		return;
	case N_STR:
		string(o, n->str);
		return;
	case N_EMBEDDED:
		sb_puts(o, "(embedded ");
		string(o, n->str);
		sb_putc(o, ')');
		return;
	case N_STAR:
		sb_putc(o, '*');
		return;
	case N_VAR: case N_TARGET: case N_INDEX: case N_CALL: case N_AT:
	case N_AUTOCAST:
		decorated(o, n);
		return;
	case N_BINARY: case N_ASSIGN:
		form2(o, op_spelling[n->op], n->lhs, n->rhs);
		return;
	case N_UNARY:
		form2(o, op_spelling[n->op], n->lhs, NULL);
		return;
	case N_INCDEC:
		sb_printf(o, "(%s%s ", n->post ? "post" : "pre",
			  op_spelling[n->op]);
		dump(o, n->lhs);
		sb_putc(o, ')');
		return;
	case N_TERNARY:
		sb_puts(o, "(?");
		sp(o, n->cond);
		sp(o, n->then);
		sp(o, n->els);
		sb_putc(o, ')');
		return;
	case N_IN:
		sb_puts(o, "(in ");
		dump(o, n->lhs);
		list(o, &n->args);
		sb_putc(o, ')');
		return;
	case N_BLOCK:
		form(o, "block", &n->args);
		return;
	case N_NULL:
		sb_puts(o, "(nop)");
		return;
	case N_EXPRSTMT:
		dump(o, n->lhs);
		return;
	case N_IF:
		sb_puts(o, "(if");
		sp(o, n->cond);
		sp(o, n->then);
		sp(o, n->els);
		sb_putc(o, ')');
		return;
	case N_WHILE:
		form2(o, "while", n->cond, n->body);
		return;
	case N_FOR:
		for_loop(o, n);
		return;
	case N_FOREACH:
		foreach(o, n);
		return;
	case N_BREAK:
		sb_puts(o, "(break)");
		return;
	case N_CONTINUE:
		sb_puts(o, "(continue)");
		return;
	case N_NEXT:
		sb_puts(o, "(next)");
		return;
	case N_RETURN:
		form2(o, "return", n->lhs, NULL);
		return;
	case N_DELETE:
		form2(o, "delete", n->lhs, NULL);
		return;
	case N_TRY:
		try_catch(o, n);
		return;
	default:
		sb_puts(o, "<?>");
	}
}

/* "(point kernel.function(\"f\")? (if c))": the text as the printer
 * writes it, the condition as a tree. */
static void point(struct sbuf *o, const struct probe_point *pp)
{
	struct probe_point bare = *pp;

	bare.cond = NULL;
	sb_puts(o, " (point ");
	print_probe_point(o, &bare);
	if (pp->cond) {
		sb_puts(o, " (if ");
		dump(o, pp->cond);
		sb_putc(o, ')');
	}
	sb_putc(o, ')');
}

static void points(struct sbuf *o, const char *head,
		   struct probe_point **pts, int n)
{
	sb_printf(o, " (%s", head);
	for (int i = 0; i < n; i++)
		point(o, pts[i]);
	sb_putc(o, ')');
}

static void global(struct sbuf *o, const struct node *n)
{
	sb_printf(o, "(global %s", n->name);
	if (n->is_array)
		sb_printf(o, " (array %d)", n->size);
	if (n->wrap)
		sb_puts(o, " (wrap)");
	if (n->private_)
		sb_puts(o, " (private)");
	if (n->init_value) {
		sb_puts(o, " (init ");
		dump(o, n->init_value);
		sb_putc(o, ')');
	}
	sb_putc(o, ')');
}

static void function(struct sbuf *o, const struct node *n)
{
	sb_printf(o, "(function %s:%s (params", n->name,
		  n->type ? type_name(n->type) : "?");
	for (int i = 0; i < n->nparams; i++)
		sb_printf(o, " %s:%s", n->params[i].name,
			  n->params[i].type ? type_name(n->params[i].type) : "?");
	sb_putc(o, ')');
	if (n->has_priority)
		sb_printf(o, " (priority %lld)", (long long)n->priority);
	if (n->private_)
		sb_puts(o, " (private)");
	sp(o, n->body);
	sb_putc(o, ')');
}

static void decl(struct sbuf *o, const struct node *n)
{
	switch (n->kind) {
	case N_PROBE:
		sb_puts(o, "(probe");
		points(o, "points", n->points, n->npoints);
		sp(o, n->body);
		sb_putc(o, ')');
		return;
	case N_ALIAS:
		sb_printf(o, "(alias %s", n->epilogue ? "+=" : "=");
		points(o, "names", n->alias_names, n->nalias_names);
		points(o, "points", n->points, n->npoints);
		sp(o, n->body);
		sp(o, n->els);
		sb_putc(o, ')');
		return;
	case N_GLOBAL:
		global(o, n);
		return;
	case N_FUNCTION:
		function(o, n);
		return;
	default:
		dump(o, n);
	}
}

void ast_dump(struct sbuf *o, const struct node *n)
{
	switch (n->kind) {
	case N_PROBE: case N_ALIAS: case N_GLOBAL: case N_FUNCTION:
		decl(o, n);
		return;
	default:
		dump(o, n);
	}
}

void ast_dump_script(struct sbuf *o, const struct script *s)
{
	for (int i = 0; i < s->decls.len; i++) {
		ast_dump(o, s->decls.v[i]);
		sb_putc(o, '\n');
	}
}
