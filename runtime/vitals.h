/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Chopstix sampler in a module (vitals.c): the sketch of cx_core.h
 * and sketch.c, fed by tapsets/chopstix.stp, closed every epoch by a
 * work item and read by stprun through stp_MODNAME/vitals
 * (vitals_msg.h).  Compiled only into modules whose script uses
 * chopstix.stp, which defines STP_SKETCH and includes this before the
 * generated code, so that stp_cx_count is inlined into a probe's
 * callback (it is what runs on every event).
 */
#ifndef STP_VITALS_H
#define STP_VITALS_H

#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/cred.h>
#include <linux/mm_types.h>

/* the events' counts per CPU: one add each, no shared cache line */
struct cx_cpu;
DECLARE_PER_CPU(struct cx_cpu, stp_cx_cpu);
#define cx_cpu_add(cpu, f, p, vi, v) this_cpu_add(stp_cx_cpu.f[p][vi], (v))
/* each vital's open HCA, one load (vitals.c's stp_cx_swap moves them) */
extern u64 *stp_cx_open_hca[];
#define CX_OPEN_HCA(s, vi) READ_ONCE(stp_cx_open_hca[vi])

#include "sketch.h"

struct stp_ctx;

extern struct cx_sketch stp_cx_sk;

/*
 * Who this CPU's last two tasks are, for the label (cx_who of its
 * executable and user), each kept for the task it was computed for, the
 * latest first: the common event reads it with two loads and a compare.
 * Two, since two tasks taking turns on a CPU (a pipe's ends, a client and
 * its server) would otherwise compute it anew on every event.
 */
struct stp_cx_wc {
	struct task_struct *task[2];	/* NULL: none yet (stprun's never) */
	u64 who[2];
};
DECLARE_PER_CPU(struct stp_cx_wc, stp_cx_wc);

extern pid_t stp_stprun_pid;

/* The label's program id of task t: its executable's open file (stable
 * while it runs), 0 for a kernel thread. */
static __always_inline u64 stp_cx_exe_id(struct task_struct *t)
{
	struct mm_struct *mm = READ_ONCE(t->mm);

	return mm && !(t->flags & PF_KTHREAD) ? (u64)(unsigned long)READ_ONCE(mm->exe_file) : 0;
}

/* The label's program: its executable's inode number, as under BPF.
 * Not the open file's address: each exec opens the file anew, and every
 * run of one program would be a program of its own, all of its labels
 * first occurrences (fork and exec ran 5-14x the floor). */
static __always_inline u64 stp_cx_exe_key(struct task_struct *t)
{
	const struct file *f = (const struct file *)(unsigned long)stp_cx_exe_id(t);
	const struct inode *ino = f ? READ_ONCE(f->f_inode) : NULL;

	return ino ? ino->i_ino : 0;
}

/* The uid as the initial namespace sees it: the kuid's own value. */
static __always_inline u32 stp_cx_uid(struct task_struct *t)
{
	const struct cred *cr = READ_ONCE(t->real_cred);

	return cr ? __kuid_val(cr->uid) : 0;
}

/* Entry i of this CPU's: task t's who w, written as a pair (task last,
 * after NULL: a reader never pairs one task with another's who). */
static __always_inline void stp_cx_wc_set(int i, struct task_struct *t, u64 w)
{
	this_cpu_write(stp_cx_wc.task[i], NULL);
	barrier();
	this_cpu_write(stp_cx_wc.who[i], w);
	barrier();
	this_cpu_write(stp_cx_wc.task[i], t);
}

/*
 * Fill this CPU's first entry for current, into *who, the entry it held
 * moving to second; 0 when current's events are not counted (stprun
 * storing the epochs is not the machine's work), which no entry then
 * holds.  An NMI that fills meanwhile fills for the same current; the
 * first entry's task read again after its who tells whether one did (it
 * is current's then: the move is left out).
 */
static __always_inline int stp_cx_who_fill(u64 *who)
{
	struct task_struct *t = current, *t0;
	u64 w0;

	if (t->tgid == READ_ONCE(stp_stprun_pid))
		return 0;
	*who = cx_who(stp_cx_exe_key(t), stp_cx_uid(t));
	t0 = this_cpu_read(stp_cx_wc.task[0]);
	barrier();
	w0 = this_cpu_read(stp_cx_wc.who[0]);
	barrier();
	if (t0 && this_cpu_read(stp_cx_wc.task[0]) == t0)
		stp_cx_wc_set(1, t0, w0);
	stp_cx_wc_set(0, t, *who);
	return 1;
}

/* Who current is, into *who, from this CPU's entries or filled; 0 when
 * its events are not counted. */
static __always_inline int stp_cx_who_current(u64 *who)
{
	struct task_struct *t = current;

	if (likely(this_cpu_read(stp_cx_wc.task[0]) == t)) {
		*who = this_cpu_read(stp_cx_wc.who[0]);
		return 1;
	}
	if (this_cpu_read(stp_cx_wc.task[1]) == t) {
		*who = this_cpu_read(stp_cx_wc.who[1]);
		return 1;
	}
	return stp_cx_who_fill(who);
}

/*
 * chopstix_count: count an event of standard or named vital vi; the
 * handle of a sample slot to fill (stp_cx_sample) when it was selected,
 * else 0.  No context, no lock: safe before a probe takes its context,
 * in NMI too.
 */
static __always_inline s64 stp_cx_count(long vi, u64 label, s64 weight)
{
	if (unlikely((unsigned long)vi >= CX_VITALS_MAX))
		return 0;
	u64 who;

	/* (a call here would keep label in a saved register: a frame on
	 * every event; the refresh is a few loads, inline) */
	if (!stp_cx_who_current(&who))
		return 0;
	return cx_count(&stp_cx_sk, NULL, (int)vi, cx_hash((int)vi, label, who), weight);
}

/*
 * Fill sample h of task t (current when NULL): its stacks, site and
 * data (names: what the numbers in d[CX_NDATA] are, recorded once per
 * vital).  1 when it was filled.
 */
long stp_cx_sample(struct stp_ctx *c, s64 h, struct task_struct *t, unsigned long site,
		   const char *names, const s64 *d);

/* chopstix_event: count and, when selected, sample, by the vital's name. */
long stp_cx_event(struct stp_ctx *c, const char *vital, u64 label, s64 weight,
		  struct task_struct *t, unsigned long site, const char *names,
		  const s64 *d);

/* The vital's slot (named now if new); it has a row every epoch. */
long stp_cx_declare(const char *vital);

/* The vital cannot be measured on this machine, and why. */
void stp_cx_unavailable(const char *vital, const char *why);

/* Start closing epochs every epoch_ms; watermarks in cycles (0: off). */
void stp_cx_start(u64 epoch_ms, u64 hi_cycles, u64 lo_cycles);

#endif
