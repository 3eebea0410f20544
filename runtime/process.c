// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The life of processes: process.begin and process.end, of any program
 * or of one (process("PATH")).
 *
 * process.begin runs at the sched_process_exec tracepoint (found by
 * name: modules cannot name it), in the process that has just started
 * a program.  process.end runs where the last thread of a process lets
 * go of its memory: a kprobe on exit_mm_release(), because the exit
 * tracepoint comes after the memory and with it the executable are
 * gone, and process("PATH").end needs to know the executable.
 * Processes already running when the session starts get no begin.
 *
 * Included after uprobes.c, whose helpers it uses (stp_in_target,
 * stp_exe_inode, stp_path_inode, stp_iput).  Arming sleeps (it looks
 * paths up), so it happens when the session starts, from stprun's START.
 */
#include <linux/binfmts.h>
#include <linux/tracepoint.h>
#include <linux/sched/signal.h>

static struct tracepoint *stp_exec_tp;
static struct kprobe stp_exit_kp;
static int stp_exec_armed, stp_exit_armed;

/* The .begin (or .end) probes of any program, or of exe's. */
static void stp_process_event(int end, struct inode *exe)
{
	int i;

	if (!stp_in_target(current))
		return;
	for (i = 0; i < STP_NPROCPROBES; i++) {
		struct stp_procprobe *p = &stp_procprobes[i];

		if (p->end == end && (!p->path || p->inode == exe))
			stp_run_probe(p->probe, NULL, NULL);
	}
}

static void stp_exec_hit(void *data, struct task_struct *p, pid_t old_pid,
			 struct linux_binprm *bprm)
{
	stp_process_event(0, file_inode(bprm->file));
}

/* exit_mm_release(tsk, mm): a thread's last use of its memory. */
static int stp_exit_hit(struct kprobe *kp, struct pt_regs *regs)
{
	struct task_struct *t = current;

	/* the last thread of a user process (do_exit() has counted it) */
	if (t->mm && !(t->flags & PF_KTHREAD) && !atomic_read(&t->signal->live))
		stp_process_event(1, stp_exe_inode(t->mm));
	return 0;
}

static void stp_find_exec_tp(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_process_exec"))
		*(struct tracepoint **)priv = tp;
}

static void stp_procprobes_disarm(void)
{
	int i;

	if (stp_exec_armed) {
		tracepoint_probe_unregister(stp_exec_tp, (void *)stp_exec_hit,
					    NULL);
		tracepoint_synchronize_unregister();
		stp_exec_armed = 0;
	}
	if (stp_exit_armed) {
		unregister_kprobe(&stp_exit_kp);
		stp_exit_armed = 0;
	}
	for (i = 0; i < STP_NPROCPROBES; i++)
		stp_iput(&stp_procprobes[i].inode);
}

static int stp_procprobes_hook(int end)
{
	int rc;

	if (!end) {
		for_each_kernel_tracepoint(stp_find_exec_tp, &stp_exec_tp);
		if (!stp_exec_tp) {
			stp_ctl_printf(STP_MSG_ERROR,
				       "ERROR: process.begin: this kernel has no sched_process_exec tracepoint\n");
			return -ENOENT;
		}
		rc = tracepoint_probe_register(stp_exec_tp,
					       (void *)stp_exec_hit, NULL);
		stp_exec_armed = !rc;
	} else {
		memset(&stp_exit_kp, 0, sizeof(stp_exit_kp));
		stp_exit_kp.symbol_name = "exit_mm_release";
		stp_exit_kp.pre_handler = stp_exit_hit;
		rc = register_kprobe(&stp_exit_kp);
		stp_exit_armed = !rc;
	}
	if (rc)
		stp_ctl_printf(STP_MSG_ERROR,
			       "ERROR: process.%s: cannot hook %s (error %d)\n",
			       end ? "end" : "begin",
			       end ? "exit_mm_release" : "sched_process_exec",
			       rc);
	return rc;
}

static int stp_procprobes_arm(void)
{
	int i, rc, want[2] = { 0, 0 };

	for (i = 0; i < STP_NPROCPROBES; i++) {
		struct stp_procprobe *p = &stp_procprobes[i];
		struct inode *inode;

		want[p->end] = 1;
		if (!p->path)
			continue;
		inode = stp_path_inode(p->path, false);
		if (IS_ERR(inode)) {
			stp_ctl_printf(STP_MSG_ERROR,
				       "ERROR: cannot probe %s: no file %s (error %ld)\n",
				       p->probe->pp, p->path, PTR_ERR(inode));
			stp_procprobes_disarm();
			return PTR_ERR(inode);
		}
		p->inode = inode;
	}
	for (i = 0; i < 2; i++) {
		rc = want[i] ? stp_procprobes_hook(i) : 0;
		if (rc) {
			stp_procprobes_disarm();
			return rc;
		}
	}
	return 0;
}
