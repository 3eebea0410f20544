/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * procfs("PATH").read/.write probes (procfs.c): the points, and their
 * $value; pass 3 in emit_procfs.c.
 */
#ifndef STP_PROCFS_H
#define STP_PROCFS_H

#include "../elab/elab.h"

/* pp as a procfs point: -1 when it is none, 0 after an error, 1 with
 * its template (family and the procfs fields) in out. */
int procfs_match(struct elab *e, struct probe_point *pp, struct vec *out);
/* $value read (or written other than by '=' or '.=') in procfs probe
 * d: 1 with n->ref its getter function, 0 after an error (said unless
 * quiet). */
int procfs_target(struct elab *e, struct derived_probe *d, struct node *n, int write,
		  int quiet);
/* @defined(n) in procfs probe d: whether n is $value. */
int procfs_defined(const struct derived_probe *d, const struct node *n);
/* "$value = x" or "$value .= x", assignment a: 1 with a->lhs->ref the
 * setter taking x, 0 after an error. */
int procfs_assign(struct elab *e, struct derived_probe *d, struct node *a);

#endif
