// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What changed between two ranges: each vital sign's weighted sum, and
 * under each vital, each program's and each site's share of it (in each
 * epoch, the vital's weighted sum times their share of its samples: the
 * store keeps their events only as samples), all per epoch of its range,
 * so ranges of different lengths compare.  A filter keeps some vital
 * signs and samples: the shares are then of the samples it keeps.
 * The score is how many times larger one side is than the other, as a
 * base-2 logarithm, |log2((|b| + 1) / (|a| + 1))|: a site from 0 to 1
 * scores 1, one from 10 to 1000 scores 6.5.  The + 1 keeps rare sites
 * from outranking busy ones that moved as much.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "filter.h"
#include "strpool.h"

enum { K_VITAL, K_PROGRAM, K_SITE, K_N };
static const char *const kinds[K_N] = { "vital", "program", "site" };

struct cell {
	int kind;		/* -1: an empty slot */
	const char *vital, *name;	/* pooled */
	double sum[2];		/* weight in range A, B */
	unsigned order;		/* first seen: ties keep the store's order */
};

/* A sample of the epoch at hand, until its vital's share is known. */
struct pend {
	const char *vital, *exec, *site;	/* pooled */
};

/* A vital of the epoch at hand. */
struct evital {
	const char *vital;	/* pooled */
	double weight;
	uint32_t samples;
};

struct tally {
	struct vread *r;
	const struct vfilter *filter;
	struct vpool *pool;
	struct pend *pend;
	size_t npend, pend_cap;
	struct evital ev[64];
	uint32_t nev;
	struct cell *t;
	size_t n, cap;
	int side;		/* 0: A, 1: B */
	uint64_t epochs[2];
};

static struct cell *slot(struct cell *t, size_t cap, int kind,
			 const char *vital, const char *name)
{
	size_t i = (((uintptr_t)vital >> 4) * 31 + ((uintptr_t)name >> 4) *
		    17 + (size_t)kind) & (cap - 1);

	while (t[i].kind >= 0 && (t[i].kind != kind || t[i].vital != vital ||
				  t[i].name != name))
		i = (i + 1) & (cap - 1);
	return &t[i];
}

static void grow(struct tally *y)
{
	size_t cap = y->cap ? y->cap * 2 : 1024;
	struct cell *t = vmust(malloc(cap * sizeof(*t)));

	for (size_t i = 0; i < cap; i++)
		t[i].kind = -1;
	for (size_t i = 0; i < y->cap; i++)
		if (y->t[i].kind >= 0)
			*slot(t, cap, y->t[i].kind, y->t[i].vital,
			      y->t[i].name) = y->t[i];
	free(y->t);
	y->t = t;
	y->cap = cap;
}

/* to a cell's side; vital and name pooled */
static void add(struct tally *y, int kind, const char *vital,
		const char *name, double w)
{
	struct cell *c;

	if ((y->n + 1) * 2 > y->cap)
		grow(y);
	c = slot(y->t, y->cap, kind, vital, name);
	if (c->kind < 0) {
		*c = (struct cell){ .kind = kind, .vital = vital, .name = name,
				    .order = (unsigned)y->n++ };
	}
	c->sum[y->side] += w;
}

static struct evital *evital(struct tally *y, const char *vital)
{
	for (uint32_t i = 0; i < y->nev; i++)
		if (y->ev[i].vital == vital)
			return &y->ev[i];
	if (y->nev == sizeof(y->ev) / sizeof(y->ev[0]))
		return NULL;	/* more vitals than any store has: ignored */
	y->ev[y->nev] = (struct evital){ .vital = vital };
	return &y->ev[y->nev++];
}

static int on_vital(void *arg, const struct vr_epoch *e,
		    const struct vr_vital *v)
{
	struct tally *y = arg;
	const char *name = vpool_get(y->pool, v->v.vital ? v->v.vital : "?");
	struct evital *ev;

	(void)e;
	if (y->filter && !vfilter_vital(y->filter, name))
		return 0;
	ev = evital(y, name);
	if (ev)
		ev->weight = (double)v->v.weight;
	add(y, K_VITAL, name, name, (double)v->v.weight);
	return 0;
}

static int on_sample(void *arg, const struct vr_epoch *e,
		     const struct vx_sample *s)
{
	struct tally *y = arg;
	struct pend *p;
	struct evital *ev;

	(void)e;
	if (y->filter && !vfilter_sample(y->filter, s))
		return 0;
	if (y->npend == y->pend_cap) {
		y->pend_cap = y->pend_cap ? y->pend_cap * 2 : 1024;
		y->pend = vmust(realloc(y->pend, y->pend_cap * sizeof(*p)));
	}
	p = &y->pend[y->npend++];
	p->vital = vpool_get(y->pool, s->vital ? s->vital : "?");
	p->exec = vpool_get(y->pool, s->exec ? s->exec : "?");
	p->site = vpool_get(y->pool, s->site ? s->site : "?");
	ev = evital(y, p->vital);
	if (ev)
		ev->samples++;
	return 0;
}

/* Each sample's share of its vital's weighted sum, to its program and
 * its site. */
static void share_out(struct tally *y)
{
	struct evital *ev;
	double w;

	for (size_t i = 0; i < y->npend; i++) {
		ev = evital(y, y->pend[i].vital);
		if (!ev)
			continue;
		w = ev->weight / ev->samples;
		add(y, K_PROGRAM, ev->vital, y->pend[i].exec, w);
		add(y, K_SITE, ev->vital, y->pend[i].site, w);
	}
	y->npend = 0;
	y->nev = 0;
}

static int on_epoch(void *arg, const struct vr_epoch *e)
{
	struct tally *y = arg;
	int rc = vread_vitals(y->r, e, on_vital, y);

	y->epochs[y->side]++;
	if (!rc)
		rc = vread_samples(y->r, e, on_sample, y);
	share_out(y);
	return rc;
}

static double score(const struct vdiff_row *w)
{
	return fabs(log2((fabs(w->b) + 1) / (fabs(w->a) + 1)));
}

/* The kind's place: rows are vitals, then programs, then sites. */
static int kind_no(const char *kind)
{
	int k = 0;

	while (k < K_N - 1 && kinds[k] != kind)
		k++;
	return k;
}

static int by_rank(const void *x, const void *y)
{
	const struct vdiff_row *a = x, *b = y;
	double da = fabs(a->b - a->a), db = fabs(b->b - b->a);

	if (a->kind != b->kind)
		return kind_no(a->kind) - kind_no(b->kind);
	if (a->score != b->score)
		return a->score > b->score ? -1 : 1;
	if (da != db)
		return da > db ? -1 : 1;
	if (strcmp(a->vital, b->vital))
		return strcmp(a->vital, b->vital);
	return strcmp(a->name, b->name);
}

/* The rows of every cell, ranked within each kind. */
static struct vdiff_row *rank(const struct tally *y, size_t *n)
{
	struct vdiff_row *rows = vmust(calloc(y->n + 1, sizeof(*rows)));
	const struct cell *c;

	*n = 0;
	for (size_t i = 0; i < y->cap; i++) {
		c = &y->t[i];
		if (c->kind < 0 || (!c->sum[0] && !c->sum[1]))
			continue;	/* idle in both ranges: nothing to say */
		rows[*n] = (struct vdiff_row){
			.kind = kinds[c->kind], .vital = c->vital,
			.name = c->name,
			.a = y->epochs[0] ? c->sum[0] / y->epochs[0] : 0,
			.b = y->epochs[1] ? c->sum[1] / y->epochs[1] : 0,
		};
		rows[*n].score = score(&rows[*n]);
		(*n)++;
	}
	qsort(rows, *n, sizeof(*rows), by_rank);
	return rows;
}

static int emit(struct vdiff_row *rows, size_t n, unsigned limit,
		int (*fn)(void *arg, const struct vdiff_row *row), void *arg)
{
	unsigned of_kind = 0;
	int rc = 0;

	for (size_t i = 0; i < n && !rc; i++) {
		of_kind = i && rows[i].kind == rows[i - 1].kind ? of_kind + 1 : 0;
		if (!limit || of_kind < limit)
			rc = fn(arg, &rows[i]);
	}
	return rc;
}

int vdiff_run(struct vread *r, int64_t a_from, int64_t a_to, int64_t b_from,
	      int64_t b_to, unsigned limit,
	      int (*fn)(void *arg, const struct vdiff_row *row), void *arg)
{
	return vdiff_run_filtered(r, a_from, a_to, b_from, b_to, limit, NULL,
				  fn, arg);
}

int vdiff_run_filtered(struct vread *r, int64_t a_from, int64_t a_to,
		       int64_t b_from, int64_t b_to, unsigned limit,
		       const struct vfilter *filter,
		       int (*fn)(void *arg, const struct vdiff_row *row),
		       void *arg)
{
	struct tally y = { .r = r, .filter = filter, .pool = vpool_new() };
	/* one consistent view, unless the caller holds one already */
	int began = sqlite3_get_autocommit(vread_db(r)), rc;
	struct vdiff_row *rows;
	size_t n;

	rc = began ? vread_begin(r) : 0;
	if (!rc)
		rc = vread_epochs(r, a_from, a_to, on_epoch, &y);
	y.side = 1;
	if (!rc)
		rc = vread_epochs(r, b_from, b_to, on_epoch, &y);
	if (began && vread_end(r) && !rc)
		rc = -1;
	if (!rc) {
		rows = rank(&y, &n);
		rc = emit(rows, n, limit, fn, arg);
		free(rows);
	}
	free(y.t);
	free(y.pend);
	vpool_free(y.pool);
	return rc;
}
