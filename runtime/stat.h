/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Statistics: "s <<< v" accumulates count, sum, min, max, the running
 * variance and, when the script asks for one, a histogram.  Scalars are
 * kept per CPU (struct stp_pstat) and combined when read.
 *
 * Semantics follow SystemTap: integer arithmetic throughout; @avg is
 * sum/count truncated; @variance is the sample variance (n-1), 0 for
 * fewer than two values, with bit_shift fixed-point precision.
 * Log histograms have buckets for 0, then +-1, +-2..3, +-4..7, ... up to
 * 2^63; linear ones [start, stop) by interval plus an underflow and an
 * overflow bucket.
 */
#ifndef STP_STAT_H
#define STP_STAT_H

#include "shim.h"

struct stp_out;

enum stp_agg {
	STP_AGG_NONE = 0,
	STP_AGG_COUNT,
	STP_AGG_SUM,
	STP_AGG_MIN,
	STP_AGG_MAX,
	STP_AGG_AVG,
	STP_AGG_VARIANCE,
};

enum stp_hist {
	STP_HIST_NONE = 0,
	STP_HIST_LOG,
	STP_HIST_LINEAR,
};

/* A log histogram's buckets: value 0 at STP_HIST_LOG_ZERO. */
#define STP_HIST_LOG_BUCKETS 128
#define STP_HIST_LOG_ZERO 64
/* Most buckets a linear histogram may have, under- and overflow included. */
#ifndef STP_MAX_BUCKETS
#define STP_MAX_BUCKETS 128
#endif

struct stp_stat_desc {
	enum stp_hist hist;
	int64_t start, stop, interval;	/* STP_HIST_LINEAR */
	int nbuckets;			/* filled by stp_stat_desc_init */
	int bit_shift;			/* @variance(s, N); 0 if unused */
	int no_variance;		/* nothing reads @variance: skip its
					 * running update on every "<<<" */
};

struct stp_stat {
	int64_t count, sum, min, max;
	int64_t avg_s, var_s;		/* running mean and M2, shifted */
	int64_t hist[];			/* nbuckets */
};

/* Sets nbuckets; -1 for a bad linear range. */
int stp_stat_desc_init(struct stp_stat_desc *d);
size_t stp_stat_size(const struct stp_stat_desc *d);	/* bytes */

void stp_stat_clear(struct stp_stat *st, const struct stp_stat_desc *d);
void stp_stat_add(struct stp_stat *st, const struct stp_stat_desc *d,
		  int64_t v);
/* dst += src (combining two CPUs' statistics, variance included). */
void stp_stat_merge(struct stp_stat *dst, const struct stp_stat *src,
		    const struct stp_stat_desc *d);
/*
 * An aggregate; 0 on success, -1 when it needs a value and count is 0
 * (@min, @max, @avg, @variance of an empty statistic are errors).
 */
int stp_stat_get(const struct stp_stat *st, const struct stp_stat_desc *d,
		 enum stp_agg agg, int64_t *out);

/* Histogram buckets: index for a value, and the low value of a bucket. */
int stp_hist_bucket(const struct stp_stat_desc *d, int64_t v);
int64_t stp_hist_bucket_low(const struct stp_stat_desc *d, int i);
/* Print the ASCII histogram as SystemTap's print(@hist_log(s)) does. */
void stp_hist_print(struct stp_out *o, const struct stp_stat *st,
		    const struct stp_stat_desc *d);

/*
 * A per-CPU scalar statistic.  The layout is here so that "s <<< v"
 * inlines: without a histogram or @variance it is four updates of this
 * CPU's part.
 */
struct stp_pstat {
	const struct stp_stat_desc *d;
	size_t stride;		/* a CPU's stat, rounded to a cache line */
	int ncpus;
	struct stp_stat *agg;
	char *cpus;
};

/* "s <<< v" on this CPU's part. */
static inline void stp_pstat_add(struct stp_pstat *ps, int64_t v)
{
	struct stp_stat *st = (struct stp_stat *)(ps->cpus + ps->stride * stp_this_cpu());
	const struct stp_stat_desc *d = ps->d;

	if (d->hist != STP_HIST_NONE || !d->no_variance) {
		stp_stat_add(st, d, v);
		return;
	}
	if (STP_UNLIKELY(!st->count)) {
		st->count = 1;
		st->sum = st->min = st->max = v;
		return;
	}
	st->count++;
	st->sum = (int64_t)((u64)st->sum + (u64)v);	/* wraps, as stat.c's */
	if (v < st->min)
		st->min = v;
	if (v > st->max)
		st->max = v;
}

struct stp_pstat *stp_pstat_new(const struct stp_stat_desc *d);
void stp_pstat_free(struct stp_pstat *ps);
/* Every CPU combined; the result stays valid until the next call. */
struct stp_stat *stp_pstat_agg(struct stp_pstat *ps);
void stp_pstat_clear(struct stp_pstat *ps);
const struct stp_stat_desc *stp_pstat_desc(const struct stp_pstat *ps);

#endif
