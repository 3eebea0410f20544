// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Expressions.  Each becomes one C expression: int64_t for longs,
 * const char * for strings.  What needs statements (map lookups, checks
 * that can fail, calls) is a GNU statement expression "({ ... })", and
 * a failure jumps out of it to the current unwind label, which GNU C
 * allows.  Operands are evaluated left to right into temporaries, so
 * the script's order of side effects is kept.
 */
#include "emit.h"
#include "../families/perf/perf_family.h"

#include <string.h>

static void out(struct emit *m, const char *s)
{
	sb_puts(m->o, s);
}

static int is_str(const struct node *n)
{
	return n->vtype == T_STRING;
}

const char *em_agg(enum at_op at)
{
	switch (at) {
	case ATOP_SUM: return "STP_AGG_SUM";
	case ATOP_MIN: return "STP_AGG_MIN";
	case ATOP_MAX: return "STP_AGG_MAX";
	case ATOP_AVG: return "STP_AGG_AVG";
	case ATOP_VARIANCE: return "STP_AGG_VARIANCE";
	default: return "STP_AGG_COUNT";
	}
}

const char *em_keys(struct emit *m, struct vec *args)
{
	const char *k = em_tmp(m, "k");

	sb_printf(m->o, "union stp_val %s[%d]; ", k, args->len ? args->len : 1);
	for (int i = 0; i < args->len; i++) {
		struct node *a = args->v[i];

		if (a->kind == N_STAR) {	/* a slice's wildcard */
			sb_printf(m->o, "%s[%d].l = 0; ", k, i);
			continue;
		}
		sb_printf(m->o, "%s[%d].%s = ", k, i, is_str(a) ? "s" : "l");
		em_expr(m, a);
		out(m, "; ");
	}
	return k;
}

/*
 * "if (full) fail": a full array, in SystemTap's words, naming the
 * limit to raise.
 */
static void fail_if_full(struct emit *m, const char *full, const struct symbol *s,
			 const struct loc *l)
{
	const char *msg = s->decl && s->decl->size ?
		ar_printf("\"Array overflow, check size limit (%d)\"", s->decl->size) :
		"\"Array overflow, check MAXMAPENTRIES\"";

	sb_printf(m->o, "if (%s) STP_FAIL(&c->h, %s, %s, %s); ", full, msg,
		  em_where(m, l, ar_printf("identifier '%s'", s->name)), m->unwind);
}

const char *em_map(struct emit *m, const struct symbol *s)
{
	if (em_is_pmap(s))
		return ar_printf("stp_pmap_agg(%s)", em_sym(m, s));
	return em_sym(m, s);
}

/*
 * The entry "arr[k...]" names, or NULL, after declaring the keys and
 * the map (*mp) it was looked up in.
 */
static const char *index_find(struct emit *m, struct node *n, const char **mp)
{
	const char *k = em_keys(m, &n->args), *e = em_tmp(m, "e");

	*mp = em_tmp(m, "m");
	sb_printf(m->o, "struct stp_map *%s = %s; struct stp_map_entry *%s = stp_map_find(%s, %s); ",
		  *mp, em_map(m, n->ref), e, *mp, k);
	return e;
}

/* arr[k...] read: 0 or "" when absent. */
static void index_read(struct emit *m, struct node *n)
{
	struct symbol *s = n->ref;
	const char *e, *mp;

	out(m, "({ ");
	e = index_find(m, n, &mp);
	if (s->type == T_STRING) {
		const char *t = em_str_tmp(m);

		sb_printf(m->o, "stp_str_assign(%s->%s, %s ? stp_entry_str(%s, %s) : \"\"); %s->%s; })",
			  m->frame_ptr, t, e, mp, e, m->frame_ptr, t);
	} else {
		sb_printf(m->o, "%s ? *stp_entry_long(%s, %s) : 0; })", e, mp, e);
	}
}

static void in_expr(struct emit *m, struct node *n)
{
	const char *mp;

	out(m, "({ ");
	if (em_is_pmap(n->ref)) {	/* one element: no aggregation */
		const char *k = em_keys(m, &n->args);

		sb_printf(m->o, "(int64_t)stp_pmap_has(%s, %s); })",
			  em_sym(m, n->ref), k);
		return;
	}
	sb_printf(m->o, "(int64_t)(%s != NULL); })", index_find(m, n, &mp));
}

/*
 * The entry to update for "arr[k] op= v", for keys already in k:
 * inserted when absent.  Callers evaluate everything else first, so no
 * part of the script runs between finding the entry and using it.
 */
static const char *index_entry(struct emit *m, struct node *n, const char *k,
			       const char **mp)
{
	struct symbol *s = n->ref;
	const char *e = em_tmp(m, "e");

	*mp = em_sym(m, s);
	sb_printf(m->o, "struct stp_map_entry *%s = stp_map_insert(%s, %s); ", e, *mp, k);
	fail_if_full(m, ar_printf("!%s", e), s, &n->loc);
	return e;
}

static const char *binop_c(int op)
{
	switch (op) {
	case OP_PLUS: case OP_ADD_ASSIGN: return "+";
	case OP_MINUS: case OP_SUB_ASSIGN: return "-";
	case OP_STAR: case OP_MUL_ASSIGN: return "*";
	case OP_AMP: case OP_AND_ASSIGN: return "&";
	case OP_PIPE: case OP_OR_ASSIGN: return "|";
	case OP_CARET: case OP_XOR_ASSIGN: return "^";
	case OP_LT: return "<";
	case OP_GT: return ">";
	case OP_LE: return "<=";
	case OP_GE: return ">=";
	case OP_EQ: return "==";
	case OP_NE: return "!=";
	default: return NULL;
	}
}

/*
 * a OP b on longs, given the C names of the evaluated operands: what can
 * fail (division) or is undefined in C (shifts past 63, INT64_MIN / -1)
 * is spelled out.
 */
static void arith(struct emit *m, int op, const char *a, const char *b,
		  const struct loc *loc)
{
	switch (op) {
	case OP_SLASH: case OP_DIV_ASSIGN:
	case OP_PERCENT: case OP_MOD_ASSIGN: {
		int div = op == OP_SLASH || op == OP_DIV_ASSIGN;

		if (m->prefix) {	/* by a literal other than 0 (hoist.c) */
			sb_printf(m->o, "(%s == -1 ? (int64_t)%s : %s %s %s)", b,
				  div ? ar_printf("(0 - (u64)%s)", a) : "0", a, div ? "/" : "%", b);
			return;
		}
		sb_printf(m->o, "({ if (!%s) STP_FAIL(&c->h, \"division by 0\", %s, %s); "
			  "%s == -1 ? (int64_t)%s : %s %s %s; })",
			  b, em_where(m, loc, div ? "operator '/'" : "operator '%'"), m->unwind,
			  b, div ? ar_printf("(0 - (u64)%s)", a) : "0", a, div ? "/" : "%", b);
		return;
	}
	case OP_SHL: case OP_SHL_ASSIGN:
		sb_printf(m->o, "(int64_t)((u64)%s << (%s & 63))", a, b);
		return;
	case OP_SHR: case OP_SHR_ASSIGN:
		sb_printf(m->o, "(%s >> (%s & 63))", a, b);
		return;
	case OP_PLUS: case OP_ADD_ASSIGN:
	case OP_MINUS: case OP_SUB_ASSIGN:
	case OP_STAR: case OP_MUL_ASSIGN:
		/* wrap around, as the script language says */
		sb_printf(m->o, "(int64_t)((u64)%s %s (u64)%s)", a, binop_c(op), b);
		return;
	default:
		sb_printf(m->o, "(int64_t)(%s %s %s)", a, binop_c(op), b);
	}
}

static void binary(struct emit *m, struct node *n)
{
	const char *a, *b;

	if (n->op == OP_ANDAND || n->op == OP_OROR) {
		out(m, "(int64_t)((");
		em_expr(m, n->lhs);
		out(m, n->op == OP_ANDAND ? ") && (" : ") || (");
		em_expr(m, n->rhs);
		out(m, "))");
		return;
	}
	if (n->op == OP_MATCH || n->op == OP_NOMATCH) {
		out(m, "({ const char *_rs = ");
		em_expr(m, n->lhs);
		out(m, "; const char *_rp = ");
		em_expr(m, n->rhs);
		sb_printf(m->o, "; int _rr = stp_regex_match(_rs, _rp); "
			  "if (_rr < 0) STP_FAIL(&c->h, \"bad regular expression\", %s, %s); "
			  "(int64_t)(_rr %s 0); })",
			  em_where(m, &n->loc, ar_printf("operator '%s'", op_spelling[n->op])),
			  m->unwind, n->op == OP_MATCH ? "!=" : "==");
		return;
	}
	if (n->op == OP_DOT) {
		const char *t = em_str_tmp(m);

		sb_printf(m->o, "({ const char *_a = ");
		em_expr(m, n->lhs);
		out(m, "; const char *_b = ");
		em_expr(m, n->rhs);
		sb_printf(m->o, "; stp_str_assign(%s->%s, _a); stp_str_append(%s->%s, _b); "
			  "(const char *)%s->%s; })", m->frame_ptr, t, m->frame_ptr, t,
			  m->frame_ptr, t);
		return;
	}
	a = em_tmp(m, "a");
	b = em_tmp(m, "b");
	if (is_str(n->lhs)) {
		sb_printf(m->o, "({ const char *%s = ", a);
		em_expr(m, n->lhs);
		sb_printf(m->o, "; const char *%s = ", b);
		em_expr(m, n->rhs);
		sb_printf(m->o, "; (int64_t)(strcmp(%s, %s) %s 0); })", a, b, binop_c(n->op));
		return;
	}
	sb_printf(m->o, "({ int64_t %s = ", a);
	em_expr(m, n->lhs);
	sb_printf(m->o, "; int64_t %s = ", b);
	em_expr(m, n->rhs);
	out(m, "; ");
	arith(m, n->op, a, b, &n->loc);
	out(m, "; })");
}

static void unary(struct emit *m, struct node *n)
{
	switch (n->op) {
	case OP_MINUS:
		out(m, "(int64_t)(0 - (u64)(");
		em_expr(m, n->lhs);
		out(m, "))");
		return;
	case OP_NOT:
		out(m, "(int64_t)!(");
		em_expr(m, n->lhs);
		out(m, ")");
		return;
	case OP_TILDE:
		out(m, "(int64_t)~(");
		em_expr(m, n->lhs);
		out(m, ")");
		return;
	default:
		out(m, "(int64_t)(");
		em_expr(m, n->lhs);
		out(m, ")");
	}
}

/* The C lvalue of a scalar variable (long or string). */
static const char *lvalue(struct emit *m, struct node *v)
{
	return em_sym(m, v->ref);
}

static void incdec(struct emit *m, struct node *n)
{
	const char *op = n->op == OP_INC ? "+" : "-";
	struct node *t = n->lhs;

	if (t->kind == N_INDEX) {
		const char *mp, *e, *p = em_tmp(m, "p");

		out(m, "({ ");
		e = index_entry(m, t, em_keys(m, &t->args), &mp);
		sb_printf(m->o, "int64_t *%s = stp_entry_long(%s, %s); int64_t _old = *%s; "
			  "*%s = (int64_t)((u64)_old %s 1); %s; })", p, mp, e, p, p, op,
			  n->post ? "_old" : ar_printf("*%s", p));
		return;
	}
	sb_printf(m->o, "({ int64_t _old = %s; %s = (int64_t)((u64)_old %s 1); %s; })",
		  lvalue(m, t), lvalue(m, t), op, n->post ? "_old" : lvalue(m, t));
}

/* "s <<< v", "a[k] <<< v" */
static void stat_add(struct emit *m, struct node *n)
{
	struct node *t = n->lhs;
	struct symbol *s = t->ref;
	const char *v = em_tmp(m, "v");

	sb_printf(m->o, "({ int64_t %s = ", v);
	if (t->kind == N_INDEX) {
		const char *k;

		/* keys first: the script's order */
		out(m, "0; ");
		k = em_keys(m, &t->args);
		sb_printf(m->o, "%s = ", v);
		em_expr(m, n->rhs);
		out(m, "; ");
		fail_if_full(m, ar_printf("stp_pmap_add(%s, %s, %s)", em_sym(m, s), k, v), s, &t->loc);
		sb_printf(m->o, "%s; })", v);
		return;
	}
	em_expr(m, n->rhs);
	sb_printf(m->o, "; stp_pstat_add(%s, %s); %s; })", em_sym(m, s), v, v);
}

static void assign(struct emit *m, struct node *n)
{
	struct node *t = n->lhs;
	int str = t->vtype == T_STRING || (t->ref && ((struct symbol *)t->ref)->type == T_STRING);

	if (n->op == OP_SHL_STAT) {
		stat_add(m, n);
		return;
	}
	if (t->kind == N_INDEX) {
		const char *mp, *e, *k, *v = em_tmp(m, "v");

		/*
		 * Keys, then the value, then the entry: the value may call a
		 * function that changes this very array.
		 */
		out(m, "({ ");
		k = em_keys(m, &t->args);
		if (str) {
			const char *tt = em_str_tmp(m);

			sb_printf(m->o, "const char *%s = ", v);
			em_expr(m, n->rhs);
			out(m, "; ");
			e = index_entry(m, t, k, &mp);
			if (n->op == OP_CAT_ASSIGN) {
				sb_printf(m->o, "stp_str_assign(%s->%s, stp_entry_str(%s, %s)); "
					  "stp_str_append(%s->%s, %s); %s = %s->%s; ",
					  m->frame_ptr, tt, mp, e, m->frame_ptr, tt, v, v,
					  m->frame_ptr, tt);
			}
			sb_printf(m->o, "stp_entry_set_str(%s, %s, %s); (const char *)stp_entry_str(%s, %s); })",
				  mp, e, v, mp, e);
			return;
		}
		sb_printf(m->o, "int64_t %s = ", v);
		em_expr(m, n->rhs);
		out(m, "; ");
		e = index_entry(m, t, k, &mp);
		if (n->op != OP_ASSIGN) {
			const char *old = em_tmp(m, "o");

			sb_printf(m->o, "int64_t %s = *stp_entry_long(%s, %s); %s = ", old, mp, e, v);
			arith(m, n->op, old, v, &n->loc);
			out(m, "; ");
		}
		sb_printf(m->o, "*stp_entry_long(%s, %s) = %s; %s; })", mp, e, v, v);
		return;
	}
	if (str) {
		const char *lv = lvalue(m, t);

		out(m, "({ const char *_v = ");
		em_expr(m, n->rhs);
		if (n->op == OP_CAT_ASSIGN)
			sb_printf(m->o, "; stp_str_append(%s, _v); (const char *)%s; })", lv, lv);
		else
			sb_printf(m->o, "; stp_str_assign(%s, _v); (const char *)%s; })", lv, lv);
		return;
	}
	if (n->op == OP_ASSIGN) {
		sb_printf(m->o, "(%s = ", lvalue(m, t));
		em_expr(m, n->rhs);
		out(m, ")");
		return;
	}
	{
		const char *v = em_tmp(m, "v"), *lv = lvalue(m, t);

		sb_printf(m->o, "({ int64_t %s = ", v);
		em_expr(m, n->rhs);
		sb_printf(m->o, "; %s = ", lv);
		arith(m, n->op, lv, v, &n->loc);
		sb_printf(m->o, "; %s; })", lv);
	}
}

/* (em_stat: the statistic an aggregate or histogram reads, see emit.h) */
const char *em_stat(struct emit *m, struct node *arg, const char **desc)
{
	struct symbol *s = arg->ref;

	*desc = ar_printf("%s_desc", em_sym(m, s));
	if (arg->kind == N_INDEX && em_is_pmap(s)) {
		/* one element combined, not the whole array (runtime/map.h) */
		const char *k = em_keys(m, &arg->args);

		return ar_printf("stp_pmap_stat(%s, %s)", em_sym(m, s), k);
	}
	if (arg->kind == N_INDEX) {
		const char *mp, *e = index_find(m, arg, &mp);

		return ar_printf("(%s ? stp_entry_stat(%s, %s) : NULL)", e, mp, e);
	}
	return ar_printf("stp_pstat_agg(%s)", em_sym(m, s));
}

static void aggregate(struct emit *m, struct node *n)
{
	struct node *arg = n->args.v[0];
	const char *desc, *st, *r = em_tmp(m, "r");

	out(m, "({ ");
	st = em_stat(m, arg, &desc);
	sb_printf(m->o, "struct stp_stat *_st = %s; int64_t %s = 0; ", st, r);
	if (n->at == ATOP_COUNT || n->at == ATOP_SUM) {
		sb_printf(m->o, "if (_st) stp_stat_get(_st, &%s, %s, &%s); %s; })",
			  desc, em_agg(n->at), r, r);
		return;
	}
	sb_printf(m->o, "if (!_st || stp_stat_get(_st, &%s, %s, &%s)) "
		  "STP_FAIL(&c->h, \"empty aggregate\", %s, %s); %s; })",
		  desc, em_agg(n->at), r,
		  em_where(m, &n->loc, ar_printf("operator '%s'", n->name)), m->unwind, r);
}

/* @hist_log(s)[i]: the count in bucket i. */
static void hist_bucket(struct emit *m, struct node *n)
{
	struct node *arg = n->args.v[0];
	struct node *sub = n->comps.v[0];
	const char *desc, *st;

	out(m, "({ ");
	st = em_stat(m, arg, &desc);
	out(m, "int64_t _i = ");
	em_expr(m, sub->lhs);
	sb_printf(m->o, "; struct stp_stat *_st = %s; "
		  "(_st && _i >= 0 && _i < %s.nbuckets) ? _st->hist[_i] : 0; })", st, desc);
}

static void at(struct emit *m, struct node *n)
{
	const char *s = n->name;

	if (at_is_hist(n->at)) {
		if (n->comps.len) {
			hist_bucket(m, n);
			return;
		}
		em_error(&n->loc, "a histogram can only be printed (print(%s(...)))", s);
		out(m, "0");
		return;
	}
	if (at_is_aggregate(n->at)) {
		aggregate(m, n);
		return;
	}
	if (n->at == ATOP_CONST && n->args.len == 1 &&
	    ((struct node *)n->args.v[0])->kind == N_STR) {
		/* guru mode: a C constant expression, as written */
		sb_printf(m->o, "((int64_t)(%s))", ((struct node *)n->args.v[0])->str);
		return;
	}
	if (n->at == ATOP_ENTRY && pmap_get(&m->entry_slot, n)) {
		/* saved when the function was entered (emit.c's entry probe) */
		int slot = (int)(intptr_t)pmap_get(&m->entry_slot, n) - 1;

		sb_printf(m->o, "(((struct p%d_entry *)c->h.entry)->e%d)", m->probe_idx, slot);
		return;
	}
	if (n->at == ATOP_DEFINED) {
		out(m, "(int64_t)1");
		return;
	}
	if (n->at == ATOP_PERF) {
		em_perf_read(m, n);
		return;
	}
	em_error(&n->loc, "'%s' needs kernel probes or debuginfo, which this build of stp does not translate yet", s);
	out(m, "0");
}

void em_expr(struct emit *m, struct node *n)
{
	switch (n->kind) {
	case N_NUM:
		if (n->num == INT64_MIN)
			out(m, "(int64_t)(-9223372036854775807LL - 1)");
		else
			sb_printf(m->o, "(int64_t)%lldLL", (long long)n->num);
		return;
	case N_STR:
		sb_printf(m->o, "(const char *)%s", em_cstr(n->str));
		return;
	case N_EMBEDDED:
		sb_printf(m->o, "((int64_t)(%s))", n->str);
		return;
	case N_VAR:
		if (n->vtype == T_STRING)
			sb_printf(m->o, "(const char *)%s", lvalue(m, n));
		else
			sb_printf(m->o, "%s", lvalue(m, n));
		return;
	case N_INDEX:
		index_read(m, n);
		return;
	case N_IN:
		in_expr(m, n);
		return;
	case N_CALL:
		if (em_is_sprint(n->name))
			em_sprint(m, n);
		else
			em_call(m, n);
		return;
	case N_BINARY:
		binary(m, n);
		return;
	case N_UNARY:
		unary(m, n);
		return;
	case N_INCDEC:
		incdec(m, n);
		return;
	case N_ASSIGN:
		assign(m, n);
		return;
	case N_TERNARY:
		out(m, "((");
		em_expr(m, n->cond);
		out(m, ") ? (");
		em_expr(m, n->then);
		out(m, ") : (");
		em_expr(m, n->els);
		out(m, "))");
		return;
	case N_AT:
		if (n->ref && is_cast_or_var(n))
			em_call(m, n);
		else
			at(m, n);
		return;
	case N_TARGET:
		if (n->ref) {	/* DWARF's generated function (dwarf_var.c) */
			em_call(m, n);
			return;
		}
		if (!strcmp(n->name, "$return") && !n->comps.len) {
			sb_puts(m->o, "((int64_t)stp_return_value(c->h.regs))");
			return;
		}
		em_error(&n->loc, "target variable '%s' needs debuginfo, which this build of stp does not translate yet",
			 n->name);
		sb_puts(m->o, "0");
		return;
	default:
		em_error(&n->loc, "this expression needs kernel probes or debuginfo, which this build of stp does not translate yet");
		out(m, "0");
	}
}

/*
 * f(a, b): arguments into temporaries (they may call functions too, and
 * use the same frame slot), then into the callee's frame, then the call.
 * Overloads run in priority order while each says "next".
 */
/* The call's arguments, each evaluated once into a temporary (strings
 * copied into the frame) before any overload's frame is written. */
/* A variable, number or literal: reading it changes nothing. */
static int is_plain(const struct node *a)
{
	return a->kind == N_VAR || a->kind == N_NUM || a->kind == N_STR;
}

/*
 * A string the later arguments cannot change before the call: a literal,
 * or a local or parameter of the caller when only plain arguments follow
 * (the callee's frame is another one).  It goes to the callee's frame
 * without a copy first.
 */
static int str_stays(const struct node *n, int i, int na)
{
	const struct node *a = n->args.v[i];
	const struct symbol *s = a->kind == N_VAR ? a->ref : NULL;

	if (a->kind == N_STR)
		return 1;
	if (!s || (s->kind != SYM_LOCAL && s->kind != SYM_PARAM))
		return 0;
	for (int j = i + 1; j < na; j++)
		if (!is_plain(n->args.v[j]))
			return 0;
	return 1;
}

static void call_args(struct emit *m, struct node *n, const char **args, int na)
{
	for (int i = 0; i < na; i++) {
		struct node *a = n->args.v[i];

		args[i] = em_tmp(m, "x");
		if (is_str(a) && str_stays(n, i, na)) {
			sb_printf(m->o, "const char *%s = ", args[i]);
			em_expr(m, a);
			out(m, "; ");
		} else if (is_str(a)) {
			const char *t = em_str_tmp(m);

			sb_printf(m->o, "const char *%s = ", args[i]);
			em_expr(m, a);
			sb_printf(m->o, "; stp_str_assign(%s->%s, %s); %s = %s->%s; ", m->frame_ptr,
				  t, args[i], args[i], m->frame_ptr, t);
		} else {
			sb_printf(m->o, "int64_t %s = ", args[i]);
			em_expr(m, a);
			out(m, "; ");
		}
	}
}

/* What one call of the overload g needs to know of the whole call. */
struct call {
	struct function *f;	/* the first overload: the call's type */
	const char **args;
	int na;
	const char *where;	/* the call site, for errors */
	const char *res;	/* where the result goes */
	int can_fail;
};

/* Overload g: its parameters, the call, its result. */
static void call_overload(struct emit *m, const struct call *k, struct function *g)
{
	const char *fr = ar_printf("c->fr[c->h.nesting + 1].%s", em_sym(m, (void *)g));

	for (int i = 0; i < k->na; i++) {
		struct symbol *p = g->params[i];

		if (p->type == T_STRING)
			sb_printf(m->o, "stp_str_assign(%s.a_%s, %s); ", fr, p->name, k->args[i]);
		else
			sb_printf(m->o, "%s.a_%s = %s; ", fr, p->name, k->args[i]);
	}
	if (fn_may_fail(g))
		sb_printf(m->o, "c->h.call_where = %s; ", k->where);
	/* a string result is written straight into the caller's temp */
	if (g->ret == T_STRING)
		sb_printf(m->o, "%s.ret = %s; ", fr, k->f->ret == T_STRING ? k->res :
			  ar_printf("%s->%s", m->frame_ptr, em_str_tmp(m)));
	if (g->decl->body->kind == N_EMBEDDED)	/* its frame: nesting + 1 */
		sb_printf(m->o, "%s(c); ", em_sym(m, (void *)g));
	else
		sb_printf(m->o, "c->h.nesting++; %s(c); c->h.nesting--; ", em_sym(m, (void *)g));
	if (g->ret == T_LONG && k->f->ret != T_STRING)
		sb_printf(m->o, k->can_fail ? "if (!c->h.error) %s = %s.ret; " : "%s = %s.ret; ",
			  k->res, fr);
}

void em_call(struct emit *m, struct node *n)
{
	struct function *f = n->ref;
	const char *args[64];
	struct call k = { .f = f, .args = args };
	int nest = 0, leaf = 1;

	if (m->prefix) {
		em_prefix_call(m, n);
		return;
	}
	k.where = em_where(m, &n->loc, ar_printf("identifier '%s'", n->name));
	k.na = n->args.len < 64 ? n->args.len : 64;
	if (!f) {
		out(m, "0");
		return;
	}
	for (struct function *g = f; g; g = g->next) {
		leaf &= g->decl->body->kind == N_EMBEDDED;
		k.can_fail |= fn_may_fail(g) || g->next;
	}
	out(m, "({ ");
	call_args(m, n, args, k.na);
	/*
	 * Embedded C is a leaf: it cannot nest further, and the frames
	 * have one slot past MAXNESTING for it, so it is not counted.
	 */
	if (!leaf)
		sb_printf(m->o, "if (c->h.nesting >= MAXNESTING) STP_FAIL(&c->h, \"MAXNESTING exceeded\", %s, %s); ",
			  k.where, m->unwind);
	if (f->ret == T_STRING) {
		k.res = ar_printf("%s->%s", m->frame_ptr, em_str_tmp(m));
	} else {
		k.res = em_tmp(m, "ret");
		sb_printf(m->o, "int64_t %s = 0; ", k.res);
	}
	for (struct function *g = f; g; g = g->next) {
		call_overload(m, &k, g);
		/* "next" in an overload tries the one after it */
		if (g->next)
			sb_printf(m->o, "if (c->h.error == stp_next_mark) { c->h.error = NULL; ");
		nest += !!g->next;
	}
	for (int i = 0; i < nest; i++)
		out(m, "} ");
	if (k.can_fail)
		sb_printf(m->o, "if (c->h.error) goto %s; ", m->unwind);
	sb_printf(m->o, f->ret == T_STRING ? "(const char *)%s; })" : "%s; })", k.res);
}
