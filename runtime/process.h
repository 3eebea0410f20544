/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The life and system calls of processes (process.c): process.begin,
 * .end, .thread.begin, .thread.end, .syscall, .syscall.return, of any
 * process, of a program's (process("PATH")) or of one process
 * (process(PID)).  The generated code fills a table of these.
 */
#ifndef STP_PROCESS_H
#define STP_PROCESS_H

#include <linux/fs.h>

/* ORDER: translator/families/process/process_kmod.c names them */
enum stp_proc_event {
	STP_PE_BEGIN,
	STP_PE_END,
	STP_PE_THREAD_BEGIN,
	STP_PE_THREAD_END,
	STP_PE_SYSCALL,
	STP_PE_SYSCALL_RETURN,
};

/*
 * What a syscall probe's handler reads through CONTEXT->entry: $syscall,
 * $arg1..$arg6, and $return (.syscall.return only).
 */
enum { STP_SC_NR, STP_SC_ARG1, STP_SC_RETURN = 7, STP_SC_SLOTS };

struct stp_procprobe {
	const struct stp_probe *probe;
	const char *path;		/* process("PATH"), or NULL */
	int pid;			/* process(PID), or 0 */
	int event;			/* enum stp_proc_event */
	int required;			/* named, not matched by a glob or '?' */
	struct inode *inode;		/* path's, while armed */
};

#endif
