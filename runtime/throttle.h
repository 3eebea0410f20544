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
 * over; the others pay a decrement and a compare, on a field of the
 * context the hit holds anyway: the countdown, which sends the hit down
 * the slow path (probe.h's stp_probe_run_slow) when it runs out.  An overloaded CPU
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
#define STP_OVERLOAD_SAMPLE 64	/* one hit in this many is timed */
/*
 * A timed hit counts for at most this many cycles: a quarter of the
 * threshold over the hits it stands for.  So one long hit (the first,
 * cold; one during which a hypervisor ran another vCPU: QEMU's TCG runs
 * one at a time) cannot make an overload on its own.
 */
#define STP_OVERLOAD_CAP (STP_OVERLOAD_THRESHOLD / (4 * STP_OVERLOAD_SAMPLE))

struct stp_throttle {
	int countdown;		/* hits until the next look */
	int over;		/* past the threshold: skip until the interval ends */
	u64 t0;			/* the timed hit's start (cycles), or 0 */
	u64 start;		/* the interval's start */
	u64 busy;		/* cycles in handlers since, estimated */
	unsigned long skipped;	/* hits skipped for overload */
};

struct stp_ctx;

/* The slow path (throttle.c), on the context's throttle: true when the
 * hit is to be skipped.  They take the context, which the hit keeps in
 * a register anyway. */
bool stp_throttle_begin(struct stp_ctx *c, int kind);
void stp_throttle_end(struct stp_ctx *c);

#ifndef STP_NO_OVERLOAD
/* This hit is one to look at: a decrement of memory and a jump (gcc
 * would load, subtract, store and test). */
static __always_inline bool stp_throttle_due(struct stp_throttle *t)
{
	asm goto("decl %0\n\tjle %l[due]" : "+m"(t->countdown) : : "cc" : due);
	return false;
due: __attribute__((cold));
	return true;
}
#else
static __always_inline bool stp_throttle_due(struct stp_throttle *t)
{
	return false;
}
#endif

#endif
