// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The transport between a module and stprun (protocol: transport_msg.h).
 *
 * Output.  Each CPU has a print buffer (struct stp_out) that probe
 * handlers fill with interrupts off; flushing it reserves one record in
 * the CPU's relay buffer (debugfs stp_NAME/traceN) and copies it there.
 * A relay reservation moves the write offset before the bytes are
 * copied, so a reader on another CPU could see half a record if it read
 * the sub-buffer being written.  The traceN files therefore only give
 * out sub-buffers that are complete; a periodic work item (and
 * stp_transport_flush_all) closes each CPU's partly filled sub-buffer
 * by running on that CPU with interrupts off, where no handler of that
 * CPU can be half way through a record.  When the reader falls behind,
 * subbuf_start refuses to overwrite unread sub-buffers and the lost
 * bytes are counted (STP_EV_OUT_DROPPED).  The flush enters the CPU's
 * context as a probe hit does (stp_on_flush_enter, which is
 * stp_ctx_enter of probe.h in a generated module), so that a probe
 * on a function the flush calls, or an NMI, cannot append to the
 * buffers in the middle of a copy: it counts a skip instead.  A CPU
 * taken offline keeps its relay buffer; stp_transport_flush_all closes
 * its sub-buffer from here (nothing can write to it while it is down).
 *
 * Control.  One file, stp_NAME/ctl, with a single opener.  Messages to
 * stprun wait in a preallocated byte ring under a raw spinlock.  A
 * sender with interrupts off (a probe hit, perhaps in NMI, perhaps on
 * a function called while this CPU holds the lock) only tries the lock
 * a bounded number of times and counts a failure as a dropped message;
 * only a sender with interrupts on (process context, which cannot have
 * interrupted a holder) waits for it.  A full ring drops the message
 * and counts it.  exit() needs no lock: it sets a flag, and the reader
 * hands stprun an EXIT after the messages queued before it.  Senders
 * never wake the reader (a probe may fire inside the scheduler): the
 * reader sleeps at most STP_CTL_WAIT_MS and looks again, and only
 * process-context paths (the write handler, after the session hooks
 * ran) wake it early.
 */
#include <linux/module.h>
#include <linux/debugfs.h>
#include <linux/relay.h>
#include <linux/percpu.h>
#include <linux/cpu.h>
#include <linux/mm.h>
#include <linux/spinlock.h>
#include <linux/mutex.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/uaccess.h>
#include <linux/fs.h>
#include <linux/kprobes.h>
#include "transport.h"

#define STP_CTL_RING	(64 * 1024)	/* queued control bytes */
#define STP_CTL_WMAX	4096		/* largest message stprun may write */
#ifndef STP_CTL_TEXT
#define STP_CTL_TEXT	1024		/* largest stp_ctl_printf text */
#endif
#define STP_CTL_TRIES	1000		/* lock tries with interrupts off */
#define STP_CTL_WAIT_MS	50		/* a read waits this long for news */
#define STP_FLUSH_MS	100		/* close partial sub-buffers this often */
#define STP_NSUBBUFS	8		/* sub-buffers per CPU, at most */

unsigned long stp_bufsize = 1024 * 1024;
module_param(stp_bufsize, ulong, 0444);
MODULE_PARM_DESC(stp_bufsize, "relay buffer bytes per CPU (stprun -b)");

static struct dentry *stp_dir;
int stp_stprun_pid;
static struct rchan *stp_chan;
static struct file_operations stp_trace_fops;	/* relay's, own read */
static atomic_t stp_seq = ATOMIC_INIT(0);
static DEFINE_PER_CPU(struct stp_out, stp_outs);
static void stp_flush_fn(struct work_struct *w);
static DECLARE_DELAYED_WORK(stp_flush_work, stp_flush_fn);

/* stp_ctl_printf's text, per CPU: too big for a probe's stack */
struct stp_ctl_text {
	int busy;		/* a printf on this CPU is under way */
	char buf[STP_CTL_TEXT];
};

static struct {
	raw_spinlock_t lock;
	char *ring;		/* STP_CTL_RING bytes */
	size_t head, tail;	/* free-running byte counts */
	char *bounce;		/* read staging, STP_CTL_RING bytes */
	struct stp_ctl_text __percpu *text;
	atomic_t exit;		/* 1: EXIT posted, 2: handed to stprun */
	wait_queue_head_t wait;
	struct mutex io;	/* read and write of the ctl file */
	atomic_t open;		/* the single opener is in */
	bool done;		/* STP_MSG_DONE was queued */
	bool detached;		/* STP_MSG_DETACH: a close leaves it running */
	u32 next_seq;		/* the detached stprun's, for the next one */
	s64 dropped;		/* STP_EV_OUT_DROPPED when it detached */
} stp_ctl = {
	.lock = __RAW_SPIN_LOCK_UNLOCKED(stp_ctl.lock),
	.wait = __WAIT_QUEUE_HEAD_INITIALIZER(stp_ctl.wait),
	.io = __MUTEX_INITIALIZER(stp_ctl.io),
};

/* ---- output: print buffers and relay ---------------------------------- */

/* The stp_out flush function: one record into this CPU's relay buffer. */
static notrace void stp_out_to_relay(struct stp_out *o)
{
	struct stp_rec_hdr h;
	unsigned long flags;
	char *p;

	if (!o->len)
		return;
	local_irq_save(flags);
	p = relay_reserve(stp_chan, sizeof(h) + o->len);
	if (p) {
		h.seq = atomic_inc_return(&stp_seq);
		h.len = o->len;
		memcpy(p, &h, sizeof(h));
		memcpy(p + sizeof(h), o->buf, o->len);
	} else {
		stp_count_n(STP_EV_OUT_DROPPED, o->len);
	}
	o->len = 0;
	local_irq_restore(flags);
}
NOKPROBE_SYMBOL(stp_out_to_relay);

struct stp_out *stp_transport_out(void)
{
	return this_cpu_ptr(&stp_outs);
}

struct stp_out *stp_transport_out_cpu(int cpu)
{
	return per_cpu_ptr(&stp_outs, cpu);
}

static bool stp_subbuf_partial(struct rchan_buf *buf)
{
	return buf && READ_ONCE(buf->offset) > 0 &&
		READ_ONCE(buf->offset) <= stp_chan->subbuf_size;
}

/*
 * Runs on the CPU whose buffers it flushes, with interrupts off
 * (an IPI, or a direct call with interrupts off).  A busy context means
 * this interrupted the runtime on this CPU (it cannot be a hit: they
 * run with interrupts off); the next flush will do.
 */
static notrace void stp_flush_this_cpu(void *unused)
{
	struct rchan_buf *buf = *this_cpu_ptr(stp_chan->buf);

	if (!stp_on_flush_enter())
		return;
	stp_out_to_relay(this_cpu_ptr(&stp_outs));
	if (stp_subbuf_partial(buf))
		relay_switch_subbuf(buf, 0);
	stp_on_flush_exit();
}
NOKPROBE_SYMBOL(stp_flush_this_cpu);

/*
 * An offline CPU's buffers, from here: its sub-buffer is closed so the
 * reader gets it; bytes still in its print buffer (it went down in the
 * middle of a hit) cannot be numbered in order any more and are
 * counted.  Under cpus_read_lock, so it stays down.
 */
static void stp_flush_offline_cpu(int cpu)
{
	struct rchan_buf *buf = *per_cpu_ptr(stp_chan->buf, cpu);
	struct stp_out *o = per_cpu_ptr(&stp_outs, cpu);

	if (o->len) {
		stp_count_n(STP_EV_OUT_OFFLINE, o->len);
		o->len = 0;
	}
	if (stp_subbuf_partial(buf))
		relay_switch_subbuf(buf, 0);
}

static bool stp_cpu_pending(int cpu)
{
	if (READ_ONCE(per_cpu_ptr(&stp_outs, cpu)->len))
		return true;
	return stp_subbuf_partial(*per_cpu_ptr(stp_chan->buf, cpu));
}

void stp_transport_flush_all(void)
{
	int cpu;

	if (!stp_chan)
		return;
	cpus_read_lock();
	for_each_possible_cpu(cpu) {
		if (!stp_cpu_pending(cpu))
			continue;
		if (cpu_online(cpu))
			smp_call_function_single(cpu, stp_flush_this_cpu,
						 NULL, 1);
		else
			stp_flush_offline_cpu(cpu);
	}
	cpus_read_unlock();
}

/*
 * Detached, nobody reads: closing a partial sub-buffer would only waste
 * the rest of it (a line a tick would fill every sub-buffer in a few
 * ticks).  Handlers flush their print buffers themselves; the attach
 * closes what is partial.
 */
static void stp_flush_fn(struct work_struct *w)
{
	if (!READ_ONCE(stp_ctl.detached))
		stp_transport_flush_all();
	schedule_delayed_work(&stp_flush_work,
			      msecs_to_jiffies(STP_FLUSH_MS));
}

/*
 * The reader's own copy out of complete sub-buffers, not relay's read:
 * relay's read takes "produced - consumed >= n_subbufs" to mean the
 * writer overwrote the oldest sub-buffer, and skips it.  Here the writer
 * never overwrites (stp_subbuf_start), but a reserve on a full buffer
 * passes through exactly that state (relay_switch_subbuf sets offset 0,
 * then the refusal sets it past the end), so a reader on another CPU
 * could throw away a whole sub-buffer of output unread and uncounted.
 * One reader at a time (stp_trace_mutex); the writer only reads
 * subbufs_consumed, which moves on once the bytes are copied.
 */
static DEFINE_MUTEX(stp_trace_mutex);

static ssize_t stp_trace_copy(struct rchan_buf *buf, char __user *ubuf,
			      size_t count)
{
	size_t sz = buf->chan->subbuf_size, n = buf->chan->n_subbufs;
	size_t produced = READ_ONCE(buf->subbufs_produced);
	size_t consumed = buf->subbufs_consumed;
	size_t idx = consumed % n, left, take;
	char *from;

	smp_rmb();	/* padding[] and data before subbufs_produced */
	if (produced == consumed)
		return 0;
	left = sz - buf->padding[idx] - buf->bytes_consumed;
	take = min(left, count);
	from = (char *)buf->start + idx * sz + buf->bytes_consumed;
	if (take && copy_to_user(ubuf, from, take))
		return -EFAULT;
	buf->bytes_consumed += take;
	if (take == left) {
		buf->bytes_consumed = 0;
		smp_mb();	/* the bytes are out before the slot is free */
		WRITE_ONCE(buf->subbufs_consumed, consumed + 1);
	}
	return take;
}

static ssize_t stp_trace_read(struct file *f, char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	struct rchan_buf *buf = f->private_data;
	size_t done = 0;
	ssize_t r = 0;

	mutex_lock(&stp_trace_mutex);
	while (done < count) {
		size_t before = READ_ONCE(buf->subbufs_consumed);

		r = stp_trace_copy(buf, ubuf + done, count - done);
		if (r < 0)
			break;
		done += r;
		if (!r && READ_ONCE(buf->subbufs_consumed) == before)
			break;	/* nothing complete left */
		r = 0;
	}
	mutex_unlock(&stp_trace_mutex);
	*ppos += done;
	return done ? done : r;
}

static int stp_subbuf_start(struct rchan_buf *buf, void *subbuf,
			    void *prev_subbuf, size_t prev_padding)
{
	return !relay_buf_full(buf);	/* never overwrite unread output */
}

static struct dentry *stp_create_buf_file(const char *name,
					  struct dentry *parent, umode_t mode,
					  struct rchan_buf *buf,
					  int *is_global)
{
	*is_global = 0;
	return debugfs_create_file(name, 0400, parent, buf, &stp_trace_fops);
}

static int stp_remove_buf_file(struct dentry *d)
{
	debugfs_remove(d);
	return 0;
}

static const struct rchan_callbacks stp_relay_cb = {
	.subbuf_start = stp_subbuf_start,
	.create_buf_file = stp_create_buf_file,
	.remove_buf_file = stp_remove_buf_file,
};

static int stp_relay_open(void)
{
	size_t min = PAGE_ALIGN(STP_BUFFER_SIZE + sizeof(struct stp_rec_hdr));
	size_t n = STP_NSUBBUFS, sz = PAGE_ALIGN(stp_bufsize / n);

	if (sz < min) {
		sz = min;
		n = clamp_t(size_t, stp_bufsize / min, 2, STP_NSUBBUFS);
	}
	stp_trace_fops = relay_file_operations;
	stp_trace_fops.owner = THIS_MODULE;
	stp_trace_fops.read = stp_trace_read;
	stp_chan = relay_open("trace", stp_dir, sz, n, &stp_relay_cb, NULL);
	return stp_chan ? 0 : -ENOMEM;
}

static int stp_outs_alloc(void)
{
	struct stp_out *o;
	int cpu;

	for_each_possible_cpu(cpu) {
		o = per_cpu_ptr(&stp_outs, cpu);
		o->buf = kvzalloc(STP_BUFFER_SIZE, GFP_KERNEL);
		if (!o->buf)
			return -ENOMEM;
		o->len = 0;
		o->cap = STP_BUFFER_SIZE;
		o->flush = stp_out_to_relay;
	}
	return 0;
}

static void stp_outs_free(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		kvfree(per_cpu_ptr(&stp_outs, cpu)->buf);
		per_cpu_ptr(&stp_outs, cpu)->buf = NULL;
	}
}

/* ---- control channel -------------------------------------------------- */

static void stp_ring_put(const void *p, size_t n)
{
	size_t at = stp_ctl.head % STP_CTL_RING, first;

	first = min(n, (size_t)STP_CTL_RING - at);
	memcpy(stp_ctl.ring + at, p, first);
	memcpy(stp_ctl.ring, (const char *)p + first, n - first);
	stp_ctl.head += n;
}

static void stp_ring_get(void *p, size_t off, size_t n)
{
	size_t at = off % STP_CTL_RING, first;

	first = min(n, (size_t)STP_CTL_RING - at);
	memcpy(p, stp_ctl.ring + at, first);
	memcpy((char *)p + first, stp_ctl.ring, n - first);
}

/*
 * The ring's lock, interrupts off.  wait: spin until it is free (only
 * with interrupts on before: process context); else a bounded number
 * of tries, for a probe hit or an NMI may have come in on this CPU
 * while it holds the lock.  false when it was not taken.
 */
static notrace bool stp_ctl_lock(unsigned long *flags, bool wait)
{
	int tries;

	local_irq_save(*flags);
	if (wait) {
		raw_spin_lock(&stp_ctl.lock);
		return true;
	}
	for (tries = 0; tries < STP_CTL_TRIES; tries++) {
		if (raw_spin_trylock(&stp_ctl.lock))
			return true;
		cpu_relax();
	}
	local_irq_restore(*flags);
	return false;
}
NOKPROBE_SYMBOL(stp_ctl_lock);

static notrace void stp_ctl_unlock(unsigned long flags)
{
	raw_spin_unlock(&stp_ctl.lock);
	local_irq_restore(flags);
}
NOKPROBE_SYMBOL(stp_ctl_unlock);

static notrace int __stp_ctl_send(u32 type, const void *payload, u32 len,
				  bool wait)
{
	struct stp_msg_hdr h = { .type = type, .len = len };
	unsigned long flags;
	int rc = 0;

	if (!stp_ctl.ring)
		return -ENODEV;
	if (!stp_ctl_lock(&flags, wait)) {
		stp_count(STP_EV_MSG_DROPPED);
		return -EBUSY;
	}
	if (STP_CTL_RING - (stp_ctl.head - stp_ctl.tail) < sizeof(h) + len) {
		stp_count(STP_EV_MSG_DROPPED);
		rc = -ENOSPC;
	} else {
		stp_ring_put(&h, sizeof(h));
		stp_ring_put(payload, len);
		if (type == STP_MSG_DONE)
			stp_ctl.done = true;
	}
	stp_ctl_unlock(flags);
	return rc;
}
NOKPROBE_SYMBOL(__stp_ctl_send);

notrace int stp_ctl_send(u32 type, const void *payload, u32 len)
{
	return __stp_ctl_send(type, payload, len, !irqs_disabled());
}
NOKPROBE_SYMBOL(stp_ctl_send);

/*
 * The text goes to this CPU's buffer, interrupts off; an NMI that comes
 * in while it is in use drops its message (counted).
 */
notrace int stp_ctl_printf(u32 type, const char *fmt, ...)
{
	bool wait = !irqs_disabled();
	struct stp_ctl_text *t;
	unsigned long flags;
	va_list ap;
	int n, rc = -EBUSY;

	if (!stp_ctl.text)
		return -ENODEV;
	local_irq_save(flags);
	t = this_cpu_ptr(stp_ctl.text);
	if (READ_ONCE(t->busy)) {
		stp_count(STP_EV_MSG_DROPPED);
		goto out;
	}
	WRITE_ONCE(t->busy, 1);
	barrier();
	va_start(ap, fmt);
	n = vsnprintf(t->buf, sizeof(t->buf), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(t->buf)) {	/* cut, still a whole line */
		stp_count(STP_EV_MSG_TRUNC);
		n = sizeof(t->buf) - 1;
		t->buf[n - 1] = '\n';
	}
	rc = __stp_ctl_send(type, t->buf, n, wait);
	barrier();
	WRITE_ONCE(t->busy, 0);
out:
	local_irq_restore(flags);
	return rc;
}
NOKPROBE_SYMBOL(stp_ctl_printf);

notrace void stp_ctl_post_exit(void)
{
	atomic_cmpxchg(&stp_ctl.exit, 0, 1);
}
NOKPROBE_SYMBOL(stp_ctl_post_exit);

static bool stp_ctl_pending(void)
{
	return READ_ONCE(stp_ctl.head) != READ_ONCE(stp_ctl.tail) ||
		atomic_read(&stp_ctl.exit) == 1;
}

/* Move whole messages that fit in max bytes to the bounce buffer. */
static size_t stp_ctl_take(size_t max)
{
	struct stp_msg_hdr h;
	unsigned long flags;
	size_t n = 0, m;

	stp_ctl_lock(&flags, true);
	while (stp_ctl.head != stp_ctl.tail) {
		stp_ring_get(&h, stp_ctl.tail, sizeof(h));
		m = sizeof(h) + h.len;
		if (n + m > max)
			break;
		stp_ring_get(stp_ctl.bounce + n, stp_ctl.tail, m);
		stp_ctl.tail += m;
		n += m;
	}
	/* exit() comes after what was queued before it */
	if (stp_ctl.head == stp_ctl.tail && n + sizeof(h) <= max &&
	    atomic_cmpxchg(&stp_ctl.exit, 1, 2) == 1) {
		h.type = STP_MSG_EXIT;
		h.len = 0;
		memcpy(stp_ctl.bounce + n, &h, sizeof(h));
		n += sizeof(h);
	}
	stp_ctl_unlock(flags);
	return n;
}

static ssize_t stp_ctl_read(struct file *f, char __user *ubuf, size_t count,
			    loff_t *ppos)
{
	size_t n;
	long w;

	/* whoever reads ctl is the stprun (a daemon forks after START) */
	WRITE_ONCE(stp_stprun_pid, current->tgid);
	w = wait_event_interruptible_timeout(stp_ctl.wait, stp_ctl_pending(),
					     msecs_to_jiffies(STP_CTL_WAIT_MS));
	if (w < 0)
		return w;
	mutex_lock(&stp_ctl.io);
	n = stp_ctl_take(min_t(size_t, count, STP_CTL_RING));
	if (!n && stp_ctl_pending()) {
		mutex_unlock(&stp_ctl.io);
		return -EMSGSIZE;	/* the next message needs more room */
	}
	if (n && copy_to_user(ubuf, stp_ctl.bounce, n))
		n = -EFAULT;	/* the messages are lost; stprun gives up */
	mutex_unlock(&stp_ctl.io);
	return n;
}

/*
 * stprun -F leaves, stprun -A comes back (transport_msg.h).  Under
 * stp_ctl.io, as every message from stprun is handled.
 */
static void stp_ctl_detach(const struct stp_msg_detach *m)
{
	stp_ctl.next_seq = m->next_seq;
	stp_ctl.dropped = stp_atomic_read(&stp_events[STP_EV_OUT_DROPPED]);
	WRITE_ONCE(stp_ctl.detached, true);
	WRITE_ONCE(stp_stprun_pid, 0);	/* it leaves; its pid may be reused */
}

static void stp_ctl_attach(void)
{
	struct stp_msg_attached r = { .rc = -ENOENT };

	if (stp_ctl.detached) {
		r.rc = 0;
		r.next_seq = stp_ctl.next_seq;
		r.dropped = stp_atomic_read(&stp_events[STP_EV_OUT_DROPPED]) -
			stp_ctl.dropped;
		WRITE_ONCE(stp_ctl.detached, false);
		stp_transport_flush_all();
	}
	__stp_ctl_send(STP_MSG_ATTACHED, &r, sizeof(r), true);
}

/* One message from stprun; process context, the hooks may sleep. */
static int stp_ctl_handle(const struct stp_msg_hdr *h, const void *payload)
{
	struct stp_msg_start start = { 0 };
	struct stp_msg_detach detach = { 0 };

	switch (h->type) {
	case STP_MSG_START:
		memcpy(&start, payload, min_t(size_t, h->len, sizeof(start)));
		stp_on_start(&start);
		return 0;
	case STP_MSG_STOP:
		stp_on_stop();
		return 0;
	case STP_MSG_DETACH:
		memcpy(&detach, payload, min_t(size_t, h->len, sizeof(detach)));
		stp_ctl_detach(&detach);
		return 0;
	case STP_MSG_ATTACH:
		stp_ctl_attach();
		return 0;
	default:
		return -EINVAL;
	}
}

static ssize_t stp_ctl_write(struct file *f, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	struct stp_msg_hdr h;
	size_t off = 0;
	char *buf;
	int rc = 0;

	if (count > STP_CTL_WMAX)
		return -E2BIG;
	buf = memdup_user(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	mutex_lock(&stp_ctl.io);
	while (!rc && off + sizeof(h) <= count) {
		memcpy(&h, buf + off, sizeof(h));
		if (h.len > count - off - sizeof(h)) {
			rc = -EINVAL;	/* only whole messages */
			break;
		}
		rc = stp_ctl_handle(&h, buf + off + sizeof(h));
		off += sizeof(h) + h.len;
	}
	if (!rc && off != count)
		rc = -EINVAL;
	mutex_unlock(&stp_ctl.io);
	kfree(buf);
	wake_up_interruptible(&stp_ctl.wait);	/* process context: allowed */
	return rc ? rc : count;
}

static int stp_ctl_open(struct inode *inode, struct file *f)
{
	if (atomic_cmpxchg(&stp_ctl.open, 0, 1))
		return -EBUSY;
	return nonseekable_open(inode, f);
}

static int stp_ctl_release(struct inode *inode, struct file *f)
{
	unsigned long flags;
	bool done;

	stp_ctl_lock(&flags, true);
	done = stp_ctl.done;
	stp_ctl_unlock(flags);
	/* a stprun that detached left it running; one that died did not */
	if (!done && !stp_ctl.detached)
		stp_on_release();
	atomic_set(&stp_ctl.open, 0);
	return 0;
}

static const struct file_operations stp_ctl_fops = {
	.owner = THIS_MODULE,
	.open = stp_ctl_open,
	.read = stp_ctl_read,
	.write = stp_ctl_write,
	.release = stp_ctl_release,
};

/* ---- setup and teardown ----------------------------------------------- */

static void stp_transport_free(void)
{
	cancel_delayed_work_sync(&stp_flush_work);
	if (stp_chan)
		relay_close(stp_chan);
	stp_chan = NULL;
	debugfs_remove_recursive(stp_dir);
	stp_dir = NULL;
	stp_outs_free();
	kvfree(stp_ctl.ring);
	kvfree(stp_ctl.bounce);
	free_percpu(stp_ctl.text);
	stp_ctl.ring = NULL;
	stp_ctl.bounce = NULL;
	stp_ctl.text = NULL;
}

int stp_transport_init(const char *modname)
{
	char name[NAME_MAX];
	struct dentry *d;
	int rc = -ENOMEM;

	stp_ctl.ring = kvzalloc(STP_CTL_RING, GFP_KERNEL);
	stp_ctl.bounce = kvzalloc(STP_CTL_RING, GFP_KERNEL);
	stp_ctl.text = alloc_percpu(struct stp_ctl_text);
	if (!stp_ctl.ring || !stp_ctl.bounce || !stp_ctl.text)
		goto fail;
	rc = stp_outs_alloc();
	if (rc)
		goto fail;
	snprintf(name, sizeof(name), STP_DEBUGFS_PREFIX "%s", modname);
	stp_dir = debugfs_create_dir(name, NULL);
	if (IS_ERR_OR_NULL(stp_dir)) {
		rc = stp_dir ? PTR_ERR(stp_dir) : -ENODEV;
		stp_dir = NULL;
		goto fail;
	}
	rc = stp_relay_open();
	if (rc)
		goto fail;
	d = debugfs_create_file("ctl", 0600, stp_dir, NULL, &stp_ctl_fops);
	if (IS_ERR_OR_NULL(d)) {
		rc = d ? PTR_ERR(d) : -ENODEV;
		goto fail;
	}
	schedule_delayed_work(&stp_flush_work, msecs_to_jiffies(STP_FLUSH_MS));
	return 0;
fail:
	stp_transport_free();
	return rc;
}

void stp_transport_exit(void)
{
	stp_transport_free();
}
