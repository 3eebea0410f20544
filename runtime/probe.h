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
int stp_report_error(struct stp_ctx *c, const struct stp_probe *p);

/*
 * Mark c busy; true when it was already.  One test-and-set of memory: an
 * interrupt or NMI comes between instructions, so it finds the mark
 * either set or not, never half done, and no lock prefix is needed for
 * a context only its own CPU touches.
 */
static __always_inline bool stp_ctx_claim(struct stp_ctx *c)
{
	asm goto("btsl $0, %0\n\tjc %l[busy]" : "+m"(c->busy) : : "cc", "memory" : busy);
	return false;
busy: __attribute__((cold));
	return true;
}

/*
 * This CPU's context, marked busy, or NULL when it is busy already (a
 * probe on a function the runtime calls, or an NMI, came in while the
 * runtime was working on this CPU).  Interrupts must be off.  Whatever
 * touches the CPU's print buffer or relay buffer enters first: the
 * probe hit below (through stp_ctx_claim), and the transport's flush
 * (transport.c).  The claim's and the exit's compiler barriers keep the
 * buffer's accesses inside; another CPU never touches this context.
 */
static __always_inline struct stp_ctx *stp_ctx_enter(void)
{
	struct stp_ctx *c = this_cpu_read(stp_ctx_of);

	return stp_ctx_claim(c) ? NULL : c;
}

static __always_inline void stp_ctx_exit(struct stp_ctx *c)
{
	barrier();
	WRITE_ONCE(c->busy, 0);
}

/*
 * The hit itself, on context c, which the caller has marked busy.  0
 * when the handler ran without an error.  A probe whose handler counts
 * no statements (translator/kmod/emit.c: no loop, no call, fewer statements
 * than MAXACTION) leaves c->actions alone: nothing reads it in that hit.
 */
static __always_inline int stp_probe_body(struct stp_ctx *c, const struct stp_probe *p,
					  void (*handler)(struct stp_ctx *c),
					  struct pt_regs *regs, void *entry)
{
	int rc = -1;

	/*
	 * c->error is NULL: every hit leaves it so (stp_report_error).
	 * Nothing but the functions a handler calls reads c->probe, nor
	 * c->actions when it counts none.
	 */
	if (!p->act_static)
		c->actions = 0;
	if (!p->quiet)
		c->probe = p;
	/* a tracepoint's $vars read its arguments, only functions regs */
	if (regs || !p->quiet)
		c->regs = regs;
	if (entry)		/* only a kretprobe's handlers read it */
		c->entry = entry;
	if (unlikely(stp_locks_take(p->locks, p->nlocks))) {
		stp_skip(STP_EV_SKIP_LOCK);
	} else {
		handler(c);
		stp_locks_drop(p->locks, p->nlocks);
		rc = unlikely(c->error) ? stp_report_error(c, p) : 0;
	}
	if (!p->quiet && unlikely(c->out->len))
		stp_out_flush(c->out);
	return rc;
}

/*
 * One hit in STP_OVERLOAD_SAMPLE, and every hit of an overloaded CPU
 * (throttle.h): out of line, so that the common hit pays only the
 * countdown, and its handler called through the pointer.
 */
static noinline notrace int stp_probe_run_slow(struct stp_ctx *c, const struct stp_probe *p,
					       void (*handler)(struct stp_ctx *c),
					       struct pt_regs *regs, void *entry)
{
	int rc;

	if (stp_throttle_begin(c, p->kind))
		return -1;
	rc = stp_probe_body(c, p, handler, regs, entry);
	stp_throttle_end(c);
	return rc;
}
NOKPROBE_SYMBOL(stp_probe_run_slow);

static __always_inline int stp_probe_run(struct stp_ctx *c, const struct stp_probe *p,
					 void (*handler)(struct stp_ctx *c),
					 struct pt_regs *regs, void *entry)
{
	if (stp_throttle_due(&c->thr))
		return stp_probe_run_slow(c, p, handler, regs, entry);
	return stp_probe_body(c, p, handler, regs, entry);
}

/*
 * What a probe's prefix (translator/elab/hoist.c) has of the context: the
 * embedded C it calls reads CONTEXT->entry (a tracepoint's arguments)
 * and CONTEXT->regs, and nothing else, before the hit has a context.
 */
struct stp_pre_ctx {
	void *entry;
	struct pt_regs *regs;
};

/*
 * A prefix runs whatever the session's state: it is pure, or early C
 * that may run even when the hit is then skipped, and callbacks run
 * only between the arming (after begin) and the disarming (before end),
 * so the state it could see is RUNNING or, for an instant, STOPPING.
 * stp_probe_hit() checks the state, as for any hit.  (A compare and a
 * branch on every event, where a vital sign's whole event is a few
 * dozen instructions.)
 */

/*
 * Take this CPU's context and the globals' locks, run the handler,
 * report what went wrong.  Interrupts are off for the whole hit, so the
 * context and the CPU's print buffer are ours alone, and an interrupt's
 * probes wait for the hit to end rather than find the context busy.  0
 * when the handler ran without an error.  A hit in the wrong session
 * state is counted (SKIP_STATE) but is no skip: it is the normal
 * wind-down.
 */
static __always_inline int stp_probe_hit(const struct stp_probe *p,
					 void (*handler)(struct stp_ctx *c),
					 struct pt_regs *regs, void *entry)
{
	struct stp_ctx *c;
	unsigned long flags;
	int rc = -1;

	/* a plain read (no READ_ONCE): one compare with memory; it is
	 * read once here either way */
	if (unlikely(stp_state.counter != p->kind)) {
		stp_count(STP_EV_SKIP_STATE);
		return -1;
	}
	local_irq_save(flags);
	c = this_cpu_read(stp_ctx_of);
	if (unlikely(stp_ctx_claim(c))) {
		stp_skip(STP_EV_SKIP_REENTER);
		goto out;
	}
	rc = stp_probe_run(c, p, handler, regs, entry);
	stp_ctx_exit(c);
out:
	local_irq_restore(flags);
	return rc;
}

#endif
