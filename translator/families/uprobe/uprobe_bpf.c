// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * process(...).function/.statement/.mark under --runtime=bpf: a uprobe
 * or uretprobe program, which the runner attaches at the file offset
 * (with the marker's semaphore, if it has one).
 */
#include "uprobe_family.h"
#include "../../bpf/bpf.h"

const char *bx_uprobe_section(struct bx *x, struct derived_probe *d, int i, struct sbuf *att)
{
	(void)x;
	sb_printf(att, "\t{ \"p%d\", STP_ATTACH_UPROBE, 0, 0, 0, 0, \"%s\", \"%s\", "
		  "0x%llxULL, 0x%llxULL, %d },\n", i, bx_cstr(d->name), bx_cstr(d->path),
		  (unsigned long long)d->file_offset, (unsigned long long)d->sem_offset,
		  d->is_return);
	return d->is_return ? "uretprobe" : "uprobe";
}
