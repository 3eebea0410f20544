/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * procfs("PATH").read/.write: files under /proc/systemtap/MODULE/.
 *
 *   procfs_points.c       the points, their $value, and the family's row
 *                  (family.h)
 *   procfs_kmod.c  the module's files and directories
 *
 * A BPF program cannot serve a file in /proc: no BPF generator.
 */
#ifndef STP_PROCFS_H
#define STP_PROCFS_H

#include "../../elab/elab.h"

/* pp as a procfs point: -1 when it is none, 0 after an error, 1 with
 * its template (family and the procfs fields) in out. */
int procfs_match(struct elab *e, struct probe_point *pp, struct vec *out);
/* $value read (or written other than by '=' or '.=') in procfs probe
 * d: 1 with n->ref its getter function, 0 after an error (said unless
 * quiet). */
int procfs_target(struct elab *e, struct derived_probe *d, struct node *n, int write,
		  int quiet);
/* @defined(n) in procfs probe d: whether n is $value. */
int procfs_defined(struct elab *e, struct derived_probe *d, const struct node *n);
/* -L: " $value:string" */
const char *procfs_list_vars(struct elab *e, const struct derived_probe *d);
/* "$value = x" or "$value .= x", assignment a: 1 with a->lhs->ref the
 * setter taking x, 0 after an error. */
int procfs_assign(struct elab *e, struct derived_probe *d, struct node *a);

/* procfs_kmod.c */
/* Note probe idx (just emitted) for its file's entry. */
void em_procfs_entry(struct emit *m, int idx, const struct derived_probe *d);
/* stp_procfs_files[] and stp_procfs_dirs[], even when empty. */
void em_procfs_tables(struct emit *m, struct sbuf *o);

#endif
