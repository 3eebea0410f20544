/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The aggregator (agg*.c): each vital sign's figures at three timescales,
 * the epoch, the hour and the day, kept in the store's agg tables and
 * extended as epochs arrive; other intervals computed on demand.
 * doc/vitals.md ("Reading the vital signs") documents the tables.
 */
#ifndef STP_VITALS_AGG_H
#define STP_VITALS_AGG_H

#include <stdint.h>

#include "../store/read.h"

enum vagg_scale { VAGG_EPOCH, VAGG_HOUR, VAGG_DAY };

/* One vital sign over one bucket of a timescale. */
struct vagg_point {
	int64_t start_ns;	/* the bucket: [start_ns, end_ns) */
	int64_t end_ns;
	const char *vital;
	int64_t weight;		/* the weighted sum */
	uint64_t events;
	uint64_t unique;	/* from the union of the epochs' HCAs */
	uint64_t samples;
	uint64_t dropped;
	uint32_t epochs;	/* epochs in the bucket */
	int available;		/* 0 when no epoch could measure it */
};

/*
 * The points of every vital sign whose buckets overlap [from, to), oldest
 * first, vitals in the store's order within a bucket.  Buckets already
 * kept are read; missing ones are computed (and kept when the store is
 * writable).
 */
int vagg_series(struct vread *r, enum vagg_scale scale, int64_t from,
		int64_t to, int (*fn)(void *arg, const struct vagg_point *p),
		void *arg);

/*
 * The top sites, programs and users of a vital sign over one bucket, by
 * samples (ties: by name), VAGG_TOP_N of each kind.
 */
#define VAGG_TOP_N 5

struct vagg_top {
	int64_t start_ns;	/* the bucket: [start_ns, end_ns) */
	int64_t end_ns;
	const char *vital;
	const char *kind;	/* "site", "program" or "user" */
	unsigned rank;		/* 1.. */
	const char *name;	/* the site, program path, or uid as text */
	uint64_t samples;
	int64_t weight;		/* the samples' weights added */
};

/*
 * Each bucket's tops, as vagg_series' buckets (kept, or computed and
 * kept), oldest first; within a bucket by vital (the store's order),
 * then kind (site, program, user), then rank.
 */
int vagg_tops(struct vread *r, enum vagg_scale scale, int64_t from,
	      int64_t to, int (*fn)(void *arg, const struct vagg_top *t),
	      void *arg);

#endif
