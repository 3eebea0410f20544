/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kprobe.function, kernel.function and module().function by symbol
 * (kprobes.c); the generated code fills a table of these.
 */
#ifndef STP_KPROBES_H
#define STP_KPROBES_H

#include <linux/kprobes.h>

struct stp_kprobe {
	const struct stp_probe *probe;
	kprobe_pre_handler_t hit;	/* entry probes: the generated handler,
					 * the hit path inlined (probe.h) */
	const char *symbol;		/* "vfs_read", or "ext4:ext4_sync_fs" */
	unsigned int offset;		/* from the symbol (DWARF probes) */
	int is_return, maxactive;
	int required;			/* named, not matched by a wildcard */
	const struct stp_probe *entry;	/* .return with @entry: its saves */
	int entry_size;			/* bytes @entry keeps per call */
	int registered;
	union {
		struct kprobe kp;
		struct kretprobe krp;
	} u;
};

/* The return value in a .return probe's registers: an i386 program's
 * (a compat task's) is eax, a 32-bit long, sign-extended. */
static inline long stp_return_value(struct pt_regs *regs)
{
	if (regs && user_mode(regs) && !user_64bit_mode(regs))
		return (long)(s32)regs->ax;
	return regs ? regs_return_value(regs) : 0;
}

#endif
