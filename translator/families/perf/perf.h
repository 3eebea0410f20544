/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perf.* probe points: matching (perf.c), pass 3 (emit_perf.c).
 */
#ifndef STP_PERF_H
#define STP_PERF_H

#include "../elab/elab.h"

/* derived_probe.perf_task: where the event counts */
enum {
	PERF_TASK_NONE,		/* every online CPU */
	PERF_TASK_TARGET,	/* .process: the -c/-x target */
	PERF_TASK_PATH,		/* .process("PATH"): that program's tasks */
};

/* -1 when pp is no perf point; 0 after an error; 1 when out holds the
 * points (struct derived_probe * templates: pp, family, perf fields). */
int perf_match(struct elab *e, struct probe_point *pp, struct vec *out);

/* @perf("NAME") at n, in probe in (NULL in a function): an error
 * unless a counter of that name exists. */
void perf_at_check(struct elab *e, const struct derived_probe *in, struct node *n);
/* Counter name's index in the table emit_perf.c writes, or -1. */
int perf_counter_index(const struct elab *e, const char *name);

#endif
