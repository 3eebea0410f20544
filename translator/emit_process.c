// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Pass 3 for the life of processes: the table runtime/process.c arms,
 * one entry per process.begin / .end probe.
 */
#include "emit.h"

#include <stdlib.h>

void em_process_entry(struct emit *m, int idx, const struct derived_probe *d)
{
	sb_printf(&m->procs, "\t{ .probe = &stp_probe_%d, .path = %s, .end = %d },\n",
		  idx, d->path ? em_cstr_raw(d->path) : "NULL", d->process_end);
	m->nprocs++;
}

void em_process_tables(struct emit *m, struct sbuf *o)
{
	sb_printf(o, "static struct stp_procprobe stp_procprobes[] = {\n%s};\n"
		  "#define STP_NPROCPROBES %d\n\n",
		  m->procs.s ? m->procs.s : "\t{ .probe = NULL },\n", m->nprocs);
	free(m->procs.s);
}
