/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Statistics (stat.h).
 *
 * @variance follows SystemTap's integer arithmetic, so that scripts
 * print the same figures with both tools: each CPU runs Welford's online
 * update on values scaled by 2^bit_shift (avg_s, and var_s holding M2),
 * and CPUs are combined with the total variance formula, each side's M2
 * first rounded down to a multiple of n-1 (SystemTap keeps M2/(n-1), not
 * M2).  Reading finishes the same formula over a single stat, which is
 * why 1..5 reads as 12 with no shift (the running mean truncates to 1)
 * and as 2 with a shift of 1, as SystemTap's manual shows.
 *
 * Everything that may overflow wraps (the kernel builds with
 * -fno-strict-overflow; the host build would call it undefined).
 */
#include "stat.h"
#include "out.h"

#ifndef HIST_WIDTH
#define HIST_WIDTH 50		/* '@' columns of the widest bar */
#endif
#ifndef HIST_ELISION
#define HIST_ELISION 2		/* empty rows kept either side of data */
#endif

static inline int64_t st_add(int64_t a, int64_t b)
{
	return (int64_t)((u64)a + (u64)b);
}

static inline int64_t st_sub(int64_t a, int64_t b)
{
	return (int64_t)((u64)a - (u64)b);
}

static inline int64_t st_mul(int64_t a, int64_t b)
{
	return (int64_t)((u64)a * (u64)b);
}

static inline int64_t st_shl(int64_t v, int shift)
{
	return (int64_t)((u64)v << shift);
}

/* v / 2^n, rounding down like SystemTap's shift, for any n >= 0. */
static inline int64_t st_sar(int64_t v, int n)
{
	if (n > 63)
		return v < 0 ? -1 : 0;
	return v >> n;
}

/* Division by a positive count: n == 1 must not trap on INT64_MIN / 1. */
static inline int64_t st_div(int64_t a, int64_t n)
{
	return n == 1 ? a : a / n;
}

int stp_stat_desc_init(struct stp_stat_desc *d)
{
	u64 span;

	if (d->bit_shift < 0 || d->bit_shift > 62)
		return -1;
	switch (d->hist) {
	case STP_HIST_LOG:
		d->nbuckets = STP_HIST_LOG_BUCKETS;
		return 0;
	case STP_HIST_LINEAR:
		if (d->interval <= 0 || d->stop <= d->start)
			return -1;
		span = ((u64)d->stop - (u64)d->start) / (u64)d->interval;
		if (span > STP_MAX_BUCKETS - 3)
			return -1;
		d->nbuckets = (int)span + 3;
		return 0;
	default:
		d->nbuckets = 0;
		return 0;
	}
}

size_t stp_stat_size(const struct stp_stat_desc *d)
{
	return sizeof(struct stp_stat) + d->nbuckets * sizeof(int64_t);
}

void stp_stat_clear(struct stp_stat *st, const struct stp_stat_desc *d)
{
	memset(st, 0, stp_stat_size(d));
}

/* Bucket 64 holds 0, 64+k holds [2^(k-1), 2^k), 64-k the negatives. */
static int st_log_bucket(int64_t v)
{
	u64 u = v < 0 ? 0 - (u64)v : (u64)v;
	int bits = 0;

	while (u) {
		bits++;
		u >>= 1;
	}
	return v < 0 ? STP_HIST_LOG_ZERO - bits : STP_HIST_LOG_ZERO + bits;
}

int stp_hist_bucket(const struct stp_stat_desc *d, int64_t v)
{
	u64 i;

	if (d->hist == STP_HIST_LOG)
		return st_log_bucket(v);
	if (d->hist != STP_HIST_LINEAR)
		return -1;
	if (v < d->start)
		return 0;
	i = ((u64)v - (u64)d->start) / (u64)d->interval + 1;
	return i >= (u64)d->nbuckets - 1 ? d->nbuckets - 1 : (int)i;
}

int64_t stp_hist_bucket_low(const struct stp_stat_desc *d, int i)
{
	if (d->hist == STP_HIST_LOG) {
		if (i == STP_HIST_LOG_ZERO)
			return 0;
		if (i < STP_HIST_LOG_ZERO)	/* -2^(63-i) */
			return (int64_t)(~0ULL << (63 - i));
		return (int64_t)(1ULL << (i - STP_HIST_LOG_ZERO - 1));
	}
	/* The overflow bucket is labelled with the last in-range one. */
	if (i >= d->nbuckets - 1)
		i = d->nbuckets - 2;
	if (i <= 0)
		return d->start;
	return st_add(d->start, st_mul(i - 1, d->interval));
}

notrace void stp_stat_add(struct stp_stat *st, const struct stp_stat_desc *d,
			  int64_t v)
{
	int64_t vs = st_shl(v, d->bit_shift), delta;

	if (st->count == 0) {
		st->count = 1;
		st->sum = st->min = st->max = v;
		st->avg_s = vs;
		st->var_s = 0;
	} else {
		st->count++;
		st->sum = st_add(st->sum, v);
		if (v < st->min)
			st->min = v;
		if (v > st->max)
			st->max = v;
		if (!d->no_variance) {
			delta = st_sub(vs, st->avg_s);
			st->avg_s = st_add(st->avg_s, st_div(delta, st->count));
			st->var_s = st_add(st->var_s,
					   st_mul(delta, st_sub(vs, st->avg_s)));
		}
	}
	if (d->hist != STP_HIST_NONE)
		st->hist[stp_hist_bucket(d, v)]++;
}

/* (n-1) * trunc(M2/(n-1)): the share of a side that SystemTap keeps. */
static int64_t st_m2_kept(const struct stp_stat *st)
{
	int64_t n1 = st->count - 1;

	return n1 > 0 ? st_mul(n1, st_div(st->var_s, n1)) : 0;
}

/* n * (avg - mean)^2: the spread of a side's mean around the total's. */
static int64_t st_spread(const struct stp_stat *st, int64_t mean)
{
	int64_t dm = st_sub(st->avg_s, mean);

	return st_mul(st->count, st_mul(dm, dm));
}

/* count, sum, min, max and buckets; not the variance. */
static void st_merge_plain(struct stp_stat *dst, const struct stp_stat *src,
			   const struct stp_stat_desc *d)
{
	int i;

	if (dst->count == 0) {
		dst->min = src->min;
		dst->max = src->max;
	}
	dst->count += src->count;
	dst->sum = st_add(dst->sum, src->sum);
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	for (i = 0; i < d->nbuckets; i++)
		dst->hist[i] += src->hist[i];
}

static int64_t st_mean_s(const struct stp_stat *st,
			 const struct stp_stat_desc *d)
{
	return st_div(st_shl(st->sum, d->bit_shift), st->count);
}

void stp_stat_merge(struct stp_stat *dst, const struct stp_stat *src,
		    const struct stp_stat_desc *d)
{
	struct stp_stat old = *dst;	/* scalars only: no buckets */
	int64_t mean;

	if (src->count == 0)
		return;
	st_merge_plain(dst, src, d);
	if (old.count == 0) {
		dst->avg_s = src->avg_s;
		dst->var_s = src->var_s;
		return;
	}
	mean = st_mean_s(dst, d);
	dst->var_s = st_add(st_add(st_spread(&old, mean), st_m2_kept(&old)),
			    st_add(st_spread(src, mean), st_m2_kept(src)));
	dst->avg_s = mean;
}

static int64_t st_variance(const struct stp_stat *st,
			   const struct stp_stat_desc *d)
{
	int64_t m2;

	if (st->count < 2)
		return 0;
	m2 = st_add(st_spread(st, st_mean_s(st, d)), st_m2_kept(st));
	return st_sar(st_div(m2, st->count - 1), 2 * d->bit_shift);
}

int stp_stat_get(const struct stp_stat *st, const struct stp_stat_desc *d,
		 enum stp_agg agg, int64_t *out)
{
	if (agg == STP_AGG_COUNT) {
		*out = st->count;
		return 0;
	}
	if (agg == STP_AGG_SUM) {
		*out = st->sum;
		return 0;
	}
	if (st->count == 0)
		return -1;
	switch (agg) {
	case STP_AGG_MIN:
		*out = st->min;
		return 0;
	case STP_AGG_MAX:
		*out = st->max;
		return 0;
	case STP_AGG_AVG:
		*out = st_div(st->sum, st->count);
		return 0;
	case STP_AGG_VARIANCE:
		*out = st_variance(st, d);
		return 0;
	default:
		return -1;
	}
}

/* ---- printing histograms ---- */

/* Columns v takes in decimal, its sign included. */
static int st_width(int64_t v)
{
	u64 u = v < 0 ? 0 - (u64)v : (u64)v;
	int n = v < 0 ? 1 : 0;

	do {
		n++;
		u /= 10;
	} while (u);
	return n;
}

static void st_repeat(struct stp_out *o, char ch, int n)
{
	while (n-- > 0)
		stp_out_char(o, ch);
}

/* The rows shown: the data, two buckets either side (see st_margin). */
struct st_rows {
	int low, high;
	int under, over;	/* linear: its under/overflow row is shown */
	int64_t maxcount;
};

/*
 * Up to two empty rows around the data; a log histogram does not reach
 * below 0 without negative data, a linear one shows an under- or
 * overflow row only when it holds something.
 */
static void st_margin(struct st_rows *r, const struct stp_stat *st,
		      const struct stp_stat_desc *d)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (d->hist == STP_HIST_LOG ? r->low != STP_HIST_LOG_ZERO &&
		    r->low > 0 : r->low > 0)
			r->low--;
		if (r->high < d->nbuckets - 1)
			r->high++;
	}
	if (d->hist != STP_HIST_LINEAR)
		return;
	if (r->low == 0 && st->hist[0] == 0)
		r->low++;
	if (r->high == d->nbuckets - 1 && st->hist[r->high] == 0)
		r->high--;
	r->under = r->low == 0;
	r->over = r->high == d->nbuckets - 1;
}

/* 0 when every bucket is empty. */
static int st_rows_find(struct st_rows *r, const struct stp_stat *st,
			const struct stp_stat_desc *d)
{
	int i;

	r->low = -1;
	r->high = 0;
	r->under = r->over = 0;
	r->maxcount = 0;
	for (i = 0; i < d->nbuckets; i++) {
		if (st->hist[i] <= 0)
			continue;
		if (r->low < 0)
			r->low = i;
		r->high = i;
		if (st->hist[i] > r->maxcount)
			r->maxcount = st->hist[i];
	}
	if (r->low < 0)
		return 0;
	st_margin(r, st, d);
	return 1;
}

/* Width of the value column: SystemTap sizes it from the range's ends. */
static int st_value_width(const struct st_rows *r,
			  const struct stp_stat_desc *d)
{
	int w, w2;

	if (d->hist == STP_HIST_LINEAR) {
		w = st_width(d->start) + r->under;
		w2 = st_width(st_add(d->start, st_mul(d->interval, r->high))) +
		     r->over;
	} else {
		w = st_width(stp_hist_bucket_low(d, r->low));
		w2 = st_width(stp_hist_bucket_low(d, r->high));
	}
	if (w2 > w)
		w = w2;
	return w > 5 ? w : 5;	/* never narrower than "value" */
}

/* A row is elided when it and every row within HIST_ELISION are empty. */
static int st_elided(const struct st_rows *r, const struct stp_stat *st,
		     int i)
{
	int k, lo = r->low, hi = r->high;

	if (HIST_ELISION < 0)
		return 0;
	if (i - HIST_ELISION > lo)
		lo = i - HIST_ELISION;
	if (i + HIST_ELISION < hi)
		hi = i + HIST_ELISION;
	for (k = lo; k <= hi; k++)
		if (st->hist[k])
			return 0;
	return 1;
}

static void st_print_row(struct stp_out *o, const struct stp_stat *st,
			 const struct stp_stat_desc *d, int i, int vwidth,
			 int cwidth, int64_t scale)
{
	int64_t val = stp_hist_bucket_low(d, i), bar;
	char mark = 0;

	if (d->hist == STP_HIST_LINEAR && i == 0)
		mark = '<';
	else if (d->hist == STP_HIST_LINEAR && i == d->nbuckets - 1)
		mark = '>';
	st_repeat(o, ' ', vwidth - st_width(val) - (mark ? 1 : 0));
	if (mark)
		stp_out_char(o, mark);
	stp_out_long(o, val);
	stp_out_str(o, " |");
	bar = st->hist[i] / scale;
	st_repeat(o, '@', (int)bar);
	st_repeat(o, ' ', HIST_WIDTH - (int)bar + 1 + cwidth -
		  st_width(st->hist[i]));
	stp_out_long(o, st->hist[i]);
	stp_out_char(o, '\n');
}

static void st_print_head(struct stp_out *o, int vwidth)
{
	st_repeat(o, ' ', vwidth - 5);
	stp_out_str(o, "value |");
	st_repeat(o, '-', HIST_WIDTH);
	stp_out_str(o, " count\n");
}

notrace void stp_hist_print(struct stp_out *o, const struct stp_stat *st,
			    const struct stp_stat_desc *d)
{
	struct st_rows r;
	int i, vwidth, eliding = 0;
	int64_t scale;

	if (d->hist == STP_HIST_NONE)
		return;
	if (!st_rows_find(&r, st, d)) {
		st_print_head(o, 5);
		stp_out_char(o, '\n');
		return;
	}
	scale = r.maxcount <= HIST_WIDTH ? 1 :
		(r.maxcount + HIST_WIDTH - 1) / HIST_WIDTH;
	vwidth = st_value_width(&r, d);
	st_print_head(o, vwidth);
	for (i = r.low; i <= r.high; i++) {
		if (st_elided(&r, st, i)) {
			eliding = 1;
			continue;
		}
		if (eliding) {
			st_repeat(o, ' ', vwidth);
			stp_out_str(o, " ~\n");
			eliding = 0;
		}
		st_print_row(o, st, d, i, vwidth, st_width(r.maxcount), scale);
	}
	stp_out_char(o, '\n');
}

/* ---- per-CPU scalar statistics ---- */

static struct stp_stat *st_cpu(const struct stp_pstat *ps, int cpu)
{
	return (struct stp_stat *)(ps->cpus + ps->stride * cpu);
}

struct stp_pstat *stp_pstat_new(const struct stp_stat_desc *d)
{
	struct stp_pstat *ps = stp_zalloc(sizeof(*ps));

	if (!ps)
		return NULL;
	ps->d = d;
	/* One cache line per CPU at least: no false sharing on "<<<". */
	ps->stride = (stp_stat_size(d) + 63) & ~(size_t)63;
	ps->ncpus = stp_ncpus();
	ps->agg = stp_zalloc(stp_stat_size(d));
	ps->cpus = stp_zalloc(ps->stride * ps->ncpus);
	if (!ps->agg || !ps->cpus) {
		stp_pstat_free(ps);
		return NULL;
	}
	return ps;
}

void stp_pstat_free(struct stp_pstat *ps)
{
	if (!ps)
		return;
	stp_free(ps->cpus);
	stp_free(ps->agg);
	stp_free(ps);
}


/*
 * All CPUs at once, as SystemTap combines a scalar statistic: each
 * CPU's spread around the overall mean, plus what it kept of its M2,
 * summed before the one division.  (Pairwise stp_stat_merge would
 * truncate once per CPU.)
 */
notrace struct stp_stat *stp_pstat_agg(struct stp_pstat *ps)
{
	struct stp_stat *a = ps->agg;
	int64_t mean, m2 = 0;
	int i;

	stp_stat_clear(a, ps->d);
	for (i = 0; i < ps->ncpus; i++)
		if (st_cpu(ps, i)->count)
			st_merge_plain(a, st_cpu(ps, i), ps->d);
	if (!a->count)
		return a;
	mean = st_mean_s(a, ps->d);
	for (i = 0; i < ps->ncpus; i++) {
		const struct stp_stat *c = st_cpu(ps, i);

		if (c->count)
			m2 = st_add(m2, st_add(st_spread(c, mean),
					       st_m2_kept(c)));
	}
	a->avg_s = mean;
	a->var_s = m2;
	return a;
}

void stp_pstat_clear(struct stp_pstat *ps)
{
	int i;

	for (i = 0; i < ps->ncpus; i++)
		stp_stat_clear(st_cpu(ps, i), ps->d);
	stp_stat_clear(ps->agg, ps->d);
}

const struct stp_stat_desc *stp_pstat_desc(const struct stp_pstat *ps)
{
	return ps->d;
}
