/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perf.*: perf events (software, hardware, cache; on every CPU, or
 * counting for a process, or read with @perf).
 *
 *   perf_points.c       the points, @perf's check, and the family's row
 *                (family.h)
 *   perf_kmod.c  each one's overflow handler and perf table entry
 *   perf_bpf.c   a perf_event program, on every CPU
 */
#ifndef STP_PERF_H
#define STP_PERF_H

#include "../../elab/elab.h"

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
/* Counter name's index in the table perf_kmod.c writes, or -1. */
int perf_counter_index(const struct elab *e, const char *name);

/* perf_kmod.c */
/* Probe idx's overflow handler and its entry in the perf table. */
void em_perf_entry(struct emit *m, int idx, const struct derived_probe *d);
/* @perf("NAME"): the counter's value now. */
void em_perf_read(struct emit *m, struct node *n);
/* stp_perfs[] and stp_perf_counters[], even when empty. */
void em_perf_tables(struct emit *m, struct sbuf *o);

/* perf_bpf.c: the program's section, its attach row (NULL: not
 * attached by the runner; the row's why says so) */
const char *bx_perf_section(struct bx *x, struct derived_probe *d, int i, struct sbuf *att);

#endif
