// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The probe families' part of the module, one row each (struct
 * kmod_family, emit.h): what a probe of the family adds once its handler
 * is emitted (its entry), and the family's tables, written in the rows'
 * order after every handler.  Adding a family to the kmod backend is a
 * file emit_FAMILY.c and a row here.
 */
#include "emit.h"
#include "../families/hwbkpt.h"
#include "../families/netfilter.h"
#include "../families/sysdispatch.h"

#include <stdlib.h>

static void probe_list(struct sbuf *o, const char *name, const char *count,
		       struct vec *list)
{
	sb_printf(o, "static const struct stp_probe *const %s[] = {\n", name);
	for (int i = 0; i < list->len; i++)
		sb_printf(o, "\t%s,\n", (const char *)list->v[i]);
	sb_puts(o, "\tNULL,\n};\n");
	sb_printf(o, "#define %s %d\n", count, list->len);
}

/* begin, end and error probes: a list each, run by the session. */
static void list_entry(struct emit *m, int idx, const struct derived_probe *d)
{
	struct vec *v = d->family == PF_BEGIN ? &m->begin : d->family == PF_END ? &m->end : &m->err;

	vec_push(v, (void *)ar_printf("&stp_probe_%d", idx));
}

static void begin_tables(struct emit *m, struct sbuf *o)
{
	probe_list(o, "stp_begin", "STP_NBEGIN", &m->begin);
}

static void end_tables(struct emit *m, struct sbuf *o)
{
	probe_list(o, "stp_end", "STP_NEND", &m->end);
}

static void error_tables(struct emit *m, struct sbuf *o)
{
	probe_list(o, "stp_errorp", "STP_NERRORP", &m->err);
}

/* Not a family's: the hit functions behind hoisted prefixes
 * (emit_hoist.c), before the first callbacks that call them. */
static void prefix_hits(struct emit *m, struct sbuf *o)
{
	sb_printf(o, "%s", m->pre_hits.s ? m->pre_hits.s : "");
	free(m->pre_hits.s);
}

/* In the order their tables are written (PF_NONE: no family's). */
static const struct kmod_family families[] = {
	{ PF_BEGIN, list_entry, begin_tables },
	{ PF_END, list_entry, end_tables },
	{ PF_ERROR, list_entry, error_tables },
	{ PF_TIMER, em_timer_entry, em_timer_tables },
	{ PF_PROFILE, em_timer_entry, NULL },
	{ PF_NONE, NULL, prefix_hits },
	{ PF_KPROBE, em_kprobe_entry, em_kprobe_tables },
	{ PF_UPROBE, em_uprobe_entry, em_uprobe_tables },
	{ PF_TRACE, em_trace_entry, em_trace_tables },
	{ PF_NETFILTER, em_netfilter_entry, em_netfilter_tables },
	{ PF_PROCFS, em_procfs_entry, em_procfs_tables },
	{ PF_PERF, em_perf_entry, em_perf_tables },
	{ PF_HWBKPT, em_hwbkpt_entry, em_hwbkpt_tables },
	{ PF_PROCESS, em_process_entry, em_process_tables },
	{ PF_SYSCALL, em_sysdispatch_entry, em_sysdispatch_tables },
	{ PF_NEVER, NULL, NULL },
};

void kmod_family_entry(struct emit *m, int idx, const struct derived_probe *d)
{
	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		if (families[i].pf == d->family && families[i].entry) {
			families[i].entry(m, idx, d);
			return;
		}
}

void kmod_family_tables(struct emit *m, struct sbuf *o)
{
	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		if (families[i].tables)
			families[i].tables(m, o);
}
