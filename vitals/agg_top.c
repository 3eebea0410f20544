// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A bucket's top sites, programs and users per vital sign, from its
 * epochs' samples: counted in a hash keyed by the pooled texts, then
 * ranked by samples (ties by name) and cut to VAGG_TOP_N of each kind.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agg_int.h"
#include "strpool.h"

static const char *const kinds[3] = { "site", "program", "user" };

struct tcell {
	const char *vital, *name;	/* pooled; vital NULL: empty slot */
	int kind;
	uint64_t samples;
	int64_t weight;
};

struct atop {
	struct vpool *pool;
	struct tcell *t;
	size_t n, cap;
	struct vagg_top *out;
};

struct atop *atop_new(void)
{
	struct atop *t = vmust(calloc(1, sizeof(*t)));

	t->pool = vpool_new();
	return t;
}

void atop_free(struct atop *t)
{
	if (!t)
		return;
	vpool_free(t->pool);
	free(t->t);
	free(t->out);
	free(t);
}

static struct tcell *slot(struct tcell *t, size_t cap, const char *vital,
			  int kind, const char *name)
{
	size_t i = (((uintptr_t)vital >> 4) * 31 + ((uintptr_t)name >> 4) *
		    17 + (size_t)kind) & (cap - 1);

	while (t[i].vital && (t[i].vital != vital || t[i].kind != kind ||
			      t[i].name != name))
		i = (i + 1) & (cap - 1);
	return &t[i];
}

static void grow(struct atop *t)
{
	size_t cap = t->cap ? t->cap * 2 : 1024;
	struct tcell *n = vmust(calloc(cap, sizeof(*n)));

	for (size_t i = 0; i < t->cap; i++)
		if (t->t[i].vital)
			*slot(n, cap, t->t[i].vital, t->t[i].kind,
			      t->t[i].name) = t->t[i];
	free(t->t);
	t->t = n;
	t->cap = cap;
}

static void count(struct atop *t, const char *vital, int kind,
		  const char *name, int64_t weight)
{
	struct tcell *c;

	if ((t->n + 1) * 2 > t->cap)
		grow(t);
	c = slot(t->t, t->cap, vital, kind, name);
	if (!c->vital) {
		*c = (struct tcell){ vital, name, kind, 0, 0 };
		t->n++;
	}
	c->samples++;
	c->weight += weight;
}

static int on_sample(void *arg, const struct vr_epoch *e,
		     const struct vx_sample *s)
{
	struct atop *t = arg;
	const char *vital = vpool_get(t->pool, s->vital ? s->vital : "?");
	char uid[16];

	(void)e;
	snprintf(uid, sizeof(uid), "%u", s->uid);
	count(t, vital, 0, vpool_get(t->pool, s->site ? s->site : "?"),
	      s->weight);
	count(t, vital, 1, vpool_get(t->pool, s->exec ? s->exec : "?"),
	      s->weight);
	count(t, vital, 2, vpool_get(t->pool, uid), s->weight);
	return 0;
}

int atop_add_epoch(struct atop *t, struct vread *r, const struct vr_epoch *e)
{
	return vread_samples(r, e, on_sample, t);
}

static int by_rank(const void *a, const void *b)
{
	const struct tcell *x = a, *y = b;
	int c = strcmp(x->vital, y->vital);

	if (c)
		return c;
	if (x->kind != y->kind)
		return x->kind - y->kind;
	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The order of vital in the bucket's points, for the tops' order. */
static uint32_t vital_order(const struct vagg_point *pts, uint32_t npts,
			    const char *vital)
{
	for (uint32_t i = 0; i < npts; i++)
		if (!strcmp(pts[i].vital, vital))
			return i;
	return npts;
}

static int kind_no(const char *kind)
{
	int k = 0;

	while (k < 2 && kinds[k] != kind)
		k++;
	return k;
}

static int by_point_order(const void *a, const void *b)
{
	const struct vagg_top *x = a, *y = b;

	if (x->start_ns != y->start_ns)	/* the vital's order, stashed */
		return x->start_ns < y->start_ns ? -1 : 1;
	if (x->kind != y->kind)
		return kind_no(x->kind) - kind_no(y->kind);
	return (int)x->rank - (int)y->rank;
}

struct vagg_top *atop_rank(struct atop *t, const struct abucket *b,
			   const struct vagg_point *pts, uint32_t npts,
			   uint32_t *n)
{
	struct tcell *c = t->t;
	size_t k = 0;
	unsigned rank = 0;

	for (size_t i = 0; i < t->cap; i++)	/* packed to the front */
		if (c[i].vital)
			c[k++] = c[i];
	qsort(c, k, sizeof(*c), by_rank);
	t->out = vmust(realloc(t->out, (k + 1) * sizeof(*t->out)));
	*n = 0;
	for (size_t i = 0; i < k; i++) {
		rank = i && c[i].vital == c[i - 1].vital &&
		       c[i].kind == c[i - 1].kind ? rank + 1 : 1;
		if (rank > VAGG_TOP_N)
			continue;
		t->out[(*n)++] = (struct vagg_top){
			.start_ns = vital_order(pts, npts, c[i].vital),
			.vital = c[i].vital, .kind = kinds[c[i].kind],
			.rank = rank, .name = c[i].name,
			.samples = c[i].samples, .weight = c[i].weight };
	}
	qsort(t->out, *n, sizeof(*t->out), by_point_order);
	for (uint32_t i = 0; i < *n; i++) {
		t->out[i].start_ns = b->start_ns;
		t->out[i].end_ns = b->end_ns;
	}
	memset(t->t, 0, t->cap * sizeof(*t->t));
	t->n = 0;
	return t->out;
}
