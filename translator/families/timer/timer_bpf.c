// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * timer.* and timer.profile under --runtime=bpf: a perf_event program on
 * a software cpu-clock event, which the runner opens on CPU 0 (a timer)
 * or on every CPU (profile, every 4 ms).
 */
#include "timer_family.h"
#include "../../bpf/bpf.h"

const char *bx_timer_section(struct bx *x, struct derived_probe *d, int i, struct sbuf *att)
{
	(void)x;
	sb_printf(att, "\t{ \"p%d\", STP_ATTACH_PERF_CPU0, 1 /* PERF_TYPE_SOFTWARE */, "
		  "0 /* CPU_CLOCK */, %lldULL, 0, \"%s\" },\n", i,
		  (long long)(d->interval_ns ? d->interval_ns : 1000000), bx_cstr(d->name));
	return "perf_event";
}

const char *bx_profile_section(struct bx *x, struct derived_probe *d, int i, struct sbuf *att)
{
	(void)x;
	sb_printf(att, "\t{ \"p%d\", STP_ATTACH_PERF_ALL, 1, 0, 4000000ULL, 0, \"%s\" },\n",
		  i, bx_cstr(d->name));
	return "perf_event";
}
