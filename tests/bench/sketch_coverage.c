// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sketch's coverage (tests/bench/run.sh, "sketch coverage" in
 * results.txt): how many labels that occurred in an epoch the sampler
 * never selected, against the exact counts, and what the paper's formula
 * predicts from the counters.  Built once per HCA size (-DCX_HCA_BYTES).
 *
 *   sketch_coverage EVENTS   raw rows for this HCA size, on stdout:
 *     cov HCA_BYTES S LABELS SHIFT EVENTS SEEN MISSED LOST EST_POWER EST_EXACT
 *   (LOST: the events of the labels missed)
 *     ns HCA_BYTES NS_PER_EVENT
 *
 * (tests/bench/sketch_report.c makes the section's tables of them.)
 *
 * Streams: EVENTS events of weight 1, labels drawn from a Zipf law of
 * exponent s over L distinct labels (random 64-bit values), i.i.d.; one
 * epoch, t fixed (no watermarks), the sample list unlimited: an event
 * counts as selected when cx_event claimed a slot for it (claimed went
 * up), whether or not a slot was left.
 *
 * The formula (Chopstix, section 5.3): a label that occurred n times in
 * a counter that reached N is missed when none of the counter's k
 * sampling points fell on one of its events.  The points are the events
 * that brought the counter to 1, t, t^2, ...: k = floor(log_t N) + 1 of
 * them (the paper's "k = log2 N - t", with its t the log of the lowest
 * point).  With i.i.d. events each point is any of the N events alike,
 * so P[unsampled | N - n, n] = ((N - n) / N)^k as the paper has it
 * (points drawn with replacement), C(N - n, k) / C(N, k) exactly
 * (without).  The estimate sums it over the labels that occurred, with
 * N read from the counters after the stream.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "sketch.h"

#define ROUNDS 15	/* timing: best of, on a shared machine */

static const double exps[] = { 0.8, 1.0, 1.2 };
static const int nlabels[] = { 100, 1000, 10000, 100000 };
static const int shifts[] = { 1, 2, 4 };
#define NEXP 3
#define NL 4
#define NSHIFT 3

static u64 rng = 0x2545f4914f6cdd1dULL;

static u64 next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

struct stream {
	int nl;
	u64 *label;	/* label of rank i */
	u32 *ev;	/* the events' ranks */
	long nev;
	long *n;	/* exact count per rank */
};

/* Ranks drawn by inverse CDF: P(rank i) proportional to 1/(i+1)^s. */
static void make_stream(struct stream *st, double s, int nl, long nev)
{
	double *cdf = malloc(nl * sizeof(*cdf)), sum = 0;

	st->nl = nl;
	st->nev = nev;
	st->label = malloc(nl * sizeof(*st->label));
	st->n = calloc(nl, sizeof(*st->n));
	st->ev = malloc(nev * sizeof(*st->ev));
	if (!cdf || !st->label || !st->n || !st->ev)
		exit(2);
	for (int i = 0; i < nl; i++) {
		sum += pow(i + 1, -s);
		cdf[i] = sum;
		st->label[i] = next();
	}
	for (long e = 0; e < nev; e++) {
		double u = (next() >> 11) * 0x1p-53 * sum;
		int lo = 0, hi = nl - 1;

		while (lo < hi) {
			int mid = (lo + hi) / 2;

			if (cdf[mid] < u)
				lo = mid + 1;
			else
				hi = mid;
		}
		st->ev[e] = lo;
		st->n[lo]++;
	}
	free(cdf);
}

static void free_stream(struct stream *st)
{
	free(st->label);
	free(st->ev);
	free(st->n);
}

/* P[unsampled | N - n, n]: the paper's form and the exact one. */
static void p_miss(u64 N, u64 n, int shift, double *power, double *exact)
{
	int k = 0;
	double p = 1;

	for (u64 x = N; x; x >>= shift)
		k++;	/* floor(log_t N) + 1 */
	*power = pow((double)(N - n) / N, k);
	for (int j = 0; j < k && p > 0; j++)
		p *= N - n >= (u64)j ? (double)(N - n - j) / (N - j) : 0;
	*exact = p;
}

/* One epoch of the stream at t = 2^shift: one raw row. */
static void run_one(struct cx_sketch *sk, struct stream *st, double s,
		    int shift, char *sampled)
{
	int vi, seen = 0, missed = 0;
	long lost = 0;	/* events of the labels missed */
	struct cx_copy *c;
	double power = 0, exact = 0;

	cx_init(sk, 0, 0);
	vi = cx_vital(sk, "bench");
	c = &sk->v[vi].copy[0];
	stp_atomic_set(&sk->v[vi].shift, shift);
	memset(sampled, 0, st->nl);
	for (long e = 0; e < st->nev; e++) {
		long before = stp_atomic_read(&c->claimed);
		struct cx_op op;

		cx_event(sk, vi, st->label[st->ev[e]], 1, &op);
		cx_done(sk, &op, 0);
		if (stp_atomic_read(&c->claimed) != before)
			sampled[st->ev[e]] = 1;
	}
	for (int i = 0; i < st->nl; i++) {
		double pw, ex;

		if (!st->n[i])
			continue;
		seen++;
		missed += !sampled[i];
		lost += sampled[i] ? 0 : st->n[i];
		p_miss(c->hca[cx_index(st->label[i])], st->n[i], shift, &pw,
		       &ex);
		power += pw;
		exact += ex;
	}
	printf("cov %d %.1f %d %d %ld %d %d %ld %.4f %.4f\n", CX_HCA_BYTES,
	       s, st->nl, shift, st->nev, seen, missed, lost, power, exact);
}

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

/* ns per cx_event + cx_done over the stream, best of ROUNDS epochs. */
static void time_events(struct cx_sketch *sk, struct stream *st)
{
	double best = 1e30;
	int vi;

	cx_init(sk, 0, 0);
	vi = cx_vital(sk, "bench");
	for (int r = 0; r < ROUNDS; r++) {
		double t0 = now_ns(), dt;

		for (long e = 0; e < st->nev; e++) {
			struct cx_op op;

			cx_event(sk, vi, st->label[st->ev[e]], 1, &op);
			if (op.smp)
				op.smp->label = st->label[st->ev[e]];
			cx_done(sk, &op, 100);
		}
		dt = (now_ns() - t0) / st->nev;
		best = dt < best ? dt : best;
		cx_clear(sk, cx_swap(sk));
	}
	printf("ns %d %.1f\n", CX_HCA_BYTES, best);
}

/* Rarer labels need more epochs for a false-negative rate near 1e-3. */
static int trials(int nl)
{
	return nl >= 100000 ? 1 : nl >= 10000 ? 3 : 10;
}

static int run(long nev)
{
	struct cx_sketch *sk = malloc(sizeof(*sk));
	char *sampled = malloc(100000);
	struct stream st;

	if (!sk || !sampled)
		return 2;
	for (int a = 0; a < NEXP; a++)
		for (int b = 0; b < NL; b++)
			for (int r = 0; r < trials(nlabels[b]); r++) {
				make_stream(&st, exps[a], nlabels[b], nev);
				for (int c = 0; c < NSHIFT; c++)
					run_one(sk, &st, exps[a], shifts[c],
						sampled);
				free_stream(&st);
			}
	make_stream(&st, 1.0, 10000, nev);
	time_events(sk, &st);
	free_stream(&st);
	free(sk);
	free(sampled);
	return 0;
}

int main(int argc, char **argv)
{
	long nev = argc == 2 ? atol(argv[1]) : 0;

	if (nev <= 0) {
		fprintf(stderr, "usage: sketch_coverage EVENTS\n");
		return 2;
	}
	return run(nev);
}
