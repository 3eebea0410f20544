// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Pass 3 for perf.*: each perf probe's overflow handler, and the table
 * runtime/perf.c arms (one kernel counter per online CPU, or one that
 * follows a process).  The overflow handler goes through
 * stp_probe_hit() with the interrupted registers, so user_mode(),
 * uaddr() and pid() see what the event interrupted.
 */
#include "emit.h"
#include "perf.h"

#include <stdlib.h>
#include <string.h>

static void overflow_handler(struct emit *m, int idx, const struct derived_probe *d)
{
	sb_printf(&m->perf_cbs, "/* %s */\nstatic STP_HANDLER void stp_perf_cb_%d(struct perf_event *ev,\n"
		  "\t\tstruct perf_sample_data *data, struct pt_regs *regs)\n{\n"
		  "\tstp_probe_hit(&stp_probe_%d, probe_%d, regs, NULL);\n}\n\n",
		  d->name, idx, idx, idx);
}

void em_perf_entry(struct emit *m, int idx, const struct derived_probe *d)
{
	/* named, not matched by a wildcard: the session cannot do without it */
	int required = !strpbrk(d->user_name, "*?[") && !d->pp->optional;

	overflow_handler(m, idx, d);
	sb_printf(&m->perfs, "\t{ .probe = &stp_probe_%d, .cb = stp_perf_cb_%d, .type = %d, "
		  ".config = 0x%llxULL, .period = %lldLL, .freq = %d, .task = %d, .required = %d },\n",
		  idx, idx, d->perf_type, (unsigned long long)d->perf_config,
		  (long long)d->perf_period, d->perf_freq, d->perf_task, required);
	m->nperfs++;
}

void em_perf_tables(struct emit *m, struct sbuf *o)
{
	sb_puts(o, "#include \"runtime/perf.h\"\n\n");
	sb_printf(o, "%s", m->perf_cbs.s ? m->perf_cbs.s : "");
	sb_printf(o, "static struct stp_perf stp_perfs[] = {\n%s};\n#define STP_NPERFS %d\n\n",
		  m->perfs.s ? m->perfs.s : "\t{ .probe = NULL },\n", m->nperfs);
	free(m->perfs.s);
	free(m->perf_cbs.s);
}
