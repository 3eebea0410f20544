// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Chopstix sampler in a module (vitals.h): probe hits count events
 * into the sketch and fill the samples it selects; a work item closes
 * an epoch every stp_cx_epoch_ms; stprun reads the closed copy through
 * stp_MODNAME/vitals, records formatted on demand in the reader's
 * process context (vitals_msg.h), which is where the kernel frames are
 * symbolized: the hit only saves addresses.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kallsyms.h>
#include <linux/mm_types.h>
#include <linux/cred.h>
#include <linux/sched/mm.h>
#include <linux/sched/task_stack.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>
#include <linux/tracepoint.h>
#include <linux/binfmts.h>
#include <asm/timex.h>
#include "vitals_msg.h"

/* A sample's filling, beyond what is measured: the entry into it. */
#ifndef CX_FILL_CYCLES
#define CX_FILL_CYCLES 300
#endif
#define CX_REC_MAX 16384	/* one record, formatted: a path, frames */

struct cx_sketch stp_cx_sk;	/* 250 KB, in the module's bss: no pointer to follow */
u64 *stp_cx_open_hca[CX_VITALS_MAX];
DEFINE_PER_CPU(struct cx_cpu, stp_cx_cpu);
DEFINE_PER_CPU(struct stp_cx_wc, stp_cx_wc);
static bool stp_cx_ready;
static char *stp_cx_rec;	/* the reader's record buffer */
static struct tracepoint *stp_cx_exec_tp;

static struct {
	u64 epoch_ms;
	u64 seq;
	u64 open_start;		/* the open copy's start, realtime ns */
	u64 start, end;		/* the closed copy's */
	int closed;
	bool pending;		/* the closed copy awaits its reader */
	bool final;
	bool running;
	u32 missed;		/* epoch ends skipped since the last close */
	u32 closed_missed;	/* those the closed epoch took in */
	/* the reader's place in the closed copy */
	int at_vital;		/* -1: the epoch record is next */
	int at_sample;
	bool vitals_done;
	size_t held;		/* a formatted record not read yet */
	bool final_after_read;	/* the session ended while one was pending */
} stp_cxs;

static DEFINE_MUTEX(stp_cx_io);
static void stp_cx_epoch_fn(struct work_struct *w);
static DECLARE_DELAYED_WORK(stp_cx_work, stp_cx_epoch_fn);

/*
 * Files pinned by samples whose slots a first occurrence took (cx_core.h's
 * eviction): released with their copy.  At most CX_SAMPLES a vital and
 * copy, since a first occurrence's slot is never taken again.
 */
static u64 stp_cx_orphans[2][CX_VITALS_MAX * CX_SAMPLES];
static atomic_t stp_cx_norphans[2];

static notrace void stp_cx_orphan(int copy, u64 pin)
{
	int i = atomic_inc_return(&stp_cx_norphans[copy]) - 1;

	if (i < CX_VITALS_MAX * CX_SAMPLES)
		WRITE_ONCE(stp_cx_orphans[copy][i], pin);
}

/* ---- an event ---------------------------------------------------------- */

/* exec replaces a task's program: its entry names the old one */
static notrace void stp_cx_on_exec(void *data, struct task_struct *p, pid_t old_pid,
				   struct linux_binprm *bprm)
{
	this_cpu_write(stp_cx_wc.task[0], NULL);
	this_cpu_write(stp_cx_wc.task[1], NULL);
}

/*
 * The vital's slot: its name compared as two words with each slot's
 * (names are stored zero-padded), before cx_vital's naming path.  The
 * caller's name sits in a MAXSTRINGLEN buffer, so 16 bytes read.
 */
static notrace int stp_cx_find(const char *name)
{
	u64 k[2] = { 0, 0 };
	size_t n = strnlen(name, CX_NAME_LEN - 1);
	int i;

	memcpy(k, name, n);
	for (i = 0; i < CX_VITALS_MAX; i++) {
		const struct cx_vital *v = &stp_cx_sk.v[i];
		const u64 *w = (const u64 *)v->name;

		if (i >= CX_STD_VITALS && READ_ONCE(v->state) != CX_USED)
			break;	/* named in slot order: none further */
		if (w[0] == k[0] && w[1] == k[1])
			return i;
	}
	return cx_vital(&stp_cx_sk, name);
}

/*
 * The executable's file, pinned for the reader to name (d_path) at the
 * epoch's end, as Chopstix pinned dentries with dcookies: the path then
 * survives the process.  Taking a reference is an atomic increment, fine
 * in NMI; only a file still live is taken, and rechecked, since a freed
 * struct file may be reused at once (6.12 frees them typesafe by RCU).
 * The reader drops it.  Inode and device go along for stprun's check.
 */
static notrace void stp_cx_exe_file(struct task_struct *t, struct cx_sample *s)
{
	struct file *f = (struct file *)(unsigned long)stp_cx_exe_id(t);
	struct mm_struct *mm = READ_ONCE(t->mm);
	struct inode *ino;

	s->exec = 0;
	s->exec_dev = 0;
	s->pin = 0;
	if (!f || !atomic_long_inc_not_zero(&f->f_count))
		return;
	s->pin = (u64)(unsigned long)f;
	if (!mm || READ_ONCE(mm->exe_file) != f)
		return;		/* reused meanwhile: released, not named */
	ino = READ_ONCE(f->f_inode);
	if (ino) {
		s->exec = ino->i_ino;
		s->exec_dev = ino->i_sb->s_dev;
	}
}

static notrace void stp_cx_fill(struct stp_ctx *c, struct cx_sample *s,
				struct task_struct *t, unsigned long site, const s64 *d)
{
	unsigned long pcs[CX_KFRAMES];
	int i, n;

	s->time_ns = ktime_get_real_fast_ns();
	s->pid = t->tgid;
	s->uid = stp_cx_uid(t);
	memcpy(s->comm, t->comm, sizeof(s->comm));
	stp_cx_exe_file(t, s);
	s->site = site;
	for (i = 0; i < CX_NDATA; i++)
		s->data[i] = d ? d[i] : 0;
	n = t == current ? stp_kstack(c, pcs, CX_KFRAMES)
			 : stp_task_kstack(t, pcs, CX_KFRAMES);
	for (i = 0; i < n; i++)
		s->kstack[i] = pcs[i];
	s->nk = n;
	/* user frames only where they can be read without faulting; another
	 * task's user PC where it entered the kernel, saved at the top of its
	 * kernel stack, as the BPF runtime does */
	n = t == current ? stp_ustack(c, pcs, CX_UFRAMES) : 0;
	for (i = 0; i < n; i++)
		s->ustack[i] = pcs[i];
	s->nu = n;
	if (t != current && t->mm && !(t->flags & PF_KTHREAD) &&
	    user_mode(task_pt_regs(t))) {
		s->ustack[0] = instruction_pointer(task_pt_regs(t));
		s->nu = 1;
	}
}

notrace long stp_cx_sample(struct stp_ctx *c, s64 h, struct task_struct *t,
			   unsigned long site, const char *names, const s64 *d)
{
	u64 t0 = get_cycles(), i = (u64)h - 1;
	struct cx_sample *x = cx_sample_at(&stp_cx_sk, h);
	struct cx_vital *v;

	/* a number that is no slot, or a slot filled already */
	if (!x || READ_ONCE(x->ready))
		return 0;
	v = &stp_cx_sk.v[cx_handle_vital(h) % CX_VITALS_MAX];
	if (x->pin)	/* a repeat's slot, taken for a first occurrence */
		stp_cx_orphan(CX_H_COPY(i), x->pin);
	if (names && names[0] && !READ_ONCE(v->names[0]))
		strscpy(v->names, names, CX_NAMES_LEN);
	stp_cx_fill(c, x, t ? t : current, site, d);
	atomic64_add(get_cycles() - t0 + CX_FILL_CYCLES,
		     (atomic64_t *)&v->copy[CX_H_COPY(i)].sample_cycles);
	cx_publish(x);
	return 1;
}

notrace long stp_cx_event(struct stp_ctx *c, const char *vital, u64 label,
			  s64 weight, struct task_struct *t, unsigned long site,
			  const char *names, const s64 *d)
{
	int vi;
	u64 who;
	s64 h;

	if (!stp_cx_ready)
		return 0;
	vi = stp_cx_find(vital);
	if (vi < 0) {
		stp_count(STP_EV_CX_NO_VITAL);
		return 0;
	}
	if (!t || t == current) {
		t = current;
		if (!stp_cx_who_current(&who))
			return 0;
	} else {
		/* another task (sched_switch's next): its own, not cached */
		if (t->tgid == READ_ONCE(stp_stprun_pid))
			return 0;
		who = cx_who(stp_cx_exe_key(t), stp_cx_uid(t));
	}
	h = cx_count(&stp_cx_sk, NULL, vi, cx_hash(vi, label, who), weight);
	return h ? stp_cx_sample(c, h, t, site, names, d) : 0;
}

long stp_cx_declare(const char *vital)
{
	return stp_cx_ready ? cx_vital(&stp_cx_sk, vital) : -1;
}

void stp_cx_unavailable(const char *vital, const char *why)
{
	int vi = stp_cx_ready ? cx_vital(&stp_cx_sk, vital) : -1;

	if (vi >= 0)
		cx_unavailable(&stp_cx_sk, vi, why);
}

/* ---- epochs ------------------------------------------------------------ */

/*
 * Open the other copy, wait until no event can still be counting into
 * the closed one (a grace period: tracepoint callbacks and NMI handlers
 * run with preemption off, which synchronize_rcu() waits out), then
 * take in the CPUs' counts and the epoch's cost.  The closed copy's index.
 */
static int stp_cx_swap(void)
{
	int closed = cx_flip(&stp_cx_sk), cpu, i;

	for (i = 0; i < CX_VITALS_MAX; i++)
		WRITE_ONCE(stp_cx_open_hca[i], stp_cx_sk.v[i].copy[!closed].hca);
	synchronize_rcu();
	for_each_possible_cpu(cpu) {
		struct cx_cpu *pc = per_cpu_ptr(&stp_cx_cpu, cpu);

		cx_fold(&stp_cx_sk, closed, pc);
		cx_cpu_zero(pc, closed);
	}
	cx_finish(&stp_cx_sk, closed);
	return closed;
}

/*
 * Close the open epoch, unless the last closed one was not read yet;
 * the last one of a session is then closed as soon as it is (the reader
 * reads again after the session's end).  stp_cx_io held.
 */
static void stp_cx_close_locked(bool final)
{
	u64 now = ktime_get_real_ns();

	if (stp_cxs.pending) {
		stp_cxs.missed++;
		stp_cxs.final_after_read |= final;
		return;
	}
	stp_cxs.closed = stp_cx_swap();
	stp_cxs.closed_missed = stp_cxs.missed;
	stp_cxs.missed = 0;
	stp_cxs.start = stp_cxs.open_start;
	stp_cxs.end = now;
	stp_cxs.open_start = now;
	stp_cxs.seq++;
	stp_cxs.final = final;
	stp_cxs.pending = true;
	stp_cxs.at_vital = -1;
	stp_cxs.at_sample = 0;
	stp_cxs.vitals_done = false;
	stp_cxs.held = 0;
	stp_cxs.final_after_read = false;
	stp_ctl_send(STP_MSG_CX_EPOCH, NULL, 0);
}

static void stp_cx_close(bool final)
{
	mutex_lock(&stp_cx_io);
	stp_cx_close_locked(final);
	mutex_unlock(&stp_cx_io);
}

static void stp_cx_epoch_fn(struct work_struct *w)
{
	stp_cx_close(false);
	if (READ_ONCE(stp_cxs.running))
		schedule_delayed_work(&stp_cx_work,
				      msecs_to_jiffies(stp_cxs.epoch_ms));
}

void stp_cx_start(u64 epoch_ms, u64 hi_cycles, u64 lo_cycles)
{
	if (!stp_cx_ready || stp_cxs.running)
		return;
	stp_cx_sk.hi_cycles = hi_cycles;
	stp_cx_sk.lo_cycles = lo_cycles;
	stp_cxs.epoch_ms = clamp_t(u64, epoch_ms, 100, 24ULL * 3600 * 1000);
	stp_cxs.open_start = ktime_get_real_ns();
	WRITE_ONCE(stp_cxs.running, true);
	schedule_delayed_work(&stp_cx_work, msecs_to_jiffies(stp_cxs.epoch_ms));
}

/* The session ends: the open epoch is closed too, so nothing is lost. */
static void stp_cx_session_end(void)
{
	if (!stp_cx_ready || !stp_cxs.running)
		return;
	WRITE_ONCE(stp_cxs.running, false);
	cancel_delayed_work_sync(&stp_cx_work);
	stp_cx_close(true);
}

/* ---- the reader -------------------------------------------------------- */

/* Frames of the scheduler, locking and tracing: not a site. */
static bool stp_cx_skip_frame(unsigned long a, const char *name)
{
	static const char *const skip[] = {
		STP_CX_SKIP_FRAMES,
	};
	size_t i;

	if (within_module(a, THIS_MODULE))
		return true;
	for (i = 0; i < ARRAY_SIZE(skip); i++)
		if (!strncmp(name, skip[i], strlen(skip[i])))
			return true;
	return false;
}

/* "func+0x1a [module]" of a kernel address; [kernel] for vmlinux. */
static int stp_cx_sym(char *dst, size_t n, unsigned long a)
{
	char sym[KSYM_SYMBOL_LEN], *slash, *mod;

	sprint_symbol(sym, a);
	if (sym[0] == '0' && sym[1] == 'x')
		return snprintf(dst, n, "0x%lx", a);
	slash = strchr(sym, '/');
	mod = strchr(sym, ' ');
	if (slash)
		*slash = '\0';
	return snprintf(dst, n, "%s %s", sym, mod ? mod + 1 : "[kernel]");
}

/* The site: the sample's own, else the first frame not skipped. */
static int stp_cx_site_text(char *dst, size_t n, const struct cx_sample *s)
{
	char sym[KSYM_SYMBOL_LEN];
	int i;

	if (s->site && s->site < TASK_SIZE_MAX)
		return snprintf(dst, n, "0x%llx", s->site);
	if (s->site)
		return stp_cx_sym(dst, n, s->site);
	for (i = 0; i < s->nk; i++) {
		sprint_symbol_no_offset(sym, s->kstack[i]);
		if (!stp_cx_skip_frame(s->kstack[i], sym))
			return stp_cx_sym(dst, n, s->kstack[i]);
	}
	if (s->nu)
		return snprintf(dst, n, "0x%llx", s->ustack[0]);
	return snprintf(dst, n, "%s", "");
}

/* Drop the references a copy's samples hold (process context; nobody
 * writes the copy). */
static void stp_cx_unpin(int copy)
{
	int i, j, n;

	for (i = 0; i < CX_VITALS_MAX; i++) {
		struct cx_copy *cp = &stp_cx_sk.v[i].copy[copy];

		n = min_t(s64, cp->claimed, CX_SAMPLES);
		for (j = 0; j < n; j++) {
			struct cx_sample *s = &cp->samples[j];

			if (s->pin)
				fput((struct file *)(unsigned long)s->pin);
			s->pin = 0;
		}
	}
	n = min(atomic_read(&stp_cx_norphans[copy]), CX_VITALS_MAX * CX_SAMPLES);
	for (i = 0; i < n; i++)
		if (stp_cx_orphans[copy][i])
			fput((struct file *)(unsigned long)stp_cx_orphans[copy][i]);
	memset(stp_cx_orphans[copy], 0, sizeof(stp_cx_orphans[copy]));
	atomic_set(&stp_cx_norphans[copy], 0);
}

/* The executable's path: the line stprun takes as is; "" when unknown. */
static int stp_cx_path_text(char *dst, size_t n, const struct cx_sample *s)
{
	struct file *f = (struct file *)(unsigned long)s->pin;
	char *p;

	if (!f || !s->exec)
		return snprintf(dst, n, "%s", "");
	p = d_path(&f->f_path, dst, n);
	if (IS_ERR(p))
		return snprintf(dst, n, "%s", "");
	memmove(dst, p, strlen(p) + 1);
	return strlen(dst);
}

static size_t stp_cx_put_hdr(char *p, u32 type, size_t len)
{
	struct stp_cx_rec h = { .type = type, .len = len };

	memcpy(p, &h, sizeof(h));
	return sizeof(h) + len;
}

static size_t stp_cx_epoch_rec(char *p)
{
	struct stp_cx_epoch *e = (void *)(p + sizeof(struct stp_cx_rec));
	int i;

	memset(e, 0, sizeof(*e));
	e->seq = stp_cxs.seq;
	e->start_ns = stp_cxs.start;
	e->end_ns = stp_cxs.end;
	e->missed = stp_cxs.closed_missed;
	e->final = stp_cxs.final;
	for (i = 0; i < CX_VITALS_MAX; i++) {
		if (!cx_has_row(&stp_cx_sk, i))
			continue;
		e->nvitals++;
		e->nsamples += cx_nsamples(&stp_cx_sk.v[i].copy[stp_cxs.closed]);
	}
	return stp_cx_put_hdr(p, STP_CX_EPOCH, sizeof(*e));
}

static size_t stp_cx_vital_rec(char *p, int vi)
{
	struct stp_cx_vital *r = (void *)(p + sizeof(struct stp_cx_rec));
	struct cx_vital *v = &stp_cx_sk.v[vi];
	struct cx_copy *cp = &v->copy[stp_cxs.closed];
	u32 *hca = (u32 *)(r + 1);
	int i;

	memset(r, 0, sizeof(*r));
	r->index = vi;
	r->hca_len = CX_COUNTERS;
	r->weight = cp->weight;
	r->count = cp->events;
	r->samples = cx_nsamples(cp);
	r->dropped = cp->dropped;
	r->t = 1ULL << READ_ONCE(v->shift);
	r->cycles = cp->cycles;
	r->available = !v->unavailable;
	strscpy(r->name, v->name, sizeof(r->name));
	strscpy(r->names, v->names, sizeof(r->names));
	strscpy(r->why, v->why, sizeof(r->why));
	for (i = 0; i < CX_COUNTERS; i++)
		hca[i] = cx_count_at(cp, i);
	return stp_cx_put_hdr(p, STP_CX_VITAL, sizeof(*r) + CX_COUNTERS * sizeof(u32));
}

static size_t stp_cx_sample_rec(char *p, int vi, const struct cx_sample *s)
{
	struct stp_cx_sample *r = (void *)(p + sizeof(struct stp_cx_rec));
	char *txt = (char *)(r + 1), *end = p + CX_REC_MAX - 1;
	int i;

	memset(r, 0, sizeof(*r));
	r->vital = vi;
	r->pid = s->pid;
	r->uid = s->uid;
	r->nk = s->nk;
	r->nu = s->nu;
	r->count = s->count;
	r->time_ns = s->time_ns;
	r->label = s->label;
	r->exec_dev = s->exec ? huge_encode_dev(s->exec_dev) : 0;
	r->exec_ino = s->exec;
	r->site = s->site;
	r->weight = s->weight;
	for (i = 0; i < CX_NDATA && i < 4; i++)
		r->data[i] = s->data[i];
	for (i = 0; i < s->nu && i < 4; i++)
		r->ustack[i] = s->ustack[i];
	memcpy(r->comm, s->comm, sizeof(r->comm));
	txt += stp_cx_path_text(txt, min_t(size_t, end - txt, PATH_MAX), s);
	*txt++ = '\n';
	txt += stp_cx_site_text(txt, end - txt, s);
	for (i = 0; i < s->nk && txt < end - 1; i++) {
		*txt++ = '\n';
		txt += stp_cx_sym(txt, end - txt, s->kstack[i]);
	}
	txt = min(txt, end);
	*txt++ = '\0';
	return stp_cx_put_hdr(p, STP_CX_SAMPLE, txt - (char *)r);
}

/* The next record of the closed copy into stp_cx_rec; 0 at the end. */
static size_t stp_cx_next_rec(void)
{
	struct cx_copy *cp;
	int ns;

	if (stp_cxs.at_vital < 0) {
		stp_cxs.at_vital = 0;
		return stp_cx_epoch_rec(stp_cx_rec);
	}
	while (stp_cxs.at_vital < CX_VITALS_MAX) {
		int vi = stp_cxs.at_vital;
		struct cx_vital *v = &stp_cx_sk.v[vi];

		if (!cx_has_row(&stp_cx_sk, vi)) {
			stp_cxs.at_vital++;
			continue;
		}
		cp = &v->copy[stp_cxs.closed];
		if (!stp_cxs.vitals_done) {
			stp_cxs.vitals_done = true;
			stp_cxs.at_sample = 0;
			return stp_cx_vital_rec(stp_cx_rec, vi);
		}
		ns = min_t(s64, cp->claimed, CX_SAMPLES);
		while (stp_cxs.at_sample < ns) {
			struct cx_sample *s = &cp->samples[stp_cxs.at_sample++];

			if (READ_ONCE(s->ready))
				return stp_cx_sample_rec(stp_cx_rec, vi, s);
		}
		stp_cxs.at_vital++;
		stp_cxs.vitals_done = false;
	}
	return 0;
}

static ssize_t stp_cx_read(struct file *f, char __user *ub, size_t count,
			   loff_t *ppos)
{
	size_t done = 0, n;
	ssize_t rc = 0;

	mutex_lock(&stp_cx_io);
	while (stp_cxs.pending) {
		/* a record that did not fit last time is still in the buffer */
		if (!stp_cxs.held) {
			stp_cxs.held = stp_cx_next_rec();
			if (!stp_cxs.held) {
				if (!done) {	/* read to the end: hand it back */
					stp_cx_unpin(stp_cxs.closed);
					cx_clear(&stp_cx_sk, stp_cxs.closed);
					stp_cxs.pending = false;
				}
				break;
			}
		}
		n = stp_cxs.held;
		if (done + n > count) {
			rc = done ? 0 : -EMSGSIZE;
			break;
		}
		if (copy_to_user(ub + done, stp_cx_rec, n)) {
			rc = -EFAULT;
			break;
		}
		stp_cxs.held = 0;
		done += n;
	}
	mutex_unlock(&stp_cx_io);
	return rc ? rc : done;
}

static const struct file_operations stp_cx_fops = {
	.owner = THIS_MODULE,
	.read = stp_cx_read,
	.llseek = noop_llseek,
};

static void stp_cx_find_exec(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_process_exec"))
		stp_cx_exec_tp = tp;
}

static int stp_cx_init(void)
{
	struct dentry *d;
	int i;

	stp_cx_rec = kvzalloc(CX_REC_MAX, GFP_KERNEL);
	if (!stp_cx_rec)
		return -ENOMEM;
	cx_init(&stp_cx_sk, 0, 0);
	for (i = 0; i < CX_VITALS_MAX; i++)
		stp_cx_open_hca[i] = stp_cx_sk.v[i].copy[0].hca;
	d = debugfs_create_file("vitals", 0400, stp_dir, NULL, &stp_cx_fops);
	if (IS_ERR_OR_NULL(d)) {
		kvfree(stp_cx_rec);
		stp_cx_rec = NULL;
		return -ENOMEM;
	}
	/* without it, a task's label names its program before its exec for
	 * as long as it stays on its CPU: counted still, under that name */
	for_each_kernel_tracepoint(stp_cx_find_exec, NULL);
	if (stp_cx_exec_tp && tracepoint_probe_register(stp_cx_exec_tp, stp_cx_on_exec, NULL))
		stp_cx_exec_tp = NULL;
	WRITE_ONCE(stp_cx_ready, true);
	return 0;
}

static void stp_cx_exit(void)
{
	WRITE_ONCE(stp_cxs.running, false);
	cancel_delayed_work_sync(&stp_cx_work);
	if (stp_cx_exec_tp) {
		tracepoint_probe_unregister(stp_cx_exec_tp, stp_cx_on_exec, NULL);
		tracepoint_synchronize_unregister();
	}
	if (stp_cx_ready) {	/* the probes are gone: nobody writes either copy */
		stp_cx_unpin(0);
		stp_cx_unpin(1);
	}
	WRITE_ONCE(stp_cx_ready, false);
	kvfree(stp_cx_rec);
	stp_cx_rec = NULL;
}
