// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perf.* probes: a kernel counter (perf_event_create_kernel_counter)
 * per online CPU, or one that follows the -c/-x target and the tasks it
 * forks (.process), whose overflow handler is the probe's (perf_kmod.c).
 * CPUs brought online after the session started get no counter.
 *
 * An event the kernel refuses (QEMU's TCG has no PMU: every hardware
 * event is -ENOENT) fails the session with the reason when the script
 * named it; an optional point ("?") or one a wildcard matched is
 * skipped, with a warning.
 *
 * Hardware events overflow in NMI.  What a hit does there, and why
 * none of it can wait forever on this CPU:
 *
 *  - stp_probe_hit (probe.h) enters this CPU's context only when it is
 *    free: an NMI that comes in while a handler, the transport's flush
 *    or anything else of ours runs on this CPU is skipped and counted
 *    (SKIP_REENTER).  So whatever an NMI hit touches per CPU (context,
 *    print buffer, relay sub-buffer, statistics' CPU part, stack
 *    scratch) is not half-updated under it.
 *  - Globals' locks (locks.h) are only tried, at most MAXTRYLOCK times
 *    with 10 ns between (bounded; the holder is another CPU, which is
 *    not waiting on us), then the hit is skipped (SKIP_LOCK).  Maps
 *    (map.c) and statistics (stat.c) take no lock of their own and
 *    allocate nothing: a full map is counted (MAP_FULL).
 *  - Output: the print buffer is the CPU's own; its flush reserves in
 *    the CPU's relay buffer (relay_reserve: no lock; a sub-buffer
 *    switch defers the reader's wakeup to irq_work, which is NMI-safe)
 *    and never overwrites unread data: full buffers drop the record and
 *    count its bytes (OUT_DROPPED).
 *  - Errors and warnings (transport.c's control ring) try its raw
 *    spinlock a bounded number of times with interrupts off, then drop
 *    the message and count it (MSG_DROPPED); the text is formatted in a
 *    per-CPU buffer an NMI cannot share.  exit() sets a flag only.
 *  - Counters are atomics; the throttle (throttle.h) is per CPU, in the
 *    context, and reads only the TSC.
 *  - Tapset time functions read NMI-safe clocks (ktime_get_real_fast_ns,
 *    local_clock); user memory is read with the _nofault copies.
 */
#include <linux/perf_event.h>
#include <linux/cpu.h>
#include <linux/pid.h>
#include <linux/sched/task.h>

/* perf_task.c: .process("PATH") */
static int stp_perf_path_arm(struct stp_perf *p);
static void stp_perf_path_disarm(void);
static struct perf_event *stp_perf_task_event(const struct stp_perf *p);

static const char *stp_perf_errname(int rc)
{
	switch (rc) {
	case -ENOENT: return "-ENOENT";
	case -EOPNOTSUPP: return "-EOPNOTSUPP";
	case -EINVAL: return "-EINVAL";
	case -EACCES: return "-EACCES";
	case -ENODEV: return "-ENODEV";
	case -EBUSY: return "-EBUSY";
	case -ESRCH: return "-ESRCH";
	case -ENOMEM: return "-ENOMEM";
	default: return NULL;
	}
}

/* Why the kernel refused the event, in words. */
static const char *stp_perf_why(const struct stp_perf *p, int rc)
{
	if (rc == -ENOENT && (p->type == PERF_TYPE_HARDWARE ||
			      p->type == PERF_TYPE_HW_CACHE))
		return "this CPU has no hardware counter for it";
	if (rc == -ENOENT)
		return "the kernel has no such event";
	if (rc == -EOPNOTSUPP)
		return "the counter cannot sample it";
	if (rc == -ESRCH && !stp_target_pid)
		return "no target process: .process needs stprun's -c CMD or -x PID";
	if (rc == -ESRCH)
		return "the target process is gone";
	if (rc == -EBUSY)
		return "the counter is in use";
	return "the kernel refused it";
}

static void stp_perf_report(const struct stp_perf *p, int rc)
{
	const char *name = stp_perf_errname(rc);
	char num[16];

	if (!name) {
		snprintf(num, sizeof(num), "%d", rc);
		name = num;
	}
	if (p->required)
		stp_ctl_printf(STP_MSG_ERROR,
			       "ERROR: %s: %s (perf_event_create_kernel_counter: %s)\n",
			       p->probe->pp, stp_perf_why(p, rc), name);
	else
		stp_ctl_printf(STP_MSG_WARNING,
			       "WARNING: skipped %s: %s (perf_event_create_kernel_counter: %s)\n",
			       p->probe->pp, stp_perf_why(p, rc), name);
}

static void stp_perf_attr(const struct stp_perf *p, struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->type = p->type;
	a->size = sizeof(*a);
	a->config = p->config;
	a->sample_period = p->period;	/* sample_freq with freq */
	a->freq = p->freq;
	a->pinned = 1;
}

static int stp_perf_one(struct stp_perf *p, struct perf_event_attr *a,
			int cpu, struct task_struct *task, struct perf_event **out)
{
	struct perf_event *ev;

	ev = perf_event_create_kernel_counter(a, cpu, task, p->cb, p);
	if (IS_ERR(ev))
		return PTR_ERR(ev);
	*out = ev;
	return 0;
}

/* The -c/-x target's counter: it and the tasks it forks from now. */
static int stp_perf_task(struct stp_perf *p, struct perf_event_attr *a)
{
	struct pid *pid = find_get_pid(stp_target_pid);
	struct task_struct *t = pid ? get_pid_task(pid, PIDTYPE_PID) : NULL;
	int rc = -ESRCH;

	put_pid(pid);
	if (!stp_target_pid || !t)
		goto out;
	/* a sampling event follows the tasks the target forks; a counter
	 * is the target's own, what @perf reads in it */
	a->inherit = p->cb != NULL;
	rc = stp_perf_one(p, a, -1, t, &p->events[0]);
	put_task_struct(t);
out:
	return rc;
}

static int stp_perf_cpus(struct stp_perf *p, struct perf_event_attr *a)
{
	int cpu, rc = 0;

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		rc = stp_perf_one(p, a, cpu, NULL, &p->events[cpu]);
		if (rc)
			break;
	}
	cpus_read_unlock();
	return rc;
}

static void stp_perf_release(struct stp_perf *p)
{
	int i;

	stp_iput(&p->inode);
	if (!p->events)
		return;
	for (i = 0; i < nr_cpu_ids; i++)
		if (p->events[i])
			perf_event_release_kernel(p->events[i]);
	kfree(p->events);
	p->events = NULL;
}

static int stp_perf_arm_one(struct stp_perf *p)
{
	struct perf_event_attr a;
	int rc;

	if (p->task == STP_PERF_PATH) {
		rc = stp_perf_path_arm(p);
		if (rc)
			stp_ctl_printf(STP_MSG_ERROR, "ERROR: %s: cannot follow %s (error %d)\n",
				       p->probe->pp, p->path, rc);
		return rc;
	}
	p->events = kcalloc(nr_cpu_ids, sizeof(*p->events), GFP_KERNEL);
	if (!p->events)
		return -ENOMEM;
	stp_perf_attr(p, &a);
	rc = p->task == STP_PERF_TARGET ? stp_perf_task(p, &a) : stp_perf_cpus(p, &a);
	if (rc) {
		stp_perf_release(p);
		stp_perf_report(p, rc);
	}
	return rc;
}

static void stp_perf_disarm(void);

static int stp_perf_arm_table(struct stp_perf *table, int n)
{
	int i, rc;

	for (i = 0; i < n; i++) {
		rc = stp_perf_arm_one(&table[i]);
		if (rc && table[i].required)
			return rc;
	}
	return 0;
}

static int stp_perf_arm(void)
{
	int rc = stp_perf_arm_table(stp_perf_counters, STP_NPERF_COUNTERS);

	if (!rc)
		rc = stp_perf_arm_table(stp_perfs, STP_NPERFS);
	if (rc)
		stp_perf_disarm();
	return rc;
}

static void stp_perf_disarm(void)
{
	int i;

	stp_perf_path_disarm();
	for (i = 0; i < STP_NPERFS; i++)
		stp_perf_release(&stp_perfs[i]);
	for (i = 0; i < STP_NPERF_COUNTERS; i++)
		stp_perf_release(&stp_perf_counters[i]);
	/*
	 * A software event's overflow runs under rcu_read_lock, perhaps
	 * with interrupts on until stp_probe_hit turns them off: one that
	 * began before its event went must be over before the module can.
	 */
	if (STP_NPERFS)
		synchronize_rcu();
}

/*
 * @perf("NAME"): counter k's value, read in its task (what
 * perf_event_read_local does, which modules cannot call): an active
 * event is brought up to date by its PMU's read, which runs with
 * interrupts off, as here.  0 in any other task.
 */
notrace int64_t stp_perf_read(int k)
{
	const struct stp_perf *p = &stp_perf_counters[k];
	struct perf_event *ev = p->task == STP_PERF_PATH ? stp_perf_task_event(p) :
				p->events ? p->events[0] : NULL;

	if (!ev || ev->hw.target != current)
		return 0;
	if (READ_ONCE(ev->oncpu) == smp_processor_id())
		ev->pmu->read(ev);
	return (int64_t)local64_read(&ev->count);
}
NOKPROBE_SYMBOL(stp_perf_read);
