// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * print(@hist_log(s)) and print(@hist_linear(...)) in user space: the
 * CPUs' shares of a statistic with buckets (struct stp_bhist, per CPU)
 * added into runtime/stat.c's struct stp_stat, which draws it as the
 * kmod runtime does.
 */
#include "../../runtime/bpf/shared.h"
#include "../../runtime/out.h"
#include "../../runtime/stat.h"

#include <bpf/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* From run.h, whose user.h names its own stp_stat_add (a map's), which
 * stat.h's (a struct stp_stat's) would clash with. */
typedef int stp_map_t;
int stp_u_ncpus(void);
size_t stp_u_stride(stp_map_t m);
void stp_u_hist(stp_map_t m, const void *k, int linear, int64_t start, int64_t stop,
		int64_t interval);
int64_t stp_u_hist_get(stp_map_t m, const void *k, int64_t i, int nbuckets);
void stp_u_hist_rec(const struct stp_bhist *b, const char *site);

static void to_stdout(struct stp_out *o)
{
	fwrite(o->buf, 1, o->len, stdout);
	o->len = 0;
}

static void add_share(struct stp_stat *st, const struct stp_bhist *b, int nbuckets)
{
	if (!b->s.count)
		return;
	if (!st->count || b->s.min < st->min)
		st->min = b->s.min;
	if (!st->count || b->s.max > st->max)
		st->max = b->s.max;
	st->count += b->s.count;
	st->sum += b->s.sum;
	for (int i = 0; i < nbuckets && i < STP_BHIST_BUCKETS; i++)
		st->hist[i] += b->h[i];
}

static void draw(const struct stp_bhist *per, size_t stride, int n, struct stp_stat_desc *d)
{
	char buf[4096];
	struct stp_out o = { buf, 0, sizeof(buf), to_stdout, NULL };
	struct stp_stat *st;

	if (stp_stat_desc_init(d))
		return;
	st = calloc(1, stp_stat_size(d));
	if (!st)
		return;
	for (int c = 0; c < n; c++)
		add_share(st, (const struct stp_bhist *)((const char *)per + stride * c),
			  d->nbuckets);
	stp_hist_print(&o, st, d);
	stp_out_flush(&o);
	free(st);
}

void stp_u_hist_rec(const struct stp_bhist *b, const char *site)
{
	int linear;
	long long start, stop, interval;
	struct stp_stat_desc d = { .no_variance = 1 };

	if (sscanf(site, "h%d %lld %lld %lld", &linear, &start, &stop, &interval) != 4)
		return;
	d.hist = linear ? STP_HIST_LINEAR : STP_HIST_LOG;
	d.start = start, d.stop = stop, d.interval = interval;
	draw(b, sizeof(*b), 1, &d);
}

void stp_u_hist(stp_map_t m, const void *k, int linear, int64_t start, int64_t stop,
		int64_t interval)
{
	struct stp_stat_desc d = { .hist = linear ? STP_HIST_LINEAR : STP_HIST_LOG,
				   .start = start, .stop = stop, .interval = interval,
				   .no_variance = 1 };
	size_t stride = stp_u_stride(m);
	char *per = calloc(stp_u_ncpus(), stride);

	if (per && stride >= sizeof(struct stp_bhist)) {
		if (bpf_map_lookup_elem(m, k, per))	/* no entry: an empty one */
			memset(per, 0, stride * stp_u_ncpus());
		draw((const struct stp_bhist *)per, stride, stp_u_ncpus(), &d);
	}
	free(per);
}

int64_t stp_u_hist_get(stp_map_t m, const void *k, int64_t i, int nbuckets)
{
	size_t stride = stp_u_stride(m);
	char *per = calloc(stp_u_ncpus(), stride);
	int64_t n = 0;

	if (per && i >= 0 && i < nbuckets && i < STP_BHIST_BUCKETS &&
	    stride >= sizeof(struct stp_bhist) && !bpf_map_lookup_elem(m, k, per))
		for (int c = 0; c < stp_u_ncpus(); c++)
			n += ((const struct stp_bhist *)(per + stride * c))->h[i];
	free(per);
	return n;
}
