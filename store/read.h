/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading the vital-signs store (read.c): every reader (stp-vitals'
 * subcommands, the aggregator, the server) goes through this, not
 * through SQL of its own on the epoch, epoch_vital and sample_block
 * tables, because samples are kept as one compressed block per epoch
 * (sblock.h) and HCAs as occupancy bitmaps (hca.h).
 *
 * Callbacks return 0 to go on; anything else stops the walk and is
 * returned.  A read that fails returns -1 and vread_error() says why.
 * Pointers handed to a callback live until it returns, except a
 * sample's vital, exec, site and stack: those texts are read once per
 * reader and live until vread_close, the same text always at the same
 * address (a reader may compare them by pointer and keep them).
 * vread_samples must not be called from inside its own callback.
 */
#ifndef STP_VITALS_READ_H
#define STP_VITALS_READ_H

#include <stdint.h>

#include <sqlite3.h>

#include "store.h"

struct vread;

struct vr_epoch {
	int64_t id;		/* the epoch table's id */
	int64_t start_ns;	/* Unix time */
	int64_t end_ns;
	const char *host;
};

/*
 * One vital sign in one epoch.  v.hca is NULL: the store keeps which
 * counters were non-zero, as a bitmap of v.hca_len bits (bit i of
 * occ[i / 64]), enough to count unique events over any union of epochs
 * by linear counting (vhca_unique()).
 */
struct vr_vital {
	struct vx_vital v;
	const uint64_t *occ;	/* NULL when the vital kept no HCA */
};

/* Open read-only; NULL with *err ("PATH: not a vital-signs store (why)"). */
struct vread *vread_open(const char *path, char **err);
void vread_close(struct vread *r);
/* The SQLite handle, for tables the store's readers add (aggregates). */
sqlite3 *vread_db(struct vread *r);
/* Why the last call failed: "PATH: what: reason". */
const char *vread_error(const struct vread *r);

/*
 * A consistent view: between begin and end a writer's commits are not
 * seen.  Reads outside begin/end see each commit as it lands.
 */
int vread_begin(struct vread *r);
int vread_end(struct vread *r);

/* The epochs that overlap [from, to), oldest first. */
int vread_epochs(struct vread *r, int64_t from, int64_t to,
		 int (*fn)(void *arg, const struct vr_epoch *e), void *arg);
/* One epoch by id; 0 found, 1 none such, -1 failed. */
int vread_epoch(struct vread *r, int64_t id, struct vr_epoch *e,
		char **host);
/* An epoch's vital signs, in the order they were put. */
int vread_vitals(struct vread *r, const struct vr_epoch *e,
		 int (*fn)(void *arg, const struct vr_epoch *e,
			   const struct vr_vital *v), void *arg);
/*
 * An epoch's samples, in the order they were put.  s.time_ns is Unix
 * time; s.vital, exec, site, data and stack are NULL when absent.
 */
int vread_samples(struct vread *r, const struct vr_epoch *e,
		  int (*fn)(void *arg, const struct vr_epoch *e,
			    const struct vx_sample *s), void *arg);

#endif
