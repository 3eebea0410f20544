// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Pass 3 for user space: the table runtime/uprobes.c arms, one entry
 * per uprobe (a file, an offset in it, entry or return), and what
 * probefunc() and probemod() read in each process probe's descriptor.
 */
#include "../../kmod/emit.h"
#include "../../dwarf/dw.h"

#include <stdlib.h>
#include <string.h>

void em_uprobe_fields(struct sbuf *o, const struct derived_probe *d)
{
	sb_printf(o, "\t.func = %s, .module = %s, .is_return = %d,\n",
		  d->symbol ? em_cstr_raw(d->symbol) : "NULL",
		  d->module ? em_cstr_raw(d->module) : "NULL", d->is_return);
}

void em_uprobe_entry(struct emit *m, int idx, const struct derived_probe *d)
{
	/* named, not matched by a wildcard: the session cannot do without it */
	int required = !strpbrk(d->user_name, "*?[") && !d->pp->optional;

	sb_printf(&m->uprobes, "\t{ .probe = &stp_probe_%d, .path = %s, .exe = %s, "
		  ".offset = 0x%llx, .is_return = %d, .required = %d",
		  idx, em_cstr_raw(d->path), d->exe ? em_cstr_raw(d->exe) : "NULL",
		  (unsigned long long)d->file_offset, d->is_return, required);
	/* a return probe's @entry: saved at the call, per call (runtime) */
	if (d->is_return && m->entries.len)
		sb_printf(&m->uprobes, ", .entry = &stp_probe_%d_entry, "
			  ".entry_size = sizeof(struct p%d_entry), .entry_offset = 0x%llx, "
			  ".entry_cfa_reg = offsetof(struct pt_regs, %s), .entry_cfa_off = %lld",
			  idx, idx, (unsigned long long)d->entry_offset,
			  dw_regname(d->entry_cfa_reg), (long long)d->entry_cfa_off);
	if (d->sem_offset)	/* an SDT marker's semaphore */
		sb_printf(&m->uprobes, ", .ref_ctr_offset = 0x%llx",
			  (unsigned long long)d->sem_offset);
	sb_puts(&m->uprobes, " },\n");
	m->nuprobes++;
}

void em_uprobe_tables(struct emit *m, struct sbuf *o)
{
	em_array(o, "stp_uprobe", "stp_uprobes", &m->uprobes, "STP_NUPROBES", m->nuprobes);
}
