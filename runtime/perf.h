/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perf.* probes (perf.c); the generated code fills a table of these,
 * each with its overflow handler (translator/families/perf/perf_kmod.c).
 */
#ifndef STP_PERF_H
#define STP_PERF_H

#include <linux/perf_event.h>

enum { STP_PERF_CPUS, STP_PERF_TARGET, STP_PERF_PATH };	/* .task */

struct stp_perf {
	const struct stp_probe *probe;
	perf_overflow_handler_t cb;
	u32 type;			/* perf_event_attr's */
	u64 config;
	u64 period;			/* or frequency, with freq */
	int freq;
	int task;			/* STP_PERF_*: where it counts */
	int required;			/* named, not matched by a wildcard */
	const char *path;		/* STP_PERF_PATH: the program */
	struct inode *inode;		/* its inode, while armed */
	struct perf_event **events;	/* per CPU, or [0] for the target */
};

/* @perf("NAME"): counter k's value, in its own task; else 0 */
int64_t stp_perf_read(int k);

#endif
