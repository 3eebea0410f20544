/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Overload: when a CPU spends more than STP_OVERLOAD_THRESHOLD cycles of
 * an STP_OVERLOAD_INTERVAL in probe handlers (SystemTap's settings and
 * defaults: half the time, over a billion cycles), the hits that come on
 * that CPU before the interval ends are skipped and counted
 * (STP_EV_SKIP_OVERLOAD), so a sampling storm (a perf event with a small
 * period, a hot tracepoint) cannot take the machine: the CPU goes back
 * to its work.  -D STP_NO_OVERLOAD turns it off.
 *
 * The hit path stays cheap: the state is the CPU's own, in its context
 * (no atomic), and only one hit in STP_OVERLOAD_SAMPLE is timed, with
 * two reads of the TSC (get_cycles), its cost counted that many times
 * over; the others pay a decrement and a branch.  An overloaded CPU
 * reads the TSC once per hit, to see when its interval is over.  Skips
 * are counted per CPU and summed when the session ends (throttle.c).
 * begin, end and error probes are never skipped nor timed.
 */
#ifndef STP_THROTTLE_H
#define STP_THROTTLE_H

#ifndef STP_OVERLOAD_THRESHOLD
#define STP_OVERLOAD_THRESHOLD 500000000LL
#endif
#ifndef STP_OVERLOAD_INTERVAL
#define STP_OVERLOAD_INTERVAL 1000000000LL
#endif
#define STP_OVERLOAD_SAMPLE 16	/* one hit in this many is timed */

struct stp_throttle {
	int countdown;		/* hits until the next look */
	int over;		/* past the threshold: skip until the interval ends */
	u64 start;		/* the interval's start, in cycles */
	u64 busy;		/* cycles in handlers since, estimated */
	unsigned long skipped;	/* hits skipped for overload */
};

/* stp_throttle_begin's answers besides a start time */
#define STP_THROTTLE_SKIP	0	/* skip this hit */
#define STP_THROTTLE_UNTIMED	1	/* run it, untimed */

u64 stp_throttle_begin(struct stp_throttle *t, int kind);
void stp_throttle_end(struct stp_throttle *t, u64 t0);

#ifndef STP_NO_OVERLOAD
/* This hit is one to look at (the slow path). */
static __always_inline bool stp_throttle_due(struct stp_throttle *t)
{
	return unlikely(--t->countdown <= 0);
}
#else
static __always_inline bool stp_throttle_due(struct stp_throttle *t)
{
	return false;
}
#endif

#endif
