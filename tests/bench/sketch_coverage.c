// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sketch's coverage (tests/bench/run.sh, "sketch coverage" in
 * results.txt): which labels that occurred in an epoch the sampler never
 * selected, and which samples it stored, against exact counts kept here
 * for every label.  Built once per HCA size (-DCX_HCA_BYTES); the rest
 * of the sketch (first-occurrence table, CX_SAMPLES slots) as cx_core.h
 * has it.
 *
 *   sketch_coverage EVENTS [TRIALS [load]]
 *
 * EVENTS per vital and epoch; TRIALS: epochs at 100 labels (default 30;
 * fewer at more labels, so that each rate has about as many labels
 * behind it); "load" adds the epochs where the 11 standard vitals count
 * at once (they share the first-occurrence table).  Raw rows on stdout,
 * one per vital and epoch, for tests/bench/sketch_report.c:
 *
 *   cov HCA VITALS SHAPE S LABELS T EVENTS
 *       SEEN MISSED HMISSED EST_POWER EST_EXACT
 *       SEEN_T MISSED_T HMISSED_T EST_T
 *   smp HCA VITALS SHAPE S LABELS T SLOTS CLAIMED STORED STORED_FIRST
 *       DROPPED SELECTED UNSTORED EVICTED VIOLATIONS TAIL TAIL_STORED
 *   ns HCA LABELS ROUNDS NS_PER_EVENT
 *
 * SEEN: labels with an event; MISSED: of them never selected by the
 * sketch (cx_count's decision: c->claimed went up, whether a slot was
 * left or not); HMISSED: never selected by the HCA alone (an event whose
 * count crossed a power of t: the paper's sampler, read off the same
 * counters); EST_*: the paper's formula for HMISSED; *_T: the same over
 * the labels with at least t events (target 1).  SELECTED: labels the
 * sketch selected; UNSTORED: of them never stored this epoch; EVICTED:
 * samples stored by taking a repeat's slot; VIOLATIONS: events of a
 * label never stored this epoch that the sketch selected and turned away
 * while a repeat held a slot (the rule says: never); TAIL: labels of
 * the rarer half (Zipf rank past L / 2) selected, TAIL_STORED: of them
 * stored (the list fills with the epoch's first labels: which are they?).
 *
 * Labels: a Zipf law of exponent s over L distinct labels, the ranks
 * shuffled over the labels, events i.i.d., weight 1.  A label is what
 * the sketch tells apart: the vital's label and who the event is about
 * (cx_who of a few programs and users), in one of four shapes, since the
 * hash is multiplicative and the shape of its input matters:
 *   random   64-bit values;
 *   pid      1, 2, 3, ... (sched, blck, umem);
 *   pc       0xffffffff81000000 + (i << 8): masked kernel PCs (cpuu);
 *   syscall  (sp & ~0xff) << 8 ^ nr of 8 processes (two of each
 *            program), 24 system calls, call sites at stack depths.
 *
 * The formula (Chopstix, section 5.3): a label that occurred n times in
 * a counter that reached N is missed when none of the counter's k
 * sampling points fell on one of its events.  The points are the events
 * that brought the counter to 1, t, t^2, ...: k = floor(log_t N) + 1 of
 * them (the paper's "k = log2 N - t", with its t the log of the lowest
 * point).  With i.i.d. events each point is any of the N events alike,
 * so P[unsampled | N - n, n] = ((N - n) / N)^k as the paper has it
 * (points drawn with replacement), C(N - n, k) / C(N, k) exactly
 * (without).  The estimate sums it over the labels, with N read from the
 * counters at the epoch's close.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sketch.h"

#define ROUNDS 15	/* timing: best of, on a shared machine */
#define NWHO 4		/* programs and users the events are about */
#define NPROC 8		/* processes of the syscall shape */
#define NELEM(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const double exps[] = { 0.8, 1.0, 1.2 };
static const int nlabels[] = { 100, 300, 1000, 3000, 10000 };
static const int shifts[] = { 1, 2, 4 };
static const int load_labels[] = { 300, 1000, 3000 };

enum shape { SH_RANDOM, SH_PID, SH_PC, SH_SYSCALL, NSHAPE };
static const char *const shape_name[NSHAPE] = { "random", "pid", "pc", "syscall" };
/* the vital each shape is counted in (its hash multiplier): a user's,
 * sched, cpuu, syscall; ORDER: enum shape */
static const char *const shape_vital[NSHAPE] = { "bench", "sched", "cpuu", "syscall" };
/* the standard vitals' shapes when all count at once; ORDER: CX_STD_NAMES */
static const enum shape std_shape[CX_STD_VITALS] = {
	SH_PC, SH_PC, SH_PID, SH_PID, SH_RANDOM, SH_RANDOM,
	SH_PID, SH_SYSCALL, SH_RANDOM, SH_RANDOM, SH_RANDOM,
};

static struct cx_cpu cpu0;	/* the host's counts: one instance */
static u64 who[NWHO];
static u64 rng = 0x2545f4914f6cdd1dULL;

static u64 next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (!p) {
		fprintf(stderr, "sketch_coverage: out of memory\n");
		exit(2);
	}
	return p;
}

/* The module's who: an executable's struct file pointer, a uid. */
static void init_who(void)
{
	static const u64 exe[NWHO] = {
		0xffff888104a3c300ULL, 0xffff88810b2e1a00ULL,
		0xffff888100f7e900ULL, 0xffff8881067d5c00ULL,
	};
	static const u32 uid[NWHO] = { 0, 1000, 33, 0 };

	for (int i = 0; i < NWHO; i++)
		who[i] = cx_who(exe[i], uid[i]);
}

/* ---- labels ---- */

struct keys {
	int n;
	u64 *label;
	u64 *who;
};

/* Label i of the syscall shape: process i % NPROC, then the call and
 * its depth on that process's stack. */
static u64 syscall_label(int i, const u64 *top)
{
	static const u16 nrs[] = {
		0, 1, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13,
		14, 16, 17, 20, 21, 23, 39, 41, 42, 44, 45, 202,
	};
	int j = i / NPROC;
	u64 sp = top[i % NPROC] - 0x200 - (u64)(j / NELEM(nrs)) * 0x1c0;

	return (sp & ~0xffULL) << 8 ^ nrs[j % NELEM(nrs)];
}

static void shape_key(struct keys *k, enum shape sh, int i, const u64 *top)
{
	switch (sh) {
	case SH_RANDOM:
		k->label[i] = next();
		k->who[i] = who[next() % NWHO];
		break;
	case SH_PID:
		k->label[i] = (u64)i + 1;
		k->who[i] = who[(i * 7 + i / 5) % NWHO];
		break;
	case SH_PC:
		k->label[i] = 0xffffffff81000000ULL + ((u64)i << 8);
		k->who[i] = who[next() % NWHO];
		break;
	default:
		k->label[i] = syscall_label(i, top);
		k->who[i] = who[i % NPROC % NWHO];
		break;
	}
}

static int by_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return (x > y) - (x < y);
}

/* Two keys the sketch cannot tell apart (label ^ who equal: one hash
 * in every vital) would make the ground truth wrong. */
static void check_distinct(const struct keys *k)
{
	u64 *x = xcalloc(k->n, sizeof(*x));

	for (int i = 0; i < k->n; i++)
		x[i] = k->label[i] ^ k->who[i];
	qsort(x, k->n, sizeof(*x), by_u64);
	for (int i = 1; i < k->n; i++)
		if (x[i] == x[i - 1]) {
			fprintf(stderr, "sketch_coverage: two labels hash alike\n");
			exit(2);
		}
	free(x);
}

/* n labels of a shape, in random order of rank. */
static void make_keys(struct keys *k, enum shape sh, int n)
{
	u64 top[NPROC];

	for (int p = 0; p < NPROC; p++)	/* randomized stack tops */
		top[p] = 0x7ff000000000ULL + (next() & 0xffffff000ULL);
	k->n = n;
	k->label = xcalloc(n, sizeof(*k->label));
	k->who = xcalloc(n, sizeof(*k->who));
	for (int i = 0; i < n; i++)
		shape_key(k, sh, i, top);
	for (int i = n - 1; i > 0; i--) {
		int j = (int)(next() % (u64)(i + 1));
		u64 l = k->label[i], w = k->who[i];

		k->label[i] = k->label[j], k->who[i] = k->who[j];
		k->label[j] = l, k->who[j] = w;
	}
	check_distinct(k);
}

static void free_keys(struct keys *k)
{
	free(k->label);
	free(k->who);
}

/* ---- streams: the ranks of an epoch's events ---- */

struct stream {
	long nev;
	u32 *ev;
};

/* Ranks drawn by inverse CDF: P(rank i) proportional to 1/(i+1)^s. */
static void make_stream(struct stream *st, double s, int nl, long nev)
{
	double *cdf = xcalloc(nl, sizeof(*cdf)), sum = 0;

	st->nev = nev;
	st->ev = xcalloc(nev, sizeof(*st->ev));
	for (int i = 0; i < nl; i++) {
		sum += pow(i + 1, -s);
		cdf[i] = sum;
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
		st->ev[e] = (u32)lo;
	}
	free(cdf);
}

/* ---- one epoch, against the exact counts ---- */

/* What happened to one label in the epoch. */
struct truth {
	u32 n;		/* its events */
	u8 sel;		/* the sketch selected one */
	u8 hsel;	/* the HCA alone would have */
	u8 stored;	/* one was stored in a slot */
};

/* A vital counting in an epoch. */
struct vit {
	int vi;			/* its slot */
	enum shape sh;
	const struct keys *k;
	const struct stream *st;
	struct truth *t;	/* by rank */
	long evicted;		/* stored in a repeat's slot */
	long violations;	/* a never stored label turned away, a repeat kept */
};

/* A repeat (stored, not a first occurrence) holds one of c's slots. */
static int holds_repeat(const struct cx_copy *c)
{
	for (int i = 0; i < CX_SAMPLES; i++)
		if (c->samples[i].ready == CX_READY)
			return 1;
	return 0;
}

/* One event of rank r, as a probe would count it, and what it did. */
static void event(struct cx_sketch *s, struct vit *v, u32 r, u32 shift)
{
	u64 h = cx_hash(v->vi, v->k->label[r], v->k->who[r]);
	struct cx_copy *c = &s->v[v->vi].copy[s->open & 1];
	u32 old = cx_count_at(c, cx_index(h));
	s64 before = c->claimed, hd = cx_count(s, &cpu0, v->vi, h, 1);
	struct cx_sample *x = cx_sample_at(s, hd);
	struct truth *t = &v->t[r];

	t->n++;
	/* one thread: the count before and after this weight-1 event is
	 * exact, so this is the paper's decision on the same counters */
	t->hsel |= (u8)cx_crosses(old, old + 1, shift);
	if (c->claimed == before)
		return;
	t->sel = 1;
	if (x) {
		x->pid = r;
		cx_publish(x);
		v->evicted += before >= CX_SAMPLES;
		t->stored = 1;
	} else if (!t->stored && holds_repeat(c)) {
		v->violations++;
	}
}

/* Close the open copy as the module does (no grace period to wait for:
 * one thread): its index, counts folded in, cost reckoned. */
static int close_epoch(struct cx_sketch *s)
{
	int closed = cx_flip(s);

	cx_fold(s, closed, &cpu0);
	memset(cpu0.events[closed], 0, sizeof(cpu0.events[closed]));
	memset(cpu0.weight[closed], 0, sizeof(cpu0.weight[closed]));
	cx_finish(s, closed);
	return closed;
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

/* The configuration's columns, shared by a vital's rows. */
static void row_head(const char *kind, int nv, const struct vit *v, double sexp, int shift)
{
	printf("%s %d %d %s %.1f %d %d", kind, CX_HCA_BYTES, nv, shape_name[v->sh],
	       sexp, v->k->n, 1 << shift);
}

/* The decisions against the exact counts: one cov row. */
static void emit_cov(const struct cx_copy *c, const struct vit *v, int nv,
		     double sexp, int shift)
{
	long seen = 0, missed = 0, hmissed = 0, seen_t = 0, missed_t = 0, hmissed_t = 0;
	double pw_sum = 0, ex_sum = 0, est_t = 0;

	for (int r = 0; r < v->k->n; r++) {
		const struct truth *t = &v->t[r];
		u64 h = cx_hash(v->vi, v->k->label[r], v->k->who[r]);
		double pw, ex;

		if (!t->n)
			continue;
		p_miss(cx_count_at(c, cx_index(h)), t->n, shift, &pw, &ex);
		seen++, missed += !t->sel, hmissed += !t->hsel;
		pw_sum += pw, ex_sum += ex;
		if (t->n < 1u << shift)
			continue;
		seen_t++, missed_t += !t->sel, hmissed_t += !t->hsel;
		est_t += ex;
	}
	row_head("cov", nv, v, sexp, shift);
	printf(" %ld %ld %ld %ld %.4f %.4f %ld %ld %ld %.4f\n", v->st->nev, seen, missed,
	       hmissed, pw_sum, ex_sum, seen_t, missed_t, hmissed_t, est_t);
}

/* The stored samples: one smp row. */
static void emit_smp(const struct cx_copy *c, const struct vit *v, int nv,
		     double sexp, int shift)
{
	long selected = 0, unstored = 0, firsts = 0, tail = 0, tail_stored = 0;

	for (int r = 0; r < v->k->n; r++) {
		const struct truth *t = &v->t[r];

		selected += t->sel;
		unstored += t->sel && !t->stored;
		tail += r >= v->k->n / 2 && t->sel;
		tail_stored += r >= v->k->n / 2 && t->stored;
	}
	for (int i = 0; i < CX_SAMPLES; i++)
		firsts += c->samples[i].ready == (CX_READY | CX_FIRST);
	row_head("smp", nv, v, sexp, shift);
	printf(" %d %lld %d %ld %lld %ld %ld %ld %ld %ld %ld\n", CX_SAMPLES,
	       (long long)c->claimed, cx_nsamples(c), firsts, (long long)c->dropped, selected,
	       unstored, v->evicted, v->violations, tail, tail_stored);
}

/* One epoch of nv vitals counting at once, their events interleaved. */
static void run_epoch(struct cx_sketch *s, struct vit *v, int nv, double sexp, int shift)
{
	long nev = v[0].st->nev;
	int closed;

	for (int j = 0; j < nv; j++) {
		memset(v[j].t, 0, v[j].k->n * sizeof(*v[j].t));
		v[j].evicted = v[j].violations = 0;
		s->v[v[j].vi].shift = shift;
	}
	for (long e = 0; e < nev; e++)
		for (int j = 0; j < nv; j++)
			event(s, &v[j], v[j].st->ev[e], (u32)shift);
	closed = close_epoch(s);
	for (int j = 0; j < nv; j++) {
		const struct cx_copy *c = &s->v[v[j].vi].copy[closed];

		if (c->events != nev) {
			fprintf(stderr, "sketch_coverage: %lld events folded, %ld counted\n",
				(long long)c->events, nev);
			exit(1);
		}
		emit_cov(c, &v[j], nv, sexp, shift);
		emit_smp(c, &v[j], nv, sexp, shift);
	}
	cx_clear(s, closed);
}

/* ---- the runs ---- */

static int trials(int nl, int at100)
{
	int n = at100 * 100 / nl;

	return n > 0 ? n : 1;
}

/* One vital, each shape on the same stream of ranks, each t. */
static void one_stream(struct cx_sketch *s, const struct stream *st, double sexp, int nl)
{
	struct truth *t = xcalloc(nl, sizeof(*t));

	for (int sh = 0; sh < NSHAPE; sh++) {
		struct keys k;
		struct vit v = { .vi = cx_vital(s, shape_vital[sh]), .sh = (enum shape)sh,
				 .k = &k, .st = st, .t = t };

		make_keys(&k, (enum shape)sh, nl);
		for (int i = 0; i < NELEM(shifts); i++)
			run_epoch(s, &v, 1, sexp, shifts[i]);
		free_keys(&k);
	}
	free(t);
}

static void single(struct cx_sketch *s, long nev, int at100)
{
	for (int a = 0; a < NELEM(exps); a++)
		for (int b = 0; b < NELEM(nlabels); b++)
			for (int r = 0; r < trials(nlabels[b], at100); r++) {
				struct stream st;

				make_stream(&st, exps[a], nlabels[b], nev);
				one_stream(s, &st, exps[a], nlabels[b]);
				free(st.ev);
			}
}

/* The 11 standard vitals with nl labels each, one epoch at t = 2. */
static void load_epoch(struct cx_sketch *s, long nev, double sexp, int nl)
{
	struct vit v[CX_STD_VITALS];
	struct keys k[CX_STD_VITALS];
	struct stream st[CX_STD_VITALS];

	for (int j = 0; j < CX_STD_VITALS; j++) {
		make_keys(&k[j], std_shape[j], nl);
		make_stream(&st[j], sexp, nl, nev);
		v[j] = (struct vit){ .vi = j, .sh = std_shape[j], .k = &k[j], .st = &st[j],
				     .t = xcalloc(nl, sizeof(struct truth)) };
	}
	run_epoch(s, v, CX_STD_VITALS, sexp, CX_SHIFT_INIT);
	for (int j = 0; j < CX_STD_VITALS; j++) {
		free_keys(&k[j]);
		free(st[j].ev);
		free(v[j].t);
	}
}

static void load(struct cx_sketch *s, long nev)
{
	for (int a = 0; a < NELEM(exps); a++)
		for (int b = 0; b < NELEM(load_labels); b++)
			load_epoch(s, nev, exps[a], load_labels[b]);
}

/* The thread's CPU time: on a machine shared with others (load of 4 to
 * 11 on 2 CPUs here), the wall clock counts their turns too. */
static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

/* ns per event as a probe spends them: the hash, cx_count and, for the
 * few selected, the slot filled and published; best of ROUNDS epochs
 * (random labels, s = 1.0). */
static void time_events(struct cx_sketch *s, long nev, int nl)
{
	int vi = cx_vital(s, "bench");
	double best = 1e30;
	struct stream st;
	struct keys k;

	make_keys(&k, SH_RANDOM, nl);
	make_stream(&st, 1.0, nl, nev);
	for (int r = 0; r < ROUNDS; r++) {
		double t0 = now_ns(), dt;

		for (long e = 0; e < nev; e++) {
			u32 i = st.ev[e];
			s64 hd = cx_count(s, &cpu0, vi, cx_hash(vi, k.label[i], k.who[i]), 1);
			struct cx_sample *x = cx_sample_at(s, hd);

			if (x) {
				x->pid = i;
				cx_publish(x);
			}
		}
		dt = (now_ns() - t0) / nev;
		best = dt < best ? dt : best;
		cx_clear(s, close_epoch(s));
	}
	printf("ns %d %d %d %.1f\n", CX_HCA_BYTES, nl, ROUNDS, best);
	free_keys(&k);
	free(st.ev);
}

int main(int argc, char **argv)
{
	long nev = argc >= 2 ? atol(argv[1]) : 0;
	int at100 = argc >= 3 ? atoi(argv[2]) : 30;
	struct cx_sketch *s = xcalloc(1, sizeof(*s));

	if (nev <= 0 || at100 <= 0 || argc > 4 || (argc == 4 && strcmp(argv[3], "load"))) {
		fprintf(stderr, "usage: sketch_coverage EVENTS [TRIALS [load]]\n");
		return 2;
	}
	init_who();
	cx_init(s, 0, 0);	/* no watermarks: t stays as set */
	time_events(s, nev, 1000);
	time_events(s, nev, 10000);
	single(s, nev, at100);
	if (argc == 4)
		load(s, nev);
	free(s);
	return 0;
}
