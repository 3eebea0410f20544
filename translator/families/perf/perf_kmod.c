// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Pass 3 for perf.*: each perf probe's overflow handler, and the tables
 * runtime/perf.c arms (one kernel counter per online CPU, or one that
 * follows a process).  The overflow handler goes through
 * stp_probe_hit() with the interrupted registers, so user_mode(),
 * uaddr() and pid() see what the event interrupted; after the probe's
 * prefix when hoist.c split one off (emit_hoist.c).
 *
 * A .counter("NAME") probe has no handler to run: its event only
 * counts, in a table of its own (stp_perf_counters[], in the order of
 * the program's probes, perf_counter_index()), which @perf("NAME")
 * reads by index.
 */
#include "../../kmod/emit.h"
#include "perf_family.h"

#include <stdlib.h>
#include <string.h>

static void overflow_handler(struct emit *m, int idx, const struct derived_probe *d)
{
	sb_printf(&m->perf_cbs, "/* %s */\nstatic STP_HANDLER void stp_perf_cb_%d(struct perf_event *ev,\n"
		  "\t\tstruct perf_sample_data *data, struct pt_regs *regs)\n{\n",
		  d->name, idx);
	if (!em_hoisted(d)) {
		sb_printf(&m->perf_cbs, "\tstp_probe_hit(&stp_probe_%d, probe_%d, regs, NULL);\n}\n\n",
			  idx, idx);
		return;
	}
	/* in NMI: the prefix takes no lock (hoist.c lets none in) */
	em_prefix(m, idx, d, &m->perf_cbs, NULL, "regs", "return;");
	sb_puts(&m->perf_cbs, "}\n\n");
}

/* One table entry: the event and where it counts. */
static void entry(struct sbuf *o, const char *probe, const char *cb,
		  const struct derived_probe *d)
{
	/* named, not matched by a wildcard: the session cannot do without it */
	int required = !strpbrk(d->user_name, "*?[") && !d->pp->optional;

	sb_printf(o, "\t{ .probe = %s, .cb = %s, .type = %d, .config = 0x%llxULL, "
		  ".period = %lldLL, .freq = %d, .task = %d, .path = %s, .required = %d },\n",
		  probe, cb, d->perf.type, (unsigned long long)d->perf.config,
		  d->perf.counter ? 0LL : (long long)d->perf.period, d->perf.freq,
		  d->perf.task, d->perf.path ? em_cstr_raw(d->perf.path) : "NULL", required);
}

void em_perf_entry(struct emit *m, int idx, const struct derived_probe *d)
{
	if (d->perf.counter)	/* counts only: stp_perf_counters[] */
		return;
	overflow_handler(m, idx, d);
	entry(&m->perfs, ar_printf("&stp_probe_%d", idx), ar_printf("stp_perf_cb_%d", idx), d);
	m->nperfs++;
}

void em_perf_read(struct emit *m, struct node *n)
{
	const struct node *arg = n->args.v[0];

	sb_printf(m->o, "stp_perf_read(%d)", perf_counter_index(m->e, arg->str));
}

/* The counters, in the order perf_counter_index() gives them. */
static int counters(struct emit *m, struct sbuf *o)
{
	int n = 0;

	for (int i = 0; i < m->e->probes.len; i++) {
		const struct derived_probe *d = m->e->probes.v[i];

		if (d->family != PF_PERF || !d->perf.counter)
			continue;
		entry(o, ar_printf("&stp_counter_probe_%d", n), "NULL", d);
		n++;
	}
	return n;
}

/* Each counter's probe descriptor: for the name in its messages. */
static void counter_probes(struct emit *m, struct sbuf *o)
{
	int n = 0;

	for (int i = 0; i < m->e->probes.len; i++) {
		const struct derived_probe *d = m->e->probes.v[i];

		if (d->family == PF_PERF && d->perf.counter)
			sb_printf(o, "static const struct stp_probe stp_counter_probe_%d = "
				  "{ .kind = STP_PK_EVENT, .pp = %s };\n", n++, em_cstr_raw(d->name));
	}
}

void em_perf_tables(struct emit *m, struct sbuf *o)
{
	struct sbuf c = { 0 };
	int nc;

	sb_printf(o, "%s", m->perf_cbs.s ? m->perf_cbs.s : "");
	em_array(o, "stp_perf", "stp_perfs", &m->perfs, "STP_NPERFS", m->nperfs);
	counter_probes(m, o);
	nc = counters(m, &c);
	em_array(o, "stp_perf", "stp_perf_counters", &c, "STP_NPERF_COUNTERS", nc);
	free(m->perf_cbs.s);
}
