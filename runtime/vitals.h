/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Chopstix sampler in a module (vitals.c): the sketch of sketch.c,
 * fed by tapsets/chopstix.stp, closed every epoch by a work item and read
 * by stprun through stp_MODNAME/vitals (vitals_msg.h).  Compiled only
 * into modules whose script uses chopstix.stp, which defines STP_SKETCH.
 */
#ifndef STP_VITALS_H
#define STP_VITALS_H

#include "sketch.h"

struct stp_ctx;
struct task_struct;

/*
 * Count an event of the vital named vital for task t (current when NULL);
 * when it is selected, sample t's stacks, site and data (names: what the
 * numbers in d[CX_NDATA] are, recorded once per vital).  1: sampled.
 */
long stp_cx_event(struct stp_ctx *c, const char *vital, u64 label, s64 weight,
		  struct task_struct *t, unsigned long site, const char *names,
		  const s64 *d);

/* The vital cannot be measured on this machine, and why. */
void stp_cx_unavailable(const char *vital, const char *why);

/* Start closing epochs every epoch_ms; watermarks in cycles (0: off). */
void stp_cx_start(u64 epoch_ms, u64 hi_cycles, u64 lo_cycles);

#endif
