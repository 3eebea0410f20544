// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Pass 3 for the life and system calls of processes: the table
 * runtime/process.c arms, one entry per process.begin, .end,
 * .thread.begin, .thread.end, .syscall or .syscall.return probe.
 */
#include "../../kmod/emit.h"
#include "process_family.h"

#include <stdlib.h>
#include <string.h>

/* ORDER: enum proc_event */
static const char *const events[] = {
	"STP_PE_BEGIN", "STP_PE_END", "STP_PE_THREAD_BEGIN", "STP_PE_THREAD_END",
	"STP_PE_SYSCALL", "STP_PE_SYSCALL_RETURN",
};

void em_process_entry(struct emit *m, int idx, const struct derived_probe *d)
{
	/* named, not matched by a glob or optional: the session needs it */
	int required = !strpbrk(d->user_name, "*?[") && !d->pp->optional;

	sb_printf(&m->procs, "\t{ .probe = &stp_probe_%d, .path = %s, .pid = %lld, "
		  ".event = %s, .required = %d },\n", idx,
		  d->path ? em_cstr_raw(d->path) : "NULL", (long long)d->proc.pid,
		  events[d->proc.event], required);
	/* the dispatch below: handler and locks known, the hit inlines */
	sb_printf(&m->proc_hits, "\tcase %d:\n\t\treturn stp_probe_hit(&stp_probe_%d, probe_%d, "
		  "regs, entry);\n", m->nprocs, idx, idx);
	m->nprocs++;
}

void em_process_tables(struct emit *m, struct sbuf *o)
{
	em_array(o, "stp_procprobe", "stp_procprobes", &m->procs, "STP_NPROCPROBES", m->nprocs);
	/* a switch, not a call through the table: no indirect call (each
	 * a retpoline) on the path every system call takes */
	sb_printf(o, "static STP_HANDLER int stp_procprobe_hit(int i, struct pt_regs *regs, "
		  "void *entry)\n{\n\tswitch (i) {\n%s\t}\n\treturn -1;\n}\n"
		  "NOKPROBE_SYMBOL(stp_procprobe_hit);\n\n",
		  m->proc_hits.s ? m->proc_hits.s : "");
	free(m->proc_hits.s);
}
