// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Type inference over the whole program.  Every variable, array key and
 * value, function parameter and return value is long, string or
 * statistics; nothing is declared, so types flow from literals,
 * operators, printf formats and calls in both directions until nothing
 * changes.  Conflicts and what stays unknown are reported in one last
 * walk, so each is reported once, naming both places.
 */
#include "elab.h"

#include <string.h>

struct ictx {
	struct elab *e;
	int changed;
	int report;		/* the last walk: report problems */
	struct pmap reported;	/* locations already reported */
	struct function *fn;
	struct derived_probe *probe;
};

static enum type ty(struct ictx *ic, struct node *n);
static void need(struct ictx *ic, struct node *n, enum type t);
static void stmt(struct ictx *ic, struct node *n);

/* The last walk may reach a node twice (an operand checked by both the
 * operator and the assignment around it): report each place once. */
static int once(struct ictx *ic, const struct loc *at)
{
	if (!ic->report || pmap_get(&ic->reported, at))
		return 0;
	pmap_put(&ic->reported, at, (void *)at);
	return 1;
}

static const char *tname(enum type t)
{
	switch (t) {
	case T_LONG: return "a number";
	case T_STRING: return "a string";
	case T_STATS: return "statistics";
	case T_HIST: return "a histogram";
	default: return "unknown";
	}
}

static void set_sym(struct ictx *ic, struct symbol *s, enum type t,
		    const struct loc *at)
{
	if (!s || !t)
		return;
	if (t == T_STATS && s->kind != SYM_GLOBAL) {
		if (once(ic, at))
			sem_error(at, "'%s' is used as statistics, but statistics must be declared global",
				  s->name);
		return;
	}
	if (!s->type) {
		s->type = t;
		s->type_loc = *at;
		ic->changed = 1;
		return;
	}
	if (s->type == t || !once(ic, at))
		return;
	sem_error(at, "'%s' is used as %s here, but it is %s", s->name,
		  tname(t), tname(s->type));
	diag_note(&s->type_loc, "'%s' became %s here", s->name, tname(s->type));
}

static void set_key(struct ictx *ic, struct symbol *s, int i, struct node *k)
{
	enum type t = ty(ic, k);

	if (k->kind == N_STAR)
		return;
	if (!s->keys[i] && t) {
		s->keys[i] = t;
		ic->changed = 1;
	} else if (s->keys[i]) {
		need(ic, k, s->keys[i]);
	}
}

/* The array behind N_INDEX / N_IN / foreach, with nkeys keys. */
static void arity(struct ictx *ic, struct symbol *s, int nkeys,
		  const struct loc *at)
{
	if (!s)
		return;
	if (s->arity < 0 && !(s->decl && s->decl->is_array && !nkeys)) {
		s->arity = nkeys;
		ic->changed = 1;
		return;
	}
	if (s->arity == nkeys || !once(ic, at))
		return;
	if (!nkeys)
		sem_error(at, "'%s' is an array; it needs [keys] here", s->name);
	else if (!s->arity)
		sem_error(at, "'%s' is a scalar, not an array", s->name);
	else
		sem_error(at, "'%s' has %d key%s here but %d elsewhere", s->name,
			  nkeys, nkeys == 1 ? "" : "s", s->arity);
}

static void indexed(struct ictx *ic, struct symbol *s, struct vec *keys,
		    const struct loc *at)
{
	if (!s)
		return;
	if (keys->len > 9) {
		if (once(ic, at))
			sem_error(at, "'%s' has %d keys; arrays have at most 9", s->name,
				  keys->len);
		return;
	}
	arity(ic, s, keys->len, at);
	for (int i = 0; i < keys->len && i < 9; i++)
		set_key(ic, s, i, keys->v[i]);
}

/* ---- printf formats ---- */

/* A width or precision: digits, or "*" taking a number argument. */
static const char *width(const char *p, enum type *types, int *n, int max)
{
	if (*p == '*') {
		if (*n < max)
			types[(*n)++] = T_LONG;
		return p + 1;
	}
	while (*p >= '0' && *p <= '9')
		p++;
	return p;
}

/* The argument types a format asks for, in order; -1 on a bad one. */
static int format_types(struct ictx *ic, const struct node *fmt,
			enum type *types, int max)
{
	const char *p = fmt->str;
	int n = 0;

	while ((p = strchr(p, '%'))) {
		p++;
		if (*p == '%') {
			p++;
			continue;
		}
		while (*p && strchr("-+ #0", *p))
			p++;
		p = width(p, types, &n, max);
		if (*p == '.')
			p = width(p + 1, types, &n, max);
		while (*p == 'l' || *p == 'h' || *p == 'L' || *p == 'z')
			p++;
		if (*p && strchr("diuxXopcbmM", *p)) {
			if (n < max)
				types[n++] = T_LONG;
		} else if (*p == 's') {
			if (n < max)
				types[n++] = T_STRING;
		} else {
			if (ic->report)
				sem_error(&fmt->loc, "format has an unknown conversion '%%%c'",
					  *p ? *p : ' ');
			return -1;
		}
		p++;
	}
	return n;
}

static void print_call(struct ictx *ic, struct node *n)
{
	const char *s = n->name;
	int first = 0;

	if (!strcmp(s, "printf") || !strcmp(s, "sprintf")) {
		enum type types[512];
		struct node *fmt = n->args.len ? n->args.v[0] : NULL;
		int k;

		if (!fmt || fmt->kind != N_STR) {
			if (ic->report)
				sem_error(&n->loc, "%s needs a format string literal first", s);
			return;
		}
		k = format_types(ic, fmt, types, 512);
		if (k >= 0 && k != n->args.len - 1 && ic->report)
			sem_error(&n->loc, "the format asks for %d value%s, %s gives %d",
				  k, k == 1 ? "" : "s", s, n->args.len - 1);
		for (int i = 1; i < n->args.len; i++)
			if (k >= 0 && i - 1 < k)
				need(ic, n->args.v[i], types[i - 1]);
			else
				ty(ic, n->args.v[i]);
		return;
	}
	/* the parser checked printd's delimiter, a string literal;
	 * println() alone prints a newline, as SystemTap's does */
	if (strstr(s, "printd")) {
		first = 1;
	} else if (!n->args.len && ic->report && strcmp(s, "println")) {
		sem_error(&n->loc, "%s needs a value", s);
	}
	/* print(a, b) prints them one after the other; a statistic prints
	 * as its count, sum, min, max and average. */
	for (int i = first; i < n->args.len; i++)
		ty(ic, n->args.v[i]);
}

static enum type call(struct ictx *ic, struct node *n)
{
	struct function *f = n->ref;

	if (is_print_builtin(n->name)) {
		print_call(ic, n);
		return n->name[0] == 's' ? T_STRING : T_LONG;
	}
	for (struct function *g = f; g; g = g->next) {
		for (int i = 0; i < n->args.len; i++) {
			struct node *a = n->args.v[i];
			struct symbol *p = g->params[i];

			if (p->type)
				need(ic, a, p->type);
			else
				set_sym(ic, p, ty(ic, a), &a->loc);
		}
		if (g != f && g->ret != f->ret && f->ret && g->ret && ic->report)
			sem_error(&g->decl->loc, "overloads of '%s' return different types",
				  g->name);
	}
	return f ? f->ret : T_UNKNOWN;
}

static enum type at(struct ictx *ic, struct node *n)
{
	if (n->ref && is_cast_or_var(n))
		return call(ic, n);
	if (at_is_aggregate(n->at) || at_is_hist(n->at)) {
		need(ic, n->args.v[0], T_STATS);
		for (int i = 1; i < n->args.len; i++)
			need(ic, n->args.v[i], T_LONG);
		if (n->comps.len) {	/* @hist_log(s)[bucket]: a count */
			need(ic, ((struct node *)n->comps.v[0])->lhs, T_LONG);
			return T_LONG;
		}
		return at_is_aggregate(n->at) ? T_LONG : T_HIST;
	}
	if (n->at == ATOP_ENTRY)
		return ty(ic, n->args.v[0]);
	for (int i = 0; i < n->args.len; i++)
		ty(ic, n->args.v[i]);
	return T_LONG;
}

/* Both operands are t, and so is the result. */
static enum type both(struct ictx *ic, struct node *n, enum type t)
{
	need(ic, n->lhs, t);
	need(ic, n->rhs, t);
	return t;
}

static enum type binary(struct ictx *ic, struct node *n)
{
	enum type l, r;

	switch (n->op) {
	case OP_DOT:
		return both(ic, n, T_STRING);
	case OP_MATCH:
	case OP_NOMATCH:
		both(ic, n, T_STRING);
		return T_LONG;
	case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT: case OP_GE:
		l = ty(ic, n->lhs);
		r = ty(ic, n->rhs);
		if (l && l != T_STATS)
			need(ic, n->rhs, l);
		else if (r && r != T_STATS)
			need(ic, n->lhs, r);
		if ((l == T_STATS || r == T_STATS) && ic->report)
			sem_error(&n->loc, "statistics cannot be compared; compare an aggregate such as @count");
		return T_LONG;
	default:
		return both(ic, n, T_LONG);
	}
}

static enum type assign(struct ictx *ic, struct node *n)
{
	enum type t;

	switch (n->op) {
	case OP_SHL_STAT:
		need(ic, n->lhs, T_STATS);
		need(ic, n->rhs, T_LONG);
		return T_LONG;
	case OP_CAT_ASSIGN:
		return both(ic, n, T_STRING);
	case OP_ASSIGN:
		t = ty(ic, n->rhs);
		if (!t)
			t = ty(ic, n->lhs);
		if (t == T_STATS || t == T_HIST) {
			if (ic->report)
				sem_error(&n->loc, "statistics are added to with '<<<', not assigned");
			return T_UNKNOWN;
		}
		return t ? both(ic, n, t) : t;
	default:
		return both(ic, n, T_LONG);
	}
}

static enum type ty_node(struct ictx *ic, struct node *n)
{
	struct symbol *s = n->ref;

	switch (n->kind) {
	case N_NUM:
	case N_EMBEDDED:
		return T_LONG;
	case N_STR:
		return T_STRING;
	case N_STAR:
		return T_UNKNOWN;
	case N_VAR:
		if (s && s->kind == SYM_GLOBAL)
			arity(ic, s, 0, &n->loc);
		return s ? s->type : T_UNKNOWN;
	case N_INDEX:
		indexed(ic, s, &n->args, &n->loc);
		return s ? s->type : T_UNKNOWN;
	case N_IN:
		indexed(ic, s, &n->args, &n->loc);
		return T_LONG;
	case N_CALL:
		return call(ic, n);
	case N_AT:
		return at(ic, n);
	case N_TARGET:
		/* DWARF made it a call (resolve.c); else "$return" alone */
		return n->ref ? call(ic, n) : T_LONG;
	case N_UNARY:
	case N_INCDEC:
		need(ic, n->lhs, T_LONG);
		return T_LONG;
	case N_BINARY:
		return binary(ic, n);
	case N_ASSIGN:
		return assign(ic, n);
	case N_TERNARY: {
		enum type t = ty(ic, n->then);

		need(ic, n->cond, T_LONG);
		if (!t)
			t = ty(ic, n->els);
		if (t) {
			need(ic, n->then, t);
			need(ic, n->els, t);
		}
		return t;
	}
	default:
		return T_UNKNOWN;
	}
}

static enum type ty(struct ictx *ic, struct node *n)
{
	enum type t = ty_node(ic, n);

	if (t)
		n->vtype = (unsigned char)t;
	return t;
}

/* n must be of type t: decide its variables, or report a mismatch. */
static void need(struct ictx *ic, struct node *n, enum type t)
{
	enum type have;

	switch (n->kind) {
	case N_VAR:
	case N_INDEX:
		set_sym(ic, n->ref, t, &n->loc);
		ty(ic, n);
		return;
	case N_CALL:
		if (!is_print_builtin(n->name) && n->ref) {
			struct function *f = n->ref;

			if (!f->ret) {
				f->ret = t;
				f->ret_loc = n->loc;
				ic->changed = 1;
			}
		}
		break;
	case N_TERNARY:
		need(ic, n->cond, T_LONG);
		need(ic, n->then, t);
		need(ic, n->els, t);
		n->vtype = (unsigned char)t;
		return;
	case N_ASSIGN:
		if (n->op == OP_ASSIGN) {
			need(ic, n->lhs, t);
			need(ic, n->rhs, t);
			n->vtype = (unsigned char)t;
			return;
		}
		break;
	case N_AT:
		if (n->at == ATOP_ENTRY) {
			need(ic, n->args.v[0], t);
			n->vtype = (unsigned char)t;
			return;
		}
		break;
	default:
		break;
	}
	have = ty(ic, n);
	if (have && have != t && once(ic, &n->loc))
		sem_error(&n->loc, "expected %s here, found %s", tname(t), tname(have));
}

/* ---- statements ---- */

static void foreach(struct ictx *ic, struct node *n)
{
	struct foreach *fe = n->fe;
	struct symbol *arr = fe->array->kind == N_VAR ? fe->array->ref : NULL;

	if (arr) {
		arity(ic, arr, fe->keys.len, &fe->array->loc);
		for (int i = 0; i < fe->keys.len && i < 9; i++) {
			struct node *k = fe->keys.v[i];

			if (arr->keys[i])
				need(ic, k, arr->keys[i]);
			else
				set_key(ic, arr, i, k);
		}
		for (int i = 0; i < fe->slice.len && i < 9; i++)
			set_key(ic, arr, i, fe->slice.v[i]);
		if (fe->slice.len && fe->slice.len != fe->keys.len && ic->report)
			sem_error(&fe->array->loc, "the slice has %d key%s, the loop %d",
				  fe->slice.len, fe->slice.len == 1 ? "" : "s",
				  fe->keys.len);
		if (fe->value_sym && arr->type)
			set_sym(ic, fe->value_sym, arr->type == T_STATS ? T_LONG : arr->type,
				&n->loc);
		if (fe->sort_agg && arr->type && arr->type != T_STATS && ic->report)
			sem_error(&fe->array->loc, "sorting by %s needs an array of statistics",
				  fe->sort_agg);
	} else {
		at(ic, fe->array);
		for (int i = 0; i < fe->keys.len; i++)
			need(ic, fe->keys.v[i], T_LONG);
		if (fe->keys.len != 1 && ic->report)
			sem_error(&n->loc, "a histogram has one key: its bucket");
	}
	if (fe->limit)
		need(ic, fe->limit, T_LONG);
	stmt(ic, n->body);
}

static void stmt(struct ictx *ic, struct node *n)
{
	if (!n)
		return;
	switch (n->kind) {
	case N_BLOCK:
		for (int i = 0; i < n->args.len; i++)
			stmt(ic, n->args.v[i]);
		return;
	case N_EXPRSTMT:
		ty(ic, n->lhs);
		return;
	case N_IF:
		need(ic, n->cond, T_LONG);
		stmt(ic, n->then);
		stmt(ic, n->els);
		return;
	case N_WHILE:
	case N_FOR:
		if (n->kind == N_FOR && n->init)
			ty(ic, n->init);
		if (n->cond)
			need(ic, n->cond, T_LONG);
		if (n->kind == N_FOR && n->incr)
			ty(ic, n->incr);
		stmt(ic, n->body);
		return;
	case N_FOREACH:
		foreach(ic, n);
		return;
	case N_RETURN:
		if (ic->fn && n->lhs) {
			enum type t = ty(ic, n->lhs);

			if ((t == T_STATS || t == T_HIST) && once(ic, &n->lhs->loc)) {
				sem_error(&n->lhs->loc, "a function returns a number or a string, not statistics");
				return;
			}
			if (ic->fn->ret)
				need(ic, n->lhs, ic->fn->ret);
			else if (t) {
				ic->fn->ret = t;
				ic->fn->ret_loc = n->lhs->loc;
				ic->changed = 1;
			}
		}
		return;
	case N_DELETE:
		if (n->lhs->kind == N_INDEX)
			ty(ic, n->lhs);
		return;
	case N_TRY:
		stmt(ic, n->body);
		if (n->ref)
			set_sym(ic, n->ref, T_STRING, &n->loc);
		stmt(ic, n->els);
		return;
	default:
		return;
	}
}

/* Functions first, the last found (callees) first: a function's own
 * body decides its types before the calls that use it. */
static void walk_all(struct ictx *ic)
{
	struct elab *e = ic->e;

	for (int i = e->used_functions.len - 1; i >= 0; i--) {
		ic->fn = e->used_functions.v[i];
		ic->probe = NULL;
		stmt(ic, ic->fn->decl->body);
	}
	ic->fn = NULL;
	for (int i = 0; i < e->probes.len; i++) {
		struct derived_probe *d = e->probes.v[i];

		ic->probe = d;
		ic->fn = NULL;
		if (d->cond)
			need(ic, d->cond, T_LONG);
		stmt(ic, d->body);
	}
	ic->probe = NULL;
}

static void unknown(struct symbol *s)
{
	if (s->type || (!s->reads && !s->writes))
		return;
	sem_error(&s->loc, "cannot tell whether '%s' is a number or a string", s->name);
}

void infer_program(struct elab *e)
{
	struct ictx ic = { .e = e };
	int rounds = 0;

	for (int i = 0; i < e->global_list.len; i++) {
		struct symbol *s = e->global_list.v[i];
		struct node *init = s->decl ? s->decl->init_value : NULL;

		if (init && !s->type) {
			s->type = init->kind == N_NUM ? T_LONG : T_STRING;
			s->type_loc = init->loc;
		}
	}
	do {
		ic.changed = 0;
		walk_all(&ic);
	} while (ic.changed && ++rounds < 100);
	/* A function that never returns a value returns a number (0). */
	for (int i = 0; i < e->used_functions.len; i++) {
		struct function *f = e->used_functions.v[i];

		if (!f->ret)
			f->ret = T_LONG;
	}
	ic.report = 1;
	walk_all(&ic);
	/* A listing (-l, -L) shows probe points: the types of a tapset's
	 * globals that only its users' calls would settle do not matter. */
	if (e->s->list_probe)
		return;
	for (int i = 0; i < e->global_list.len; i++)
		unknown(e->global_list.v[i]);
	for (int i = 0; i < e->probes.len; i++) {
		struct derived_probe *d = e->probes.v[i];

		for (int k = 0; k < d->locals.len; k++)
			unknown(d->locals.v[k]);
	}
	for (int i = 0; i < e->used_functions.len; i++) {
		struct function *f = e->used_functions.v[i];

		for (int k = 0; k < f->locals.len; k++)
			unknown(f->locals.v[k]);
		for (int k = 0; k < f->decl->nparams; k++)
			unknown(f->params[k]);
	}
}
