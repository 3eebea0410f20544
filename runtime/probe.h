/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One probe hit, inline: the generated code calls stp_probe_hit() with
 * its probe, handler and locks known at compile time, so the lock loop
 * unrolls and the handler is called directly (no indirect call through
 * a retpoline).  This is the path every kprobe hit takes; see the
 * per-hit benchmark (tests/bench/guest.sh).
 *
 * Session states share their numbers with enum stp_probe_kind: a probe
 * of kind K runs only while the session is in state K.
 */
#ifndef STP_PROBE_H
#define STP_PROBE_H

#include <linux/irqflags.h>
#include <linux/percpu.h>

enum { STP_STARTING = STP_PK_BEGIN, STP_RUNNING = STP_PK_EVENT,
       STP_STOPPING = STP_PK_END, STP_ERROR = STP_PK_ERROR, STP_DONE };

extern atomic_t stp_state;
/* each CPU's context: one gs-relative load on the hit path */
DECLARE_PER_CPU(struct stp_ctx *, stp_ctx_of);
void stp_skip(enum stp_event why);
int stp_report_error(struct stp_ctx *c);

/*
 * This CPU's context, marked busy, or NULL when it is busy already (a
 * probe on a function the runtime calls, or an NMI, came in while the
 * runtime was working on this CPU).  Interrupts must be off.  Whatever
 * touches the CPU's print buffer or relay buffer enters first: the
 * probe hit below, and the transport's flush (transport.c).  The
 * compiler barriers keep the buffer's accesses inside; another CPU
 * never touches this context.
 */
static __always_inline struct stp_ctx *stp_ctx_enter(void)
{
	struct stp_ctx *c = this_cpu_read(stp_ctx_of);

	if (unlikely(READ_ONCE(c->busy)))
		return NULL;
	WRITE_ONCE(c->busy, 1);
	barrier();
	return c;
}

static __always_inline void stp_ctx_exit(struct stp_ctx *c)
{
	barrier();
	WRITE_ONCE(c->busy, 0);
}

/*
 * The hit itself, on context c, which the caller has marked busy.  0
 * when the handler ran without an error.  A probe whose handler counts
 * no statements (translator/emit.c: no loop, no call, fewer statements
 * than MAXACTION) leaves c->actions alone: nothing reads it in that hit.
 */
static __always_inline int stp_probe_run(struct stp_ctx *c, const struct stp_probe *p,
					 void (*handler)(struct stp_ctx *c),
					 struct pt_regs *regs, void *entry)
{
	int rc = -1;

	/* nesting is back at 0 after every hit; error_where goes with error */
	if (!p->act_static)
		c->actions = 0;
	c->error = NULL;
	c->probe = p;
	c->regs = regs;
	if (entry)		/* only a kretprobe's handlers read it */
		c->entry = entry;
	/* overload (throttle.h): a decrement, and now and then a look */
	if (stp_throttle_due(&c->thr) && stp_throttle_begin(c, p->kind))
		return -1;
	if (unlikely(stp_locks_take(p->locks, p->nlocks))) {
		stp_skip(STP_EV_SKIP_LOCK);
	} else {
		handler(c);
		stp_locks_drop(p->locks, p->nlocks);
		rc = unlikely(c->error) ? stp_report_error(c) : 0;
	}
	if (!p->quiet && unlikely(c->out->len))
		stp_out_flush(c->out);
	if (stp_throttle_timed(&c->thr))
		stp_throttle_end(c);
	return rc;
}

/*
 * Take this CPU's context and the globals' locks, run the handler,
 * report what went wrong.  Interrupts are off for the whole hit, so the
 * context and the CPU's print buffer are ours alone.  0 when the
 * handler ran without an error.  A hit in the wrong session state is
 * counted (SKIP_STATE) but is no skip: it is the normal wind-down.
 */
static __always_inline int stp_probe_hit(const struct stp_probe *p,
					 void (*handler)(struct stp_ctx *c),
					 struct pt_regs *regs, void *entry)
{
	struct stp_ctx *c;
	unsigned long flags;
	int rc = -1;

	if (atomic_read(&stp_state) != p->kind) {
		stp_count(STP_EV_SKIP_STATE);
		return -1;
	}
	local_irq_save(flags);
	c = stp_ctx_enter();
	if (unlikely(!c)) {
		stp_skip(STP_EV_SKIP_REENTER);
		goto out;
	}
	rc = stp_probe_run(c, p, handler, regs, entry);
	stp_ctx_exit(c);
out:
	local_irq_restore(flags);
	return rc;
}

/*
 * A tracepoint's hit.  The kernel calls tracepoint probes with
 * preemption off (rcu-sched), so this CPU's context cannot change under
 * the hit, and interrupts stay on: one that comes in while the handler
 * runs finds the context busy, and a probe it hits is skipped and
 * counted (SKIP_REENTER), as under NMI.  The busy mark is read and set
 * without an atomic: an interrupt between the two runs to its end
 * before this hit goes on.  Two fewer flag flips than stp_probe_hit, on
 * the path every tracepoint hit takes (tests/bench/guest.sh).
 */
static __always_inline int stp_probe_hit_preempt_off(const struct stp_probe *p,
						     void (*handler)(struct stp_ctx *c),
						     void *entry)
{
	struct stp_ctx *c;
	int rc;

	if (atomic_read(&stp_state) != p->kind) {
		stp_count(STP_EV_SKIP_STATE);
		return -1;
	}
	c = this_cpu_read(stp_ctx_of);
	if (unlikely(READ_ONCE(c->busy))) {
		stp_skip(STP_EV_SKIP_REENTER);
		return -1;
	}
	WRITE_ONCE(c->busy, 1);
	barrier();
	rc = stp_probe_run(c, p, handler, NULL, entry);
	stp_ctx_exit(c);
	return rc;
}

#endif
