/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * process.begin / .end (process.c); the generated code fills a table of
 * these.
 */
#ifndef STP_PROCESS_H
#define STP_PROCESS_H

#include <linux/fs.h>

struct stp_procprobe {
	const struct stp_probe *probe;
	const char *path;		/* process("PATH"), or NULL: any */
	int end;			/* .end, else .begin */
	struct inode *inode;		/* path's, while armed */
};

#endif
