// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Histograms: a statistic the script reads with @hist_log or
 * @hist_linear keeps its buckets beside its aggregates (struct
 * stp_bhist, shared.h), counted in the kernel as values arrive; user
 * space adds the CPUs' buckets up and draws them (staprun/bpf/hist.c
 * with runtime/stat.c), so print(@hist_*(s)) runs in begin, end and
 * error probes.  Bounds are checked as the kmod backend checks them.
 */
#include "bpf.h"

#include <string.h>

static int literal(const struct node *n, int64_t *v)
{
	if (n->kind == N_NUM) {
		*v = n->num;
		return 1;
	}
	if (n->kind == N_UNARY && (n->op == OP_MINUS || n->op == OP_PLUS) && literal(n->lhs, v)) {
		if (n->op == OP_MINUS)
			*v = (int64_t)(0 - (uint64_t)*v);
		return 1;
	}
	return 0;
}

/* s's histogram: BX_HIST_NONE, _LOG, or _LINEAR with v = start, stop,
 * interval (a bad linear one is refused, at its node, once). */
int bx_hist_of(struct bx *x, const struct symbol *s, int64_t v[3])
{
	const struct node *h = s->hist;

	if (!h)
		return BX_HIST_NONE;
	if (h->at == ATOP_HIST_LOG)
		return BX_HIST_LOG;
	for (int i = 0; i < 3; i++)
		if (h->args.len != 4 || !literal(h->args.v[i + 1], &v[i])) {
			bx_refuse(x, &h->loc, "@hist_linear takes numbers as its bounds and width");
			return BX_HIST_NONE;
		}
	if (v[2] <= 0 || v[1] <= v[0] || (v[1] - v[0]) / v[2] > STP_BHIST_BUCKETS - 3) {
		bx_refuse(x, &h->loc, "@hist_linear(%lld, %lld, %lld): the width must be positive, "
			  "the high bound above the low one, and at most %d buckets",
			  (long long)v[0], (long long)v[1], (long long)v[2], STP_BHIST_BUCKETS - 3);
		return BX_HIST_NONE;
	}
	return BX_HIST_LINEAR;
}

/* The C of value v's bucket in s's histogram, or NULL without one. */
const char *bx_hist_bucket(struct bx *x, const struct symbol *s, const char *v)
{
	int64_t b[3];

	switch (bx_hist_of(x, s, b)) {
	case BX_HIST_LOG:
		return ar_printf("stp_log_bucket(%s)", v);
	case BX_HIST_LINEAR:
		return ar_printf("stp_lin_bucket(%s, %lldLL, %lldLL, %lld)", v, (long long)b[0],
				 (long long)b[2], (long long)((b[1] - b[0]) / b[2] + 3));
	default:
		return NULL;
	}
}

int bx_is_hist(const struct node *a)
{
	return a->kind == N_AT && at_is_hist(a->at) && !a->comps.len;
}

int bx_is_hist_bucket(const struct node *a)
{
	return a->kind == N_AT && at_is_hist(a->at) && a->comps.len == 1 &&
	       ((struct node *)a->comps.v[0])->kind == N_SUBSCRIPT;
}

/* How many buckets s's histogram has (foreach's bound); 0 for none. */
int bx_hist_nbuckets(struct bx *x, const struct symbol *s)
{
	int64_t b[3];

	switch (bx_hist_of(x, s, b)) {
	case BX_HIST_LOG:
		return STP_BHIST_BUCKETS;
	case BX_HIST_LINEAR:
		return (int)((b[1] - b[0]) / b[2] + 3);
	default:
		return 0;
	}
}

/* @hist_*(s)[i]: bucket i's count, the CPUs' added up (user space). */
const char *bx_hist_get(struct bx *x, struct node *n)
{
	const char *key;
	const struct symbol *s = bx_hist_stat(x, n, &key);

	if (!s)
		return "0";
	if (x->side != BX_USER) {
		bx_refuse(x, &n->loc, "a histogram's bucket in a kernel probe is not supported by "
			  "--runtime=bpf yet (read it in an end probe)");
		return "0";
	}
	return ar_printf("stp_u_hist_get(%s, %s, %s, %d)", bx_mapref(x, s), key,
			 bx_long(x, ((struct node *)n->comps.v[0])->lhs), bx_hist_nbuckets(x, s));
}

/* print(@hist_*(s)): drawn in user space, from the map there, or from
 * a kernel probe's snapshot record (kern.h's stp_hist_send). */
const char *bx_hist_print(struct bx *x, struct node *h, const char *key,
			  const struct symbol *s)
{
	int64_t b[3] = { 0, 0, 0 };
	int kind;

	(void)h;
	kind = bx_hist_of(x, s, b);
	if (kind == BX_HIST_NONE)
		return "0";
	if (x->side != BX_USER) {
		if (!x->has_hrec)
			sb_puts(&x->ctx, "\tstruct stp_hist_rec hrec;\n");
		x->has_hrec = 1;
		vec_push(&x->t->fmts, "");
		vec_push(&x->t->types, ar_printf("h%d %lld %lld %lld", kind == BX_HIST_LINEAR,
						 (long long)b[0], (long long)b[1],
						 (long long)b[2]));
		return ar_printf("({ if (!stp_k->err) stp_hist_send(%s, %s, %d, &c->hrec); "
				 "(int64_t)0; })", bx_mapref(x, s), key, x->t->fmts.len - 1);
	}
	return ar_printf("({ stp_u_hist(%s, %s, %d, %lldLL, %lldLL, %lldLL); (int64_t)0; })",
			 bx_mapref(x, s), key, kind == BX_HIST_LINEAR, (long long)b[0],
			 (long long)b[1], (long long)b[2]);
}
