// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the Chopstix sketch sampler: the decision path every
 * build shares (runtime/cx_core.h) and the epoch half (runtime/sketch.c).
 * How the hash spreads labels; the power-of-t test at its boundaries (as
 * a table, against an oracle that walks the powers, and as the sequence
 * of events cx_count selects); weights, saturation; the first-occurrence
 * table (a rare label on a busy counter is selected, once an epoch);
 * full sample lists, where a first occurrence takes a repeat's slot;
 * t doubling with the sampling cost and the epoch's, halving under the
 * low watermark; naming vitals (the standard slots, a user's); and the
 * epoch's close while two threads keep counting, with the grace period
 * emulated as the module's synchronize_rcu() would give it.
 */
#include <pthread.h>
#include <stdio.h>
#include "sketch.h"
#include "unit.h"

static struct cx_cpu cpu0;	/* the host's counts: one instance, atomic */

static struct cx_sketch *new_sketch(u64 hi, u64 lo)
{
	struct cx_sketch *s = malloc(sizeof(*s));

	if (!s)
		exit(2);
	cx_init(s, hi, lo);
	memset(&cpu0, 0, sizeof(cpu0));
	return s;
}

/* An event with who 0; its handle, the sample published at once. */
static s64 event(struct cx_sketch *s, int vi, u64 label, s64 w)
{
	s64 h = cx_count(s, &cpu0, vi, cx_hash(vi, label, 0), w);

	cx_publish(cx_sample_at(s, h));
	return h;
}

/* Close the open copy: its index, counts folded in, cost reckoned. */
static int close_copy(struct cx_sketch *s)
{
	int closed = cx_flip(s);

	cx_fold(s, closed, &cpu0);
	cx_cpu_zero(&cpu0, closed);
	cx_finish(s, closed);
	return closed;
}

/* A fresh epoch for the next part of a test: both copies closed and
 * cleared, t as it was. */
static void fresh(struct cx_sketch *s)
{
	cx_clear(s, close_copy(s));
	cx_clear(s, close_copy(s));
}

/* The numbers (from 1) of the events selected among n of weight w. */
static const char *selected(struct cx_sketch *s, int vi, u64 label, s64 w, int n)
{
	static char buf[1024];
	size_t len = 0;

	buf[0] = 0;
	for (int i = 1; i <= n; i++)
		if (event(s, vi, label, w))
			len += snprintf(buf + len, sizeof(buf) - len, "%s%d", len ? " " : "", i);
	return buf;
}

/* The counter label goes to, in vital vi. */
static u32 counter(const struct cx_sketch *s, int vi, int copy, u64 label)
{
	return cx_count_at(&s->v[vi].copy[copy], cx_index(cx_hash(vi, label, 0)));
}

/* Chi-square of n labels label(i) over the counters. */
static double chi2(u64 (*label)(int), int n)
{
	static long cnt[CX_COUNTERS];
	double e = (double)n / CX_COUNTERS, x = 0;

	memset(cnt, 0, sizeof(cnt));
	for (int i = 0; i < n; i++)
		cnt[cx_index(cx_hash(7, label(i), cx_who(0x1234, 1000)))]++;
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
static u64 sp_nr_label(int i)	/* the syscall vital's: (sp & ~0xff) << 8 ^ nr */
{
	return (0x7ffd0000ULL + (u64)(i / 300) * 0x100) << 8 ^ (u64)(i % 300);
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
	CHECK(chi2(sp_nr_label, 100000) < 350);
	CHECK(cx_index(cx_hash(0, 0, 0)) != cx_index(cx_hash(0, 1, 0)));
	/* a vital's labels differ from another's, for the shared table */
	CHECK(cx_hash(7, 42, 0) != cx_hash(8, 42, 0));
	CHECK(cx_who(1, 0) != cx_who(0, 1));
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
	CHECK_EQ_INT(cx_crosses(5, 17, 2), 1);	/* past 16 */
	CHECK_EQ_INT(cx_crosses(5, 1000, 2), 1);	/* past 16, 64, 256 */
	CHECK_EQ_INT(cx_crosses(15, 16, 4), 1);
	CHECK_EQ_INT(cx_crosses(16, 255, 4), 0);
	CHECK_EQ_INT(cx_crosses(255, 256, 4), 1);
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
			bad += cx_crosses(a, b, shift) != crosses_oracle(a, b, shift);
		}
	}
	CHECK_EQ_INT(bad, 0);
}

/* The common path's test leaves exactly the crossings to the slow one:
 * a label alone on its counter is selected at the powers of t. */
TEST(selection_sequences)
{
	struct cx_sketch *s = new_sketch(0, 0);
	int vi = cx_vital(s, "sched");

	CHECK_EQ_INT(vi, 2);
	s->v[vi].shift = 1;
	CHECK_EQ_STR(selected(s, vi, 7, 1, 40), "1 2 4 8 16 32");
	fresh(s);
	s->v[vi].shift = 2;
	CHECK_EQ_STR(selected(s, vi, 7, 1, 300), "1 4 16 64 256");
	fresh(s);
	s->v[vi].shift = 4;
	CHECK_EQ_STR(selected(s, vi, 7, 1, 300), "1 16 256");
	free(s);
}

/* Weights that jump past one power or several: one sample each time. */
TEST(selection_with_weights)
{
	struct cx_sketch *s = new_sketch(0, 0);
	int vi = cx_vital(s, "blck");

	s->v[vi].shift = 1;	/* t=2: 3 6 9 12 15 18 */
	CHECK_EQ_STR(selected(s, vi, 1, 3, 6), "1 2 3 6");
	s->v[vi].shift = 2;	/* t=4: 5 10 15 20 .. 65 */
	CHECK_EQ_STR(selected(s, vi, 2, 5, 13), "1 4 13");
	s->v[vi].shift = 4;	/* t=16: 100 200 300 */
	CHECK_EQ_STR(selected(s, vi, 3, 100, 3), "1 3");
	s->v[vi].shift = 4;	/* 0 -> 70000: past 1, 16 .. 65536 at once */
	CHECK_EQ_STR(selected(s, vi, 4, 70000, 1), "1");
	free(s);
}

/* A sample carries its label's hash, weight and counter, and whether it
 * was the label's first this epoch. */
TEST(sample_fields)
{
	struct cx_sketch *s = new_sketch(0, 0);
	int vi = cx_vital(s, "kmem");
	s64 h1 = event(s, vi, 9, -4), h2;
	struct cx_sample *x;

	CHECK(h1 > 0);
	x = cx_sample_at(s, h1);
	CHECK_EQ_INT(x->label, cx_hash(vi, 9, 0));
	CHECK_EQ_INT(x->weight, -4);
	CHECK_EQ_INT(x->count, 4);
	CHECK_EQ_INT(x->first, 1);
	CHECK_EQ_INT(x->ready, CX_READY | CX_FIRST);
	h2 = event(s, vi, 9, -4);	/* 4 -> 8: a power of 2 */
	CHECK(h2 > 0 && h2 != h1);
	x = cx_sample_at(s, h2);
	CHECK_EQ_INT(x->count, 8);
	CHECK_EQ_INT(x->first, 0);
	CHECK_EQ_INT(x->ready, CX_READY);
	free(s);
}

/* Handles name slots and nothing else; numbers that are none give NULL. */
TEST(handles)
{
	struct cx_sketch *s = new_sketch(0, 0);

	CHECK(cx_sample_at(s, 0) == NULL);
	CHECK(cx_sample_at(s, -5) == NULL);
	CHECK(cx_sample_at(s, cx_handle(CX_VITALS_MAX, 0, 0)) == NULL);
	CHECK(cx_sample_at(s, cx_handle(0, 0, 0)) == &s->v[0].copy[0].samples[0]);
	CHECK(cx_sample_at(s, cx_handle(11, 1, CX_SAMPLES - 1)) ==
	      &s->v[11].copy[1].samples[CX_SAMPLES - 1]);
	free(s);
}

/* The signed sum of weights, and |weight| in the counters. */
TEST(weights_signed_sum_and_magnitude)
{
	struct cx_sketch *s = new_sketch(0, 0);
	int vi = cx_vital(s, "kmem"), c;

	event(s, vi, 5, 3);
	event(s, vi, 5, -2);
	event(s, vi, 6, -10);
	CHECK_EQ_INT(counter(s, vi, 0, 5), 5);
	c = close_copy(s);
	CHECK_EQ_INT(c, 0);
	CHECK_EQ_INT(s->v[vi].copy[0].events, 3);
	CHECK_EQ_INT(s->v[vi].copy[0].weight, 3 - 2 - 10);
	free(s);
}

/* Events of the constant weight 1 add nothing to the CPUs' counts (the
 * common path's two adds fewer); the close gives their number from the
 * counters, beside the others' counts. */
static s64 unit_event(struct cx_sketch *s, int vi, u64 label)
{
	return cx_count(s, &cpu0, vi, cx_hash(vi, label, 0), 1);
}

TEST(unit_weight_events)
{
	struct cx_sketch *s = new_sketch(0, 0);
	int vi = cx_vital(s, "syscall"), c;

	for (int i = 0; i < 1000; i++)
		cx_publish(cx_sample_at(s, unit_event(s, vi, (u64)i % 37)));
	event(s, vi, 5, 3);
	event(s, vi, 6, -2);
	CHECK_EQ_INT(cpu0.events[0][vi], 2);
	c = close_copy(s);
	CHECK_EQ_INT(s->v[vi].copy[c].events, 1002);
	CHECK_EQ_INT(s->v[vi].copy[c].weight, 1000 + 3 - 2);
	free(s);
}

/* A counter stops at 2^32 - 1: no wrap back to small counts, which
 * would select the label again and again. */
TEST(counters_saturate)
{
	struct cx_sketch *s = new_sketch(0, 0);
	int vi = cx_vital(s, "blck");
	int n = 0;

	s->v[vi].shift = 1;
	n += event(s, vi, 3, 0x7fffffff) != 0;	/* 0 -> 2^31-1: the first */
	n += event(s, vi, 3, 0x7fffffff) != 0;	/* past 2^31 */
	CHECK_EQ_INT(counter(s, vi, 0, 3), 0xfffffffeu);
	n += event(s, vi, 3, 0x7fffffff) != 0;	/* would wrap: saturates */
	CHECK_EQ_INT(counter(s, vi, 0, 3), 0xffffffffu);
	for (int i = 0; i < 5; i++)
		n += event(s, vi, 3, 1 << 20) != 0;
	CHECK_EQ_INT(counter(s, vi, 0, 3), 0xffffffffu);
	/* the owner's tag survives the carries the saturation undid */
	CHECK_EQ_INT(s->v[vi].copy[0].hca[cx_index(cx_hash(vi, 3, 0))] >> 32,
		     cx_hash(vi, 3, 0) >> 32);
	CHECK_EQ_INT(n, 2);
	free(s);
}

/*
 * The paper's false negative: a label whose first event lands on a
 * counter a busy label holds.  Its count crosses no power there, but the
 * first-occurrence table has not seen it: it is selected, once.
 */
TEST(first_occurrence_on_a_busy_counter)
{
	struct cx_sketch *s = new_sketch(0, 0);
	int vi = cx_vital(s, "syscall"), n = 0;
	u64 busy = 1, rare = 2;

	/* a rare label on the busy one's counter */
	while (cx_index(cx_hash(vi, rare, 0)) != cx_index(cx_hash(vi, busy, 0)))
		rare++;
	for (int i = 0; i < 1000; i++)
		event(s, vi, busy, 1);
	CHECK_EQ_INT(counter(s, vi, 0, busy), 1000);
	n += event(s, vi, rare, 1) != 0;	/* 1000 -> 1001: no power */
	n += event(s, vi, rare, 1) != 0;	/* seen now */
	for (int i = 0; i < 10; i++)
		n += event(s, vi, busy, 1) != 0;
	CHECK_EQ_INT(n, 1);
	/* and in the next epoch, first again */
	close_copy(s);
	for (int i = 0; i < 1000; i++)
		event(s, vi, busy, 1);
	CHECK(event(s, vi, rare, 1) != 0);
	free(s);
}

/* The table's entries of a closed epoch go with its copy's clear, and
 * those of the open one stay. */
TEST(first_occurrence_table_per_epoch)
{
	struct cx_sketch *s = new_sketch(0, 0);
	int vi = cx_vital(s, "sig"), used = 0, c;

	for (u64 l = 0; l < 100; l++)
		event(s, vi, l, 1);
	c = close_copy(s);
	for (u64 l = 100; l < 150; l++)
		event(s, vi, l, 1);
	cx_clear(s, c);
	for (int i = 0; i < CX_SEEN_SLOTS; i++)
		used += s->seen[i] != 0;
	CHECK_EQ_INT(used, 50);
	free(s);
}

/*
 * A full list: a repeat is dropped; a first occurrence takes a repeat's
 * slot (counted as dropped too); with no repeat left, firsts drop.
 */
TEST(full_list_firsts_first)
{
	struct cx_sketch *s = new_sketch(0, 0);
	int vi = cx_vital(s, "cpuu"), firsts = 0;
	struct cx_copy *c = &s->v[vi].copy[0];

	s->v[vi].shift = 1;
	/* CX_SAMPLES labels twice each: first, then a repeat at count 2 */
	for (u64 l = 0; l < CX_SAMPLES / 2; l++) {
		event(s, vi, l, 1);
		event(s, vi, l, 1);
	}
	CHECK_EQ_INT(cx_nsamples(c), CX_SAMPLES);
	CHECK_EQ_INT(event(s, vi, 0, 2), 0);	/* 2 -> 4: a repeat, dropped */
	CHECK_EQ_INT(c->dropped, 1);
	for (u64 l = 1000; l < 1000 + CX_SAMPLES; l++)
		event(s, vi, l, 1);
	for (int i = 0; i < CX_SAMPLES; i++)
		firsts += c->samples[i].first;
	CHECK_EQ_INT(firsts, CX_SAMPLES);
	CHECK_EQ_INT(c->dropped, 1 + CX_SAMPLES);
	CHECK_EQ_INT(cx_nsamples(c), CX_SAMPLES);
	free(s);
}

/* A busy label's crossings after the list filled raise its latest
 * sample's count: the sample still says how busy it was. */
TEST(full_list_raises_count)
{
	struct cx_sketch *s = new_sketch(0, 0);
	int vi = cx_vital(s, "syscall");
	struct cx_copy *c = &s->v[vi].copy[0];
	u32 most = 0;

	s->v[vi].shift = 1;
	for (int i = 0; i < 64; i++)	/* 1 2 4 .. 32: six samples */
		event(s, vi, 77, 1);
	for (u64 l = 1000; l < 1000 + CX_SAMPLES; l++)	/* the rest, full */
		event(s, vi, l, 1);
	for (int i = 0; i < 1000; i++)	/* 64 .. 1024: raises */
		event(s, vi, 77, 1);
	for (int i = 0; i < CX_SAMPLES; i++)
		if (c->samples[i].label == cx_hash(vi, 77, 0) && c->samples[i].count > most)
			most = c->samples[i].count;
	CHECK_EQ_INT(most, 1024);
	free(s);
}

/*
 * A list full of one-off labels' firsts, then a busy label: its first
 * finds no repeat to take and is dropped, but as it keeps coming it takes
 * a one-off's slot (it was never sampled, and busier), and its sample
 * then says how busy it was.
 */
TEST(busy_label_takes_a_one_off_slot)
{
	struct cx_sketch *s = new_sketch(0, 0);
	int vi = cx_vital(s, "syscall"), found = 0;
	struct cx_copy *c = &s->v[vi].copy[0];

	s->v[vi].shift = 1;
	for (u64 l = 100; l < 100 + CX_SAMPLES + 5; l++)
		event(s, vi, l, 1);
	for (int i = 0; i < 100000; i++)
		event(s, vi, 7, 1);
	for (int i = 0; i < CX_SAMPLES; i++)
		if (c->samples[i].label == cx_hash(vi, 7, 0)) {
			found++;
			CHECK_EQ_INT(c->samples[i].count, 65536);
			CHECK_EQ_INT(c->samples[i].first, 1);
		}
	CHECK_EQ_INT(found, 1);
	CHECK_EQ_INT(cx_nsamples(c), CX_SAMPLES);
	free(s);
}

/* Claimed slots count once published; one still being filled does not. */
TEST(nsamples_counts_ready)
{
	struct cx_sketch *s = new_sketch(0, 0);
	int vi = cx_vital(s, "lock");
	s64 h;

	event(s, vi, 1, 1);
	h = cx_count(s, &cpu0, vi, cx_hash(vi, 2, 0), 1);
	CHECK(h > 0);
	CHECK_EQ_INT(cx_nsamples(&s->v[vi].copy[0]), 1);
	cx_publish(cx_sample_at(s, h));
	CHECK_EQ_INT(cx_nsamples(&s->v[vi].copy[0]), 2);
	free(s);
}

/* t doubles as sampling's measured cost reaches multiples of hi. */
TEST(t_doubles_with_sampling_cost)
{
	struct cx_sketch *s = new_sketch(1000, 0);
	int vi = cx_vital(s, "umem");

	s->v[vi].copy[0].sample_cycles = 2500;	/* what fills measured */
	event(s, vi, 1, 1);
	CHECK_EQ_INT(s->v[vi].shift, CX_SHIFT_INIT + 2);
	event(s, vi, 2, 1);
	CHECK_EQ_INT(s->v[vi].shift, CX_SHIFT_INIT + 2);	/* no new multiple */
	free(s);
}

/* At the close, the epoch's whole cost: events at CX_EVENT_CYCLES each
 * and the sampling; t doubles for each multiple of hi it reached, and
 * halves when it stayed under lo. */
TEST(t_at_the_close)
{
	struct cx_sketch *s = new_sketch(CX_EVENT_CYCLES * 100, CX_EVENT_CYCLES * 10);
	int a = cx_vital(s, "syscall"), b = cx_vital(s, "sig"), c;

	for (int i = 0; i < 350; i++)
		event(s, a, (u64)i % 7, 1);
	event(s, b, 1, 1);
	s->v[b].shift = 3;
	c = close_copy(s);
	CHECK_EQ_INT(s->v[a].copy[c].cycles, 350 * CX_EVENT_CYCLES);
	CHECK_EQ_INT(s->v[a].shift, CX_SHIFT_INIT + 3);
	CHECK_EQ_INT(s->v[b].shift, 2);
	for (int i = 0; i < 40; i++)	/* t stays at the bounds */
		cx_finish(s, c);
	CHECK_EQ_INT(s->v[b].shift, CX_SHIFT_MIN);
	s->v[a].copy[c].events = 1000000000;
	cx_finish(s, c);
	CHECK_EQ_INT(s->v[a].shift, CX_SHIFT_MAX);
	free(s);
}

TEST(watermarks_off)
{
	struct cx_sketch *s = new_sketch(0, 0);
	int vi = cx_vital(s, "sock");

	for (int i = 0; i < 1000; i++)
		event(s, vi, 1, 1);
	close_copy(s);
	CHECK_EQ_INT(s->v[vi].shift, CX_SHIFT_INIT);
	free(s);
}

/* The standard vitals have fixed slots; a user's come after, named in
 * order, found again by name; the table's end is -1. */
TEST(vital_naming)
{
	struct cx_sketch *s = new_sketch(0, 0);
	static const char *const std[] = { CX_STD_NAMES };

	for (int i = 0; i < CX_STD_VITALS; i++) {
		CHECK_EQ_STR(s->v[i].name, std[i]);
		CHECK_EQ_INT(cx_has_row(s, i), 0);
	}
	CHECK_EQ_INT(cx_vital(s, "syscall"), 7);
	CHECK_EQ_INT(cx_has_row(s, 7), 1);	/* declared: a row every epoch */
	CHECK_EQ_INT(cx_vital(s, "retrans"), CX_STD_VITALS);
	CHECK_EQ_INT(cx_vital(s, "retrans"), CX_STD_VITALS);
	CHECK_EQ_INT(cx_vital(s, "another"), -1);	/* 12 slots */
	CHECK_EQ_INT(cx_vital(s, "a-name-longer-than-sixteen"), -1);
	/* an event gives a standard vital its row too */
	event(s, 3, 1, 1);
	CHECK_EQ_INT(cx_has_row(s, 3), 1);
	free(s);
}

struct namer {
	struct cx_sketch *s;
	const char *name;
	int got;
};

static void *name_thread(void *arg)
{
	struct namer *n = arg;

	n->got = cx_vital(n->s, n->name);
	return NULL;
}

/* Two threads naming the same new vital get one slot. */
TEST(vital_naming_concurrent)
{
	for (int round = 0; round < 200; round++) {
		struct cx_sketch *s = new_sketch(0, 0);
		struct namer a = { s, "mine", -2 }, b = { s, "mine", -2 };
		pthread_t ta, tb;

		pthread_create(&ta, NULL, name_thread, &a);
		pthread_create(&tb, NULL, name_thread, &b);
		pthread_join(ta, NULL);
		pthread_join(tb, NULL);
		CHECK_EQ_INT(a.got, CX_STD_VITALS);
		CHECK_EQ_INT(b.got, CX_STD_VITALS);
		free(s);
	}
}

TEST(unavailable)
{
	struct cx_sketch *s = new_sketch(0, 0);
	char longwhy[400];

	cx_unavailable(s, 1, "no PMU");
	CHECK_EQ_INT(s->v[1].unavailable, 1);
	CHECK_EQ_STR(s->v[1].why, "no PMU");
	CHECK_EQ_INT(cx_has_row(s, 1), 1);
	memset(longwhy, 'x', sizeof(longwhy) - 1);
	longwhy[sizeof(longwhy) - 1] = 0;
	cx_unavailable(s, 1, longwhy);
	CHECK_EQ_INT(strlen(s->v[1].why), CX_WHY_LEN - 1);
	cx_unavailable(s, -1, "ignored");
	cx_unavailable(s, CX_VITALS_MAX, "ignored");
	free(s);
}

/* A close flips the open copy; its clear leaves t and the other copy. */
TEST(close_and_clear)
{
	struct cx_sketch *s = new_sketch(0, 0);
	int vi = cx_vital(s, "sock");

	event(s, vi, 1, 1);
	event(s, vi, 2, 1);
	CHECK_EQ_INT(close_copy(s), 0);
	CHECK_EQ_INT(s->open, 1);
	event(s, vi, 3, 7);
	CHECK_EQ_INT(s->v[vi].copy[0].events, 2);
	CHECK_EQ_INT(cx_nsamples(&s->v[vi].copy[0]), 2);
	cx_clear(s, 0);
	CHECK_EQ_INT(s->v[vi].copy[0].events, 0);
	CHECK_EQ_INT(s->v[vi].copy[0].claimed, 0);
	CHECK_EQ_INT(cx_nonzero(&s->v[vi].copy[0]), 0);
	CHECK_EQ_INT(counter(s, vi, 1, 3), 7);
	CHECK_EQ_INT(s->v[vi].shift, CX_SHIFT_INIT);
	CHECK_EQ_INT(close_copy(s), 1);
	CHECK_EQ_INT(s->v[vi].copy[1].events, 1);
	CHECK(event(s, vi, 1, 1) != 0);	/* a new epoch counts anew */
	free(s);
}

/* ---- the close while two threads keep counting ---- */

#define RACE_CLOSES 200	/* closes while both threads count */
#define RACE_EPOCH 1000	/* events sent between two closes, at the least */

struct racer {
	struct cx_sketch *s;
	int vi;
	u64 seed;
	int *stop;
	long seq;		/* odd while inside an event: the grace period's */
	long sent;		/* events, for the closer to watch */
	long weight;		/* their weights' sum, read after the join */
};

static void fill(struct cx_sample *smp)
{
	u64 l = smp->label;

	smp->pid = (u32)l;
	smp->uid = (u32)(l >> 32);
	for (int k = 0; k < CX_NDATA; k++)
		smp->data[k] = (s64)(l + k);
	for (int k = 0; k < CX_KFRAMES; k++)
		smp->kstack[k] = ~l ^ k;
	smp->nk = CX_KFRAMES;
}

static int consistent(const struct cx_sample *smp)
{
	u64 l = smp->label;
	int ok = smp->pid == (u32)l && smp->uid == (u32)(l >> 32) && smp->nk == CX_KFRAMES;

	for (int k = 0; k < CX_NDATA; k++)
		ok &= smp->data[k] == (s64)(l + k);
	for (int k = 0; k < CX_KFRAMES; k++)
		ok &= smp->kstack[k] == (~l ^ k);
	return ok;
}

/* Labels from 5000, weights 1..8 by label, until told to stop; each
 * event (count, fill, publish) inside the racer's odd seq. */
static void *race(void *arg)
{
	struct racer *r = arg;
	u64 x = r->seed;

	while (!__atomic_load_n(r->stop, __ATOMIC_RELAXED)) {
		u64 label;
		s64 w, h;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		label = x % 5000 | r->seed << 40;
		w = (s64)(label & 7) + 1;
		__atomic_fetch_add(&r->seq, 1, __ATOMIC_SEQ_CST);
		h = cx_count(r->s, &cpu0, r->vi, cx_hash(r->vi, label, 0), w);
		if (h) {
			fill(cx_sample_at(r->s, h));
			cx_publish(cx_sample_at(r->s, h));
		}
		__atomic_fetch_add(&r->seq, 1, __ATOMIC_SEQ_CST);
		r->weight += w;
		__atomic_fetch_add(&r->sent, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

/* What synchronize_rcu() gives the module: each racer inside an event
 * when it began has left it. */
static void grace_period(struct racer *r, int n)
{
	for (int i = 0; i < n; i++) {
		long s = __atomic_load_n(&r[i].seq, __ATOMIC_SEQ_CST);

		while ((s & 1) && __atomic_load_n(&r[i].seq, __ATOMIC_SEQ_CST) == s)
			stp_cpu_relax();
	}
}

struct tally {
	long events, weight, hca, samples, torn, stray;
};

static void take(struct cx_copy *c, struct tally *t)
{
	long n = c->claimed;

	t->events += c->events;
	t->weight += c->weight;
	for (int i = 0; i < CX_COUNTERS; i++)
		t->hca += cx_count_at(c, i);
	for (int i = 0; i < (n < CX_SAMPLES ? n : CX_SAMPLES); i++) {
		const struct cx_sample *smp = &c->samples[i];

		t->samples += smp->ready != 0;
		t->torn += !smp->ready || !consistent(smp);
		/* a sample is of an event counted in this copy */
		t->stray += !cx_count_at(c, cx_index(smp->label));
	}
}

static long sent(struct racer *r)
{
	return __atomic_load_n(&r[0].sent, __ATOMIC_RELAXED) +
	       __atomic_load_n(&r[1].sent, __ATOMIC_RELAXED);
}

/*
 * Every event is counted in exactly one copy: the closed copies' totals
 * and the open one's add up to what the threads sent, and no sample of
 * a closed copy is torn or of an event another copy counted.
 */
TEST(close_while_counting)
{
	struct cx_sketch *s = new_sketch(0, 0);
	int stop = 0, vi = cx_vital(s, "cpuu"), closes = 0, closed;
	struct racer r[2];
	pthread_t th[2];
	struct tally t = { 0 };

	alarm(60);
	for (int i = 0; i < 2; i++) {
		r[i] = (struct racer){ .s = s, .vi = vi, .seed = 0x9e3779b97f4aULL + i,
				       .stop = &stop };
		pthread_create(&th[i], NULL, race, &r[i]);
	}
	while (closes < RACE_CLOSES) {
		long until = sent(r) + RACE_EPOCH;

		while (sent(r) < until)
			stp_cpu_relax();
		closed = cx_flip(s);
		grace_period(r, 2);
		cx_fold(s, closed, &cpu0);
		cx_cpu_zero(&cpu0, closed);
		take(&s->v[vi].copy[closed], &t);
		cx_clear(s, closed);
		closes++;
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	closed = close_copy(s);
	take(&s->v[vi].copy[closed], &t);
	closed = close_copy(s);
	take(&s->v[vi].copy[closed], &t);
	CHECK_EQ_INT(t.events, r[0].sent + r[1].sent);
	CHECK_EQ_INT(t.weight, r[0].weight + r[1].weight);
	CHECK_EQ_INT(t.hca, t.weight);
	CHECK_EQ_INT(t.torn, 0);
	CHECK_EQ_INT(t.stray, 0);
	/* 1000 events from 10,000 labels fill each epoch's list */
	CHECK(t.samples >= RACE_CLOSES * CX_SAMPLES);
	alarm(0);
	free(s);
}

int main(int argc, char **argv)
{
	return unit_main(argc, argv);
}
