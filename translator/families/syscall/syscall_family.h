/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kernel.syscall(NR) and kernel.syscall(NR).return: native x86-64
 * system call NR, at entry and at exit, however many such probes
 * dispatched from one raw_syscalls sys_enter and one sys_exit callback
 * (runtime/sysdispatch.c).
 *
 *   syscall_points.c   the points, their $vars, and the family's row
 *                   (family.h)
 *   syscall_kmod.c  the module's dispatch tables and functions
 *   syscall_bpf.c   the same under --runtime=bpf: one program on each
 *                   raw tracepoint, dispatching by number
 */
#ifndef STP_SYSDISPATCH_H
#define STP_SYSDISPATCH_H

#include "../../elab/elab.h"

/* The numbers a probe may name: 0 .. SD_MAX_NR - 1.
 * ORDER: runtime/sysdispatch.h's STP_SD_MAX_NR */
enum { SD_MAX_NR = 1024 };

/* The slots of the array a probe's variables are read from.
 * ORDER: runtime/sysdispatch.h's STP_SD_* */
enum { SD_ID = 0, SD_ARG1 = 1, SD_REGS = 7, SD_RET = 8 };

/* -1 when pp is not kernel.syscall(...)[.return]; 0 after an error; 1
 * with the probe (a template: pp, family, sc_nr, is_return) in out. */
int sysdispatch_match(struct elab *e, struct probe_point *pp, struct vec *out);
/* $id, $argN, $regs, $ret of d: n->ref becomes the function that reads
 * it; 0 (with an error unless quiet) when d has no such variable. */
int sysdispatch_target(struct elab *e, struct derived_probe *d, struct node *n, int write,
		       int quiet);
/* -L: " $id:long $arg1:long ... $regs:long [$ret:long]" */
const char *sysdispatch_list_vars(struct elab *e, const struct derived_probe *d);

/* syscall_kmod.c: probe idx (pass 3's number) into the dispatch,
 * then the tables and dispatch functions runtime/sysdispatch.c calls. */
void em_sysdispatch_entry(struct emit *m, int idx, const struct derived_probe *d);
void em_sysdispatch_tables(struct emit *m, struct sbuf *o);
/* its struct stp_probe's is_return, and the registers: the call's own */
void em_sysdispatch_fields(struct sbuf *o, const struct derived_probe *d);

/* syscall_bpf.c: kernel.syscall(NR)[.return], dispatched by number */
const char *bx_sys_section(struct bx *x, struct derived_probe *d, int i);
void bx_sys_prologue(struct bx *x, const struct derived_probe *d, int i);
void bx_sys_epilogue(struct bx *x, const struct derived_probe *d, int i);
/* a .return's @entry program at sys_enter (uprobe_bpf_entry.c writes
 * it): its registers first, the next program on its number last */
void bx_sys_entry_prologue(struct bx *x, const struct derived_probe *d, int i);
void bx_sys_entry_epilogue(struct bx *x, const struct derived_probe *d, int i);
void bx_sys_maps(struct bx *x, struct sbuf *o);	/* before the probes */
void bx_sys_dispatch(struct bx *x, struct sbuf *o, struct sbuf *att);	/* after */
/* the row's section: bx_sys_section's (it writes no attach row) */
const char *bx_syscall_section(struct bx *x, struct derived_probe *d, int i, struct sbuf *att);

#endif
