/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kernel.trace("[SYSTEM:]NAME"): the kernel's tracepoints, with their
 * arguments' types from BTF (../../btf/).
 *
 *   trace_points.c  the points, their $vars, and the family's row
 *                  (family.h)
 *   trace_kmod.c   each one's callback and its tracepoint's
 *                  registration, shared by the probes of one tracepoint
 *   trace_bpf.c    a raw tracepoint program
 */
#ifndef STP_TRACE_FAMILY_H
#define STP_TRACE_FAMILY_H

#include "../../elab/elab.h"

/* kernel.trace(...) points: -1 when pp is none; 0 after an error; 1
 * when out holds the derived probe templates (pp, family, tracepoint). */
int tracepoints_match(struct elab *e, struct probe_point *pp, struct vec *out);

/* trace_kmod.c */
/* Probe idx's callback, with the tracepoint's prototype, and its entry
 * in the tracepoint table. */
void em_trace_entry(struct emit *m, int idx, const struct derived_probe *d);
/* stp_tracepoints[], even when empty. */
void em_trace_tables(struct emit *m, struct sbuf *o);

/* trace_bpf.c: the program's section, its attach row */
const char *bx_trace_section(struct bx *x, struct derived_probe *d, int i, struct sbuf *att);

#endif
