// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The life and system calls of processes: process.begin, .end,
 * .thread.begin, .thread.end, .syscall and .syscall.return, of any
 * process, of one program's (process("PATH")), or of one process
 * (process(PID): the pid is looked for when the session starts, on the
 * machine the module runs on).  Each handler runs in the task the event
 * is about, in process context.
 *
 *   begin         the sched_process_exec tracepoint (found by name:
 *                 modules cannot name it), in the process that has just
 *                 started a program
 *   end           where the last thread of a process lets go of its
 *                 memory: a kprobe on exit_mm_release(), because the exit
 *                 tracepoint comes after the memory and with it the
 *                 executable are gone, and process("PATH").end needs to
 *                 know the executable
 *   thread.end    the same kprobe, in a thread that is not its process's
 *                 main thread
 *   thread.begin  a new thread's first return to user space, at the
 *                 raw_syscalls sys_exit tracepoint: the clone that made
 *                 it returns 0 there, in the thread
 *   syscall       the raw_syscalls sys_enter and sys_exit tracepoints;
 *                 each hit is filtered by the pid, then the program's
 *                 inode (compared, never dereferenced), then, only for
 *                 a probe that wants it, the -c / -x target's tree
 *
 * begin and thread.begin also run, once, for each process and thread
 * already running when the session starts, as SystemTap's do: in the
 * task's own context (so that pid() and execname() are its), through a
 * task_work queued with TWA_SIGNAL, which runs before the task next
 * returns to user space, waking it if it sleeps (an interrupted system
 * call restarts).  Stopped and traced tasks are left out: a stopped
 * task would hold its work until continued, and the module cannot go
 * while a work is queued.
 *
 * Included after uprobes.c, whose helpers it uses (stp_in_target,
 * stp_exe_inode, stp_path_inode, stp_iput).  Arming sleeps (it looks
 * paths up), so it happens when the session starts, from stprun's START.
 */
#include <linux/binfmts.h>
#include <linux/tracepoint.h>
#include <linux/sched/signal.h>
#include <linux/task_work.h>
#include <linux/pid.h>
#include <linux/delay.h>
#include <asm/syscall.h>
#include <asm/unistd.h>

static struct tracepoint *stp_exec_tp, *stp_enter_tp, *stp_exit_tp;
static struct kprobe stp_exit_kp;
static int stp_exec_armed, stp_exit_armed, stp_enter_armed, stp_sysexit_armed;
static unsigned int stp_pe_wanted;	/* 1 << event: some probe wants it */
static unsigned int stp_pe_paths;	/* 1 << event: some probe names a
					 * program */
static atomic_t stp_startworks = ATOMIC_INIT(0);	/* queued, not run */
static int stp_startworks_queued;

#define STP_PE(e)	(1u << (e))

/*
 * Tasks that may never return to user space nor run a task_work soon:
 * no begin is queued to them.  6.4 on marks vhost's workers too.
 */
#ifdef PF_USER_WORKER
#define STP_PF_NO_START	(PF_KTHREAD | PF_EXITING | PF_IO_WORKER | \
			 PF_USER_WORKER)
#else
#define STP_PF_NO_START	(PF_KTHREAD | PF_EXITING | PF_IO_WORKER)
#endif

/*
 * The program of current, when a probe of these events needs it.  A
 * tracepoint's callback runs with preemption off, an RCU read side
 * already: there it goes without rcu_read_lock(), a call under
 * PREEMPT_RCU, on the path of every system call.
 */
static __always_inline struct inode *stp_event_exe(unsigned int events)
{
	struct mm_struct *mm = current->mm;
	struct file *f;

	if (!(stp_pe_paths & events) || !mm)
		return NULL;
	if (preemptible())
		return stp_exe_inode(mm);
	f = rcu_dereference_sched(mm->exe_file);
	return f ? file_inode(f) : NULL;
}

static __always_inline bool stp_proc_match(const struct stp_procprobe *p,
					   int event, struct inode *exe)
{
	return p->event == event && (!p->pid || task_tgid_nr(current) == p->pid) &&
	       (!p->path || p->inode == exe);
}

/*
 * The probes of event that current (of program exe) is wanted by.
 * Inline, as the helpers above: on the path of every system call, each
 * call and return costs (a return through the return thunk, too).
 */
static __always_inline void stp_process_event(int event, struct inode *exe,
					      struct pt_regs *regs, u64 *args)
{
	int i, in = -1;

	for (i = 0; i < STP_NPROCPROBES; i++) {
		struct stp_procprobe *p = &stp_procprobes[i];

		if (!stp_proc_match(p, event, exe))
			continue;
		if (in < 0)	/* the walk up the tree, once */
			in = stp_in_target(current);
		if (!in)
			return;
		stp_procprobe_hit(i, regs, args);
	}
}

static notrace void stp_exec_hit(void *data, struct task_struct *p,
				 pid_t old_pid, struct linux_binprm *bprm)
{
	stp_process_event(STP_PE_BEGIN, file_inode(bprm->file), NULL, NULL);
}
NOKPROBE_SYMBOL(stp_exec_hit);

/* exit_mm_release(tsk, mm): a thread's last use of its memory. */
static notrace int stp_exit_hit(struct kprobe *kp, struct pt_regs *regs)
{
	struct task_struct *t = current;

	if (!t->mm || (t->flags & PF_KTHREAD))
		return 0;
	if (!thread_group_leader(t))
		stp_process_event(STP_PE_THREAD_END, stp_exe_inode(t->mm),
				  NULL, NULL);
	/* the last thread of a user process (do_exit() has counted it) */
	if (!atomic_read(&t->signal->live))
		stp_process_event(STP_PE_END, stp_exe_inode(t->mm), NULL, NULL);
	return 0;
}
NOKPROBE_SYMBOL(stp_exit_hit);

/* $syscall, $arg1..$arg6 (x86-64's order), $return */
static __always_inline void stp_syscall_args(u64 *a, struct pt_regs *regs,
					     long nr, long ret)
{
	a[STP_SC_NR] = nr;
	a[STP_SC_ARG1] = regs->di;
	a[STP_SC_ARG1 + 1] = regs->si;
	a[STP_SC_ARG1 + 2] = regs->dx;
	a[STP_SC_ARG1 + 3] = regs->r10;
	a[STP_SC_ARG1 + 4] = regs->r8;
	a[STP_SC_ARG1 + 5] = regs->r9;
	a[STP_SC_RETURN] = ret;
}

static notrace void stp_sys_enter_hit(void *data, struct pt_regs *regs,
				      long id)
{
	u64 a[STP_SC_SLOTS];

	stp_syscall_args(a, regs, id, 0);
	stp_process_event(STP_PE_SYSCALL, stp_event_exe(STP_PE(STP_PE_SYSCALL)),
			  regs, a);
}
NOKPROBE_SYMBOL(stp_sys_enter_hit);

static __always_inline bool stp_is_clone(long nr)
{
	return nr == __NR_clone || nr == __NR_clone3 || nr == __NR_fork ||
	       nr == __NR_vfork;
}

static notrace void stp_sys_exit_hit(void *data, struct pt_regs *regs,
				     long ret)
{
	long nr = syscall_get_nr(current, regs);
	struct inode *exe = stp_event_exe(STP_PE(STP_PE_THREAD_BEGIN) |
					  STP_PE(STP_PE_SYSCALL_RETURN));
	u64 a[STP_SC_SLOTS];

	/* a clone returns 0 in the task it made, the first time it runs */
	if ((stp_pe_wanted & STP_PE(STP_PE_THREAD_BEGIN)) && !ret &&
	    stp_is_clone(nr) && !thread_group_leader(current))
		stp_process_event(STP_PE_THREAD_BEGIN, exe, NULL, NULL);
	if (!(stp_pe_wanted & STP_PE(STP_PE_SYSCALL_RETURN)))
		return;
	stp_syscall_args(a, regs, nr, ret);
	stp_process_event(STP_PE_SYSCALL_RETURN, exe, regs, a);
}
NOKPROBE_SYMBOL(stp_sys_exit_hit);

/* ---- begin and thread.begin of the tasks already running ---- */

struct stp_startwork {
	struct callback_head cb;
	int event;
};

static notrace void stp_startwork_run(struct callback_head *cb)
{
	struct stp_startwork *w = container_of(cb, struct stp_startwork, cb);

	/* run at exit too (exit_task_work), when the memory has gone */
	if (current->mm && !(current->flags & PF_EXITING) &&
	    atomic_read(&stp_state) == STP_RUNNING)
		stp_process_event(w->event, stp_exe_inode(current->mm), NULL,
				  NULL);
	kfree(w);
	atomic_dec(&stp_startworks);
}

/* Would a probe of event want task t (whose task_lock is held)? */
static bool stp_start_wanted(struct task_struct *t, int event)
{
	struct inode *exe = stp_exe_inode(t->mm);
	int i;

	for (i = 0; i < STP_NPROCPROBES; i++) {
		struct stp_procprobe *p = &stp_procprobes[i];

		if (p->event == event && (!p->pid || task_tgid_nr(t) == p->pid) &&
		    (!p->path || p->inode == exe))
			return true;
	}
	return false;
}

static void stp_start_queue(struct task_struct *t)
{
	int event = thread_group_leader(t) ? STP_PE_BEGIN : STP_PE_THREAD_BEGIN;
	struct stp_startwork *w;
	bool want;

	if (!(stp_pe_wanted & STP_PE(event)) || (t->flags & STP_PF_NO_START) ||
	    task_is_stopped_or_traced(t) || !stp_in_target(t))
		return;
	task_lock(t);	/* t->mm stays while it is held */
	want = t->mm && stp_start_wanted(t, event);
	task_unlock(t);
	if (!want)
		return;
	w = kmalloc(sizeof(*w), GFP_ATOMIC);
	if (!w)
		return;
	init_task_work(&w->cb, stp_startwork_run);
	w->event = event;
	atomic_inc(&stp_startworks);
	if (task_work_add(t, &w->cb, TWA_SIGNAL)) {	/* exiting */
		atomic_dec(&stp_startworks);
		kfree(w);
		return;
	}
	stp_startworks_queued = 1;
}

static void stp_start_running(void)
{
	struct task_struct *p, *t;

	if (!(stp_pe_wanted & (STP_PE(STP_PE_BEGIN) | STP_PE(STP_PE_THREAD_BEGIN))))
		return;
	rcu_read_lock();
	for_each_process_thread(p, t)
		stp_start_queue(t);
	rcu_read_unlock();
}

/*
 * Every queued work has run (a task runs its works at the latest when it
 * exits), and no task is still in stp_startwork_run()'s last
 * instructions: then the module's code can go.
 */
static void stp_start_wait(void)
{
	int waited = 0;

	while (atomic_read(&stp_startworks)) {
		msleep(10);
		if (++waited == 500)
			pr_warn("%s: waiting for %d task(s) to run process.begin\n",
				KBUILD_MODNAME, atomic_read(&stp_startworks));
	}
	if (stp_startworks_queued)
		synchronize_rcu_tasks();
	stp_startworks_queued = 0;
}

/* ---- arming ---- */

static void stp_find_tp(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_process_exec"))
		stp_exec_tp = tp;
	else if (!strcmp(tp->name, "sys_enter"))
		stp_enter_tp = tp;
	else if (!strcmp(tp->name, "sys_exit"))
		stp_exit_tp = tp;
}

static void stp_procprobes_disarm(void)
{
	int i, tps = 0;

	if (stp_exec_armed)
		tps += !tracepoint_probe_unregister(stp_exec_tp, (void *)stp_exec_hit, NULL);
	if (stp_enter_armed)
		tps += !tracepoint_probe_unregister(stp_enter_tp,
						    (void *)stp_sys_enter_hit, NULL);
	if (stp_sysexit_armed)
		tps += !tracepoint_probe_unregister(stp_exit_tp,
						    (void *)stp_sys_exit_hit, NULL);
	if (tps)
		tracepoint_synchronize_unregister();
	stp_exec_armed = stp_enter_armed = stp_sysexit_armed = 0;
	if (stp_exit_armed) {
		unregister_kprobe(&stp_exit_kp);
		stp_exit_armed = 0;
	}
	stp_start_wait();
	for (i = 0; i < STP_NPROCPROBES; i++)
		stp_iput(&stp_procprobes[i].inode);
}

/* Attach cb to tracepoint tp (what names it in a message), into *armed. */
static int stp_proc_tp(struct tracepoint *tp, const char *what, void *cb,
		       int *armed)
{
	int rc = tp ? tracepoint_probe_register(tp, cb, NULL) : -ENOENT;

	*armed = !rc;
	if (rc)
		stp_ctl_printf(STP_MSG_ERROR,
			       "ERROR: process probes: cannot attach to tracepoint %s (error %d)\n",
			       what, rc);
	return rc;
}

static int stp_proc_exit_kprobe(void)
{
	int rc;

	memset(&stp_exit_kp, 0, sizeof(stp_exit_kp));
	stp_exit_kp.symbol_name = "exit_mm_release";
	stp_exit_kp.pre_handler = stp_exit_hit;
	rc = register_kprobe(&stp_exit_kp);
	stp_exit_armed = !rc;
	if (rc)
		stp_ctl_printf(STP_MSG_ERROR,
			       "ERROR: process.end: cannot hook exit_mm_release (error %d)\n",
			       rc);
	return rc;
}

/* The hooks the wanted events need. */
static int stp_procprobes_hook(void)
{
	unsigned int w = stp_pe_wanted;
	int rc = 0;

	for_each_kernel_tracepoint(stp_find_tp, NULL);
	if (w & STP_PE(STP_PE_BEGIN))
		rc = stp_proc_tp(stp_exec_tp, "sched_process_exec",
				 (void *)stp_exec_hit, &stp_exec_armed);
	if (!rc && (w & STP_PE(STP_PE_SYSCALL)))
		rc = stp_proc_tp(stp_enter_tp, "sys_enter",
				 (void *)stp_sys_enter_hit, &stp_enter_armed);
	if (!rc && (w & (STP_PE(STP_PE_SYSCALL_RETURN) | STP_PE(STP_PE_THREAD_BEGIN))))
		rc = stp_proc_tp(stp_exit_tp, "sys_exit",
				 (void *)stp_sys_exit_hit, &stp_sysexit_armed);
	if (!rc && (w & (STP_PE(STP_PE_END) | STP_PE(STP_PE_THREAD_END))))
		rc = stp_proc_exit_kprobe();
	return rc;
}

/* process(PID): the process must be there when the session starts. */
static int stp_procprobe_pid(struct stp_procprobe *p)
{
	struct pid *pid = find_get_pid(p->pid);
	struct task_struct *t = pid ? get_pid_task(pid, PIDTYPE_TGID) : NULL;

	put_pid(pid);
	if (t) {
		put_task_struct(t);
		return 0;
	}
	if (!p->required)
		return 1;
	stp_ctl_printf(STP_MSG_ERROR, "ERROR: cannot probe %s: no process %d\n",
		       p->probe->pp, p->pid);
	return -ESRCH;
}

/* 0, 1 when an optional probe is left out, or -errno. */
static int stp_procprobe_find(struct stp_procprobe *p)
{
	struct inode *inode;

	if (p->pid)
		return stp_procprobe_pid(p);
	if (!p->path)
		return 0;
	inode = stp_path_inode(p->path, false);
	if (!IS_ERR(inode)) {
		p->inode = inode;
		return 0;
	}
	if (!p->required)
		return 1;
	stp_ctl_printf(STP_MSG_ERROR,
		       "ERROR: cannot probe %s: no file %s (error %ld)\n",
		       p->probe->pp, p->path, PTR_ERR(inode));
	return PTR_ERR(inode);
}

static int stp_procprobes_arm(void)
{
	int i, rc;

	stp_pe_wanted = stp_pe_paths = 0;
	for (i = 0; i < STP_NPROCPROBES; i++) {
		struct stp_procprobe *p = &stp_procprobes[i];

		rc = stp_procprobe_find(p);
		if (rc < 0) {
			stp_procprobes_disarm();
			return rc;
		}
		if (rc) {	/* left out: it never matches */
			p->event = -1;
			continue;
		}
		stp_pe_wanted |= STP_PE(p->event);
		if (p->path)
			stp_pe_paths |= STP_PE(p->event);
	}
	rc = stp_pe_wanted ? stp_procprobes_hook() : 0;
	if (rc) {
		stp_procprobes_disarm();
		return rc;
	}
	stp_start_running();
	return 0;
}
