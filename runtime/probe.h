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

enum { STP_STARTING = STP_PK_BEGIN, STP_RUNNING = STP_PK_EVENT,
       STP_STOPPING = STP_PK_END, STP_ERROR = STP_PK_ERROR, STP_DONE };

extern atomic_t stp_state;
extern struct stp_ctx **stp_contexts;
void stp_skip(enum stp_event why);
void stp_report_error(struct stp_ctx *c);

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
	struct stp_ctx *c = stp_contexts[smp_processor_id()];

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
	/* nesting is back at 0 after every hit; error_where goes with error */
	c->actions = 0;
	c->error = NULL;
	c->probe = p;
	c->regs = regs;
	if (entry)		/* only a kretprobe's handlers read it */
		c->entry = entry;
	/* overload (throttle.h): a decrement, and now and then a look */
	if (stp_throttle_due(&c->thr) && stp_throttle_begin(c, p->kind))
		goto done;
	if (unlikely(stp_locks_take(p->locks, p->nlocks))) {
		stp_skip(STP_EV_SKIP_LOCK);
	} else {
		handler(c);
		stp_locks_drop(p->locks, p->nlocks);
		rc = 0;
		if (unlikely(c->error) && c->error != stp_next_mark) {
			stp_report_error(c);
			rc = -1;
		}
	}
	if (unlikely(c->out->len))
		stp_out_flush(c->out);
	if (stp_throttle_timed(&c->thr))
		stp_throttle_end(c);
done:
	stp_ctx_exit(c);
out:
	local_irq_restore(flags);
	return rc;
}

#endif
