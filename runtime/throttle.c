// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Overload's slow path (throttle.h): the timed hits, and the hits of an
 * overloaded CPU.  Runs in the hit, with the CPU's context held and
 * interrupts off, perhaps in NMI: it touches only the CPU's own state.
 */
#include <linux/timex.h>

/* A timed hit's start (cycles), or STP_THROTTLE_SKIP / _UNTIMED. */
notrace noinline u64 stp_throttle_begin(struct stp_throttle *t, int kind)
{
	u64 now;

	t->countdown = STP_OVERLOAD_SAMPLE;
	if (kind != STP_PK_EVENT)
		return STP_THROTTLE_UNTIMED;
	now = get_cycles();
	if (t->over) {
		if (now - t->start < STP_OVERLOAD_INTERVAL) {
			t->countdown = 1;	/* look again at the next hit */
			t->skipped++;
			return STP_THROTTLE_SKIP;
		}
		t->over = 0;
		t->start = now;
		t->busy = 0;
	}
	return now > STP_THROTTLE_UNTIMED ? now : STP_THROTTLE_UNTIMED + 1;
}
NOKPROBE_SYMBOL(stp_throttle_begin);

/* A timed hit is over: charge it, STP_OVERLOAD_SAMPLE times over. */
notrace noinline void stp_throttle_end(struct stp_throttle *t, u64 t0)
{
	u64 now = get_cycles();

	if (now - t->start >= STP_OVERLOAD_INTERVAL) {
		t->start = t0;
		t->busy = 0;
	}
	t->busy += (now - t0) * STP_OVERLOAD_SAMPLE;
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
		n += stp_contexts[cpu]->thr.skipped;
		stp_contexts[cpu]->thr.skipped = 0;
	}
	stp_count_n(STP_EV_SKIP_OVERLOAD, n);
}
