/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The protocol between a module and stprun.  Shared by both sides, so it
 * uses only fixed-size types and compiles in the kernel and in user space.
 *
 * Files, in debugfs (mounted at /sys/kernel/debug):
 *
 *   stp_MODNAME/ctl       control channel, one reader (stprun)
 *   stp_MODNAME/traceN    per-CPU relay buffer N (0 .. nr_cpu_ids-1)
 *
 * Output written by the script goes to the traceN files as records: a
 * struct stp_rec_hdr, then len bytes (no alignment).  seq is global: the
 * first record is 1 and each stored record takes the next number, with
 * no gaps (a record dropped for want of room takes none, it is counted),
 * so stprun writes the CPUs' records strictly in the order they were
 * written, waiting for a missing number to arrive from another CPU.
 * A read of traceN never blocks and returns only records from complete
 * relay sub-buffers; the module closes partly filled ones about every
 * 100 ms (not while detached, below), and at the end before it sends
 * STP_MSG_DONE.
 *
 * The control channel carries messages both ways: struct stp_msg_hdr,
 * then len bytes of payload.  Writes from stprun are whole messages (at
 * most 4096 bytes a write), handled before write() returns: writing
 * STP_MSG_START returns after the begin probes ran, STP_MSG_STOP after
 * the end probes ran and STP_MSG_DONE was queued.  A read() returns
 * whole messages (as many as fit; a 64 KiB buffer always fits one), or
 * blocks for a while (about 50 ms) and returns 0 when there are none.
 * ctl has one opener at a time.  Closing it before STP_MSG_DONE was
 * sent (stprun died) stops the session without end-of-run report,
 * unless stprun detached first (STP_MSG_DETACH, stprun -F): then the
 * session runs on with nobody attached, its output waiting in the
 * traceN files (what does not fit is counted, STP_EV_OUT_DROPPED) and
 * its messages in the control queue, until a stprun opens ctl again and
 * sends STP_MSG_ATTACH (stprun -A).  The detaching stprun has written
 * every record it read, in order, up to next_seq; the attaching one
 * goes on from there.
 */
#ifndef STP_TRANSPORT_MSG_H
#define STP_TRANSPORT_MSG_H

#include <linux/types.h>	/* __u32 and friends; a uapi header outside */

#define STP_DEBUGFS_PREFIX "stp_"

struct stp_rec_hdr {
	__u32 seq;
	__u32 len;
};

struct stp_msg_hdr {
	__u32 type;
	__u32 len;		/* payload bytes */
};

enum stp_msg_type {
	/* stprun -> module */
	STP_MSG_START = 1,	/* struct stp_msg_start: run begin probes,
				 * then arm the others */
	STP_MSG_STOP = 2,	/* no payload: disarm, run end (or error)
				 * probes, flush, then send STP_MSG_DONE */
	STP_MSG_DETACH = 3,	/* struct stp_msg_detach: stprun is about to
				 * close ctl; the session goes on */
	STP_MSG_ATTACH = 4,	/* no payload: take over a detached session;
				 * answered with STP_MSG_ATTACHED */

	/* module -> stprun */
	STP_MSG_STARTED = 16,	/* struct stp_msg_started */
	STP_MSG_EXIT = 17,	/* no payload: the script asked to stop
				 * (exit(), or too many errors); answer
				 * with STP_MSG_STOP */
	STP_MSG_ERROR = 18,	/* text, printed to stderr as is */
	STP_MSG_WARNING = 19,	/* text, printed to stderr as is */
	STP_MSG_DONE = 20,	/* struct stp_msg_done; the traceN files
				 * hold all remaining output */
	STP_MSG_ATTACHED = 21,	/* struct stp_msg_attached */
	STP_MSG_SYSTEM = 22,	/* text: a shell command for stprun to start
				 * in the background (system()) */
	STP_MSG_SWITCH_FILE = 23, /* no payload: what follows goes to the
				 * next output file (switch_file()) */
	STP_MSG_CX_EPOCH = 32,	/* no payload: a Chopstix epoch closed; read
				 * the vitals file (vitals_msg.h) */
};

struct stp_msg_start {
	__s32 target;		/* target() pid, 0 if none */
	__s32 reserved;
};

struct stp_msg_started {
	__s32 rc;		/* 0, or the begin probes failed */
	__s32 reserved;
};

struct stp_msg_detach {
	__u32 next_seq;		/* the first record not written yet */
	__u32 reserved;
};

struct stp_msg_attached {
	__s32 rc;		/* 0, or -ENOENT: the session was not detached */
	__u32 next_seq;		/* as the detaching stprun said */
	__s64 dropped;		/* output bytes that did not fit meanwhile */
};

/*
 * Final counts.  events[] follows enum stp_event (counters.h), as many
 * as nevents says, so stprun and modules of other versions still agree.
 */
struct stp_msg_done {
	__s64 errors;		/* script errors */
	__s64 skipped;		/* probe hits skipped, all reasons */
	__u32 nevents;
	__u32 reserved;
	__s64 events[];
};

#endif
