/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the aggregator: a bucket's points as computed (agg.c) and as
 * kept in the store's agg tables (agg_keep.c).
 */
#ifndef STP_VITALS_AGG_INT_H
#define STP_VITALS_AGG_INT_H

#include <sqlite3.h>

#include "agg.h"

/* A bucket: its time and the epochs in it, by which a kept one is known. */
struct abucket {
	int64_t start_ns, end_ns;
	uint32_t epochs;
	int64_t id_sum;		/* the epochs' ids added: trims change it */
};

/* The kept tables, through a read-write connection when one opens. */
struct akeep;

/* NULL when nothing can be kept or read back (a read-only store). */
struct akeep *akeep_open(struct vread *r);
void akeep_close(struct akeep *k);
/*
 * The kept points of bucket b, when what is kept was computed from the
 * same epochs: 1 found (*pts malloc'd, *n of them, their vital names
 * malloc'd too), 0 not kept, -1 failed.
 */
int akeep_get(struct akeep *k, int scale, const struct abucket *b,
	      struct vagg_point **pts, uint32_t *n);
/* The same for the bucket's tops (*tops malloc'd, their texts too). */
int akeep_get_tops(struct akeep *k, int scale, const struct abucket *b,
		   struct vagg_top **tops, uint32_t *n);
/*
 * Keep the points and tops of bucket b (replacing what was); has_tops 0
 * when the tops were not counted (none kept).  0 or -1.
 */
int akeep_put(struct akeep *k, int scale, const struct abucket *b,
	      const struct vagg_point *pts, uint32_t n,
	      const struct vagg_top *tops, uint32_t ntops, int has_tops);
/* Free akeep_get's points, akeep_get_tops' tops. */
void akeep_free(struct vagg_point *pts, uint32_t n);
void akeep_free_tops(struct vagg_top *tops, uint32_t n);

/* agg_top.c: a bucket's tops, counted from its epochs' samples. */
struct atop;

struct atop *atop_new(void);
void atop_free(struct atop *t);
int atop_add_epoch(struct atop *t, struct vread *r, const struct vr_epoch *e);
/*
 * The tops counted since the last call, ranked, in the order of the
 * bucket's points pts[0..npts) (*n of them, valid until the next call),
 * and the count cleared.
 */
struct vagg_top *atop_rank(struct atop *t, const struct abucket *b,
			   const struct vagg_point *pts, uint32_t npts,
			   uint32_t *n);

#endif
