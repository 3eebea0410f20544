/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * process("PATH").function / .statement on uprobes, and process.begin /
 * .end (uprobes.c); the generated code fills a table of each.
 */
#ifndef STP_UPROBES_H
#define STP_UPROBES_H

#include <linux/fs.h>
#include <linux/uprobes.h>

struct stp_uprobe {
	const struct stp_probe *probe;
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
};

struct stp_procprobe {
	const struct stp_probe *probe;
	const char *path;		/* process("PATH"), or NULL: any */
	int end;			/* .end, else .begin */
	struct inode *inode;		/* path's, while armed */
};

#endif
