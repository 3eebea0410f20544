/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The vital-signs store (store.c): one SQLite file in WAL mode, written
 * by stprun at each epoch's end, read by stp-vitals.  The schema is
 * documented in doc/vitals.md ("The vital-signs store").
 *
 * An epoch is written in one transaction, so a collector killed at any
 * point leaves every finished epoch and never a part of one.
 *
 * store/ is the library both sides link (libvstore.a):
 *
 *   store.c    the writer: open, an epoch's transaction (store_int.h)
 *   schema.c   the tables and their versions (schema.h)
 *   sblock.c   a block of samples, column by column (sblock.h)
 *   hca.c      an epoch's HCA counters, compressed (hca.h)
 *   varint.h   the variable-length integers those blocks use
 *   trim.c     the store's limits: old epochs dropped, space given back
 *   read.c     the reader stp-vitals uses (read.h)
 */
#ifndef STP_VITALS_STORE_H
#define STP_VITALS_STORE_H

#include <stdint.h>

/* One vital sign over one epoch. */
struct vx_vital {
	const char *vital;	/* "cpuu", ..., or a user's name */
	int64_t weight;		/* sum of the events' weights */
	uint64_t count;		/* number of events */
	uint64_t unique;	/* unique events, estimated from the HCA */
	uint64_t samples;	/* samples kept */
	uint64_t dropped;	/* samples dropped: the list was full */
	uint64_t t;		/* the threshold at the epoch's end */
	int available;		/* 0: the machine cannot measure it */
	const char *why;	/* when not available: the reason */
	const uint32_t *hca;	/* the epoch's counters */
	uint32_t hca_len;	/* number of counters */
};

/* One sample. */
struct vx_sample {
	const char *vital;
	uint64_t time_ns;	/* Unix time */
	uint64_t label;
	int64_t weight;
	const char *exec;	/* the executable's path, or "[comm]" */
	uint32_t uid;
	uint32_t pid;
	const char *site;	/* symbolized: "func+0x1a [module]" */
	const char *data;	/* the vital's data, as text */
	const char *stack;	/* kernel frames then user frames, '\n' between */
	/* the label's counter with this event: the weight its label (and
	 * any label hashed to the same counter) had reached; 0: unknown */
	uint32_t count;
};

struct vx_epoch {
	uint64_t start_ns;	/* Unix time */
	uint64_t end_ns;
	const char *host;	/* uname's nodename */
	uint32_t nvitals;
	const struct vx_vital *vitals;
	uint32_t nsamples;
	const struct vx_sample *samples;
};

struct vstore;

/* Open or create; NULL with *err (malloc'd, "PATH: reason") on failure. */
struct vstore *vstore_open(const char *path, char **err);
/* Write an epoch in one transaction; 0, or -1 with *err. */
int vstore_put(struct vstore *st, const struct vx_epoch *e, char **err);
/*
 * Keep the store under max_bytes (0: no limit) and max_age_s seconds of
 * history (0: no limit) by deleting the oldest epochs, never the newest.
 * Bytes are the database's pages in use; age counts back from the newest
 * epoch's end.  Returns the number of epochs deleted, or -1 with *err.
 */
int vstore_trim(struct vstore *st, uint64_t max_bytes, uint64_t max_age_s,
		char **err);
void vstore_close(struct vstore *st);

#endif
