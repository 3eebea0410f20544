// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Statements, and the print family.  Every block counts its statements
 * against MAXACTION when it is entered, every loop turn counts one more
 * (so an empty endless loop still ends), and each failure jumps to the
 * current unwind label: the end of the handler or function, or a catch.
 */
#include "emit.h"

#include <stdlib.h>
#include <string.h>

static void ind(struct emit *m)
{
	for (int i = 0; i < m->indent; i++)
		sb_putc(m->o, '\t');
}

static void expr_stmt(struct emit *m, struct node *e)
{
	ind(m);
	if (e->kind == N_CALL && !em_is_sprint(e->name) && is_print_builtin(e->name)) {
		em_print(m, e);
		sb_puts(m->o, "\n");
		return;
	}
	sb_puts(m->o, "(void)(");
	em_expr(m, e);
	sb_puts(m->o, ");\n");
}

/* A block's statements, as it counts them. */
static int statements(const struct node *n)
{
	int count = 0;

	for (int i = 0; i < n->args.len; i++) {
		const struct node *s = n->args.v[i];

		count += s->kind != N_NULL && s->kind != N_BLOCK;
	}
	return count;
}

struct act_bound {
	int total, unbounded, calls;
};

static void bound_visit(struct node *n, void *arg)
{
	struct act_bound *b = arg;

	switch (n->kind) {
	case N_WHILE: case N_FOR: case N_FOREACH:
		b->unbounded = 1;
		break;
	case N_CALL:
		b->unbounded |= !is_print_builtin(n->name);
		b->calls = 1;
		break;
	case N_BLOCK:
		b->total += statements(n);
		break;
	default:
		break;
	}
}

int em_static_actions(struct node *body, struct node *cond, int *calls)
{
	struct act_bound b = { 0 };

	node_walk(body, bound_visit, &b);
	node_walk(cond, bound_visit, &b);
	*calls = b.calls;
	return b.unbounded ? -1 : b.total;
}

/*
 * In a probe handler of at most m->act_total statements (no loop, no
 * call), the count can only pass MAXACTION when MAXACTION is smaller:
 * the compiler decides, and drops the count otherwise.
 */
static void act(struct emit *m, int n, const struct loc *l)
{
	ind(m);
	if (m->act_total >= 0)
		sb_printf(m->o, "if (%d > MAXACTION) ", m->act_total);
	sb_printf(m->o, "STP_ACT(&c->h, %d, %s, %s);\n", n,
		  em_where(m, l, "statement"), m->unwind);
}

static void block(struct emit *m, struct node *n)
{
	int count = statements(n);

	ind(m);
	sb_puts(m->o, "{\n");
	m->indent++;
	if (count)
		act(m, count, &n->loc);
	for (int i = 0; i < n->args.len; i++)
		em_stmt(m, n->args.v[i]);
	m->indent--;
	ind(m);
	sb_puts(m->o, "}\n");
}

/* A loop body with its own break and continue labels. */
static void loop_body(struct emit *m, struct node *body, const char *brk,
		      const char *cont)
{
	const char *ob = m->brk, *oc = m->cont;

	m->brk = brk;
	m->cont = cont;
	em_stmt(m, body);
	m->brk = ob;
	m->cont = oc;
}

/*
 * The rest of every loop: the body, the continue label, the increment
 * (for), the close of the C loop, the break label, the close of the
 * block the loop's own variables live in.
 */
static void loop_end(struct emit *m, struct node *body, struct node *incr,
		     const char *brk, const char *cont)
{
	loop_body(m, body, brk, cont);
	ind(m);
	sb_printf(m->o, "%s: ;\n", cont);
	if (incr) {
		ind(m);
		sb_puts(m->o, "(void)(");
		em_expr(m, incr);
		sb_puts(m->o, ");\n");
	}
	m->indent--;
	ind(m);
	sb_puts(m->o, "}\n");
	ind(m);
	sb_printf(m->o, "%s: ;\n", brk);
	m->indent--;
	ind(m);
	sb_puts(m->o, "}\n");
}

static void cond_test(struct emit *m, struct node *cond, const char *brk)
{
	ind(m);
	sb_puts(m->o, "if (!(");
	em_expr(m, cond);
	sb_printf(m->o, ")) goto %s;\n", brk);
}

static void while_for(struct emit *m, struct node *n)
{
	const char *brk = em_tmp(m, "brk"), *cont = em_tmp(m, "cont");
	struct node *cond = n->cond, *incr = n->kind == N_FOR ? n->incr : NULL;

	ind(m);
	sb_puts(m->o, "{\n");
	m->indent++;
	if (n->kind == N_FOR && n->init) {
		ind(m);
		sb_puts(m->o, "(void)(");
		em_expr(m, n->init);
		sb_puts(m->o, ");\n");
	}
	ind(m);
	sb_puts(m->o, "for (;;) {\n");
	m->indent++;
	act(m, 1, &n->loc);
	if (cond)
		cond_test(m, cond, brk);
	loop_end(m, n->body, incr, brk, cont);
}

/* foreach over a histogram's buckets: the index of each non-empty one. */
static void foreach_hist(struct emit *m, struct node *n)
{
	struct foreach *fe = n->fe;
	struct node *h = fe->array, *arg = h->args.v[0];
	struct symbol *s = arg->ref;
	struct node *key = fe->keys.v[0];
	const char *brk = em_tmp(m, "brk"), *cont = em_tmp(m, "cont");
	const char *i = em_tmp(m, "i");

	if (arg->kind != N_VAR) {
		em_error(&h->loc, "foreach over the histogram of an array element is not translated yet");
		return;
	}
	ind(m);
	sb_printf(m->o, "{ struct stp_stat *_st = stp_pstat_agg(%s); int %s;\n", em_sym(m, s), i);
	m->indent++;
	ind(m);
	sb_printf(m->o, "for (%s = 0; %s < %s_desc.nbuckets; %s++) {\n", i, i, em_sym(m, s), i);
	m->indent++;
	act(m, 1, &n->loc);
	ind(m);
	sb_printf(m->o, "if (!_st->hist[%s]) continue;\n", i);
	ind(m);
	sb_printf(m->o, "%s = %s;\n", em_sym(m, key->ref), i);
	loop_end(m, n->body, NULL, brk, cont);
}

/* The column foreach sorts by (0: the value, k: key k) and its
 * direction (0: unsorted), into *col and *dir. */
static void sort_column(const struct foreach *fe, int *col, int *dir)
{
	*col = 0;
	*dir = fe->value_sort;
	for (int k = 0; k < fe->keys.len && k < 9; k++)
		if (fe->key_sort[k]) {
			*col = k + 1;
			*dir = fe->key_sort[k];
		}
}

/* foreach ([a, *] in m): the slice's keys and which of them are given;
 * their names into *sl and *used. */
static void foreach_slice(struct emit *m, struct foreach *fe, const char **sl,
			  const char **used)
{
	struct sbuf u = { 0 };

	/* block scope: the keys live as long as the loop */
	ind(m);
	*sl = em_keys(m, &fe->slice);
	*used = em_tmp(m, "used");
	for (int k = 0; k < fe->slice.len; k++)
		sb_printf(&u, "%s%d", k ? ", " : "",
			  ((struct node *)fe->slice.v[k])->kind != N_STAR);
	sb_printf(m->o, "\n");
	ind(m);
	sb_printf(m->o, "static const int %s[] = { %s };\n", *used, u.s);
	free(u.s);
}

/* Turn i: the keys, and the value when the loop names one, from entry
 * _e of map mp. */
static void foreach_turn(struct emit *m, const struct foreach *fe, const struct symbol *s,
			 const char *mp, const char *agg, const char *i)
{
	ind(m);
	sb_printf(m->o, "struct stp_map_entry *_e = _sc[%s];\n", i);
	for (int k = 0; k < fe->keys.len; k++) {
		struct node *kv = fe->keys.v[k];
		struct symbol *ks = kv->ref;

		ind(m);
		if (ks->type == T_STRING)
			sb_printf(m->o, "stp_str_assign(%s, stp_entry_key(%s, _e, %d).s);\n",
				  em_sym(m, ks), mp, k);
		else
			sb_printf(m->o, "%s = stp_entry_key(%s, _e, %d).l;\n", em_sym(m, ks), mp, k);
	}
	if (!fe->value_sym)
		return;
	ind(m);
	if (s->type == T_STATS)
		sb_printf(m->o, "stp_stat_get(stp_entry_stat(%s, _e), &%s_desc, %s, &%s);\n",
			  mp, em_sym(m, s), agg, em_sym(m, fe->value_sym));
	else if (s->type == T_STRING)
		sb_printf(m->o, "stp_str_assign(%s, stp_entry_str(%s, _e));\n",
			  em_sym(m, fe->value_sym), mp);
	else
		sb_printf(m->o, "%s = *stp_entry_long(%s, _e);\n", em_sym(m, fe->value_sym), mp);
}

static void foreach(struct emit *m, struct node *n)
{
	struct foreach *fe = n->fe;
	struct symbol *s;
	const char *brk = em_tmp(m, "brk"), *cont = em_tmp(m, "cont");
	const char *mp = em_tmp(m, "m"), *cnt = em_tmp(m, "n"), *i = em_tmp(m, "i");
	const char *sl = "NULL", *used = "NULL";
	const char *agg = fe->sort_agg ? em_agg(fe->sort_at) : "STP_AGG_COUNT";
	int col, dir, site;

	if (fe->array->kind == N_AT) {
		foreach_hist(m, n);
		return;
	}
	s = fe->array->ref;
	site = (int)(intptr_t)pmap_get(&m->ax->fe_site, n) - 1;
	sort_column(fe, &col, &dir);
	ind(m);
	sb_puts(m->o, "{\n");
	m->indent++;
	ind(m);
	sb_printf(m->o, "struct stp_map *%s = %s;\n", mp, em_map(m, s));
	ind(m);
	sb_printf(m->o, "int64_t _limit = ");
	if (fe->limit)
		em_expr(m, fe->limit);
	else
		sb_puts(m->o, "0");
	sb_puts(m->o, ";\n");
	if (fe->slice.len)
		foreach_slice(m, fe, &sl, &used);
	ind(m);
	sb_printf(m->o, "struct stp_map_entry **_sc = stp_fe%d + smp_processor_id() * stp_fe%d_max;\n",
		  site, site);
	ind(m);
	sb_printf(m->o, "int %s = stp_map_sorted(%s, %d, %d, %s, %s, %s, _limit, _sc), %s;\n",
		  cnt, mp, col, dir, agg, sl, used, i);
	if (fe->limit) {
		/* "limit 0" (or less) runs the body no times */
		ind(m);
		sb_printf(m->o, "if (_limit <= 0)\n");
		ind(m);
		sb_printf(m->o, "\t%s = 0;\n", cnt);
	}
	ind(m);
	sb_printf(m->o, "for (%s = 0; %s < %s; %s++) {\n", i, i, cnt, i);
	m->indent++;
	act(m, 1, &n->loc);
	foreach_turn(m, fe, s, mp, agg, i);
	loop_end(m, n->body, NULL, brk, cont);
}

static void delete(struct emit *m, struct node *n)
{
	struct node *t = n->lhs;
	struct symbol *s = t->ref;

	ind(m);
	if (t->kind == N_INDEX) {
		const char *k;

		sb_puts(m->o, "(void)({ ");
		k = em_keys(m, &t->args);
		if (em_is_pmap(s))
			sb_printf(m->o, "stp_pmap_delete(%s, %s); 0; });\n", em_sym(m, s), k);
		else
			sb_printf(m->o, "struct stp_map_entry *_e = stp_map_find(%s, %s); "
				  "if (_e) stp_map_delete(%s, _e); 0; });\n",
				  em_sym(m, s), k, em_sym(m, s));
		return;
	}
	if (s->arity > 0)
		sb_printf(m->o, "%s(%s);\n", em_is_pmap(s) ? "stp_pmap_clear" : "stp_map_clear",
			  em_sym(m, s));
	else if (s->type == T_STATS)
		sb_printf(m->o, "stp_pstat_clear(%s);\n", em_sym(m, s));
	else if (s->type == T_STRING)
		sb_printf(m->o, "%s[0] = '\\0';\n", em_sym(m, s));
	else
		sb_printf(m->o, "%s = 0;\n", em_sym(m, s));
}

static void try_catch(struct emit *m, struct node *n)
{
	const char *catch = em_tmp(m, "catch"), *end = em_tmp(m, "tried");
	const char *outer = m->unwind;

	ind(m);
	sb_puts(m->o, "{\n");
	m->indent++;
	m->unwind = catch;
	em_stmt(m, n->body);
	m->unwind = outer;
	ind(m);
	sb_printf(m->o, "goto %s;\n", end);
	ind(m);
	sb_printf(m->o, "%s:\n", catch);
	ind(m);
	sb_printf(m->o, "if (c->h.error == stp_next_mark) goto %s;\n", outer);
	if (n->ref) {
		ind(m);
		sb_printf(m->o, "stp_str_assign(%s, c->h.error);\n", em_sym(m, n->ref));
	}
	ind(m);
	sb_puts(m->o, "c->h.error = NULL;\n");
	if (n->els)
		em_stmt(m, n->els);
	ind(m);
	sb_printf(m->o, "%s: ;\n", end);
	m->indent--;
	ind(m);
	sb_puts(m->o, "}\n");
}

void em_stmt(struct emit *m, struct node *n)
{
	if (!n)
		return;
	switch (n->kind) {
	case N_BLOCK:
		block(m, n);
		return;
	case N_NULL:
		return;
	case N_EXPRSTMT:
		expr_stmt(m, n->lhs);
		return;
	case N_IF:
		ind(m);
		sb_puts(m->o, "if (");
		em_expr(m, n->cond);
		sb_puts(m->o, ") {\n");
		m->indent++;
		em_stmt(m, n->then);
		m->indent--;
		ind(m);
		sb_puts(m->o, "}");
		if (n->els) {
			sb_puts(m->o, " else {\n");
			m->indent++;
			em_stmt(m, n->els);
			m->indent--;
			ind(m);
			sb_puts(m->o, "}");
		}
		sb_puts(m->o, "\n");
		return;
	case N_WHILE:
	case N_FOR:
		while_for(m, n);
		return;
	case N_FOREACH:
		foreach(m, n);
		return;
	case N_BREAK:
		ind(m);
		sb_printf(m->o, "goto %s;\n", m->brk);
		return;
	case N_CONTINUE:
		ind(m);
		sb_printf(m->o, "goto %s;\n", m->cont);
		return;
	case N_NEXT:
		ind(m);
		if (m->fn)
			sb_printf(m->o, "{ c->h.error = stp_next_mark; goto out; }\n");
		else
			sb_puts(m->o, "goto out;\n");
		return;
	case N_RETURN:
		ind(m);
		if (n->lhs && m->fn && m->fn->ret == T_STRING) {
			sb_puts(m->o, "{ const char *_r = ");
			em_expr(m, n->lhs);
			sb_puts(m->o, "; stp_str_assign(fr->ret, _r); goto out; }\n");
		} else if (n->lhs) {
			sb_puts(m->o, "{ fr->ret = ");
			em_expr(m, n->lhs);
			sb_puts(m->o, "; goto out; }\n");
		} else {
			sb_puts(m->o, "goto out;\n");
		}
		return;
	case N_DELETE:
		delete(m, n);
		return;
	case N_TRY:
		try_catch(m, n);
		return;
	case N_EMBEDDED:
		ind(m);
		sb_puts(m->o, "{\n");
		em_embedded(m->o, n);
		ind(m);
		sb_puts(m->o, "}\n");
		return;
	default:
		expr_stmt(m, n);
	}
}

/* ---- the print family ---- */

int em_is_sprint(const char *name)
{
	/* the builtins only: sprint_backtrace() and friends are functions */
	return name[0] == 's' && !strncmp(name, "sprint", 6) && is_print_builtin(name);
}

static int is_hist(const struct node *a)
{
	return a->kind == N_AT && at_is_hist(a->at) && !a->comps.len;
}

/* One value to the output buffer. */
static int is_stat(const struct node *a)
{
	return a->vtype == T_STATS && (a->kind == N_VAR || a->kind == N_INDEX) && a->ref;
}

/*
 * One value to an output buffer (out: a C expression of type struct
 * stp_out *).  Histograms draw themselves, statistics show their
 * aggregates; the keys of an array element are evaluated first, so
 * nothing between them and the output can fail.
 */
static void print_value(struct emit *m, struct node *a, const char *out)
{
	if (is_hist(a) || is_stat(a)) {
		const char *desc, *st;

		sb_puts(m->o, "({ ");
		st = em_stat(m, is_hist(a) ? a->args.v[0] : a, &desc);
		if (is_hist(a))
			sb_printf(m->o, "struct stp_stat *_st = %s; if (_st) stp_hist_print(%s, _st, &%s); 0; }); ",
				  st, out, desc);
		else
			sb_printf(m->o, "stp_display_stat(%s, %s, &%s, 0); 0; }); ", out, st, desc);
		return;
	}
	sb_printf(m->o, "%s(%s, ", a->vtype == T_STRING ? "stp_out_str" : "stp_out_long", out);
	em_expr(m, a);
	sb_puts(m->o, "); ");
}

/* printf/sprintf arguments into "union stp_val NAME[]". */
static const char *format_args(struct emit *m, struct node *n)
{
	struct vec rest = { 0 };

	for (int i = 1; i < n->args.len; i++)
		vec_push(&rest, n->args.v[i]);
	return em_keys(m, &rest);
}

void em_print(struct emit *m, struct node *n)
{
	const char *name = n->name;
	int nl = !strcmp(name, "println") || !strcmp(name, "printdln");

	sb_puts(m->o, "{ ");
	if (!strcmp(name, "printf")) {
		const char *k, *f = em_tmp(m, "f");

		sb_printf(m->o, "const char *%s = ", f);
		em_expr(m, n->args.v[0]);
		sb_puts(m->o, "; (void)({ const char *_err = NULL; ");
		k = format_args(m, n);
		sb_printf(m->o, "if (stp_out_format(c->h.out, %s, %s, %d, &_err) < 0) "
			  "STP_FAIL(&c->h, _err, %s, %s); 0; }); }",
			  f, k, n->args.len - 1,
			  em_where(m, &n->loc, "identifier 'printf'"), m->unwind);
		return;
	}
	if (!strncmp(name, "printd", 6)) {
		const char *d = em_tmp(m, "d");
		const char *dt = em_str_tmp(m);

		sb_printf(m->o, "const char *%s = ", d);
		em_expr(m, n->args.v[0]);
		sb_printf(m->o, "; stp_str_assign(%s->%s, %s); ", m->frame_ptr, dt, d);
		for (int i = 1; i < n->args.len; i++) {
			if (i > 1)
				sb_printf(m->o, "stp_out_str(c->h.out, %s->%s); ", m->frame_ptr, dt);
			print_value(m, n->args.v[i], "c->h.out");
		}
	} else {
		for (int i = 0; i < n->args.len; i++)
			print_value(m, n->args.v[i], "c->h.out");
	}
	if (nl)
		sb_puts(m->o, "stp_out_char(c->h.out, '\\n'); ");
	sb_puts(m->o, "}");
}

/* sprint, sprintln, sprintf, sprintd, sprintdln: into a string temp. */
void em_sprint(struct emit *m, struct node *n)
{
	const char *name = n->name;
	const char *t = ar_printf("%s->%s", m->frame_ptr, em_str_tmp(m));
	int nl = !strcmp(name, "sprintln") || !strcmp(name, "sprintdln");

	sb_puts(m->o, "({ ");
	if (!strcmp(name, "sprintf")) {
		const char *k, *f = em_tmp(m, "f");

		sb_printf(m->o, "const char *%s = ", f);
		em_expr(m, n->args.v[0]);
		sb_puts(m->o, "; const char *_err = NULL; ");
		k = format_args(m, n);
		sb_printf(m->o, "int _r = stp_format(%s, MAXSTRINGLEN, %s, %s, %d, &_err); "
			  "if (_r < 0) STP_FAIL(&c->h, _err, %s, %s); "
			  "if (_r >= MAXSTRINGLEN) stp_count(STP_EV_STR_TRUNC); (const char *)%s; })",
			  t, f, k, n->args.len - 1,
			  em_where(m, &n->loc, "identifier 'sprintf'"), m->unwind, t);
		return;
	}
	sb_printf(m->o, "%s[0] = '\\0'; ", t);
	{
		int first = 0;
		const char *d = NULL;

		if (!strncmp(name, "sprintd", 7)) {
			const char *dt = em_str_tmp(m);

			d = ar_printf("%s->%s", m->frame_ptr, dt);
			sb_printf(m->o, "stp_str_assign(%s, ", d);
			em_expr(m, n->args.v[0]);
			sb_puts(m->o, "); ");
			first = 1;
		}
		for (int i = first; i < n->args.len; i++) {
			struct node *a = n->args.v[i];

			if (d && i > first)
				sb_printf(m->o, "stp_str_append(%s, %s); ", t, d);
			if (is_hist(a) || is_stat(a)) {
				/* drawn into what is left of the string */
				sb_printf(m->o, "{ struct stp_out _so = { .buf = %s + strlen(%s), "
					  ".cap = MAXSTRINGLEN - 1 - strlen(%s) }; ", t, t, t);
				print_value(m, a, "&_so");
				sb_puts(m->o, "_so.buf[_so.len] = '\\0'; } ");
			} else if (a->vtype == T_STRING) {
				sb_printf(m->o, "stp_str_append(%s, ", t);
				em_expr(m, a);
				sb_puts(m->o, "); ");
			} else {
				sb_printf(m->o, "stp_str_append_long(%s, ", t);
				em_expr(m, a);
				sb_puts(m->o, "); ");
			}
		}
	}
	if (nl)
		sb_printf(m->o, "stp_str_append(%s, \"\\n\"); ", t);
	sb_printf(m->o, "(const char *)%s; })", t);
}
