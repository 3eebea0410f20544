/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel side of the transport (transport_msg.h has the protocol): the
 * per-CPU relay buffers that carry output, and the control channel.
 *
 * The session code (session.c) provides the three stp_on_* hooks; they
 * are called in process context from the control file's write and
 * release, and may sleep.
 */
#ifndef STP_TRANSPORT_H
#define STP_TRANSPORT_H

#include "out.h"
#include "transport_msg.h"

/* Module parameter: total relay buffer bytes per CPU (stprun -b). */
extern unsigned long stp_bufsize;

int stp_transport_init(const char *modname);
void stp_transport_exit(void);

/*
 * This CPU's print buffer.  Callers run with interrupts off (probe
 * handlers do) from getting it until they flushed it: the transport
 * flushes it too, from an interrupt on that CPU.  stp_out_flush() on it
 * writes one record to the CPU's relay buffer (or counts the bytes as
 * STP_EV_OUT_DROPPED).
 */
struct stp_out *stp_transport_out(void);
/* CPU cpu's (the session gives each CPU's context its buffer once). */
struct stp_out *stp_transport_out_cpu(int cpu);
/*
 * Flush every CPU's print buffer and close its partly filled relay
 * sub-buffer, so the reader gets everything written so far (process
 * context, interrupts on; safe while probes run: it does each CPU's
 * part on that CPU with interrupts off).  Also done every 100 ms.
 */
void stp_transport_flush_all(void);

/*
 * Queue a control message for stprun.  Safe in any context, never
 * sleeps or wakes anyone (the reader polls): a full queue, or with
 * interrupts off a lock held too long (an NMI on its holder's CPU),
 * drops the message and counts STP_EV_MSG_DROPPED.
 */
int stp_ctl_send(u32 type, const void *payload, u32 len);
/* Text messages (STP_MSG_ERROR / STP_MSG_WARNING), printf-style. */
int stp_ctl_printf(u32 type, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* STP_MSG_EXIT, lock-free: stprun gets it after what was queued before. */
void stp_ctl_post_exit(void);

/* Provided by session.c. */
void stp_on_start(const struct stp_msg_start *m);
void stp_on_stop(void);
void stp_on_release(void);	/* ctl closed while still running */
/*
 * The flush of this CPU's buffers enters its context as a probe hit
 * does (interrupts off); false: the runtime is busy on this CPU (the
 * flush interrupted it), try later.
 */
bool stp_on_flush_enter(void);
void stp_on_flush_exit(void);

/* The stprun reading ctl (its process id; 0 while detached): stp_pid(),
 * and the collector the sampler leaves out of what it watches. */
extern int stp_stprun_pid;

#endif
