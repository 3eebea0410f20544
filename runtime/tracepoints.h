/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kernel.trace(...) probes (tracepoints.c); the generated code fills a
 * table of these, each with its callback of the tracepoint's prototype
 * (translator/families/trace/trace_kmod.c).
 */
#ifndef STP_TRACEPOINTS_H
#define STP_TRACEPOINTS_H

#include <linux/tracepoint.h>

struct stp_tracepoint {
	const struct stp_probe *probe;
	const char *name;		/* "sched_switch" */
	void *cb;			/* (void *data, u64 args...) */
	int required;			/* named, not matched by a wildcard */
	const char *module;		/* its module's name; NULL: the core
					 * kernel's */
	struct tracepoint *tp;		/* the kernel's, found at arming */
	struct module *mod;		/* held while registered */
	int registered;
};

#endif
