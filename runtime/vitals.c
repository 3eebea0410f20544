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
#include <linux/timekeeping.h>
#include <linux/workqueue.h>
#include <asm/timex.h>
#include "vitals_msg.h"

/*
 * What a hit costs beyond the sampler's own code (entry, context,
 * dispatch), in cycles, added to what is measured: the adaptive
 * threshold budgets the whole of collection.
 */
#ifndef CX_HIT_CYCLES
#define CX_HIT_CYCLES 300
#endif
#define CX_REC_MAX 16384	/* one record, formatted: a path, frames */

static struct cx_sketch *stp_cx;
static char *stp_cx_rec;	/* the reader's record buffer */

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

/* ---- a hit ------------------------------------------------------------- */

static notrace u64 stp_cx_mix(u64 a, u64 b)
{
	a ^= b + 0x9e3779b97f4a7c15ULL + (a << 6) + (a >> 2);
	return a;
}

/* The executable's open file: the label's program id (stable while it runs). */
static notrace u64 stp_cx_exe_id(struct task_struct *t)
{
	struct mm_struct *mm = READ_ONCE(t->mm);

	return mm && !(t->flags & PF_KTHREAD) ?
		(u64)(unsigned long)READ_ONCE(mm->exe_file) : 0;
}

/* The uid as the initial namespace sees it: the kuid's own value. */
static notrace u32 stp_cx_uid(struct task_struct *t)
{
	const struct cred *cr = READ_ONCE(t->real_cred);

	return cr ? __kuid_val(cr->uid) : 0;
}

/*
 * The vital's index: its name compared as two words with each named
 * slot's (names are stored zero-padded), before cx_vital's naming path.
 * The caller's name sits in a MAXSTRINGLEN buffer, so 16 bytes read.
 */
static notrace int stp_cx_find(const char *name)
{
	u64 k[2] = { 0, 0 };
	size_t n = strnlen(name, CX_NAME_LEN - 1);
	int i;

	memcpy(k, name, n);
	for (i = 0; i < CX_VITALS_MAX; i++) {
		const struct cx_vital *v = &stp_cx->v[i];
		const u64 *w = (const u64 *)v->name;

		if (stp_atomic_read(&v->state) != 2)
			break;	/* named in slot order: none further */
		if (w[0] == k[0] && w[1] == k[1])
			return i;
	}
	return cx_vital(stp_cx, name);
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
	s->pin = NULL;
	if (!f || !atomic_long_inc_not_zero(&f->f_count))
		return;
	s->pin = f;
	if (!mm || READ_ONCE(mm->exe_file) != f)
		return;		/* reused meanwhile: released, not named */
	ino = READ_ONCE(f->f_inode);
	if (ino) {
		s->exec = ino->i_ino;
		s->exec_dev = ino->i_sb->s_dev;
	}
}

static notrace void stp_cx_fill(struct stp_ctx *c, struct cx_sample *s,
				struct task_struct *t, u64 label, s64 weight,
				unsigned long site, const s64 *d)
{
	unsigned long pcs[CX_KFRAMES];
	int i, n;

	s->label = label;
	s->weight = weight;
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
	/* user frames only where they can be read without faulting */
	n = t == current ? stp_ustack(c, pcs, CX_UFRAMES) : 0;
	for (i = 0; i < n; i++)
		s->ustack[i] = pcs[i];
	s->nu = n;
}

notrace long stp_cx_event(struct stp_ctx *c, const char *vital, u64 label,
			  s64 weight, struct task_struct *t, unsigned long site,
			  const char *names, const s64 *d)
{
	u64 t0 = get_cycles();
	struct cx_op op;
	int vi;

	if (!stp_cx)
		return 0;
	vi = stp_cx_find(vital);
	if (vi < 0) {
		stp_count(STP_EV_CX_NO_VITAL);
		return 0;
	}
	if (names && names[0] && !READ_ONCE(stp_cx->v[vi].names[0]))
		strscpy(stp_cx->v[vi].names, names, CX_NAMES_LEN);
	if (!t)
		t = current;
	/* the collector's own work (storing epochs) is not the machine's */
	if (t->tgid == READ_ONCE(stp_stprun_pid))
		return 0;
	label = stp_cx_mix(stp_cx_mix(label, stp_cx_exe_id(t)), stp_cx_uid(t));
	cx_event(stp_cx, vi, label, weight, &op);
	if (op.smp)
		stp_cx_fill(c, op.smp, t, label, weight, site, d);
	cx_done(stp_cx, &op, get_cycles() - t0 + CX_HIT_CYCLES);
	return op.smp != NULL;
}

void stp_cx_unavailable(const char *vital, const char *why)
{
	int vi = stp_cx ? cx_vital(stp_cx, vital) : -1;

	if (vi >= 0)
		cx_unavailable(stp_cx, vi, why);
}

/* ---- epochs ------------------------------------------------------------ */

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
	stp_cxs.closed = cx_swap(stp_cx);
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
	if (!stp_cx || stp_cxs.running)
		return;
	stp_cx->hi_cycles = hi_cycles;
	stp_cx->lo_cycles = lo_cycles;
	stp_cxs.epoch_ms = clamp_t(u64, epoch_ms, 100, 24ULL * 3600 * 1000);
	stp_cxs.open_start = ktime_get_real_ns();
	WRITE_ONCE(stp_cxs.running, true);
	schedule_delayed_work(&stp_cx_work, msecs_to_jiffies(stp_cxs.epoch_ms));
}

/* The session ends: the open epoch is closed too, so nothing is lost. */
static void stp_cx_session_end(void)
{
	if (!stp_cx || !stp_cxs.running)
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

/* Drop the samples' references to executables (process context). */
static void stp_cx_unpin(int copy)
{
	int i, j, n;

	for (i = 0; i < CX_VITALS_MAX; i++) {
		struct cx_copy *cp = &stp_cx->v[i].copy[copy];

		n = min_t(long, stp_atomic_read(&cp->claimed), CX_SAMPLES);
		for (j = 0; j < n; j++) {
			struct cx_sample *s = &cp->samples[j];

			if (READ_ONCE(s->ready) && s->pin)
				fput(s->pin);
			s->pin = NULL;
		}
	}
}

/* The executable's path: the line stprun takes as is; "" when unknown. */
static int stp_cx_path_text(char *dst, size_t n, const struct cx_sample *s)
{
	struct file *f = s->pin;
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
		if (stp_atomic_read(&stp_cx->v[i].state) != 2)
			continue;
		e->nvitals++;
		e->nsamples += cx_nsamples(&stp_cx->v[i].copy[stp_cxs.closed]);
	}
	return stp_cx_put_hdr(p, STP_CX_EPOCH, sizeof(*e));
}

static size_t stp_cx_vital_rec(char *p, int vi)
{
	struct stp_cx_vital *r = (void *)(p + sizeof(struct stp_cx_rec));
	struct cx_vital *v = &stp_cx->v[vi];
	struct cx_copy *cp = &v->copy[stp_cxs.closed];
	size_t hca = sizeof(cp->hca);

	memset(r, 0, sizeof(*r));
	r->index = vi;
	r->hca_len = CX_COUNTERS;
	r->weight = stp_atomic_read(&cp->weight);
	r->count = stp_atomic_read(&cp->events);
	r->samples = cx_nsamples(cp);
	r->dropped = stp_atomic_read(&cp->dropped);
	r->t = 1ULL << stp_atomic_read(&v->shift);
	r->cycles = stp_atomic_read(&cp->cycles);
	r->available = !v->unavailable;
	strscpy(r->name, v->name, sizeof(r->name));
	strscpy(r->names, v->names, sizeof(r->names));
	strscpy(r->why, v->why, sizeof(r->why));
	memcpy(r + 1, cp->hca, hca);
	return stp_cx_put_hdr(p, STP_CX_VITAL, sizeof(*r) + hca);
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
		struct cx_vital *v = &stp_cx->v[vi];

		if (stp_atomic_read(&v->state) != 2) {
			stp_cxs.at_vital++;
			continue;
		}
		cp = &v->copy[stp_cxs.closed];
		if (!stp_cxs.vitals_done) {
			stp_cxs.vitals_done = true;
			stp_cxs.at_sample = 0;
			return stp_cx_vital_rec(stp_cx_rec, vi);
		}
		ns = min_t(long, stp_atomic_read(&cp->claimed), CX_SAMPLES);
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
					cx_clear(stp_cx, stp_cxs.closed);
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

static int stp_cx_init(void)
{
	struct dentry *d;

	stp_cx = vzalloc(sizeof(*stp_cx));
	stp_cx_rec = kvzalloc(CX_REC_MAX, GFP_KERNEL);
	if (!stp_cx || !stp_cx_rec)
		goto fail;
	cx_init(stp_cx, 0, 0);
	d = debugfs_create_file("vitals", 0400, stp_dir, NULL, &stp_cx_fops);
	if (!IS_ERR_OR_NULL(d))
		return 0;
fail:
	vfree(stp_cx);
	kvfree(stp_cx_rec);
	stp_cx = NULL;
	stp_cx_rec = NULL;
	return -ENOMEM;
}

static void stp_cx_exit(void)
{
	WRITE_ONCE(stp_cxs.running, false);
	cancel_delayed_work_sync(&stp_cx_work);
	if (stp_cx) {	/* the probes are gone: nobody writes either copy */
		stp_cx_unpin(0);
		stp_cx_unpin(1);
	}
	vfree(stp_cx);
	kvfree(stp_cx_rec);
	stp_cx = NULL;
	stp_cx_rec = NULL;
}
