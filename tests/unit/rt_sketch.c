// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the Chopstix sketch sampler (runtime/sketch.c): how the
 * hash spreads labels, the power-of-t selection at its boundaries (as a
 * table, against an oracle that walks the powers, and as the sequence of
 * events cx_event selects), weights, saturation, t doubling with the
 * cycles spent and halving at a swap, full sample lists, naming vitals,
 * and the epoch swap while two threads keep counting events.
 */
#include <pthread.h>
#include <stdio.h>
#include "sketch.h"
#include "unit.h"

static struct cx_sketch *new_sketch(u64 hi, u64 lo)
{
	struct cx_sketch *s = malloc(sizeof(*s));

	if (!s)
		exit(2);
	cx_init(s, hi, lo);
	return s;
}

static long rd(stp_atomic_t *a)
{
	return stp_atomic_read(a);
}

/* One event, ended at once; 1 when it was selected. */
static int event(struct cx_sketch *s, int vi, u64 label, s64 w, u64 cycles)
{
	struct cx_op op;
	int sel;

	cx_event(s, vi, label, w, &op);
	sel = op.smp != NULL;
	if (op.smp)
		op.smp->label = label;
	cx_done(s, &op, cycles);
	return sel;
}

/* The numbers (from 1) of the events selected among n of weight w. */
static const char *selected(struct cx_sketch *s, int vi, u64 label, s64 w,
			    int n)
{
	static char buf[1024];
	size_t len = 0;

	buf[0] = 0;
	for (int i = 1; i <= n; i++)
		if (event(s, vi, label, w, 0))
			len += snprintf(buf + len, sizeof(buf) - len, "%s%d",
					len ? " " : "", i);
	return buf;
}

/* Chi-square of n labels label(i) over the counters. */
static double chi2(u64 (*label)(int), int n)
{
	static long cnt[CX_COUNTERS];
	double e = (double)n / CX_COUNTERS, x = 0;

	memset(cnt, 0, sizeof(cnt));
	for (int i = 0; i < n; i++)
		cnt[cx_index(label(i))]++;
	for (int i = 0; i < CX_COUNTERS; i++)
		x += (cnt[i] - e) * (cnt[i] - e) / e;
	return x;
}

static u64 seq_label(int i) { return (u64)i; }
static u64 pc_label(int i) { return 0xffffffff81000000ULL + ((u64)i << 8); }
static u64 pid_site_label(int i)
{
	return (u64)(i % 1000) << 32 ^ (0xffffffffa0000000ULL + (i / 1000) * 64);
}

/*
 * 100,000 labels in 256 counters: chi-square with 255 degrees of
 * freedom has mean 255 and deviation 22.6; 350 is over 4 deviations.
 * Labels that differ only above the low bits (masked PCs) or in a
 * field (pid << 32 ^ site) must spread as well as consecutive ones.
 */
TEST(hash_spreads_labels)
{
	CHECK_EQ_INT(CX_COUNTERS, 256);
	CHECK(chi2(seq_label, 100000) < 350);
	CHECK(chi2(pc_label, 100000) < 350);
	CHECK(chi2(pid_site_label, 100000) < 350);
	CHECK(cx_index(~0ULL) < CX_COUNTERS);
	CHECK(cx_index(0) != cx_index(1));
}

TEST(crosses_t2)
{
	CHECK_EQ_INT(cx_crosses(0, 1, 1), 1);
	CHECK_EQ_INT(cx_crosses(1, 2, 1), 1);
	CHECK_EQ_INT(cx_crosses(2, 3, 1), 0);
	CHECK_EQ_INT(cx_crosses(3, 4, 1), 1);
	CHECK_EQ_INT(cx_crosses(4, 7, 1), 0);
	CHECK_EQ_INT(cx_crosses(7, 8, 1), 1);
	CHECK_EQ_INT(cx_crosses(8, 9, 1), 0);
	CHECK_EQ_INT(cx_crosses(0, 0, 1), 0);
	CHECK_EQ_INT(cx_crosses(5, 5, 1), 0);
	CHECK_EQ_INT(cx_crosses(1, 1000, 1), 1);
	CHECK_EQ_INT(cx_crosses(0x7fffffff, 0x80000000u, 1), 1);
	CHECK_EQ_INT(cx_crosses(0x80000000u, 0xffffffffu, 1), 0);
}

TEST(crosses_t4_t16)
{
	CHECK_EQ_INT(cx_crosses(0, 1, 2), 1);
	CHECK_EQ_INT(cx_crosses(1, 3, 2), 0);
	CHECK_EQ_INT(cx_crosses(3, 4, 2), 1);
	CHECK_EQ_INT(cx_crosses(4, 15, 2), 0);
	CHECK_EQ_INT(cx_crosses(15, 16, 2), 1);
	CHECK_EQ_INT(cx_crosses(16, 63, 2), 0);
	CHECK_EQ_INT(cx_crosses(63, 64, 2), 1);
	CHECK_EQ_INT(cx_crosses(5, 17, 2), 1);	/* past 16 */
	CHECK_EQ_INT(cx_crosses(5, 1000, 2), 1);	/* past 16, 64, 256 */
	CHECK_EQ_INT(cx_crosses(0, 1, 4), 1);
	CHECK_EQ_INT(cx_crosses(1, 15, 4), 0);
	CHECK_EQ_INT(cx_crosses(15, 16, 4), 1);
	CHECK_EQ_INT(cx_crosses(16, 255, 4), 0);
	CHECK_EQ_INT(cx_crosses(255, 256, 4), 1);
	CHECK_EQ_INT(cx_crosses(2, 300, 4), 1);	/* past 16 and 256 */
	CHECK_EQ_INT(cx_crosses(17, 255, 4), 0);
	CHECK_EQ_INT(cx_crosses(0x0fffffff, 0x10000000, 4), 1);
	CHECK_EQ_INT(cx_crosses(0x10000000, 0xffffffffu, 4), 0);
	CHECK_EQ_INT(cx_crosses(1, 0x3fffffff, 30), 0);
	CHECK_EQ_INT(cx_crosses(1, 0x40000000, 30), 1);
}

/* Selected iff a power t^j lies in (old, new]: the definition, walked. */
static int crosses_oracle(u32 old, u32 new, u32 shift)
{
	for (u64 p = 1; p <= 0xffffffffULL; p <<= shift)
		if (old < p && p <= new)
			return 1;
	return 0;
}

TEST(crosses_matches_definition)
{
	u64 x = 88172645463325252ULL;
	int bad = 0;

	for (u32 shift = 1; shift <= 8; shift++) {
		for (u32 old = 0; old < 300; old++)
			for (u32 d = 0; d < 300; d++)
				bad += cx_crosses(old, old + d, shift) !=
				       crosses_oracle(old, old + d, shift);
		for (int i = 0; i < 100000; i++) {
			u32 a, b;

			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			a = (u32)x >> (x >> 59);
			b = a + ((u32)(x >> 32) >> (x >> 54 & 31));
			if (b < a)
				b = 0xffffffffu;
			bad += cx_crosses(a, b, shift) !=
			       crosses_oracle(a, b, shift);
		}
	}
	CHECK_EQ_INT(bad, 0);
}

TEST(selection_sequences)
{
	struct cx_sketch *s = new_sketch(0, 0);
	int vi = cx_vital(s, "sched");

	stp_atomic_set(&s->v[vi].shift, 1);
	CHECK_EQ_STR(selected(s, vi, 7, 1, 40), "1 2 4 8 16 32");
	cx_clear(s, cx_swap(s));
	cx_clear(s, cx_swap(s));
	stp_atomic_set(&s->v[vi].shift, 2);
	CHECK_EQ_STR(selected(s, vi, 7, 1, 300), "1 4 16 64 256");
	cx_clear(s, cx_swap(s));
	cx_clear(s, cx_swap(s));
	stp_atomic_set(&s->v[vi].shift, 4);
	CHECK_EQ_STR(selected(s, vi, 7, 1, 300), "1 16 256");
	free(s);
}

/* Weights that jump past one power or several: one sample each time. */
TEST(selection_with_weights)
{
	struct cx_sketch *s = new_sketch(0, 0);
	int vi = cx_vital(s, "blck");

	stp_atomic_set(&s->v[vi].shift, 1);	/* t=2: 3 6 9 12 15 18 */
	CHECK_EQ_STR(selected(s, vi, 1, 3, 6), "1 2 3 6");
	stp_atomic_set(&s->v[vi].shift, 2);	/* t=4: 5 10 15 20 .. 65 */
	CHECK_EQ_STR(selected(s, vi, 2, 5, 13), "1 4 13");
	stp_atomic_set(&s->v[vi].shift, 4);	/* t=16: 100 200 300 */
	CHECK_EQ_STR(selected(s, vi, 3, 100, 3), "1 3");
	stp_atomic_set(&s->v[vi].shift, 4);	/* 0 -> 70000: 1 16 .. 65536 */
	CHECK_EQ_STR(selected(s, vi, 4, 70000, 2), "1");
	CHECK_EQ_STR(selected(s, vi, 5, 0, 3), "");
	free(s);
}

/* A sample carries its label's counter with the event: at t=2, weight 3
 * crosses a power of 2 at 3, 6 and 9, not at 12. */
TEST(sample_carries_count)
{
	struct cx_sketch *s = new_sketch(0, 0);
	int vi = cx_vital(s, "blck");
	char got[64];
	size_t len = 0;
	struct cx_op op;

	stp_atomic_set(&s->v[vi].shift, 1);
	for (int i = 0; i < 4; i++) {
		cx_event(s, vi, 7, -3, &op);
		if (op.smp)
			len += (size_t)snprintf(got + len, sizeof(got) - len,
						"%s%u", len ? " " : "",
						op.smp->count);
		cx_done(s, &op, 0);
	}
	CHECK_EQ_STR(got, "3 6 9");
	free(s);
}

/* The sum takes the signed weight, the counter its magnitude. */
TEST(weights_signed_sum_and_magnitude)
{
	struct cx_sketch *s = new_sketch(0, 0);
	int vi = cx_vital(s, "kmem");
	struct cx_copy *c = &s->v[vi].copy[0];

	event(s, vi, 42, 5, 0);
	event(s, vi, 42, -3, 0);
	event(s, vi, 42, 2, 0);
	event(s, vi, 43, -8, 0);
	CHECK_EQ_INT(rd(&c->weight), -4);
	CHECK_EQ_INT(rd(&c->events), 4);
	CHECK_EQ_INT(c->hca[cx_index(42)], 10);
	CHECK_EQ_INT(c->hca[cx_index(43)], 8);
	CHECK_EQ_INT(cx_nonzero(c), 2);
	CHECK_EQ_INT(cx_nsamples(c), 3);	/* 42: 0->5, 5->8; 43: 0->8 */
	CHECK_EQ_INT(rd(&c->claimed), 3);
	free(s);
}

TEST(counters_saturate)
{
	struct cx_sketch *s = new_sketch(0, 0);
	int vi = cx_vital(s, "sock");
	struct cx_copy *c = &s->v[vi].copy[0];
	u32 i9 = cx_index(9);

	CHECK_EQ_INT(event(s, vi, 9, 0xfffffff0, 0), 1);
	CHECK_EQ_INT(c->hca[i9], 0xfffffff0u);
	CHECK_EQ_INT(event(s, vi, 9, 0xfffffff0, 0), 0);
	CHECK_EQ_INT(c->hca[i9], 0xffffffffu);
	CHECK_EQ_INT(event(s, vi, 9, 1, 0), 0);
	CHECK_EQ_INT(c->hca[i9], 0xffffffffu);
	CHECK_EQ_INT(event(s, vi, 10, INT64_MIN, 0), 1);
	CHECK_EQ_INT(c->hca[cx_index(10)], 0xffffffffu);
	CHECK_EQ_INT(event(s, vi, 11, INT64_MAX, 0), 1);
	CHECK_EQ_INT(c->hca[cx_index(11)], 0xffffffffu);
	free(s);
}

/* t doubles at each multiple of hi the copy's cycles reach. */
TEST(t_doubles_at_multiples_of_hi)
{
	struct cx_sketch *s = new_sketch(1000, 0);
	int vi = cx_vital(s, "cpuu");
	static const u64 cyc[] = { 400, 400, 400, 400, 400, 3500, 1, 499 };
	static const long shift[] = { 1, 1, 2, 2, 3, 6, 6, 7 };

	for (int i = 0; i < 8; i++) {
		event(s, vi, 1, 1, cyc[i]);
		CHECK_EQ_INT(rd(&s->v[vi].shift), shift[i]);
	}
	CHECK_EQ_INT(rd(&s->v[vi].copy[0].cycles), 6000);
	/* t is 128 now: 8 -> 127 crosses no power of it, 127 -> 128 does */
	CHECK_EQ_INT(event(s, vi, 1, 119, 0), 0);
	CHECK_EQ_INT(event(s, vi, 1, 1, 0), 1);
	free(s);
}

/* The cycles are the epoch's: a new copy counts its multiples anew. */
TEST(t_doubles_per_epoch)
{
	struct cx_sketch *s = new_sketch(1000, 0);
	int vi = cx_vital(s, "umem");

	event(s, vi, 1, 1, 1500);
	CHECK_EQ_INT(rd(&s->v[vi].shift), 2);
	CHECK_EQ_INT(cx_swap(s), 0);
	event(s, vi, 1, 1, 900);
	CHECK_EQ_INT(rd(&s->v[vi].shift), 2);
	event(s, vi, 1, 1, 100);
	CHECK_EQ_INT(rd(&s->v[vi].shift), 3);
	CHECK_EQ_INT(rd(&s->v[vi].copy[1].cycles), 1000);
	free(s);
}

TEST(t_doubles_up_to_max)
{
	struct cx_sketch *s = new_sketch(1, 0);
	int vi = cx_vital(s, "l2mi");

	event(s, vi, 1, 1, 100);
	CHECK_EQ_INT(rd(&s->v[vi].shift), CX_SHIFT_MAX);
	event(s, vi, 1, 1, 100);
	CHECK_EQ_INT(rd(&s->v[vi].shift), CX_SHIFT_MAX);
	free(s);
}

TEST(t_halves_at_swap_under_lo)
{
	struct cx_sketch *s = new_sketch(0, 1000);
	int a = cx_vital(s, "blio"), b = cx_vital(s, "umem");

	stp_atomic_set(&s->v[a].shift, 3);
	stp_atomic_set(&s->v[b].shift, 3);
	event(s, a, 1, 1, 999);
	event(s, b, 1, 1, 1000);
	CHECK_EQ_INT(cx_swap(s), 0);
	CHECK_EQ_INT(rd(&s->v[a].shift), 2);
	CHECK_EQ_INT(rd(&s->v[b].shift), 3);
	cx_clear(s, 0);
	CHECK_EQ_INT(cx_swap(s), 1);	/* nothing spent: both halve */
	CHECK_EQ_INT(rd(&s->v[a].shift), 1);
	CHECK_EQ_INT(rd(&s->v[b].shift), 2);
	cx_clear(s, 1);
	CHECK_EQ_INT(cx_swap(s), 0);
	CHECK_EQ_INT(rd(&s->v[a].shift), CX_SHIFT_MIN);
	CHECK_EQ_INT(rd(&s->v[b].shift), 1);
	free(s);
}

TEST(watermarks_off)
{
	struct cx_sketch *s = new_sketch(0, 0);
	int vi = cx_vital(s, "sig");

	stp_atomic_set(&s->v[vi].shift, 3);
	event(s, vi, 1, 1, 1000000000);
	cx_swap(s);
	CHECK_EQ_INT(rd(&s->v[vi].shift), 3);
	cx_swap(s);
	CHECK_EQ_INT(rd(&s->v[vi].shift), 3);
	free(s);
}

/* CX_SAMPLES+10 labels on distinct counters: 10 selections dropped. */
TEST(full_list_drops)
{
	struct cx_sketch *s = new_sketch(0, 0);
	int vi = cx_vital(s, "syscall"), nsel = 0, nslot = 0;
	struct cx_copy *c = &s->v[vi].copy[0];
	static char used[CX_COUNTERS];
	u64 label = 0;

	for (int i = 0; i < CX_SAMPLES + 10; i++, label++) {
		struct cx_op op;

		while (used[cx_index(label)] && label < 1000000)
			label++;
		used[cx_index(label)] = 1;
		cx_event(s, vi, label, 1, &op);
		nsel++;
		nslot += op.smp != NULL;
		CHECK(op.smp == (i < CX_SAMPLES ? &c->samples[i] : NULL));
		cx_done(s, &op, 0);
	}
	CHECK_EQ_INT(nsel, CX_SAMPLES + 10);
	CHECK_EQ_INT(nslot, CX_SAMPLES);
	CHECK_EQ_INT(rd(&c->claimed), CX_SAMPLES + 10);
	CHECK_EQ_INT(rd(&c->dropped), 10);
	CHECK_EQ_INT(cx_nsamples(c), CX_SAMPLES);
	CHECK_EQ_INT(cx_nonzero(c), CX_SAMPLES + 10);
	free(s);
}

/* A slot claimed, its event not yet done: not counted as a sample. */
TEST(nsamples_counts_ready)
{
	struct cx_sketch *s = new_sketch(0, 0);
	int vi = cx_vital(s, "lock");
	struct cx_op op;

	cx_event(s, vi, 5, 1, &op);
	CHECK(op.smp != NULL);
	CHECK_EQ_INT(cx_nsamples(&s->v[vi].copy[0]), 0);
	CHECK_EQ_INT(rd(&s->v[vi].copy[0].writers), 1);
	cx_done(s, &op, 0);
	CHECK_EQ_INT(cx_nsamples(&s->v[vi].copy[0]), 1);
	CHECK_EQ_INT(rd(&s->v[vi].copy[0].writers), 0);
	free(s);
}

TEST(vital_naming)
{
	static const char *names[] = { "cpuu", "l2mi", "sched", "blck", "blio",
		"kmem", "umem", "syscall", "sig", "sock", "lock",
		"a-very-long-vital-name" };
	struct cx_sketch *s = new_sketch(0, 0);

	CHECK_EQ_INT(CX_VITALS_MAX, 12);
	for (int i = 0; i < 12; i++)
		CHECK_EQ_INT(cx_vital(s, names[i]), i);
	for (int i = 11; i >= 0; i--)
		CHECK_EQ_INT(cx_vital(s, names[i]), i);
	CHECK_EQ_STR(s->v[11].name, "a-very-long-vit");
	CHECK_EQ_INT(rd(&s->v[0].state), 2);
	CHECK_EQ_INT(cx_vital(s, "retrans"), -1);
	CHECK_EQ_INT(cx_vital(s, "cpu"), -1);
	free(s);
}

#define NAMERS 4

struct namer {
	struct cx_sketch *s;
	int first;		/* where in the names this thread starts */
	int got[12];		/* the index of names[i] */
};

static const char *const vital_names[12] = { "cpuu", "l2mi", "sched",
	"blck", "blio", "kmem", "umem", "syscall", "sig", "sock", "lock",
	"retrans" };

static void *name_all(void *arg)
{
	struct namer *n = arg;

	for (int k = 0; k < 12; k++) {
		int i = (n->first + k) % 12;

		n->got[i] = cx_vital(n->s, vital_names[i]);
	}
	return NULL;
}

/* Threads naming the same vitals at once agree on one slot per name. */
TEST(vital_naming_concurrent)
{
	struct cx_sketch *s = new_sketch(0, 0);
	struct namer n[NAMERS];
	pthread_t th[NAMERS];
	int used[12] = { 0 }, bad = 0;

	for (int t = 0; t < NAMERS; t++) {
		n[t] = (struct namer){ .s = s, .first = t * 3 };
		pthread_create(&th[t], NULL, name_all, &n[t]);
	}
	for (int t = 0; t < NAMERS; t++)
		pthread_join(th[t], NULL);
	for (int i = 0; i < 12; i++) {
		for (int t = 1; t < NAMERS; t++)
			bad += n[t].got[i] != n[0].got[i];
		if (n[0].got[i] < 0 || n[0].got[i] >= 12) {
			bad++;
			continue;
		}
		used[n[0].got[i]]++;
		bad += strcmp(s->v[n[0].got[i]].name, vital_names[i]) != 0;
	}
	for (int i = 0; i < 12; i++)
		bad += used[i] != 1;
	CHECK_EQ_INT(bad, 0);
	free(s);
}

/* An event on no vital (cx_vital said -1) is counted nowhere. */
TEST(event_on_no_vital)
{
	struct cx_sketch *s = new_sketch(0, 0);
	struct cx_op op = { (void *)1, (void *)1, (void *)1 };

	cx_event(s, -1, 1, 1, &op);
	CHECK(!op.v && !op.c && !op.smp);
	cx_done(s, &op, 100);
	cx_event(s, CX_VITALS_MAX, 1, 1, &op);
	CHECK(!op.c);
	free(s);
}

TEST(unavailable)
{
	struct cx_sketch *s = new_sketch(0, 0);
	int vi = cx_vital(s, "l2mi");
	char longwhy[200];

	cx_unavailable(s, vi, "no hardware cache counters (QEMU TCG)");
	CHECK_EQ_INT(s->v[vi].unavailable, 1);
	CHECK_EQ_STR(s->v[vi].why, "no hardware cache counters (QEMU TCG)");
	CHECK_EQ_INT(s->v[0].unavailable, 1);
	CHECK_EQ_INT(s->v[1].unavailable, 0);
	memset(longwhy, 'x', sizeof(longwhy) - 1);
	longwhy[sizeof(longwhy) - 1] = 0;
	cx_unavailable(s, 1, longwhy);
	CHECK_EQ_INT(strlen(s->v[1].why), CX_WHY_LEN - 1);
	cx_unavailable(s, -1, "ignored");
	cx_unavailable(s, CX_VITALS_MAX, "ignored");
	free(s);
}

/* A swap closes the open copy; its clear leaves t and the other copy. */
TEST(swap_and_clear)
{
	struct cx_sketch *s = new_sketch(0, 0);
	int vi = cx_vital(s, "sock");

	event(s, vi, 1, 1, 0);
	event(s, vi, 2, 1, 0);
	CHECK_EQ_INT(cx_swap(s), 0);
	CHECK_EQ_INT(rd(&s->open), 1);
	event(s, vi, 3, 7, 0);
	CHECK_EQ_INT(rd(&s->v[vi].copy[0].events), 2);
	CHECK_EQ_INT(rd(&s->v[vi].copy[1].events), 1);
	CHECK_EQ_INT(cx_nsamples(&s->v[vi].copy[0]), 2);
	cx_clear(s, 0);
	CHECK_EQ_INT(rd(&s->v[vi].copy[0].events), 0);
	CHECK_EQ_INT(rd(&s->v[vi].copy[0].claimed), 0);
	CHECK_EQ_INT(cx_nonzero(&s->v[vi].copy[0]), 0);
	CHECK_EQ_INT(s->v[vi].copy[0].samples[0].label, 0);
	CHECK_EQ_INT(rd(&s->v[vi].copy[1].events), 1);
	CHECK_EQ_INT(s->v[vi].copy[1].hca[cx_index(3)], 7);
	CHECK_EQ_INT(rd(&s->v[vi].shift), CX_SHIFT_INIT);
	CHECK_EQ_INT(cx_swap(s), 1);
	CHECK_EQ_INT(event(s, vi, 1, 1, 0), 1);	/* a new epoch counts anew */
	free(s);
}

/* ---- the writers' protocol ---- */

static struct cx_sketch *late_sketch;
static int late_closed = -1;

static void swap_now(void)
{
	cx_host_enter_hook = NULL;	/* once */
	late_closed = cx_swap(late_sketch);
}

/*
 * A writer that read the open index just before a swap: it must not
 * count its event in the copy the swap closed (already being read).
 */
TEST(late_writer_moves_to_open_copy)
{
	struct cx_sketch *s = late_sketch = new_sketch(0, 0);
	int vi = cx_vital(s, "sig");
	struct cx_op op;

	cx_host_enter_hook = swap_now;
	cx_event(s, vi, 1, 1, &op);
	CHECK_EQ_INT(late_closed, 0);
	CHECK(op.c == &s->v[vi].copy[1]);
	CHECK(op.smp == &s->v[vi].copy[1].samples[0]);
	cx_done(s, &op, 0);
	CHECK_EQ_INT(rd(&s->v[vi].copy[0].events), 0);
	CHECK_EQ_INT(rd(&s->v[vi].copy[1].events), 1);
	CHECK_EQ_INT(rd(&s->v[vi].copy[0].writers), 0);
	CHECK_EQ_INT(rd(&s->v[vi].copy[1].writers), 0);
	free(s);
}

struct swapper {
	struct cx_sketch *s;
	stp_atomic_t done;
};

static void *swap_thread(void *arg)
{
	struct swapper *w = arg;

	stp_atomic_set(&w->done, 1 + cx_swap(w->s));
	return NULL;
}

/* A swap returns only once the writer inside the closed copy is done. */
TEST(swap_waits_for_writer)
{
	struct swapper w = { .s = new_sketch(0, 0) };
	int vi = cx_vital(w.s, "sched");
	struct cx_op op;
	pthread_t th;

	cx_event(w.s, vi, 1, 1, &op);
	pthread_create(&th, NULL, swap_thread, &w);
	usleep(50000);
	CHECK_EQ_INT(rd(&w.done), 0);
	CHECK_EQ_INT(rd(&w.s->open), 1);	/* new writers go to copy 1 */
	cx_done(w.s, &op, 0);
	pthread_join(th, NULL);
	CHECK_EQ_INT(rd(&w.done), 1 + 0);
	CHECK_EQ_INT(cx_nsamples(&w.s->v[vi].copy[0]), 1);
	free(w.s);
}

/* ---- the swap while two threads keep counting ---- */

#define RACE_SWAPS 200	/* swaps while both threads count */
#define RACE_EPOCH 1000	/* events sent between two swaps, at the least */

struct racer {
	struct cx_sketch *s;
	int vi;
	u64 seed;
	stp_atomic_t *stop;
	stp_atomic_t sent;	/* events, for the swapper to watch */
	long weight;		/* their weights' sum, read after the join */
};

static void fill(struct cx_sample *smp, u64 label)
{
	smp->label = label;
	smp->pid = (u32)label;
	smp->uid = (u32)(label >> 32);
	smp->weight = (s64)(label & 7) + 1;
	for (int k = 0; k < CX_NDATA; k++)
		smp->data[k] = (s64)(label + k);
	for (int k = 0; k < CX_KFRAMES; k++)
		smp->kstack[k] = ~label ^ k;
	smp->nk = CX_KFRAMES;
}

static int consistent(const struct cx_sample *smp)
{
	u64 l = smp->label;
	int ok = smp->pid == (u32)l && smp->uid == (u32)(l >> 32) &&
		 smp->weight == (s64)(l & 7) + 1 && smp->nk == CX_KFRAMES;

	for (int k = 0; k < CX_NDATA; k++)
		ok &= smp->data[k] == (s64)(l + k);
	for (int k = 0; k < CX_KFRAMES; k++)
		ok &= smp->kstack[k] == (~l ^ k);
	return ok;
}

/* Labels from 5000, weights 1..8 by label, until told to stop. */
static void *race(void *arg)
{
	struct racer *r = arg;
	u64 x = r->seed;

	while (!stp_atomic_read(r->stop)) {
		struct cx_op op;
		u64 label;
		s64 w;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		label = x % 5000 | r->seed << 40;
		w = (s64)(label & 7) + 1;
		cx_event(r->s, r->vi, label, w, &op);
		if (op.smp)
			fill(op.smp, label);
		cx_done(r->s, &op, 1);
		r->weight += w;
		stp_atomic_inc(&r->sent);
	}
	return NULL;
}

struct tally {
	long events, weight, hca, samples, torn, stray;
};

/*
 * Add up a closed copy and check its samples.  Not its writers count: a
 * probe that read the open index before the swap may still announce
 * itself in the closed copy and back out, touching nothing else.
 */
static void take(struct cx_copy *c, struct tally *t)
{
	long n = rd(&c->claimed);

	t->events += rd(&c->events);
	t->weight += rd(&c->weight);
	for (int i = 0; i < CX_COUNTERS; i++)
		t->hca += c->hca[i];
	for (int i = 0; i < (n < CX_SAMPLES ? n : CX_SAMPLES); i++) {
		const struct cx_sample *smp = &c->samples[i];

		t->samples += smp->ready != 0;
		t->torn += !smp->ready || !consistent(smp);
		/* a sample is of an event counted in this copy */
		t->stray += !c->hca[cx_index(smp->label)];
	}
}

static long sent(struct racer *r)
{
	return stp_atomic_read(&r[0].sent) + stp_atomic_read(&r[1].sent);
}

/*
 * Every event is counted in exactly one copy: the closed copies' totals
 * and the open one's add up to what the threads sent, and no sample of
 * a closed copy is torn or of an event another copy counted.
 */
TEST(swap_while_counting)
{
	struct cx_sketch *s = new_sketch(0, 0);
	stp_atomic_t stop = 0;
	struct racer r[2];
	pthread_t th[2];
	struct tally t = { 0 };
	int vi = cx_vital(s, "cpuu"), swaps = 0, closed;

	alarm(60);	/* a writers count left wrong hangs the swap */
	for (int i = 0; i < 2; i++) {
		r[i] = (struct racer){ .s = s, .vi = vi,
				       .seed = 0x9e3779b97f4aULL + i,
				       .stop = &stop };
		pthread_create(&th[i], NULL, race, &r[i]);
	}
	while (swaps < RACE_SWAPS) {
		long until = sent(r) + RACE_EPOCH;

		while (sent(r) < until)
			stp_cpu_relax();
		closed = cx_swap(s);
		take(&s->v[vi].copy[closed], &t);
		cx_clear(s, closed);
		swaps++;
	}
	stp_atomic_set(&stop, 1);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	closed = cx_swap(s);
	take(&s->v[vi].copy[closed], &t);
	take(&s->v[vi].copy[!closed], &t);
	CHECK_EQ_INT(t.events, r[0].sent + r[1].sent);
	CHECK_EQ_INT(t.weight, r[0].weight + r[1].weight);
	CHECK_EQ_INT(t.hca, t.weight);
	CHECK_EQ_INT(t.torn, 0);
	CHECK_EQ_INT(t.stray, 0);
	CHECK_EQ_INT(rd(&s->v[vi].copy[0].writers), 0);
	CHECK_EQ_INT(rd(&s->v[vi].copy[1].writers), 0);
	/* 1000 events from 10,000 labels select one in most of 256 counters */
	CHECK(t.samples >= RACE_SWAPS * CX_SAMPLES);
	alarm(0);
	free(s);
}

int main(int argc, char **argv)
{
	return unit_main(argc, argv);
}
