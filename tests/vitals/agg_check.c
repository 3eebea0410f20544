// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The aggregator against a direct computation (tests/vitals/rules.sh):
 * for each timescale, vagg_series over [FROM, TO) must give, point by
 * point, what this file works out from the epochs itself: sums of the
 * epochs' figures per bucket and vital, and unique events by linear
 * counting over the OR of their bitmaps, written here again rather
 * than taken from hca_count.c.
 *
 *   agg_check DB [FROM_S TO_S]   "ok SCALE: N points" per scale, or FAIL
 *   agg_check DB --tops SCALE    the tops at SCALE (epoch, hour, day), one
 *                                "START VITAL KIND RANK SAMPLES WEIGHT NAME"
 *                                line each
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agg.h"

#define MAXBITS 4096

struct want {
	struct vagg_point p;
	char vital[32];
	uint64_t bits[MAXBITS / 64];
	uint32_t nbits;
};

static struct want *want;
static size_t nwant, cap;
static int64_t unit, from_ns, to_ns;
static int scale;
static struct vread *r;

static int64_t bucket(int64_t t)
{
	return unit ? t / unit * unit : t;	/* times after 1970 */
}

static struct want *find(int64_t start, const char *vital)
{
	for (size_t i = nwant; i-- > 0 && want[i].p.start_ns == start;)
		if (!strcmp(want[i].vital, vital))
			return &want[i];
	if (nwant == cap) {
		cap = cap ? cap * 2 : 1024;
		want = realloc(want, cap * sizeof(*want));
		if (!want)
			abort();
	}
	want[nwant] = (struct want){ .p.start_ns = start };
	snprintf(want[nwant].vital, sizeof(want[nwant].vital), "%s", vital);
	return &want[nwant++];
}

static int on_vital(void *arg, const struct vr_epoch *e,
		    const struct vr_vital *v)
{
	struct want *w = find(bucket(e->start_ns), v->v.vital);

	(void)arg;
	w->p.end_ns = unit ? w->p.start_ns + unit : e->end_ns;
	w->p.weight += v->v.weight;
	w->p.events += v->v.count;
	w->p.samples += v->v.samples;
	w->p.dropped += v->v.dropped;
	w->p.epochs++;
	w->p.available |= v->v.available;
	if (!v->occ) {
		w->p.unique += v->v.unique;
		return 0;
	}
	if (v->v.hca_len > MAXBITS)
		abort();
	w->nbits = v->v.hca_len;
	for (uint32_t i = 0; i < (v->v.hca_len + 63) / 64; i++)
		w->bits[i] |= v->occ[i];
	return 0;
}

static int on_epoch(void *arg, const struct vr_epoch *e)
{
	int64_t b = bucket(e->start_ns);

	(void)arg;
	if ((unit ? b + unit : e->end_ns) <= from_ns || b >= to_ns)
		return 0;
	return vread_vitals(r, e, on_vital, NULL);
}

static uint64_t linear_count(const struct want *w)
{
	uint32_t zero = 0;

	for (uint32_t i = 0; i < w->nbits; i++)
		zero += !(w->bits[i / 64] >> (i % 64) & 1);
	if (!w->nbits || zero == w->nbits)
		return 0;
	return (uint64_t)llround(w->nbits * log((double)w->nbits /
						 (zero ? zero : 1)));
}

static size_t got_n, bad;

static int on_point(void *arg, const struct vagg_point *p)
{
	struct want *w;
	struct vagg_point x;

	(void)arg;
	if (got_n++ >= nwant) {
		bad++;
		return 0;
	}
	w = &want[got_n - 1];
	x = w->p;
	x.unique += linear_count(w);
	if (strcmp(p->vital, w->vital) ||
	    p->start_ns != x.start_ns || p->end_ns != x.end_ns ||
	    p->weight != x.weight || p->events != x.events ||
	    p->unique != x.unique || p->samples != x.samples ||
	    p->dropped != x.dropped || p->epochs != x.epochs ||
	    p->available != x.available) {
		if (bad++ < 3)
			printf("FAIL scale %d point %zu (%s at %lld): got weight"
			       " %lld unique %llu epochs %u, want %lld %llu %u\n",
			       scale, got_n - 1, p->vital,
			       (long long)p->start_ns, (long long)p->weight,
			       (unsigned long long)p->unique, p->epochs,
			       (long long)x.weight,
			       (unsigned long long)x.unique, x.epochs);
	}
	return 0;
}

static int put_top(void *arg, const struct vagg_top *t)
{
	(void)arg;
	printf("%lld %s %s %u %llu %lld %s\n", (long long)(t->start_ns / 1000000000),
	       t->vital, t->kind, t->rank, (unsigned long long)t->samples,
	       (long long)t->weight, t->name);
	return 0;
}

static int tops(const char *path, const char *scale_name)
{
	static const char *const names[] = { "epoch", "hour", "day" };
	char *err;
	int s, rc;

	for (s = 0; s < 3 && strcmp(names[s], scale_name); s++)
		;
	if (s == 3)
		return fputs("agg_check: no such scale\n", stderr), 2;
	r = vread_open(path, &err);
	if (!r)
		return printf("FAIL %s\n", err), 1;
	rc = vagg_tops(r, (enum vagg_scale)s, 0, INT64_MAX, put_top, NULL);
	if (rc)
		printf("FAIL %s\n", vread_error(r));
	vread_close(r);
	return rc != 0;
}

int main(int argc, char **argv)
{
	static const char *const names[] = { "epoch", "hour", "day" };
	static const int64_t units[] = { 0, 3600000000000LL, 86400000000000LL };
	char *err;
	int fails = 0;

	if (argc == 4 && !strcmp(argv[2], "--tops"))
		return tops(argv[1], argv[3]);
	if (argc != 2 && argc != 4)
		return fputs("usage: agg_check DB [FROM_S TO_S]\n", stderr), 2;
	from_ns = argc == 4 ? atoll(argv[2]) * 1000000000LL : 0;
	to_ns = argc == 4 ? atoll(argv[3]) * 1000000000LL : INT64_MAX;
	r = vread_open(argv[1], &err);
	if (!r)
		return printf("FAIL %s\n", err), 1;
	for (scale = 0; scale < 3; scale++) {
		unit = units[scale];
		nwant = got_n = bad = 0;
		if (vread_epochs(r, 0, INT64_MAX, on_epoch, NULL) ||
		    vagg_series(r, (enum vagg_scale)scale, from_ns, to_ns,
				on_point, NULL)) {
			printf("FAIL %s: %s\n", names[scale], vread_error(r));
			fails++;
		} else if (bad || got_n != nwant) {
			printf("FAIL %s: %zu points, want %zu, %zu differ\n",
			       names[scale], got_n, nwant, bad);
			fails++;
		} else {
			printf("ok %s: %zu points\n", names[scale], got_n);
		}
	}
	vread_close(r);
	free(want);
	return fails != 0;
}
