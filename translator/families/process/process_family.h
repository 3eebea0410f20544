/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * process.begin, .end, .thread.begin, .thread.end, .syscall and
 * .syscall.return, of any process, of process("PATH") or of
 * process(PID); the runtime's half is runtime/process.c.
 *
 *   process_points.c       the points, their $vars, and the family's row
 *                   (family.h)
 *   process_kmod.c  each one's entry in the module's process table
 *
 * BPF has no hook of this kind: no BPF generator (the row says what to
 * use instead).
 */
#ifndef STP_PROCESS_H
#define STP_PROCESS_H

#include "../../elab/elab.h"

/* ORDER: runtime/process.h's enum stp_proc_event */
enum proc_event {
	PE_BEGIN,
	PE_END,
	PE_THREAD_BEGIN,
	PE_THREAD_END,
	PE_SYSCALL,
	PE_SYSCALL_RETURN,
};

/* The slots of the array a syscall probe's variables are read from.
 * ORDER: runtime/process.h's STP_SC_* */
enum { SC_NR = 0, SC_ARG1 = 1, SC_RETURN = 7 };

/* -1 when pp is none of these points; 0 after an error; 1 when out
 * holds the probes (struct derived_probe * templates: pp, family and
 * the process fields), none for an optional point naming nothing. */
int process_match(struct elab *e, struct probe_point *pp, struct vec *out);
/* Whether pp is one of these points (process_match does not say -1). */
int process_claims(const struct probe_point *pp);

/* process_kmod.c */
/* Probe idx's entry in the process table. */
void em_process_entry(struct emit *m, int idx, const struct derived_probe *d);
/* stp_procprobes[], even when empty. */
void em_process_tables(struct emit *m, struct sbuf *o);
/* $syscall, $argN, $return of a process probe d: n->ref becomes the
 * function that reads it; 0 (with an error unless quiet) when d has
 * no such variable. */
int process_target(struct elab *e, struct derived_probe *d, struct node *n, int write, int quiet);
/* -L: " $syscall:long $arg1:long ..." */
const char *process_list_vars(struct elab *e, const struct derived_probe *d);

#endif
