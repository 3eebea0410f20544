/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kernel.syscall(NR) and kernel.syscall(NR).return (sysdispatch.c):
 * native x86-64 system call NR, at entry and at exit, however many such
 * probes dispatched from one raw_syscalls sys_enter and one sys_exit
 * callback (runtime/sysdispatch.c).
 */
#ifndef STP_SYSDISPATCH_H
#define STP_SYSDISPATCH_H

#include "../elab/elab.h"

struct emit;
struct sbuf;

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
int sysdispatch_target(struct derived_probe *d, struct node *n, int write, int quiet);
/* -L: " $id:long $arg1:long ... $regs:long [$ret:long]" */
const char *sysdispatch_list_vars(const struct derived_probe *d);

/* emit_sysdispatch.c: probe idx (pass 3's number) into the dispatch,
 * then the tables and dispatch functions runtime/sysdispatch.c calls. */
struct emit;
void em_sysdispatch_entry(struct emit *m, int idx, const struct derived_probe *d);
void em_sysdispatch_tables(struct emit *m, struct sbuf *o);

#endif
