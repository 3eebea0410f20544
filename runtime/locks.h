/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Globals' locks.  A handler takes the locks of the globals it touches
 * (its lock set, found by the translator's access analysis) before it
 * runs and drops them after; every set is in the one order
 * translator/kmod/access.c gives them, the globals' declaration order, so
 * two handlers never wait on each other crosswise.  A lock is only ever
 * tried, MAXTRYLOCK times: a hit that cannot have its locks is skipped
 * and counted (STP_EV_SKIP_LOCK), never made to wait, in any context.
 */
#ifndef STP_LOCKS_H
#define STP_LOCKS_H

#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/processor.h>

/*
 * A global's lock: readers count up, a writer holds -1.  Only ever
 * tried (bounded, below), never waited on, so a plain atomic does.
 */
struct stp_lock {
	atomic_t v;
};
#define STP_LOCK_INIT { ATOMIC_INIT(0) }

/* A handler's need of a global's lock. */
struct stp_lockreq {
	struct stp_lock *lock;
	int write;
};

static __always_inline int stp_lock_try(struct stp_lock *l, int write)
{
	return write ? atomic_cmpxchg(&l->v, 0, -1) == 0 :
		       atomic_inc_unless_negative(&l->v);
}

static __always_inline void stp_unlock(struct stp_lock *l, int write)
{
	if (write)
		atomic_set_release(&l->v, 0);
	else
		atomic_dec(&l->v);
}

/* The retries, out of line: the common hit takes each lock at the first
 * try and keeps no retry state in registers. */
static noinline notrace int stp_locks_take_slow(const struct stp_lockreq *l, int n, int from)
{
	int tries;

	for (; from < n; from++) {
		for (tries = 0; !stp_lock_try(l[from].lock, l[from].write); tries++) {
			if (tries >= MAXTRYLOCK) {
				while (from-- > 0)
					stp_unlock(l[from].lock, l[from].write);
				return -1;
			}
			/* PAUSE first: a hypervisor (KVM's pause-loop
			 * exiting, QEMU's round-robin TCG) takes it as the
			 * cue to run the vCPU that holds the lock, which
			 * may have been descheduled inside its handler. */
			cpu_relax();
			ndelay(10);
		}
	}
	return 0;
}

/* Take them all, in table order, each within MAXTRYLOCK tries. */
static __always_inline int stp_locks_take(const struct stp_lockreq *l, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (unlikely(!stp_lock_try(l[i].lock, l[i].write)))
			return stp_locks_take_slow(l, n, i);
	return 0;
}

static __always_inline void stp_locks_drop(const struct stp_lockreq *l, int n)
{
	while (n-- > 0)
		stp_unlock(l[n].lock, l[n].write);
}

#endif
