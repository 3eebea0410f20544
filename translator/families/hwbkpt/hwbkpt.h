/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kernel.data(ADDRESS|"SYMBOL")[.length(N)].write/.rw: hardware
 * watchpoints on kernel data (hwbkpt.c matches, emit_hwbkpt.c emits,
 * runtime/hwbkpt.c arms one per CPU).
 */
#ifndef HWBKPT_H
#define HWBKPT_H

#include "../elab/elab.h"

struct sbuf;

int hwbkpt_match(struct elab *e, struct probe_point *pp, struct vec *out);
struct emit;
void em_hwbkpt_entry(struct emit *m, int idx, const struct derived_probe *d);
void em_hwbkpt_tables(struct emit *m, struct sbuf *o);

#endif
