/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * timer.ms(N) and its kin (timer.s, .us, .ns, .jiffies, .hz, with
 * .randomize), and timer.profile: matched in ../../elab/probes.c.
 *
 *   timer_points.c       the families' rows (family.h)
 *   timer_kmod.c  each one's entry in the module's stp_timers[]
 *   timer_bpf.c   a perf cpu-clock event on CPU 0 (every CPU: profile)
 */
#ifndef STP_TIMER_FAMILY_H
#define STP_TIMER_FAMILY_H

#include "../../elab/elab.h"

/* timer_kmod.c: probe idx's entry; stp_timers[] */
void em_timer_entry(struct emit *m, int idx, const struct derived_probe *d);
void em_timer_tables(struct emit *m, struct sbuf *o);
/* timer_bpf.c: the program's section, its attach row */
const char *bx_timer_section(struct bx *x, struct derived_probe *d, int i, struct sbuf *att);
const char *bx_profile_section(struct bx *x, struct derived_probe *d, int i, struct sbuf *att);

#endif
