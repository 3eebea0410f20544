// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perf.* under --runtime=bpf: a perf_event program that the runner
 * opens on every CPU; not one process's counter, nor one @perf reads.
 */
#include "perf_family.h"
#include "../../bpf/bpf.h"

const char *bx_perf_section(struct bx *x, struct derived_probe *d, int i, struct sbuf *att)
{
	(void)x;
	if (d->perf.task || d->perf.counter)
		return NULL;
	sb_printf(att, "\t{ \"p%d\", STP_ATTACH_PERF_ALL, %d, %lluULL, %lldULL, %d, \"%s\" },\n",
		  i, d->perf.type, (unsigned long long)d->perf.config,
		  (long long)d->perf.period, d->perf.freq, bx_cstr(d->name));
	return "perf_event";
}
