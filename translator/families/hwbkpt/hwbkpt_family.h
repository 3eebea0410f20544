/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kernel.data(ADDRESS|"SYMBOL")[.length(N)].write/.rw: hardware
 * watchpoints on kernel data (runtime/hwbkpt.c arms one per CPU).
 *
 *   hwbkpt_points.c       the points, and the family's row (family.h)
 *   hwbkpt_kmod.c  each one's entry in the module's watchpoint table
 *
 * BPF has no watchpoint hook: no BPF generator.
 */
#ifndef HWBKPT_H
#define HWBKPT_H

#include "../../elab/elab.h"

int hwbkpt_match(struct elab *e, struct probe_point *pp, struct vec *out);
/* hwbkpt_kmod.c */
void em_hwbkpt_entry(struct emit *m, int idx, const struct derived_probe *d);
void em_hwbkpt_tables(struct emit *m, struct sbuf *o);

#endif
