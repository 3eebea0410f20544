// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host cost of the runtime's hot operations, in ns per operation, for
 * tests/bench/run.sh ("runtime maps (host)" in results.txt):
 *
 *   a[k]++ on a long key, a[s]++ on a string key (find-or-insert,
 *   1000 distinct keys in a 2048-entry map, keys drawn at random), the
 *   same into a full map (2048 keys), a[k] <<< v (per-CPU, log
 *   histogram), s <<< v (plain and with a log histogram).
 *
 * Each figure is the best of ROUNDS rounds of N operations: the least
 * disturbed by the rest of the machine.  Prints "name ns-per-op" lines.
 *
 *   rt_bench [N]      default 2000000
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "map.h"
#include "stat.h"

#define ROUNDS 5
#define NKEYS 1000
#define MAPSIZE 2048

static int64_t lkeys[MAPSIZE];
static char skeys[MAPSIZE][32];
static unsigned short order[1 << 16];	/* random key indexes */
static volatile int64_t sink;

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static void make_keys(int nkeys)
{
	unsigned int seed = 42;

	for (int i = 0; i < MAPSIZE; i++) {
		seed = seed * 1103515245 + 12345;
		lkeys[i] = (int64_t)seed << 20 | i;	/* spread, distinct */
		snprintf(skeys[i], sizeof(skeys[i]), "process-%05d", i);
	}
	for (int i = 0; i < (int)(sizeof(order) / sizeof(order[0])); i++) {
		seed = seed * 1103515245 + 12345;
		order[i] = (unsigned short)((seed >> 8) % nkeys);
	}
}

typedef void (*op_fn)(void *ctx, long n);

static double best_ns_per_op(op_fn fn, void *ctx, long n)
{
	double best = 1e30;

	fn(ctx, n / 10);	/* warm-up */
	for (int r = 0; r < ROUNDS; r++) {
		double t0 = now_ns(), t;

		fn(ctx, n);
		t = (now_ns() - t0) / n;
		if (t < best)
			best = t;
	}
	return best;
}

static void inc_long(void *ctx, long n)
{
	struct stp_map *m = ctx;
	union stp_val k;

	for (long i = 0; i < n; i++) {
		k.l = lkeys[order[i & 0xffff]];
		++*stp_entry_long(m, stp_map_insert(m, &k));
	}
}

static void inc_str(void *ctx, long n)
{
	struct stp_map *m = ctx;
	union stp_val k;

	for (long i = 0; i < n; i++) {
		k.s = skeys[order[i & 0xffff]];
		++*stp_entry_long(m, stp_map_insert(m, &k));
	}
}

static void pmap_add(void *ctx, long n)
{
	union stp_val k;

	for (long i = 0; i < n; i++) {
		k.l = lkeys[order[i & 0xffff]];
		stp_pmap_add(ctx, &k, i & 4095);
	}
}

struct stat_ctx {
	struct stp_stat *st;
	struct stp_stat_desc *d;
};

static void stat_add(void *ctx, long n)
{
	struct stat_ctx *c = ctx;

	for (long i = 0; i < n; i++)
		stp_stat_add(c->st, c->d, i & 4095);
	sink = c->st->sum;
}

static void report(const char *name, double ns)
{
	printf("%-44s %8.1f\n", name, ns);
}

static void bench_maps(long n)
{
	static const enum stp_type kl[] = { STP_T_LONG }, ks[] = { STP_T_STRING };
	struct stp_map *ml = stp_map_new(1, kl, STP_T_LONG, NULL, MAPSIZE, 0);
	struct stp_map *ms = stp_map_new(1, ks, STP_T_LONG, NULL, MAPSIZE, 0);

	make_keys(NKEYS);
	report("a[long]++, 1000 keys in 2048", best_ns_per_op(inc_long, ml, n));
	report("a[string]++, 1000 keys in 2048",
	       best_ns_per_op(inc_str, ms, n));
	stp_map_clear(ml);
	stp_map_clear(ms);
	make_keys(MAPSIZE);
	report("a[long]++, 2048 keys in 2048 (full)",
	       best_ns_per_op(inc_long, ml, n));
	report("a[string]++, 2048 keys in 2048 (full)",
	       best_ns_per_op(inc_str, ms, n));
	stp_map_free(ml);
	stp_map_free(ms);
}

static void bench_stats(long n)
{
	static const enum stp_type kl[] = { STP_T_LONG };
	struct stp_stat_desc plain = { 0 }, log = { .hist = STP_HIST_LOG };
	struct stat_ctx c;
	struct stp_pmap *pm;

	stp_stat_desc_init(&plain);
	stp_stat_desc_init(&log);
	c.d = &plain;
	c.st = calloc(1, stp_stat_size(&plain));
	report("s <<< v", best_ns_per_op(stat_add, &c, n));
	free(c.st);
	c.d = &log;
	c.st = calloc(1, stp_stat_size(&log));
	report("s <<< v, @hist_log", best_ns_per_op(stat_add, &c, n));
	free(c.st);
	make_keys(NKEYS);
	pm = stp_pmap_new(1, kl, &log, MAPSIZE, 0);
	report("a[long] <<< v (per-CPU map), @hist_log",
	       best_ns_per_op(pmap_add, pm, n));
	stp_pmap_free(pm);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 2000000;

	bench_maps(n);
	bench_stats(n);
	return 0;
}
