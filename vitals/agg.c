// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The aggregator: each vital sign's figures per bucket of a timescale.
 * A bucket is one epoch, or the UTC hour or day its epochs start in.
 * Weights, events, samples and drops add up over the bucket's epochs;
 * unique events come from the union of their HCA occupancy bitmaps
 * (hca_count.h), one union per HCA size, the sizes' counts added (an
 * epoch without a bitmap adds its own unique count); a vital is
 * available when one of the epochs could measure it.  The top sites,
 * programs and users come from the epochs' samples (agg_top.c), read
 * only when tops are asked for: a bucket kept without them is computed
 * again, with them, the first time they are.
 * Buckets are kept
 * in the store (agg_keep.c) and known again by their epochs' count and
 * ids, so new epochs or a trim make a bucket computed anew.
 */
#include <stdlib.h>
#include <string.h>

#include "agg_int.h"
#include "hca_count.h"
#include "strpool.h"

#define HOUR_NS 3600000000000LL
#define DAY_NS (24 * HOUR_NS)

/* One vital over the bucket being computed. */
struct acc {
	struct vagg_point p;
	uint64_t unique_rest;	/* from epochs without a bitmap */
	struct occ {
		uint32_t nbits;
		uint64_t *bits;
	} *occ;
	uint32_t nocc;
};

struct agg {
	struct vread *r;
	struct akeep *keep;
	int scale;
	int64_t from, to;
	struct vr_epoch *ep;	/* the range's epochs (ids and times) */
	size_t nep, cap;
	struct acc *acc;	/* the bucket's vitals, in the store's order */
	uint32_t nacc, acc_cap;
	struct atop *top;	/* the bucket's tops, counted */
	struct vagg_point *pts;	/* the bucket's points, for the keeping */
	int (*fn)(void *arg, const struct vagg_point *p);
	int (*tfn)(void *arg, const struct vagg_top *t);	/* or tops */
	void *arg;
};

static int64_t bucket_ns(int scale)
{
	return scale == VAGG_HOUR ? HOUR_NS : DAY_NS;
}

/* The start of the bucket holding t (hour or day), rounding down. */
static int64_t floor_to(int64_t t, int64_t unit)
{
	int64_t q = t / unit;

	return (t % unit < 0 ? q - 1 : q) * unit;
}

static int collect(void *arg, const struct vr_epoch *e)
{
	struct agg *a = arg;

	if (a->nep == a->cap) {
		a->cap = a->cap ? a->cap * 2 : 256;
		a->ep = vmust(realloc(a->ep, a->cap * sizeof(*a->ep)));
	}
	a->ep[a->nep] = *e;
	a->ep[a->nep++].host = NULL;
	return 0;
}

static struct acc *acc_of(struct agg *a, const char *vital)
{
	for (uint32_t i = 0; i < a->nacc; i++)
		if (!strcmp(a->acc[i].p.vital, vital))
			return &a->acc[i];
	if (a->nacc == a->acc_cap) {
		a->acc_cap = a->acc_cap ? a->acc_cap * 2 : 16;
		a->acc = vmust(realloc(a->acc, a->acc_cap * sizeof(*a->acc)));
	}
	a->acc[a->nacc] = (struct acc){ .p.vital = vmust(strdup(vital)) };
	return &a->acc[a->nacc++];
}

/* The vital's bitmap ORed into the union of its size. */
static void add_occ(struct acc *c, const struct vr_vital *v)
{
	uint32_t nbits = v->v.hca_len, i;

	for (i = 0; i < c->nocc && c->occ[i].nbits != nbits; i++)
		;
	if (i == c->nocc) {
		c->occ = vmust(realloc(c->occ, (c->nocc + 1) * sizeof(*c->occ)));
		c->occ[i] = (struct occ){ nbits, vmust(calloc(vhca_words(nbits),
							     sizeof(uint64_t))) };
		c->nocc++;
	}
	vhca_or(c->occ[i].bits, v->occ, nbits);
}

static int add_vital(void *arg, const struct vr_epoch *e,
		     const struct vr_vital *v)
{
	struct acc *c = acc_of(arg, v->v.vital ? v->v.vital : "?");

	(void)e;
	c->p.weight += v->v.weight;
	c->p.events += v->v.count;
	c->p.samples += v->v.samples;
	c->p.dropped += v->v.dropped;
	c->p.epochs++;
	c->p.available |= !!v->v.available;
	if (v->occ && v->v.hca_len)
		add_occ(c, v);
	else
		c->unique_rest += v->v.unique;
	return 0;
}

/* The bucket's points from its epochs ep[0..n), into a->acc. */
static int compute(struct agg *a, const struct abucket *b,
		   const struct vr_epoch *ep, size_t n)
{
	struct acc *c;

	a->nacc = 0;
	for (size_t i = 0; i < n; i++)
		if (vread_vitals(a->r, &ep[i], add_vital, a) ||
		    (a->tfn && atop_add_epoch(a->top, a->r, &ep[i])))
			return -1;
	for (uint32_t i = 0; i < a->nacc; i++) {
		c = &a->acc[i];
		c->p.start_ns = b->start_ns;
		c->p.end_ns = b->end_ns;
		c->p.unique = c->unique_rest;
		for (uint32_t k = 0; k < c->nocc; k++)
			c->p.unique += vhca_unique(c->occ[k].bits,
						   c->occ[k].nbits);
	}
	return 0;
}

static void clear_acc(struct agg *a)
{
	for (uint32_t i = 0; i < a->nacc; i++) {
		free((char *)a->acc[i].p.vital);
		for (uint32_t k = 0; k < a->acc[i].nocc; k++)
			free(a->acc[i].occ[k].bits);
		free(a->acc[i].occ);
	}
	a->nacc = 0;
}

/* Kept points or tops to the caller: 1 when they were kept, else 0. */
static int from_keep(struct agg *a, const struct abucket *b, int *rc)
{
	struct vagg_point *pts;
	struct vagg_top *tops;
	uint32_t n;

	*rc = 0;
	if (!a->keep)
		return 0;
	if (!a->tfn) {
		if (akeep_get(a->keep, a->scale, b, &pts, &n) != 1)
			return 0;
		for (uint32_t i = 0; i < n && !*rc; i++)
			*rc = a->fn(a->arg, &pts[i]);
		akeep_free(pts, n);
		return 1;
	}
	if (akeep_get_tops(a->keep, a->scale, b, &tops, &n) != 1)
		return 0;
	for (uint32_t i = 0; i < n && !*rc; i++)
		*rc = a->tfn(a->arg, &tops[i]);
	akeep_free_tops(tops, n);
	return 1;
}

/* The bucket's points or tops, kept or computed (and kept), to the
 * caller.  A store that cannot keep them now (a writer holds it) still
 * gets its answer. */
static int one_bucket(struct agg *a, const struct abucket *b,
		      const struct vr_epoch *ep, size_t n)
{
	struct vagg_top *tops = NULL;
	uint32_t ntops = 0;
	int rc;

	if (from_keep(a, b, &rc))
		return rc;
	rc = compute(a, b, ep, n);
	if (rc)
		return rc;
	a->pts = vmust(realloc(a->pts, (a->nacc + 1) * sizeof(*a->pts)));
	for (uint32_t i = 0; i < a->nacc; i++)
		a->pts[i] = a->acc[i].p;
	if (a->tfn)
		tops = atop_rank(a->top, b, a->pts, a->nacc, &ntops);
	if (a->keep)
		akeep_put(a->keep, a->scale, b, a->pts, a->nacc, tops, ntops,
			  a->tfn != NULL);
	for (uint32_t i = 0; i < a->nacc && !rc && !a->tfn; i++)
		rc = a->fn(a->arg, &a->pts[i]);
	for (uint32_t i = 0; i < ntops && !rc && a->tfn; i++)
		rc = a->tfn(a->arg, &tops[i]);
	clear_acc(a);
	return rc;
}

/* The epochs ep[i..*j) of one bucket, into *b. */
static void bucket_at(const struct agg *a, size_t i, size_t *j,
		      struct abucket *b)
{
	int64_t unit = a->scale == VAGG_EPOCH ? 0 : bucket_ns(a->scale);

	*b = (struct abucket){ .start_ns = a->ep[i].start_ns,
			       .end_ns = a->ep[i].end_ns };
	if (unit) {
		b->start_ns = floor_to(a->ep[i].start_ns, unit);
		b->end_ns = b->start_ns + unit;
	}
	for (*j = i; *j < a->nep && (unit ? floor_to(a->ep[*j].start_ns, unit)
					  == b->start_ns : *j == i); ++*j) {
		b->epochs++;
		b->id_sum += a->ep[*j].id;
	}
}

static int walk(struct agg *a)
{
	struct abucket b;
	size_t j;
	int rc = 0;

	for (size_t i = 0; i < a->nep && !rc; i = j) {
		bucket_at(a, i, &j, &b);
		if (b.end_ns > a->from && b.start_ns < a->to)
			rc = one_bucket(a, &b, &a->ep[i], j - i);
	}
	return rc;
}

static int run(struct agg *a)
{
	int64_t qfrom = a->from, qto = a->to, unit = bucket_ns(a->scale);
	int began = sqlite3_get_autocommit(vread_db(a->r)), rc;

	/* a bucket's epochs all count, those before from included */
	if (a->scale != VAGG_EPOCH) {
		qfrom = a->from < INT64_MIN + unit ? INT64_MIN :
			floor_to(a->from, unit);
		qto = a->to > INT64_MAX - unit ? INT64_MAX :
		      floor_to(a->to - 1, unit) + unit;
	}
	rc = began ? vread_begin(a->r) : 0;
	if (!rc)
		rc = vread_epochs(a->r, qfrom, qto, collect, a);
	if (!rc) {
		a->keep = akeep_open(a->r);
		a->top = atop_new();
		rc = walk(a);
		akeep_close(a->keep);
		atop_free(a->top);
	}
	if (began && vread_end(a->r) && !rc)
		rc = -1;
	clear_acc(a);
	free(a->acc);
	free(a->pts);
	free(a->ep);
	return rc;
}

int vagg_series(struct vread *r, enum vagg_scale scale, int64_t from,
		int64_t to, int (*fn)(void *arg, const struct vagg_point *p),
		void *arg)
{
	struct agg a = { .r = r, .scale = scale, .from = from, .to = to,
			 .fn = fn, .arg = arg };

	return run(&a);
}

int vagg_tops(struct vread *r, enum vagg_scale scale, int64_t from,
	      int64_t to, int (*fn)(void *arg, const struct vagg_top *t),
	      void *arg)
{
	struct agg a = { .r = r, .scale = scale, .from = from, .to = to,
			 .tfn = fn, .arg = arg };

	return run(&a);
}
