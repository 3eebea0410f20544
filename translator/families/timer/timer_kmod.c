// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * timer.ms(N) and its kin, and timer.profile, in the module: each one's
 * entry in stp_timers[] (runtime/timer.c runs them).
 */
#include "timer_family.h"
#include "../../kmod/emit.h"

#include <stdlib.h>

void em_timer_entry(struct emit *m, int idx, const struct derived_probe *d)
{
	struct sbuf *o = &m->timers;
	const char *iv, *rnd;

	m->ntimers++;
	if (d->family == PF_PROFILE) {
		sb_printf(o, "\t{ .probe = &stp_probe_%d, .interval_ns = TICK_NSEC, .percpu = 1 },\n", idx);
		return;
	}
	if (d->jiffies) {
		iv = ar_printf("%lldLL * TICK_NSEC", (long long)d->jiffies);
		rnd = ar_printf("%lldLL * TICK_NSEC", (long long)d->randomize_ns);
	} else if (d->hz) {
		iv = ar_printf("NSEC_PER_SEC / %lldLL", (long long)d->hz);
		rnd = ar_printf("%lldLL", (long long)d->randomize_ns);
	} else {
		iv = ar_printf("%lldLL", (long long)d->interval_ns);
		rnd = ar_printf("%lldLL", (long long)d->randomize_ns);
	}
	sb_printf(o, "\t{ .probe = &stp_probe_%d, .interval_ns = %s, .randomize_ns = %s },\n",
		  idx, iv, rnd);
}

/* stp_timers[], even when empty. */
void em_timer_tables(struct emit *m, struct sbuf *o)
{
	sb_printf(o, "\nstatic struct stp_timer stp_timers[] = {\n%s};\n#define STP_NTIMERS %d\n\n",
		  m->timers.s ? m->timers.s : "\t{ .probe = NULL },\n", m->ntimers);
	free(m->timers.s);
}
