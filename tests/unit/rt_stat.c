// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of statistics (runtime/stat.c): aggregates, SystemTap's
 * integer @variance (hand-computed below, and the two figures SystemTap's
 * manual prints), per-CPU combination, histogram buckets and the exact
 * text of printed histograms (among them the two examples of
 * SystemTap's language reference, rebuilt from their counts).
 */
#include "stat.h"
#include "out.h"
#include "unit.h"

static struct stp_stat *st_new(struct stp_stat_desc *d)
{
	if (stp_stat_desc_init(d))
		return NULL;
	return calloc(1, stp_stat_size(d));
}

static int64_t agg(struct stp_stat *st, struct stp_stat_desc *d,
		   enum stp_agg a)
{
	int64_t v = -12345;

	if (stp_stat_get(st, d, a, &v))
		return -99999;
	return v;
}

static void add_n(struct stp_stat *st, struct stp_stat_desc *d, int64_t v,
		  int n)
{
	while (n-- > 0)
		stp_stat_add(st, d, v);
}

TEST(stat_basic_aggregates)
{
	struct stp_stat_desc d = { 0 };
	struct stp_stat *st = st_new(&d);

	stp_stat_add(st, &d, 5);
	stp_stat_add(st, &d, -3);
	stp_stat_add(st, &d, 10);
	CHECK_EQ_INT(agg(st, &d, STP_AGG_COUNT), 3);
	CHECK_EQ_INT(agg(st, &d, STP_AGG_SUM), 12);
	CHECK_EQ_INT(agg(st, &d, STP_AGG_MIN), -3);
	CHECK_EQ_INT(agg(st, &d, STP_AGG_MAX), 10);
	CHECK_EQ_INT(agg(st, &d, STP_AGG_AVG), 4);
	free(st);
}

TEST(stat_avg_truncates)
{
	struct stp_stat_desc d = { 0 };
	struct stp_stat *st = st_new(&d);

	stp_stat_add(st, &d, 1);
	stp_stat_add(st, &d, 2);
	CHECK_EQ_INT(agg(st, &d, STP_AGG_AVG), 1);
	stp_stat_clear(st, &d);
	stp_stat_add(st, &d, -1);
	stp_stat_add(st, &d, -2);
	CHECK_EQ_INT(agg(st, &d, STP_AGG_AVG), -1);	/* toward zero */
	free(st);
}

TEST(stat_empty_is_an_error_except_count_sum)
{
	struct stp_stat_desc d = { 0 };
	struct stp_stat *st = st_new(&d);
	int64_t v;

	CHECK_EQ_INT(agg(st, &d, STP_AGG_COUNT), 0);
	CHECK_EQ_INT(agg(st, &d, STP_AGG_SUM), 0);
	CHECK_EQ_INT(stp_stat_get(st, &d, STP_AGG_MIN, &v), -1);
	CHECK_EQ_INT(stp_stat_get(st, &d, STP_AGG_MAX, &v), -1);
	CHECK_EQ_INT(stp_stat_get(st, &d, STP_AGG_AVG, &v), -1);
	CHECK_EQ_INT(stp_stat_get(st, &d, STP_AGG_VARIANCE, &v), -1);
	free(st);
}

TEST(stat_extremes)
{
	struct stp_stat_desc d = { 0 };
	struct stp_stat *st = st_new(&d);

	stp_stat_add(st, &d, INT64_MIN);
	CHECK_EQ_INT(agg(st, &d, STP_AGG_AVG), INT64_MIN);
	stp_stat_add(st, &d, INT64_MAX);
	CHECK_EQ_INT(agg(st, &d, STP_AGG_MIN), INT64_MIN);
	CHECK_EQ_INT(agg(st, &d, STP_AGG_MAX), INT64_MAX);
	CHECK_EQ_INT(agg(st, &d, STP_AGG_SUM), -1);
	agg(st, &d, STP_AGG_VARIANCE);	/* wraps, no trap (UBSan) */
	free(st);
}

/* SystemTap's manual: 1..5 gives 12, and 2 with a bit shift of 1. */
TEST(variance_manual_examples)
{
	struct stp_stat_desc d0 = { 0 }, d1 = { .bit_shift = 1 };
	struct stp_stat *a = st_new(&d0), *b = st_new(&d1);

	for (int i = 1; i <= 5; i++) {
		stp_stat_add(a, &d0, i);
		stp_stat_add(b, &d1, i);
	}
	CHECK_EQ_INT(agg(a, &d0, STP_AGG_VARIANCE), 12);
	CHECK_EQ_INT(agg(b, &d1, STP_AGG_VARIANCE), 2);
	free(a);
	free(b);
}

TEST(variance_exact_cases)
{
	struct stp_stat_desc d = { 0 };
	struct stp_stat *st = st_new(&d);

	stp_stat_add(st, &d, 7);
	CHECK_EQ_INT(agg(st, &d, STP_AGG_VARIANCE), 0);	/* one value */
	stp_stat_clear(st, &d);
	/* 2, 4: mean 3, M2 = 2, /(n-1) = 2. */
	stp_stat_add(st, &d, 2);
	stp_stat_add(st, &d, 4);
	CHECK_EQ_INT(agg(st, &d, STP_AGG_VARIANCE), 2);
	stp_stat_clear(st, &d);
	/* 10, 20, 30: running means 10, 15, 20; M2 = 50 + 150 = 200. */
	stp_stat_add(st, &d, 10);
	stp_stat_add(st, &d, 20);
	stp_stat_add(st, &d, 30);
	CHECK_EQ_INT(st->var_s, 200);
	CHECK_EQ_INT(agg(st, &d, STP_AGG_VARIANCE), 100);
	stp_stat_clear(st, &d);
	add_n(st, &d, -4, 3);
	CHECK_EQ_INT(agg(st, &d, STP_AGG_VARIANCE), 0);
	free(st);
}

/*
 * 1..5 with a shift of 2: scaled 4, 8, 12, 16, 20; running means 4, 6,
 * 8, 10, 12 (deltas 4, 6, 8, 10 divide exactly); M2 = 4*2 + 6*4 + 8*6 +
 * 10*8 = 160; mean 12; 160/4 = 40; 40 >> 4 = 2.
 */
TEST(variance_bit_shift_two)
{
	struct stp_stat_desc d = { .bit_shift = 2 };
	struct stp_stat *st = st_new(&d);

	for (int i = 1; i <= 5; i++)
		stp_stat_add(st, &d, i);
	CHECK_EQ_INT(st->avg_s, 12);
	CHECK_EQ_INT(st->var_s, 160);
	CHECK_EQ_INT(agg(st, &d, STP_AGG_VARIANCE), 2);
	free(st);
}

TEST(stat_desc_init)
{
	struct stp_stat_desc d = { .hist = STP_HIST_LOG };

	CHECK_EQ_INT(stp_stat_desc_init(&d), 0);
	CHECK_EQ_INT(d.nbuckets, 128);
	d = (struct stp_stat_desc){ .hist = STP_HIST_LINEAR, .start = 0,
				    .stop = 100, .interval = 10 };
	CHECK_EQ_INT(stp_stat_desc_init(&d), 0);
	CHECK_EQ_INT(d.nbuckets, 13);
	CHECK_EQ_INT(stp_stat_size(&d), sizeof(struct stp_stat) + 13 * 8);
	d.interval = 0;
	CHECK_EQ_INT(stp_stat_desc_init(&d), -1);
	d.interval = 10;
	d.stop = 0;
	CHECK_EQ_INT(stp_stat_desc_init(&d), -1);
	d.stop = 1000;
	d.interval = 1;		/* 1003 buckets */
	CHECK_EQ_INT(stp_stat_desc_init(&d), -1);
	d = (struct stp_stat_desc){ .hist = STP_HIST_LINEAR,
				    .start = INT64_MIN, .stop = INT64_MAX,
				    .interval = INT64_MAX };
	CHECK_EQ_INT(stp_stat_desc_init(&d), 0);
	CHECK_EQ_INT(d.nbuckets, 5);
	d = (struct stp_stat_desc){ .bit_shift = 63 };
	CHECK_EQ_INT(stp_stat_desc_init(&d), -1);
}

TEST(hist_log_buckets)
{
	struct stp_stat_desc d = { .hist = STP_HIST_LOG };

	stp_stat_desc_init(&d);
	CHECK_EQ_INT(stp_hist_bucket(&d, 0), 64);
	CHECK_EQ_INT(stp_hist_bucket(&d, 1), 65);
	CHECK_EQ_INT(stp_hist_bucket(&d, 2), 66);
	CHECK_EQ_INT(stp_hist_bucket(&d, 3), 66);
	CHECK_EQ_INT(stp_hist_bucket(&d, 4), 67);
	CHECK_EQ_INT(stp_hist_bucket(&d, 1023), 74);
	CHECK_EQ_INT(stp_hist_bucket(&d, 1024), 75);
	CHECK_EQ_INT(stp_hist_bucket(&d, INT64_MAX), 127);
	CHECK_EQ_INT(stp_hist_bucket(&d, -1), 63);
	CHECK_EQ_INT(stp_hist_bucket(&d, -3), 62);
	CHECK_EQ_INT(stp_hist_bucket(&d, -4), 61);
	CHECK_EQ_INT(stp_hist_bucket(&d, INT64_MIN), 0);
	CHECK_EQ_INT(stp_hist_bucket_low(&d, 64), 0);
	CHECK_EQ_INT(stp_hist_bucket_low(&d, 65), 1);
	CHECK_EQ_INT(stp_hist_bucket_low(&d, 75), 1024);
	CHECK_EQ_INT(stp_hist_bucket_low(&d, 127), 1LL << 62);
	CHECK_EQ_INT(stp_hist_bucket_low(&d, 63), -1);
	CHECK_EQ_INT(stp_hist_bucket_low(&d, 61), -4);
	CHECK_EQ_INT(stp_hist_bucket_low(&d, 0), INT64_MIN);
}

TEST(hist_linear_buckets)
{
	struct stp_stat_desc d = { .hist = STP_HIST_LINEAR, .start = 0,
				   .stop = 100, .interval = 10 };

	stp_stat_desc_init(&d);
	CHECK_EQ_INT(stp_hist_bucket(&d, -1), 0);
	CHECK_EQ_INT(stp_hist_bucket(&d, INT64_MIN), 0);
	CHECK_EQ_INT(stp_hist_bucket(&d, 0), 1);
	CHECK_EQ_INT(stp_hist_bucket(&d, 9), 1);
	CHECK_EQ_INT(stp_hist_bucket(&d, 10), 2);
	CHECK_EQ_INT(stp_hist_bucket(&d, 100), 11);	/* stop is inclusive */
	CHECK_EQ_INT(stp_hist_bucket(&d, 109), 11);
	CHECK_EQ_INT(stp_hist_bucket(&d, 110), 12);
	CHECK_EQ_INT(stp_hist_bucket(&d, INT64_MAX), 12);
	CHECK_EQ_INT(stp_hist_bucket_low(&d, 0), 0);
	CHECK_EQ_INT(stp_hist_bucket_low(&d, 2), 10);
	CHECK_EQ_INT(stp_hist_bucket_low(&d, 12), 100);
	d = (struct stp_stat_desc){ .hist = STP_HIST_LINEAR, .start = -50,
				    .stop = 50, .interval = 25 };
	stp_stat_desc_init(&d);
	CHECK_EQ_INT(stp_hist_bucket(&d, -51), 0);
	CHECK_EQ_INT(stp_hist_bucket(&d, -50), 1);
	CHECK_EQ_INT(stp_hist_bucket(&d, -1), 2);
	CHECK_EQ_INT(stp_hist_bucket(&d, 0), 3);
	CHECK_EQ_INT(stp_hist_bucket_low(&d, 3), 0);
}

TEST(hist_counts_in_stat)
{
	struct stp_stat_desc d = { .hist = STP_HIST_LOG };
	struct stp_stat *st = st_new(&d);

	add_n(st, &d, 5, 3);
	add_n(st, &d, -5, 2);
	add_n(st, &d, 0, 1);
	CHECK_EQ_INT(st->hist[67], 3);
	CHECK_EQ_INT(st->hist[61], 2);
	CHECK_EQ_INT(st->hist[64], 1);
	CHECK_EQ_INT(agg(st, &d, STP_AGG_COUNT), 6);
	free(st);
}

/* ---- printed histograms ---- */

static char *printed(struct stp_stat *st, struct stp_stat_desc *d)
{
	static char buf[8192];
	struct stp_out o = { .buf = buf, .cap = sizeof(buf) - 1 };

	stp_hist_print(&o, st, d);
	buf[o.len] = 0;
	return buf;
}

TEST(hist_print_langref_log_example)
{
	struct stp_stat_desc d = { .hist = STP_HIST_LOG };
	struct stp_stat *st = st_new(&d);

	add_n(st, &d, 32, 254);
	add_n(st, &d, 64, 3);
	add_n(st, &d, 128, 2);
	add_n(st, &d, 300, 2);
	add_n(st, &d, 600, 4);
	add_n(st, &d, 1500, 16689);
	CHECK_EQ_STR(printed(st, &d),
		"value |-------------------------------------------------- count\n"
		"    8 |                                                       0\n"
		"   16 |                                                       0\n"
		"   32 |                                                     254\n"
		"   64 |                                                       3\n"
		"  128 |                                                       2\n"
		"  256 |                                                       2\n"
		"  512 |                                                       4\n"
		" 1024 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@  16689\n"
		" 2048 |                                                       0\n"
		" 4096 |                                                       0\n"
		"\n");
	free(st);
}

TEST(hist_print_langref_linear_example)
{
	struct stp_stat_desc d = { .hist = STP_HIST_LINEAR, .start = 0,
				   .stop = 10240, .interval = 200 };
	struct stp_stat *st = st_new(&d);

	add_n(st, &d, 100, 1650);
	add_n(st, &d, 250, 8);
	add_n(st, &d, 1500, 1);
	CHECK_EQ_STR(printed(st, &d),
		"value |-------------------------------------------------- count\n"
		"    0 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 1650\n"
		"  200 |                                                      8\n"
		"  400 |                                                      0\n"
		"  600 |                                                      0\n"
		"      ~\n"
		" 1000 |                                                      0\n"
		" 1200 |                                                      0\n"
		" 1400 |                                                      1\n"
		" 1600 |                                                      0\n"
		" 1800 |                                                      0\n"
		"\n");
	free(st);
}

TEST(hist_print_single_value)
{
	struct stp_stat_desc d = { .hist = STP_HIST_LOG };
	struct stp_stat *st = st_new(&d);

	stp_stat_add(st, &d, 5);
	CHECK_EQ_STR(printed(st, &d),
		"value |-------------------------------------------------- count\n"
		"    1 |                                                   0\n"
		"    2 |                                                   0\n"
		"    4 |@                                                  1\n"
		"    8 |                                                   0\n"
		"   16 |                                                   0\n"
		"\n");
	free(st);
}

TEST(hist_print_negative_values)
{
	struct stp_stat_desc d = { .hist = STP_HIST_LOG };
	struct stp_stat *st = st_new(&d);

	add_n(st, &d, -5, 2);
	stp_stat_add(st, &d, 3);
	CHECK_EQ_STR(printed(st, &d),
		"value |-------------------------------------------------- count\n"
		"  -16 |                                                   0\n"
		"   -8 |                                                   0\n"
		"   -4 |@@                                                 2\n"
		"   -2 |                                                   0\n"
		"   -1 |                                                   0\n"
		"    0 |                                                   0\n"
		"    1 |                                                   0\n"
		"    2 |@                                                  1\n"
		"    4 |                                                   0\n"
		"    8 |                                                   0\n"
		"\n");
	free(st);
}

TEST(hist_print_gap_elided)
{
	struct stp_stat_desc d = { .hist = STP_HIST_LOG };
	struct stp_stat *st = st_new(&d);

	stp_stat_add(st, &d, 1);
	stp_stat_add(st, &d, 1024);
	CHECK_EQ_STR(printed(st, &d),
		"value |-------------------------------------------------- count\n"
		"    0 |                                                   0\n"
		"    1 |@                                                  1\n"
		"    2 |                                                   0\n"
		"    4 |                                                   0\n"
		"      ~\n"
		"  256 |                                                   0\n"
		"  512 |                                                   0\n"
		" 1024 |@                                                  1\n"
		" 2048 |                                                   0\n"
		" 4096 |                                                   0\n"
		"\n");
	free(st);
}

TEST(hist_print_zero_only)
{
	struct stp_stat_desc d = { .hist = STP_HIST_LOG };
	struct stp_stat *st = st_new(&d);

	stp_stat_add(st, &d, 0);
	/* No rows below 0 without negative data. */
	CHECK_EQ_STR(printed(st, &d),
		"value |-------------------------------------------------- count\n"
		"    0 |@                                                  1\n"
		"    1 |                                                   0\n"
		"    2 |                                                   0\n"
		"\n");
	free(st);
}

TEST(hist_print_empty)
{
	struct stp_stat_desc d = { .hist = STP_HIST_LOG };
	struct stp_stat *st = st_new(&d);

	CHECK_EQ_STR(printed(st, &d),
		"value |-------------------------------------------------- count\n"
		"\n");
	free(st);
}

TEST(hist_print_linear_under_overflow)
{
	struct stp_stat_desc d = { .hist = STP_HIST_LINEAR, .start = 0,
				   .stop = 30, .interval = 10 };
	struct stp_stat *st = st_new(&d);

	stp_stat_add(st, &d, -5);
	stp_stat_add(st, &d, 15);
	add_n(st, &d, 100, 3);
	CHECK_EQ_STR(printed(st, &d),
		"value |-------------------------------------------------- count\n"
		"   <0 |@                                                  1\n"
		"    0 |                                                   0\n"
		"   10 |@                                                  1\n"
		"   20 |                                                   0\n"
		"   30 |                                                   0\n"
		"  >30 |@@@                                                3\n"
		"\n");
	free(st);
}

TEST(hist_print_wide_values)
{
	struct stp_stat_desc d = { .hist = STP_HIST_LINEAR, .start = -1000000,
				   .stop = 1000000, .interval = 500000 };
	struct stp_stat *st = st_new(&d);

	stp_stat_add(st, &d, -1000000);
	/* The value column fits "-1000000" and the last row's label. */
	CHECK_EQ_STR(printed(st, &d),
		"   value |-------------------------------------------------- count\n"
		"-1000000 |@                                                  1\n"
		" -500000 |                                                   0\n"
		"       0 |                                                   0\n"
		"\n");
	free(st);
}

TEST(hist_print_none_prints_nothing)
{
	struct stp_stat_desc d = { 0 };
	struct stp_stat *st = st_new(&d);

	stp_stat_add(st, &d, 1);
	CHECK_EQ_STR(printed(st, &d), "");
	free(st);
}

/* ---- combining ---- */

TEST(stat_merge_pairwise)
{
	struct stp_stat_desc d = { .hist = STP_HIST_LOG };
	struct stp_stat *a = st_new(&d), *b = st_new(&d), *c = st_new(&d);
	struct stp_stat *sum = st_new(&d);

	stp_stat_add(a, &d, 1);
	stp_stat_add(a, &d, 2);
	stp_stat_add(b, &d, 3);
	stp_stat_add(c, &d, 4);
	stp_stat_add(c, &d, 5);
	stp_stat_merge(sum, a, &d);
	stp_stat_merge(sum, b, &d);
	stp_stat_merge(sum, c, &d);
	CHECK_EQ_INT(agg(sum, &d, STP_AGG_COUNT), 5);
	CHECK_EQ_INT(agg(sum, &d, STP_AGG_SUM), 15);
	CHECK_EQ_INT(agg(sum, &d, STP_AGG_MIN), 1);
	CHECK_EQ_INT(agg(sum, &d, STP_AGG_MAX), 5);
	/*
	 * a: mean 1 (truncated), M2 1; +b: mean 2, M2 2*1 + 1 + 1*1 + 0
	 * = 4; +c (mean 4, M2 1): mean 3, M2 3*1 + 2*2 + 2*1 + 1 = 10;
	 * read: 4 * (10/4) / 4 = 2.
	 */
	CHECK_EQ_INT(agg(sum, &d, STP_AGG_VARIANCE), 2);
	CHECK_EQ_INT(sum->hist[66], 2);		/* 2 and 3 */
	{
		struct stp_stat *empty = st_new(&d);

		stp_stat_merge(sum, empty, &d);	/* empty: no change */
		free(empty);
	}
	CHECK_EQ_INT(agg(sum, &d, STP_AGG_COUNT), 5);
	free(a);
	free(b);
	free(c);
	free(sum);
}

TEST(pstat_per_cpu)
{
	struct stp_stat_desc d = { .hist = STP_HIST_LOG };
	struct stp_pstat *ps;
	struct stp_stat *st;

	stp_stat_desc_init(&d);
	stp_host_ncpus = 3;
	ps = stp_pstat_new(&d);
	CHECK(stp_pstat_desc(ps) == &d);
	stp_host_cpu = 0;
	stp_pstat_add(ps, 1);
	stp_pstat_add(ps, 2);
	stp_host_cpu = 1;
	stp_pstat_add(ps, 3);
	stp_host_cpu = 2;
	stp_pstat_add(ps, 4);
	stp_pstat_add(ps, 5);
	st = stp_pstat_agg(ps);
	CHECK_EQ_INT(agg(st, &d, STP_AGG_COUNT), 5);
	CHECK_EQ_INT(agg(st, &d, STP_AGG_SUM), 15);
	CHECK_EQ_INT(agg(st, &d, STP_AGG_MIN), 1);
	CHECK_EQ_INT(agg(st, &d, STP_AGG_MAX), 5);
	CHECK_EQ_INT(agg(st, &d, STP_AGG_AVG), 3);
	/*
	 * All CPUs at once: means 1, 3, 4 around 3 give 2*4 + 0 + 2*1 =
	 * 10, plus M2s 1 + 0 + 1; 12/4 = 3.
	 */
	CHECK_EQ_INT(agg(st, &d, STP_AGG_VARIANCE), 3);
	CHECK_EQ_INT(st->hist[65] + st->hist[66] + st->hist[67], 5);
	/* Reading again gives the same, not double. */
	st = stp_pstat_agg(ps);
	CHECK_EQ_INT(agg(st, &d, STP_AGG_COUNT), 5);
	stp_pstat_clear(ps);
	st = stp_pstat_agg(ps);
	CHECK_EQ_INT(agg(st, &d, STP_AGG_COUNT), 0);
	CHECK_EQ_INT(stp_stat_get(st, &d, STP_AGG_MIN, &(int64_t){ 0 }), -1);
	stp_pstat_free(ps);
	stp_host_cpu = 0;
	stp_host_ncpus = 1;
}

TEST(pstat_single_cpu_matches_plain_stat)
{
	struct stp_stat_desc d = { .bit_shift = 1 };
	struct stp_pstat *ps;

	stp_stat_desc_init(&d);
	ps = stp_pstat_new(&d);
	for (int i = 1; i <= 5; i++)
		stp_pstat_add(ps, i);
	CHECK_EQ_INT(agg(stp_pstat_agg(ps), &d, STP_AGG_VARIANCE), 2);
	stp_pstat_free(ps);
}

int main(int argc, char **argv)
{
	return unit_main(argc, argv);
}
