// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Overload's slow path (throttle.h): the timed hits, and the hits of an
 * overloaded CPU.  Runs in the hit, with the CPU's context held and
 * interrupts off, perhaps in NMI: it touches only the CPU's own state.
 */
#include <linux/timex.h>

/* Skip this hit (an overloaded CPU), or run it, timed if it is an event's. */
notrace noinline bool stp_throttle_begin(struct stp_ctx *c, int kind)
{
	struct stp_throttle *t = &c->thr;
	u64 now;

	t->countdown = STP_OVERLOAD_SAMPLE;
	t->t0 = 0;
	if (kind != STP_PK_EVENT)
		return false;	/* begin, end, error: untimed, never skipped */
	now = get_cycles();
	if (t->over) {
		if (now - t->start < STP_OVERLOAD_INTERVAL) {
			t->countdown = 1;	/* look again at the next hit */
			t->skipped++;
			return true;
		}
		t->over = 0;
		t->start = now;
		t->busy = 0;
	}
	t->t0 = now;
	return false;
}
NOKPROBE_SYMBOL(stp_throttle_begin);

/* A timed hit is over: charge it, STP_OVERLOAD_SAMPLE times over, at
 * most STP_OVERLOAD_CAP cycles of it. */
notrace noinline void stp_throttle_end(struct stp_ctx *c)
{
	struct stp_throttle *t = &c->thr;
	u64 now = get_cycles();

	if (!t->t0)
		return;
	if (now - t->start >= STP_OVERLOAD_INTERVAL) {
		t->start = t->t0;
		t->busy = 0;
	}
	t->busy += min_t(u64, now - t->t0, STP_OVERLOAD_CAP) * STP_OVERLOAD_SAMPLE;
	t->t0 = 0;
	if (t->busy > STP_OVERLOAD_THRESHOLD) {
		t->over = 1;
		t->countdown = 1;
	}
}
NOKPROBE_SYMBOL(stp_throttle_end);

/* At the end of the session: every CPU's skips, into the counters. */
static void stp_throttle_collect(void)
{
	unsigned long n = 0;
	int cpu;

	for_each_possible_cpu(cpu) {
		n += per_cpu(stp_ctx_of, cpu)->thr.skipped;
		per_cpu(stp_ctx_of, cpu)->thr.skipped = 0;
	}
	stp_count_n(STP_EV_SKIP_OVERLOAD, n);
}
