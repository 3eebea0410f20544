// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Expressions, for either side.  A long is a C expression of type
 * int64_t; a string is a pointer expression (a literal, a variable's
 * buffer, or a temporary in struct stp_ctx filled by a GNU statement
 * expression), so that every expression composes without a separate
 * list of statements.  Errors (division by 0, a full map) go through
 * stp_error() and the handler stops after the statement.
 */
#include "bpf.h"

#include <stdarg.h>
#include <string.h>

static int uniq;

/* A fresh string temporary: 2 * MAXSTRINGLEN, so that a concatenation's
 * second copy stays in bounds the verifier can see. */
const char *bx_temp(struct bx *x)
{
	int i = x->ntemp++;

	sb_printf(&x->ctx, "\tchar t%d[2 * MAXSTRINGLEN];\n", i);
	return ar_printf("c->t%d", i);
}

const char *bx_local(struct bx *x, const struct symbol *s)
{
	if (s->kind == SYM_GLOBAL)
		return ar_printf("stp_g.g_%s", s->name);
	if (x->prefix)		/* no context yet: gen_prefix.c's C locals */
		return ar_printf("pl_%s", s->name);
	return ar_printf("c->%s_%s", x->pfx, s->name);
}

static const char *kind_text(const struct node *n)
{
	switch (n->kind) {
	case N_BINARY: case N_UNARY: case N_ASSIGN: case N_INCDEC:
		return ar_printf("operator '%s'", op_spelling[n->op]);
	case N_AT:
		return ar_printf("operator '%s'", n->name);
	default:
		return ar_printf("identifier '%s'", n->name ? n->name : "?");
	}
}

/* `stp_error(...)` for what happened near n. */
static const char *err_call(struct bx *x, const struct node *n, const char *what)
{
	int id = bx_error_site(x, &n->loc, ar_printf("%s near %s", what, kind_text(n)));

	return ar_printf("stp_error(stp_k, %d)", id);
}

/* The address of a filled key for arr[keys] (or the scalar key 0). */
const char *bx_key(struct bx *x, const struct symbol *s, struct vec *keys)
{
	int g = bx_global_index(x, s), slot = x->nslot++;
	struct sbuf b = { 0 };

	if (!s->arity) {
		sb_printf(&x->ctx, "\tunsigned k%d;\n", slot);
		return ar_printf("({ c->k%d = 0; &c->k%d; })", slot, slot);
	}
	sb_printf(&x->ctx, "\tstruct k_%d k%d;\n", g, slot);
	sb_printf(&b, "({ __builtin_memset(&c->k%d, 0, sizeof(c->k%d)); ", slot, slot);
	for (int i = 0; i < keys->len; i++) {
		struct node *k = keys->v[i];

		if (k->kind == N_STAR) {
			bx_refuse(x, &k->loc, "array slices are not supported by --runtime=bpf yet");
			continue;
		}
		const char *dst = ar_printf("c->k%d.k%d", slot, i), *into;

		if (s->keys[i] == T_STRING && (into = bx_str_into(x, k, dst)))
			sb_printf(&b, "%s; ", into);
		else if (s->keys[i] == T_STRING)
			sb_printf(&b, "stp_strncpy(%s, %s, sizeof(%s)); ", dst, bx_str(x, k), dst);
		else
			sb_printf(&b, "%s = %s; ", dst, bx_long(x, k));
	}
	sb_printf(&b, "&c->k%d; })", slot);
	return b.s;
}

/* The array symbol and key address of arr[keys], or of a scalar stat. */
static const struct symbol *elem(struct bx *x, struct node *n, const char **key)
{
	struct node *v = n->kind == N_INDEX ? n->lhs : n;
	const struct symbol *s = v->ref;

	*key = bx_key(x, s, n->kind == N_INDEX ? &n->args : NULL);
	return s;
}

static const char *divide(struct bx *x, struct node *n, const char *a, const char *b)
{
	int u = uniq++;

	if (x->prefix)		/* by a literal other than 0 (hoist.c) */
		return ar_printf("%s(%s, %s)", n->op == OP_SLASH || n->op == OP_DIV_ASSIGN ?
				 "stp_div" : "stp_mod", a, b);

	return ar_printf("({ int64_t _a%d = %s, _b%d = %s; if (!_b%d) %s; "
			 "_b%d ? %s(_a%d, _b%d) : 0; })", u, a, u, b, u,
			 err_call(x, n, "division by 0"), u, n->op == OP_SLASH ||
			 n->op == OP_DIV_ASSIGN ? "stp_div" : "stp_mod", u, u);
}

static const char *c_op(int op)
{
	switch (op) {
	case OP_ADD_ASSIGN: return "+";
	case OP_SUB_ASSIGN: return "-";
	case OP_MUL_ASSIGN: return "*";
	case OP_AND_ASSIGN: return "&";
	case OP_OR_ASSIGN: return "|";
	case OP_XOR_ASSIGN: return "^";
	case OP_SHL_ASSIGN: return "<<";
	case OP_SHR_ASSIGN: return ">>";
	default: return op_spelling[op];
	}
}

/* a OP b for longs, the operator as an assignment or binary one has it. */
static const char *arith(struct bx *x, struct node *n, int op, const char *a, const char *b)
{
	if (op == OP_SLASH || op == OP_PERCENT || op == OP_DIV_ASSIGN || op == OP_MOD_ASSIGN)
		return divide(x, n, a, b);
	return ar_printf("(%s %s %s)", a, c_op(op), b);
}

/* A string in a buffer: the kernel's verifier lets a loop read a
 * buffer of MAXSTRINGLEN, not a shorter literal. */
static const char *str_buf(struct bx *x, struct node *n)
{
	const char *t;

	if (x->side == BX_USER || n->kind != N_STR)
		return bx_str(x, n);
	t = bx_temp(x);
	return ar_printf("({ stp_strcpy(%s, %s); %s; })", t, bx_str(x, n), t);
}

static const char *binary(struct bx *x, struct node *n)
{
	if (n->lhs->vtype == T_STRING && n->op != OP_ANDAND && n->op != OP_OROR) {
		if (n->op == OP_MATCH || n->op == OP_NOMATCH) {
			bx_refuse(x, &n->loc, "regular expressions are not supported by --runtime=bpf yet");
			return "0";
		}
		return ar_printf("(stp_strcmp(%s, %s) %s 0)", str_buf(x, n->lhs), str_buf(x, n->rhs),
				 op_spelling[n->op]);
	}
	if (n->op == OP_ANDAND || n->op == OP_OROR)
		return ar_printf("(%s %s %s)", bx_long(x, n->lhs), op_spelling[n->op],
				 bx_long(x, n->rhs));
	return arith(x, n, n->op, bx_long(x, n->lhs), bx_long(x, n->rhs));
}

/* v, the new value, stored in array element lv; its value. */
static const char *store_elem(struct bx *x, struct node *lv, const char *v)
{
	const char *key;
	const struct symbol *s = elem(x, lv, &key);
	int u = uniq++;

	return ar_printf("({ int64_t _v%d = %s; if (!stp_k->err && stp_put(%s, %s, &_v%d)) %s; _v%d; })", u, v,
			 bx_mapref(x, s), key, u,
			 err_call(x, lv->lhs, "Array overflow, check MAXMAPENTRIES"), u);
}

/* lv OP= d on a long (op OP_ASSIGN for plain =); post: the old value. */
static const char *update(struct bx *x, struct node *n, struct node *lv, int op,
			  const char *d, int post)
{
	int u = uniq++;

	if (lv->kind == N_INDEX) {
		const char *key;
		const struct symbol *s;

		if (op == OP_ASSIGN)
			return store_elem(x, lv, d);
		if (op == OP_ADD_ASSIGN || op == OP_SUB_ASSIGN) {
			s = elem(x, lv, &key);
			return ar_printf("({ int64_t _d%d = %s%s, _o%d = 0; if (stp_add_long(%s, %s, "
					 "_d%d, &_o%d)) %s; _o%d%s; })", u,
					 op == OP_SUB_ASSIGN ? "-" : "", d, u, bx_mapref(x, s), key,
					 u, u, err_call(x, lv->lhs, "Array overflow, check MAXMAPENTRIES"),
					 u, post ? ar_printf(" - _d%d", u) : "");
		}
		return store_elem(x, lv, arith(x, n, op, bx_long(x, lv), d));
	}
	const struct symbol *s = lv->ref;
	const char *var = bx_local(x, s);

	/* a number cannot fail: stored as is, so that the compiler sees the
	 * constant (chopstix_count's weight 1 skips its per-CPU adds) */
	if (op == OP_ASSIGN && n->rhs && n->rhs->kind == N_NUM)
		return ar_printf("(%s = %s)", var, d);
	if (op == OP_ASSIGN)	/* not after an error in d: the run stops there */
		return ar_printf("({ int64_t _v%d = %s; if (!stp_k->err) %s = _v%d; %s; })", u, d,
				 var, u, var);
	if (x->side == BX_KERN && s->kind == SYM_GLOBAL &&
	    (op == OP_ADD_ASSIGN || op == OP_SUB_ASSIGN))
		return ar_printf("({ int64_t _d%d = %s%s; __sync_fetch_and_add(&%s, _d%d)%s; })",
				 u, op == OP_SUB_ASSIGN ? "-" : "", d, var, u,
				 post ? "" : ar_printf(" + _d%d", u));
	return ar_printf("({ int64_t _o%d = %s, _r%d = %s; if (!stp_k->err) %s = _r%d; %s; })",
			 u, var, u,
			 arith(x, n, op, ar_printf("_o%d", u), d), var, u,
			 post ? ar_printf("_o%d", u) : var);
}

static const char *stat_add(struct bx *x, struct node *n)
{
	const char *key;
	const struct symbol *s = elem(x, n->lhs, &key);
	int u = uniq++;
	const char *b = bx_hist_bucket(x, s, ar_printf("_v%d", u));
	const char *add = b ? ar_printf("stp_hstat_add(%s, %s, _v%d, %s)", bx_mapref(x, s), key, u, b)
		: ar_printf("stp_stat_add(%s, %s, _v%d)", bx_mapref(x, s), key, u);

	return ar_printf("({ int64_t _v%d = %s; if (%s) %s; _v%d; })",
			 u, bx_long(x, n->rhs), add,
			 err_call(x, n->lhs->kind == N_INDEX ? n->lhs->lhs : n->lhs,
				  "Array overflow, check MAXMAPENTRIES"), u);
}

/* dst = src for a string lvalue; the value's pointer. */
static const char *store_str(struct bx *x, struct node *lv, const char *src)
{
	if (lv->kind == N_INDEX) {
		const char *key, *t = bx_temp(x);
		const struct symbol *s = elem(x, lv, &key);

		return ar_printf("({ stp_strcpy(%s, %s); if (stp_put(%s, %s, %s)) %s; %s; })", t,
				 src, bx_mapref(x, s), key, t,
				 err_call(x, lv->lhs, "Array overflow, check MAXMAPENTRIES"), t);
	}
	const char *var = bx_local(x, lv->ref);

	return ar_printf("({ stp_strcpy(%s, %s); %s; })", var, src, var);
}

static const char *assign_str(struct bx *x, struct node *n)
{
	const char *v = bx_str(x, n->rhs);

	if (n->op == OP_CAT_ASSIGN) {
		const char *t = bx_temp(x);

		v = ar_printf("({ stp_concat(%s, %s, %s); %s; })", t, bx_str(x, n->lhs), v, t);
	}
	return store_str(x, n->lhs, v);
}

static const char *assign(struct bx *x, struct node *n)
{
	if (n->op == OP_SHL_STAT)
		return stat_add(x, n);
	if (n->lhs->vtype == T_STRING)
		return ar_printf("(%s != 0)", assign_str(x, n));
	return update(x, n, n->lhs, n->op, bx_long(x, n->rhs), 0);
}

int bx_agg_index(int at)
{
	return at >= ATOP_COUNT && at <= ATOP_AVG ? at - ATOP_COUNT : -1;
}

/* @count(s) and friends: the CPUs' shares added up (user space). */
static const char *aggregate(struct bx *x, struct node *n)
{
	const char *key;
	const struct symbol *s;
	int a = bx_agg_index(n->at), u = uniq++;

	if (bx_is_hist_bucket(n))
		return bx_hist_get(x, n);
	if (a < 0 || !n->args.len) {
		bx_refuse(x, &n->loc, "%s is not supported by --runtime=bpf yet", n->name);
		return "0";
	}
	s = elem(x, n->args.v[0], &key);
	return ar_printf("({ struct stp_bstat _s%d; stp_stat_read(%s, %s, &_s%d); "
			 "if (!_s%d.count && %d > 1) %s; %s; })", u, bx_mapref(x, s), key, u, u, a,
			 err_call(x, n, "empty aggregate"),
			 a == 0 ? ar_printf("_s%d.count", u) : a == 1 ? ar_printf("_s%d.sum", u) :
			 a == 2 ? ar_printf("_s%d.min", u) : a == 3 ? ar_printf("_s%d.max", u) :
			 ar_printf("(_s%d.count ? stp_div(_s%d.sum, _s%d.count) : 0)", u, u, u));
}

/* The statistic of @hist_*(s) or @hist_*(a[k]), and its key's C. */
const struct symbol *bx_hist_stat(struct bx *x, struct node *h, const char **key)
{
	if (!h->args.len) {
		bx_refuse(x, &h->loc, "%s needs a statistic", h->name);
		return NULL;
	}
	return elem(x, h->args.v[0], key);
}

/* print(@hist_*(s)) and print(@hist_*(a[k])) */
const char *bx_hist_print_call(struct bx *x, struct node *h)
{
	const char *key;
	const struct symbol *s = bx_hist_stat(x, h, &key);

	return s ? bx_hist_print(x, h, key, s) : "0";
}

static const char *in(struct bx *x, struct node *n)
{
	const struct symbol *s = n->lhs->ref;

	return ar_printf("stp_in(%s, %s)", bx_mapref(x, s), bx_key(x, s, &n->args));
}

static const char *var_long(struct bx *x, struct node *n)
{
	const struct symbol *s = n->ref;

	if (n->kind == N_INDEX) {
		const char *key;

		s = elem(x, n, &key);
		return ar_printf("stp_get_long(%s, %s)", bx_mapref(x, s), key);
	}
	return bx_local(x, s);
}

const char *bx_long(struct bx *x, struct node *n)
{
	switch (n->kind) {
	case N_NUM:
		return ar_printf("((int64_t)%lldLL)", (long long)n->num);
	case N_VAR:
	case N_INDEX:
		return var_long(x, n);
	case N_BINARY:
		return binary(x, n);
	case N_UNARY:
		return ar_printf("(%s%s)", n->op == OP_PLUS ? "" : op_spelling[n->op],
				 bx_long(x, n->lhs));
	case N_INCDEC:
		return update(x, n, n->lhs, n->op == OP_INC ? OP_ADD_ASSIGN : OP_SUB_ASSIGN,
			      "1", n->post);
	case N_ASSIGN:
		return assign(x, n);
	case N_TERNARY:
		return ar_printf("(%s ? %s : %s)", bx_long(x, n->cond), bx_long(x, n->then),
				 bx_long(x, n->els));
	case N_IN:
		return in(x, n);
	case N_CALL:
	case N_TARGET:
		return bx_call_long(x, n);
	case N_AT:
		if (bx_kentry_find(n))
			return bx_kentry_find(n);
		if (n->ref)
			return bx_call_long(x, n);
		if (n->at == ATOP_ENTRY)
			return bx_entry_value(x, n);
		return aggregate(x, n);
	default:
		bx_refuse(x, &n->loc, "this expression is not supported by --runtime=bpf yet");
		return "0";
	}
}

const char *bx_str(struct bx *x, struct node *n)
{
	const char *t;

	switch (n->kind) {
	case N_STR:
		return ar_printf("\"%s\"", n->str);
	case N_VAR:
		return bx_local(x, n->ref);
	case N_INDEX: {
		const char *key;
		const struct symbol *s = elem(x, n, &key);

		t = bx_temp(x);
		return ar_printf("({ stp_get_str(%s, %s, %s); %s; })", bx_mapref(x, s), key, t, t);
	}
	case N_BINARY:
		t = bx_temp(x);
		return ar_printf("({ stp_concat(%s, %s, %s); %s; })", t, bx_str(x, n->lhs),
				 bx_str(x, n->rhs), t);
	case N_TERNARY:
		return ar_printf("(%s ? (const char *)%s : (const char *)%s)", bx_long(x, n->cond),
				 bx_str(x, n->then), bx_str(x, n->els));
	case N_ASSIGN:
		return assign_str(x, n);
	case N_AT:
		if (bx_kentry_find(n))
			return bx_kentry_find(n);
		if (!n->ref && n->at == ATOP_ENTRY)
			return bx_entry_value(x, n);
		return bx_call_str(x, n);
	case N_CALL:
	case N_TARGET:
		return bx_call_str(x, n);
	default:
		bx_refuse(x, &n->loc, "this string expression is not supported by --runtime=bpf yet");
		return "\"\"";
	}
}
