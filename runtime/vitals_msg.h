/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A closed Chopstix epoch as the module hands it to stprun (vitals.c,
 * staprun/epoch.c).  Fixed-size types only: both sides include it.
 *
 * At an epoch's end the module swaps its sketch copies and sends
 * STP_MSG_CX_EPOCH on the control channel.  stprun then reads the file
 * stp_MODNAME/vitals from offset 0 until read() returns 0: records of
 * struct stp_cx_rec, then len bytes, in this order: one STP_CX_EPOCH,
 * one STP_CX_VITAL per vital sign in use, one STP_CX_SAMPLE per sample.
 * A read returns whole records only.  The read that returns 0 hands the
 * copy back to the sampler, which clears it for the epoch after next;
 * until then the open epoch is not closed (it runs longer, nothing is
 * lost), and the vital's `missed` counts the epoch ends skipped.
 */
#ifndef STP_VITALS_MSG_H
#define STP_VITALS_MSG_H

#include <linux/types.h>	/* STP_MSG_CX_EPOCH is in transport_msg.h */

struct stp_cx_rec {
	__u32 type;
	__u32 len;		/* bytes after this header */
};

enum { STP_CX_EPOCH = 1, STP_CX_VITAL = 2, STP_CX_SAMPLE = 3 };

struct stp_cx_epoch {
	__u64 seq;		/* 1, 2, ...: epochs closed by this module */
	__u64 start_ns;		/* CLOCK_REALTIME */
	__u64 end_ns;
	__u32 nvitals;
	__u32 nsamples;
	__u32 missed;		/* epoch ends skipped: stprun had not read */
	__u32 final;		/* 1: the session's last epoch */
};

/* Then hca_len __u32 counters. */
struct stp_cx_vital {
	__u32 index;
	__u32 hca_len;
	__s64 weight;
	__u64 count;
	__u64 samples;
	__u64 dropped;
	__u64 t;
	__u64 cycles;
	__u32 available;
	__u32 reserved;
	char name[16];
	char names[64];		/* the data's names, space separated */
	char why[160];		/* when not available */
};

/*
 * Then text, NUL-terminated, '\n' between its lines: the executable's
 * path ("" when unknown: a kernel thread), the site ("func+0x1a
 * [module]", or "0x..." for a user address stprun symbolizes), then
 * each kernel frame.
 */
struct stp_cx_sample {
	__u32 vital;		/* stp_cx_vital.index */
	__u32 pid;
	__u32 uid;
	__u16 nk;		/* kernel frames in the text */
	__u16 nu;		/* ustack[] entries */
	__u32 count;		/* the label's counter when it was sampled */
	__u32 reserved;
	__u64 time_ns;		/* CLOCK_REALTIME */
	__u64 label;
	__u64 exec_dev;		/* the executable: its st_dev (user encoding) */
	__u64 exec_ino;		/* and inode; 0: none (a kernel thread) */
	__u64 site;		/* the site's address, 0 when none */
	__s64 weight;
	__s64 data[4];
	__u64 ustack[4];
	char comm[16];
};

/*
 * The frames that are no sample's site (the scheduler, locking,
 * tracing), by name prefix: the module's reader (vitals.c) and the BPF
 * runner's (staprun/bpf/sketch.c) skip them alike.
 */
#define STP_CX_SKIP_FRAMES \
	"__schedule", "schedule", "preempt_schedule", "io_schedule", \
	"__cond_resched", "_cond_resched", "context_switch", \
	"finish_task_switch", "__switch_to", "mutex_lock", "__mutex_lock", \
	"mutex_lock_", "rwsem_down", "down_", "__down", "up_", "rt_mutex", \
	"__rt_mutex", "percpu_down", "__traceiter_", "trace_", "perf_", \
	"__perf_", "rwsem_", "__rwsem", "osq_lock", "queued_spin", \
	"_raw_spin", "do_raw_spin", "native_queued", "__pv_queued"

#endif
