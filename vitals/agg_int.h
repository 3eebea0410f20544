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
/* Keep the points of bucket b (replacing what was); 0 or -1. */
int akeep_put(struct akeep *k, int scale, const struct abucket *b,
	      const struct vagg_point *pts, uint32_t n);
/* Free akeep_get's points. */
void akeep_free(struct vagg_point *pts, uint32_t n);

#endif
