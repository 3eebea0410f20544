// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perf.*.process("PATH"): an event per task that runs the program,
 * attached as it starts it.  sched_process_exec (found by name, as
 * uprobes.c's process.begin does; a callback of our own, so the two
 * stay apart) comes with preemption off, where an event cannot be
 * made (perf_event_create_kernel_counter sleeps): the callback queues a
 * task work on the task, from a preallocated pool (STP_PERF_TASKS
 * slots), which runs as the task returns to user space, in its own
 * context, and makes the event there (inherited by the threads and
 * processes it forks, for a sampling event).
 *
 * A slot goes free again when the next exec's work finds its task has
 * exited, and at disarm.  A task work cannot be cancelled from a module
 * (task_work_cancel is not exported), so disarm waits until every
 * queued one has run (they run at the task's next return to user space
 * or exit, at once after an exec) before the module can go.  Tasks
 * already running the program when the session starts get no event.
 */
#include <linux/task_work.h>
#include <linux/delay.h>

#ifndef STP_PERF_TASKS
#define STP_PERF_TASKS 64
#endif

enum { STP_SLOT_FREE, STP_SLOT_QUEUED, STP_SLOT_LIVE, STP_SLOT_BUSY };

struct stp_perf_slot {
	atomic_t state;			/* STP_SLOT_* */
	struct callback_head work;
	struct stp_perf *p;
	struct task_struct *task;	/* held while LIVE */
	struct perf_event *ev;
};

static struct stp_perf_slot stp_perf_slots[STP_PERF_TASKS];
static struct tracepoint *stp_perf_exec_tp;
static int stp_perf_exec_armed, stp_perf_closing;

/* Free the slots whose task has exited (process context). */
static void stp_perf_reap(bool all)
{
	int i;

	for (i = 0; i < STP_PERF_TASKS; i++) {
		struct stp_perf_slot *s = &stp_perf_slots[i];

		if (atomic_read(&s->state) != STP_SLOT_LIVE ||
		    (!all && !(READ_ONCE(s->task->flags) & PF_EXITING)) ||
		    atomic_cmpxchg(&s->state, STP_SLOT_LIVE, STP_SLOT_BUSY) != STP_SLOT_LIVE)
			continue;
		perf_event_release_kernel(s->ev);
		put_task_struct(s->task);
		s->ev = NULL;
		s->task = NULL;
		atomic_set(&s->state, STP_SLOT_FREE);
	}
}

/* The task work: in the task that has just started the program. */
static void stp_perf_task_work(struct callback_head *w)
{
	struct stp_perf_slot *s = container_of(w, struct stp_perf_slot, work);
	struct perf_event_attr a;
	int rc;

	if (READ_ONCE(stp_perf_closing)) {
		atomic_set(&s->state, STP_SLOT_FREE);
		return;
	}
	stp_perf_reap(false);
	stp_perf_attr(s->p, &a);
	a.inherit = s->p->cb != NULL;
	rc = stp_perf_one(s->p, &a, -1, current, &s->ev);
	if (rc) {
		stp_perf_report(s->p, rc);
		atomic_set(&s->state, STP_SLOT_FREE);
		return;
	}
	s->task = get_task_struct(current);
	atomic_set(&s->state, STP_SLOT_LIVE);
}

static void stp_perf_queue(struct stp_perf *p)
{
	int i;

	for (i = 0; i < STP_PERF_TASKS; i++) {
		struct stp_perf_slot *s = &stp_perf_slots[i];

		if (atomic_cmpxchg(&s->state, STP_SLOT_FREE, STP_SLOT_QUEUED) != STP_SLOT_FREE)
			continue;
		s->p = p;
		init_task_work(&s->work, stp_perf_task_work);
		if (task_work_add(current, &s->work, TWA_RESUME))
			atomic_set(&s->state, STP_SLOT_FREE);	/* exiting */
		return;
	}
	stp_count(STP_EV_PERF_TASKS_FULL);
}

static void stp_perf_exec_hit(void *data, struct task_struct *t, pid_t old_pid,
			      struct linux_binprm *bprm)
{
	struct inode *exe = file_inode(bprm->file);
	int i;

	if (READ_ONCE(stp_perf_closing))
		return;
	for (i = 0; i < STP_NPERFS; i++)
		if (stp_perfs[i].task == STP_PERF_PATH && stp_perfs[i].inode == exe)
			stp_perf_queue(&stp_perfs[i]);
	for (i = 0; i < STP_NPERF_COUNTERS; i++)
		if (stp_perf_counters[i].task == STP_PERF_PATH &&
		    stp_perf_counters[i].inode == exe)
			stp_perf_queue(&stp_perf_counters[i]);
}

static void stp_perf_find_exec_tp(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_process_exec"))
		stp_perf_exec_tp = tp;
}

/* p's program, held; the exec hook, once. */
static int stp_perf_path_arm(struct stp_perf *p)
{
	struct inode *inode = stp_path_inode(p->path, false);
	int rc;

	if (!inode)
		return -ENOEXEC;	/* not a regular file */
	if (IS_ERR(inode))
		return PTR_ERR(inode);
	p->inode = inode;
	if (stp_perf_exec_armed)
		return 0;
	WRITE_ONCE(stp_perf_closing, 0);
	for_each_kernel_tracepoint(stp_perf_find_exec_tp, NULL);
	if (!stp_perf_exec_tp)
		return -ENOENT;
	rc = tracepoint_probe_register(stp_perf_exec_tp, (void *)stp_perf_exec_hit, NULL);
	stp_perf_exec_armed = !rc;
	return rc;
}

/* Unhook, wait for the queued works, release every task's event. */
static void stp_perf_path_disarm(void)
{
	int i, waited;

	if (!stp_perf_exec_armed)
		return;
	WRITE_ONCE(stp_perf_closing, 1);
	tracepoint_probe_unregister(stp_perf_exec_tp, (void *)stp_perf_exec_hit, NULL);
	tracepoint_synchronize_unregister();
	stp_perf_exec_armed = 0;
	for (i = 0; i < STP_PERF_TASKS; i++)
		for (waited = 0; atomic_read(&stp_perf_slots[i].state) == STP_SLOT_QUEUED &&
		     waited < 10000; waited += 10)
			msleep(10);
	stp_perf_reap(true);
}

/* @perf in a task of PATH: the event the exec made for it, or NULL. */
static struct perf_event *stp_perf_task_event(const struct stp_perf *p)
{
	int i;

	for (i = 0; i < STP_PERF_TASKS; i++) {
		struct stp_perf_slot *s = &stp_perf_slots[i];

		if (atomic_read(&s->state) == STP_SLOT_LIVE && s->p == p &&
		    s->task == current)
			return s->ev;
	}
	return NULL;
}
