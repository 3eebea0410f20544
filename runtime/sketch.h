/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Chopstix sketch sampler (sketch.c), for tapsets/chopstix.stp.
 *
 * Each vital sign has a hashed counter array (HCA).  An event's label is
 * hashed to one counter, which goes up by the event's weight; the event
 * is selected for a sample when that counter reaches or crosses an
 * integer power of the threshold t = 2^shift (t^0 = 1, so an event's
 * first occurrence is selected unless a collision hid it).  Samples go
 * to a preallocated list; a full list drops the sample and counts it.
 *
 * Epochs: each vital has two copies of its HCA, sums and sample list.
 * Probes write the open copy; cx_swap() (process context, one caller at
 * a time) opens the other one and waits until no writer is still in the
 * closed one, which is then read and cleared (cx_clear) while collection
 * goes on.  A writer announces itself in the copy's writers count before
 * it touches the copy, and rechecks which copy is open after that, so it
 * never spins: the paths that run in NMI take no lock.
 *
 * The adaptive threshold: the cycles collection spends are counted per
 * vital and epoch (cx_done's argument).  Each time they reach another
 * multiple of the high watermark, t doubles; at an epoch's end t halves
 * when they stayed under the low watermark.
 *
 * The same source compiles on the host (-DSTP_HOST) for unit tests and
 * benchmarks.
 */
#ifndef STP_SKETCH_H
#define STP_SKETCH_H

#include "shim.h"

#ifndef CX_VITALS_MAX
#define CX_VITALS_MAX 12	/* the 11 vital signs and one of the user's */
#endif
#ifndef CX_HCA_BYTES
#define CX_HCA_BYTES 1024	/* a power of two, 128 .. 4096 */
#endif
#ifndef CX_SAMPLES
#define CX_SAMPLES 40		/* sample slots per vital and copy */
#endif
#ifndef CX_SHIFT_INIT
#define CX_SHIFT_INIT 1		/* t = 2 */
#endif
#define CX_SHIFT_MIN 1
#define CX_SHIFT_MAX 30
#define CX_COUNTERS (CX_HCA_BYTES / 4)
#define CX_NAME_LEN 16
#define CX_NDATA 4		/* the vital's data: numbers, named per vital */
#define CX_NAMES_LEN 64
#define CX_KFRAMES 8
#define CX_UFRAMES 4
#define CX_WHY_LEN 160

/* One sampled event; filled by the caller of cx_event. */
struct cx_sample {
	u64 label;		/* the hashed label, exec and uid mixed in */
	u64 time_ns;
	u64 exec;		/* the executable's inode number; 0: none */
	u64 site;		/* the vital's site (0: the first kstack frame) */
	s64 weight;
	u32 uid;
	u32 pid;
	u16 nk;			/* kstack[] entries */
	u16 nu;			/* ustack[] entries; 0 when not resident */
	u32 ready;		/* set last, by cx_done */
	u32 exec_dev;		/* and its file system's dev_t (kernel's) */
	u32 count;		/* the label's counter with this event: how
				 * often (how much weight) it had been seen */
	void *pin;		/* the caller's reference to release (vitals.c) */
	char comm[16];
	s64 data[CX_NDATA];	/* the vital's data, named by cx_vital.names */
	u64 kstack[CX_KFRAMES];
	u64 ustack[CX_UFRAMES];
};

/* One copy of a vital's state for an epoch. */
struct cx_copy {
	stp_atomic_t writers;	/* probes inside this copy now */
	stp_atomic_t weight;	/* sum of weights (signed) */
	stp_atomic_t events;	/* number of events */
	stp_atomic_t claimed;	/* sample slots claimed; may pass CX_SAMPLES */
	stp_atomic_t dropped;	/* selected, but the list was full */
	stp_atomic_t cycles;	/* spent by collection */
	u32 hca[CX_COUNTERS];
	struct cx_sample samples[CX_SAMPLES];
};

struct cx_vital {
	char name[CX_NAME_LEN];
	stp_atomic_t state;	/* 0 free, 1 being named, 2 in use */
	stp_atomic_t shift;	/* t = 1 << shift */
	int unavailable;	/* set with cx_unavailable, never cleared */
	char why[CX_WHY_LEN];
	char names[CX_NAMES_LEN];	/* "prio age_ns": data[]'s names, set once */
	struct cx_copy copy[2];
};

struct cx_sketch {
	stp_atomic_t open;	/* index of the copy probes write */
	u64 hi_cycles;		/* watermarks per vital and epoch; 0: off */
	u64 lo_cycles;
	struct cx_vital v[CX_VITALS_MAX];
};

/* What cx_event hands to its caller, and cx_done takes back. */
struct cx_op {
	struct cx_vital *v;
	struct cx_copy *c;
	struct cx_sample *smp;	/* non-NULL: selected, fill it in */
};

void cx_init(struct cx_sketch *s, u64 hi_cycles, u64 lo_cycles);

/*
 * The index of the vital named name (its first CX_NAME_LEN-1 characters),
 * naming a free one; -1 when full, or when a vital stays half named
 * (only in an NMI that interrupted the naming on its CPU).
 */
int cx_vital(struct cx_sketch *s, const char *name);

/* Mark a vital as not measurable here, with the reason. */
void cx_unavailable(struct cx_sketch *s, int vi, const char *why);

/* The HCA counter a label goes to. */
u32 cx_index(u64 label);

/*
 * 1 when a counter going from old to new reaches or crosses a power
 * of 2^shift (old == 0 and new > 0 included).
 */
int cx_crosses(u32 old, u32 new, u32 shift);

/*
 * Count an event: weight goes into the sum as is, |weight| into the
 * label's counter.  op->smp is the slot to fill when the event was
 * selected and a slot was free.  Always followed by cx_done(op, ...).
 */
void cx_event(struct cx_sketch *s, int vi, u64 label, s64 weight,
	      struct cx_op *op);

/* End of an event: publishes the sample, accounts cycles, adapts t. */
void cx_done(struct cx_sketch *s, struct cx_op *op, u64 cycles);

/*
 * Process context, one caller: open the other copy, wait until the
 * closed copy has no writer, halve t of vitals whose closed copy stayed
 * under the low watermark.  Returns the closed copy's index.
 */
int cx_swap(struct cx_sketch *s);

/* Samples of a closed copy that were completed: min(claimed, CX_SAMPLES)
 * slots, of which those with ready set. */
int cx_nsamples(const struct cx_copy *c);

/* Number of non-zero counters of a copy's HCA. */
int cx_nonzero(const struct cx_copy *c);

/* Clear a closed copy for reuse (after cx_swap, before the next one). */
void cx_clear(struct cx_sketch *s, int copy);

#ifdef STP_HOST
/* Tests: run by a writer between reading which copy is open and
 * announcing itself in it, the window cx_swap's protocol closes. */
extern void (*cx_host_enter_hook)(void);
#endif

#endif
