// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * User space: uprobes for process("PATH").function and .statement.
 *
 * A uprobe is an inode and an offset in that file (the translator turned
 * the address into one), so it fires in every process that maps the
 * file, wherever it is mapped.  With -c or -x, handlers skip processes
 * outside the target's process tree; a .library() probe skips processes
 * of other programs.  Handlers run in the probed task, in process
 * context, with its user registers as c->regs.  The helpers at the top
 * (which process, which program) serve process.c too.
 *
 * Registration sleeps (it walks the processes mapping the file), so all
 * of it happens when the session starts, from stprun's START.
 */
#include <linux/namei.h>
#include <linux/binfmts.h>
#include <linux/tracepoint.h>
#include <linux/sched/signal.h>
#include <linux/rcupdate.h>

/* Is t in the -c / -x target's process tree (or is there no target)? */
static bool stp_in_target(struct task_struct *t)
{
	bool in = false;
	int depth;

	if (!stp_target_pid)
		return true;
	rcu_read_lock();
	/* up to the idle task, pid 0, which is its own parent */
	for (depth = 0; depth < 128 && t->pid; depth++) {
		if (task_tgid_nr(t) == stp_target_pid) {
			in = true;
			break;
		}
		t = rcu_dereference(t->real_parent);
	}
	rcu_read_unlock();
	return in;
}

/* The inode of mm's program (compared, never dereferenced). */
static struct inode *stp_exe_inode(struct mm_struct *mm)
{
	struct inode *inode = NULL;
	struct file *f;

	if (!mm)
		return NULL;
	rcu_read_lock();
	f = rcu_dereference(mm->exe_file);
	if (f)
		inode = file_inode(f);
	rcu_read_unlock();
	return inode;
}

/*
 * A file's inode, held: the one a process's exe_file has, or with real,
 * the one uprobes key on (under an overlay, the file beneath).
 */
static struct inode *stp_path_inode(const char *name, bool real)
{
	struct inode *inode;
	struct path path;
	int rc = kern_path(name, LOOKUP_FOLLOW, &path);

	if (rc)
		return ERR_PTR(rc);
	inode = real ? d_real_inode(path.dentry) : d_inode(path.dentry);
	inode = inode && S_ISREG(inode->i_mode) ? igrab(inode) : NULL;
	path_put(&path);
	return inode ? inode : ERR_PTR(-EINVAL);
}

static void stp_iput(struct inode **inode)
{
	if (*inode)
		iput(*inode);
	*inode = NULL;
}

/* ---- uprobes ---- */

static bool stp_uprobe_wanted(const struct stp_uprobe *u)
{
	if (u->exe_inode && stp_exe_inode(current->mm) != u->exe_inode)
		return false;
	return stp_in_target(current);
}

static notrace int stp_uprobe_hit(struct uprobe_consumer *uc,
				  struct pt_regs *regs STP_UPROBE_DATA)
{
	struct stp_uprobe *u = container_of(uc, struct stp_uprobe, uc);

	if (stp_uprobe_wanted(u))
		stp_run_probe(u->probe, regs, NULL);
	return 0;
}
NOKPROBE_SYMBOL(stp_uprobe_hit);

/*
 * @entry in a process(...).return probe: the entry probe's saves go to
 * a slot of the probe's, found again at the return by the thread and
 * the stack pointer (uprobes keep no per-call data before 6.13).  When
 * all slots are taken, the oldest call's goes (a call that never
 * returned: longjmp, exit), counted.  A handler marks its slot busy
 * under the lock for as long as it reads or writes the saves, and a
 * busy slot is never taken, so no entry can write over saves being
 * read, nor free a slot another handler still uses.
 */
static notrace void stp_ucall_release(struct stp_uprobe *u, int slot,
				      bool free)
{
	unsigned long flags;

	spin_lock_irqsave(&u->calls_lock, flags);
	u->calls[slot].busy = 0;
	if (free)
		u->calls[slot].tid = 0;
	spin_unlock_irqrestore(&u->calls_lock, flags);
}

/* A slot for a new call (held busy), or -1 when every one is busy. */
static notrace int stp_ucall_claim(struct stp_uprobe *u, unsigned long sp)
{
	struct stp_ucall *cl = u->calls;
	unsigned long flags;
	int i, slot = -1;

	spin_lock_irqsave(&u->calls_lock, flags);
	for (i = 0; i < STP_UCALLS; i++) {
		if (cl[i].busy)
			continue;
		if (!cl[i].tid) {
			slot = i;
			break;
		}
		if (slot < 0 || cl[i].age < cl[slot].age)
			slot = i;
	}
	if (slot >= 0) {
		if (cl[slot].tid)	/* an unreturned call's saves go */
			stp_count(STP_EV_UENTRY_EVICTED);
		cl[slot].tid = current->pid;
		cl[slot].sp = sp;
		cl[slot].age = ++u->age;
		cl[slot].busy = 1;
		cl[slot].failed = 0;
	}
	spin_unlock_irqrestore(&u->calls_lock, flags);
	return slot;
}

static notrace int stp_uretprobe_entry(struct uprobe_consumer *uc,
				       struct pt_regs *regs STP_UPROBE_DATA)
{
	struct stp_uprobe *u = container_of(uc, struct stp_uprobe, entry_uc);
	/* where the call's return address is: the CFA's word below */
	unsigned long sp = *(const unsigned long *)((const char *)regs + u->entry_cfa_reg) +
			   u->entry_cfa_off - sizeof(long);
	int slot;

	if (!stp_uprobe_wanted(u))
		return 0;
	slot = stp_ucall_claim(u, sp);
	if (slot < 0) {
		stp_count(STP_EV_UENTRY_EVICTED);
		return 0;
	}
	/* as with kretprobes: an error here drops this call's return */
	if (stp_run_probe(u->entry, regs, u->saves + slot * u->entry_size))
		u->calls[slot].failed = 1;	/* the slot is ours: busy */
	stp_ucall_release(u, slot, false);
	return 0;
}
NOKPROBE_SYMBOL(stp_uretprobe_entry);

/*
 * The slot of the call returning now (its return address popped), held
 * busy, or -1.
 */
static notrace int stp_ucall_find(struct stp_uprobe *u, struct pt_regs *regs)
{
	unsigned long sp = regs->sp - sizeof(long);
	unsigned long flags;
	int i;

	spin_lock_irqsave(&u->calls_lock, flags);
	for (i = 0; i < STP_UCALLS; i++)
		if (u->calls[i].tid == current->pid && u->calls[i].sp == sp &&
		    !u->calls[i].busy)
			break;
	if (i < STP_UCALLS)
		u->calls[i].busy = 1;
	spin_unlock_irqrestore(&u->calls_lock, flags);
	return i < STP_UCALLS ? i : -1;
}

static notrace int stp_uretprobe_hit(struct uprobe_consumer *uc,
				     unsigned long func,
				     struct pt_regs *regs STP_UPROBE_DATA)
{
	struct stp_uprobe *u = container_of(uc, struct stp_uprobe, uc);
	int slot;

	if (!stp_uprobe_wanted(u))
		return 0;
	if (!u->entry) {
		stp_run_probe(u->probe, regs, NULL);
		return 0;
	}
	/* no saves (lost, or the session started inside the call): no probe */
	slot = stp_ucall_find(u, regs);
	if (slot < 0) {
		stp_count(STP_EV_UENTRY_MISSED);
		return 0;
	}
	if (!u->calls[slot].failed)
		stp_run_probe(u->probe, regs, u->saves + slot * u->entry_size);
	stp_ucall_release(u, slot, true);
	return 0;
}
NOKPROBE_SYMBOL(stp_uretprobe_hit);

/* 0, or -errno with *what naming the file that was not there. */
static int stp_uprobe_arm(struct stp_uprobe *u, const char **what)
{
	struct inode *inode;
	int rc;

	*what = u->path;
	inode = stp_path_inode(u->path, true);
	if (IS_ERR(inode))
		return PTR_ERR(inode);
	u->inode = inode;
	if (u->exe) {
		*what = u->exe;
		inode = stp_path_inode(u->exe, false);
		if (IS_ERR(inode))
			return PTR_ERR(inode);
		u->exe_inode = inode;
	}
	*what = NULL;
	memset(&u->uc, 0, sizeof(u->uc));
	if (u->is_return && u->entry) {
		spin_lock_init(&u->calls_lock);
		u->calls = kcalloc(STP_UCALLS, sizeof(*u->calls), GFP_KERNEL);
		u->saves = kcalloc(STP_UCALLS, u->entry_size, GFP_KERNEL);
		if (!u->calls || !u->saves)
			return -ENOMEM;
		memset(&u->entry_uc, 0, sizeof(u->entry_uc));
		u->entry_uc.handler = stp_uretprobe_entry;
		rc = stp_uprobe_register(u->inode, u->entry_offset, 0, &u->entry_uc,
					 &u->entry_up);
		if (rc)
			return rc;
		u->entry_registered = 1;
	}
	if (u->is_return)
		u->uc.ret_handler = stp_uretprobe_hit;
	else
		u->uc.handler = stp_uprobe_hit;
	rc = stp_uprobe_register(u->inode, u->offset, u->ref_ctr_offset, &u->uc,
				 &u->up);
	if (!rc)
		u->registered = 1;
	return rc;
}

static void stp_uprobes_disarm(void)
{
	int i, any = 0;

	for (i = 0; i < STP_NUPROBES; i++) {
		struct stp_uprobe *u = &stp_uprobes[i];

		if (u->entry_registered) {
			stp_uprobe_unregister(u->inode, u->entry_offset, &u->entry_uc, u->entry_up);
			u->entry_registered = 0;
			any = 1;
		}
		if (!u->registered)
			continue;
		stp_uprobe_unregister(u->inode, u->offset, &u->uc, u->up);
		u->registered = 0;
		any = 1;
	}
	/* no handler runs after this: the inodes can go */
	if (any)
		stp_uprobe_unregister_sync();
	for (i = 0; i < STP_NUPROBES; i++) {
		stp_iput(&stp_uprobes[i].inode);
		stp_iput(&stp_uprobes[i].exe_inode);
		kfree(stp_uprobes[i].calls);
		kfree(stp_uprobes[i].saves);
		stp_uprobes[i].calls = NULL;
		stp_uprobes[i].saves = NULL;
	}
}

static int stp_uprobes_arm(void)
{
	int i, rc, skipped = 0;
	const char *what;

	for (i = 0; i < STP_NUPROBES; i++) {
		struct stp_uprobe *u = &stp_uprobes[i];

		rc = stp_uprobe_arm(u, &what);
		if (!rc)
			continue;
		if (u->required) {
			if (what)
				stp_ctl_printf(STP_MSG_ERROR,
					       "ERROR: cannot probe %s: no file %s (error %d)\n",
					       u->probe->pp, what, rc);
			else
				stp_ctl_printf(STP_MSG_ERROR,
					       "ERROR: uprobes refused probe point %s (%s+0x%llx, error %d)\n",
					       u->probe->pp, u->path,
					       (unsigned long long)u->offset,
					       rc);
			stp_uprobes_disarm();
			return rc;
		}
		skipped++;
		if (stp_verbose)
			stp_ctl_printf(STP_MSG_WARNING,
				       "WARNING: skipped %s: uprobes refused it (error %d)\n",
				       u->probe->pp, rc);
	}
	if (skipped)
		stp_count_n(STP_EV_UPROBE_SKIPPED, skipped);
	return 0;
}
