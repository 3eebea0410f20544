/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Chopstix sketch sampler: its layout and decision path are
 * cx_core.h's, shared with the BPF program; this is the rest, which
 * runs in process context (the module's epoch work, the BPF runner,
 * the host's tests): naming vitals, closing an epoch, clearing a copy.
 * The same source compiles on the host (-DSTP_HOST).
 *
 * Closing an epoch, in this order:
 *   closed = cx_flip(s);          events now go to the other copy
 *   ... a grace period ...        every event that read the old index
 *                                 has finished (cx_core.h says how)
 *   cx_fold(s, closed, cpu)       for each struct cx_cpu, then
 *   cx_cpu_zero(cpu, closed)      its [closed] rows zeroed
 *   cx_finish(s, closed)          the epoch's cost, and t for the next
 *   ... read the closed copy ...
 *   cx_clear(s, closed)           before the next cx_flip
 */
#ifndef STP_SKETCH_H
#define STP_SKETCH_H

#include "shim.h"
#include "cx_core.h"

/* The sketch, empty, with the standard vitals' names in their slots. */
void cx_init(struct cx_sketch *s, u64 hi_cycles, u64 lo_cycles);

/*
 * The slot of the vital named name (its first CX_NAME_LEN-1 characters):
 * a standard one's own, else one named now; -1 when full, or when a
 * slot stays half named (only in an NMI that interrupted the naming on
 * its CPU).  A vital found or named here has a row in every epoch.
 */
int cx_vital(struct cx_sketch *s, const char *name);

/* Mark a vital as not measurable here, with the reason. */
void cx_unavailable(struct cx_sketch *s, int vi, const char *why);

/* Whether vital vi has a row in this epoch's records. */
int cx_has_row(const struct cx_sketch *s, int vi);

/* Open the other copy; the closed one's index. */
int cx_flip(struct cx_sketch *s);

/* Add one struct cx_cpu's counts of the closed copy into it. */
void cx_fold(struct cx_sketch *s, int closed, const struct cx_cpu *cpu);

/* Zero one struct cx_cpu's rows of the closed copy, once folded. */
void cx_cpu_zero(struct cx_cpu *cpu, int closed);

/* The closed copy's cost, and t for the next epoch: doubled for each
 * multiple of the high watermark reached, halved under the low one. */
void cx_finish(struct cx_sketch *s, int closed);

/* Samples of a closed copy that were completed. */
int cx_nsamples(const struct cx_copy *c);

/* Number of non-zero counters of a copy's HCA. */
int cx_nonzero(const struct cx_copy *c);

/* A counter's count (the HCA holds tags too). */
static inline u32 cx_count_at(const struct cx_copy *c, int i)
{
	return (u32)c->hca[i];
}

/* Clear a closed copy and its first-occurrence entries for reuse. */
void cx_clear(struct cx_sketch *s, int copy);

#endif
