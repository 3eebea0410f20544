/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * process("PATH").function / .statement on uprobes (uprobes.c); the
 * generated code fills a table of these.
 */
#ifndef STP_UPROBES_H
#define STP_UPROBES_H

#include <linux/fs.h>
#include <linux/spinlock.h>
#include <linux/uprobes.h>

/*
 * A call a return probe with @entry waits for the return of.  A slot in
 * use by a handler (its saves being written or read) is never taken
 * for another call: the handler owns it until it lets go.
 */
struct stp_ucall {
	pid_t tid;			/* 0: a free slot */
	u8 busy;			/* a handler is using the saves */
	u8 failed;			/* the entry handler failed: no return */
	unsigned long sp;		/* at entry: where the return address is */
	u64 age;
};

#ifndef STP_UCALLS
#define STP_UCALLS 64			/* calls in flight, per probe */
#endif

struct stp_uprobe {
	const struct stp_probe *probe;
	const struct stp_probe *entry;	/* a return probe's @entry saves, or NULL */
	int entry_size;			/* bytes they take per call */
	loff_t entry_offset;		/* where they are made (past the prologue) */
	size_t entry_cfa_reg;		/* the CFA there: a register (its offset
					 * in struct pt_regs) */
	long entry_cfa_off;		/* plus this */
	const char *path;		/* the file, on the target */
	const char *exe;		/* .library(): fires only in processes
					 * of this program; else NULL */
	loff_t offset;			/* of the probed instruction */
	int is_return;
	int required;			/* named, not matched by a glob */
	/* while armed: */
	struct inode *inode;		/* path's, the uprobe's key */
	struct inode *exe_inode;	/* exe's */
	struct uprobe *up;		/* uprobe_register()'s, 6.12 on */
	struct uprobe_consumer uc;
	int registered;
	/* with entry: its own uprobe, the calls in flight and their saves */
	struct uprobe_consumer entry_uc;
	struct uprobe *entry_up;
	int entry_registered;
	spinlock_t calls_lock;
	struct stp_ucall *calls;	/* STP_UCALLS */
	char *saves;			/* STP_UCALLS * entry_size */
	u64 age;
	/* an SDT marker's: */
	loff_t ref_ctr_offset;		/* its semaphore, counted while armed;
					 * or 0 */
};

#endif
