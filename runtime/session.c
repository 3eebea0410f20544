// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The session: a module's life from load to unload, and each probe hit's
 * entry and exit.  States:
 *
 *   STARTING  loaded; stprun's START runs the begin probes
 *   RUNNING   begin probes done; timers, kprobes and uprobes armed
 *   STOPPING  exit() or stprun's STOP: nothing but end probes runs
 *   ERROR     too many errors: nothing but error probes runs
 *   DONE      end or error probes ran, output flushed
 *
 * Every change of state goes through stp_state_move(), a compare and
 * exchange from the states it may leave: an error racing with exit()
 * on another CPU cannot turn STOPPING into ERROR (and run the error
 * probes instead of the end probes), nor can a late STOPPING hide an
 * ERROR.
 *
 * The functions a probe hit calls are notrace and NOKPROBE_SYMBOL, so
 * that the runtime cannot probe itself; a probe on a kernel function
 * they call finds its CPU's context busy and counts a skip (probe.h).
 *
 * Included once, after the generated code, which provides the probe
 * tables (stp_begin, stp_end, stp_errorp, stp_timers) and stp_gen_alloc,
 * stp_gen_free, STP_CONTEXT_SIZE.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/kprobes.h>

atomic_t stp_state = ATOMIC_INIT(STP_STARTING);
static atomic_long_t stp_errors = ATOMIC_LONG_INIT(0);
static atomic_long_t stp_skipped = ATOMIC_LONG_INIT(0);
static atomic_t stp_exit_sent = ATOMIC_INIT(0);
static DEFINE_MUTEX(stp_session_lock);
DEFINE_PER_CPU(struct stp_ctx *, stp_ctx_of);
stp_atomic_t stp_events[STP_EV_COUNT];
const char stp_next_mark[] = "next";
int stp_target_pid;
int stp_verbose;
module_param_named(stpd_verbose, stp_verbose, int, 0444);

static long stp_maxerrors = MAXERRORS;
module_param_named(stpd_MAXERRORS, stp_maxerrors, long, 0444);
static long stp_maxskipped = MAXSKIPPED;
module_param_named(stpd_MAXSKIPPED, stp_maxskipped, long, 0444);

#define STP_FROM(s)	(1u << (s))
#define STP_LIVE	(STP_FROM(STP_STARTING) | STP_FROM(STP_RUNNING))

/*
 * The state becomes to when it is one of from (a mask of STP_FROM()),
 * atomically.  Returns the state it found: the move happened when that
 * is in from.
 */
static notrace int stp_state_move(unsigned int from, int to)
{
	int s = atomic_read(&stp_state), old;

	while (from & STP_FROM(s)) {
		old = atomic_cmpxchg(&stp_state, s, to);
		if (old == s)
			break;
		s = old;
	}
	return s;
}
NOKPROBE_SYMBOL(stp_state_move);

notrace void stp_error_at(struct stp_ctx *c, const char *msg, const char *where)
{
	c->error = msg;
	c->error_where = where;
}
NOKPROBE_SYMBOL(stp_error_at);

notrace void stp_error_fmt(struct stp_ctx *c, const char *where,
			   const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(c->errbuf, sizeof(c->errbuf), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(c->errbuf))
		stp_count(STP_EV_STR_TRUNC);
	c->error = c->errbuf;
	c->error_where = where;
}
NOKPROBE_SYMBOL(stp_error_fmt);

/*
 * Ask stprun to stop us; once.  Lock-free: the control channel hands
 * stprun the EXIT when it next reads (transport.c).
 */
notrace void stp_request_exit(void)
{
	if (!atomic_xchg(&stp_exit_sent, 1))
		stp_ctl_post_exit();
}
NOKPROBE_SYMBOL(stp_request_exit);

notrace void stp_request_stop(void)
{
	stp_state_move(STP_LIVE, STP_STOPPING);
	stp_request_exit();
}
NOKPROBE_SYMBOL(stp_request_stop);

/* After a handler of probe p that set c->error: 0 when that was next's
 * mark, else the error reported, -1.  Either way c->error is NULL again,
 * as every hit expects it (probe.h). */
notrace int stp_report_error(struct stp_ctx *c, const struct stp_probe *p)
{
	long n;

	if (c->error == stp_next_mark) {
		c->error = NULL;
		return 0;
	}
	n = atomic_long_inc_return(&stp_errors);
	if (c->error_where)
		stp_ctl_printf(STP_MSG_ERROR, "ERROR: %s near %s (probe %s)\n",
			       c->error, c->error_where, p->pp);
	else
		stp_ctl_printf(STP_MSG_ERROR, "ERROR: %s (probe %s)\n",
			       c->error, p->pp);
	c->error = NULL;
	if (n > stp_maxerrors) {
		/* End probes skip the rest of themselves, not the others. */
		stp_state_move(STP_LIVE, STP_ERROR);
		stp_request_exit();
	}
	return -1;
}
NOKPROBE_SYMBOL(stp_report_error);

notrace void stp_skip(enum stp_event why)
{
	stp_count(why);
	if (atomic_long_inc_return(&stp_skipped) > stp_maxskipped &&
	    stp_state_move(STP_FROM(STP_RUNNING), STP_ERROR) == STP_RUNNING) {
		atomic_long_inc(&stp_errors);
		stp_ctl_printf(STP_MSG_ERROR,
			       "ERROR: Skipped too many probes, check MAXSKIPPED\n");
		stp_request_exit();
	}
}
NOKPROBE_SYMBOL(stp_skip);

notrace bool stp_on_flush_enter(void)
{
	return stp_ctx_enter() != NULL;
}
NOKPROBE_SYMBOL(stp_on_flush_enter);

notrace void stp_on_flush_exit(void)
{
	stp_ctx_exit(this_cpu_read(stp_ctx_of));
}
NOKPROBE_SYMBOL(stp_on_flush_exit);

/* The hit path for callers that only have the probe (timers, begin, end). */
notrace int stp_run_probe(const struct stp_probe *p, struct pt_regs *regs,
			  void *entry)
{
	return stp_probe_hit(p, p->handler, regs, entry);
}
NOKPROBE_SYMBOL(stp_run_probe);

/*
 * A probe family whose part of the module arms its probes itself (the
 * translator's families/NAME/NAME_kmod.c, with no file here) has the
 * module define stp_family_arm() and stp_family_disarm(), calling each
 * such family's; disarm copes with what arm did not do.
 */
#ifndef STP_FAMILY_ARM
static inline int stp_family_arm(void) { return 0; }
static inline void stp_family_disarm(void) { }
#endif

static int stp_arm(void)
{
	int rc = stp_kprobes_arm();

	if (!rc)
		rc = stp_tracepoints_arm();
	if (!rc)
		rc = stp_sysdispatch_arm();
	if (!rc)
		rc = stp_netfilter_arm();
	if (!rc)
		rc = stp_uprobes_arm();
	if (!rc)
		rc = stp_procprobes_arm();
	if (!rc)
		rc = stp_procfs_arm();
	if (!rc)
		rc = stp_perf_arm();
	if (!rc)
		rc = stp_hwbkpt_arm();
	if (!rc)
		rc = stp_family_arm();
	return rc ? rc : stp_timers_arm();
}

static void stp_disarm(void)
{
	stp_procfs_disarm();
	stp_timers_disarm();
	stp_perf_disarm();
	stp_hwbkpt_disarm();
	stp_family_disarm();
	stp_procprobes_disarm();
	stp_uprobes_disarm();
	stp_netfilter_disarm();
	stp_sysdispatch_disarm();
	stp_tracepoints_disarm();
	atomic_long_add(stp_kprobes_disarm(), &stp_skipped);
}

static void stp_run_list(const struct stp_probe *const *list, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		stp_run_probe(list[i], NULL, NULL);
		cond_resched();
	}
}

void stp_on_start(const struct stp_msg_start *m)
{
	struct stp_msg_started r = { 0 };

	mutex_lock(&stp_session_lock);
	if (atomic_read(&stp_state) != STP_STARTING) {
		mutex_unlock(&stp_session_lock);
		return;
	}
	stp_target_pid = m->target;
	WRITE_ONCE(stp_stprun_pid, current->tgid);
	stp_run_list(stp_begin, STP_NBEGIN);
	if (stp_state_move(STP_FROM(STP_STARTING), STP_RUNNING) == STP_STARTING) {
		r.rc = stp_arm();
		if (r.rc) {
			stp_state_move(STP_LIVE | STP_FROM(STP_STOPPING),
				       STP_ERROR);
			atomic_long_inc(&stp_errors);
			stp_ctl_printf(STP_MSG_ERROR,
				       "ERROR: could not register the probes (%d)\n", r.rc);
			stp_request_exit();
		}
	}
	stp_transport_flush_all();
	stp_ctl_send(STP_MSG_STARTED, &r, sizeof(r));
	mutex_unlock(&stp_session_lock);
}

/* Disarm, run end (or error) probes, flush; quiet when nobody listens. */
static void stp_finish(int report)
{
	struct stp_msg_done *d;
	size_t sz = sizeof(*d) + STP_EV_COUNT * sizeof(d->events[0]);
	int i, s;

	mutex_lock(&stp_session_lock);
	s = stp_state_move(STP_LIVE, STP_STOPPING);
	if (s == STP_DONE) {
		mutex_unlock(&stp_session_lock);
		return;
	}
	stp_disarm();
	if (s != STP_STARTING || report) {
		if (atomic_read(&stp_state) == STP_STOPPING)
			stp_run_list(stp_end, STP_NEND);
		if (atomic_read(&stp_state) == STP_ERROR)
			stp_run_list(stp_errorp, STP_NERRORP);
	}
	stp_state_move(~STP_FROM(STP_DONE), STP_DONE);
	if (report)
		stp_cx_session_end();
	stp_transport_flush_all();
	stp_throttle_collect();
	if (report) {
		d = kzalloc(sz, GFP_KERNEL);
		if (d) {
			d->errors = atomic_long_read(&stp_errors);
			d->skipped = atomic_long_read(&stp_skipped);
			d->nevents = STP_EV_COUNT;
			for (i = 0; i < STP_EV_COUNT; i++)
				d->events[i] = stp_atomic_read(&stp_events[i]);
			stp_ctl_send(STP_MSG_DONE, d, sz);
			kfree(d);
		}
	}
	mutex_unlock(&stp_session_lock);
}

void stp_on_stop(void)
{
	stp_finish(1);
}

void stp_on_release(void)
{
	stp_finish(0);
}

static int __init stp_init(void)
{
	int cpu, rc;

	for_each_possible_cpu(cpu) {
		per_cpu(stp_ctx_of, cpu) = stp_zalloc(STP_CONTEXT_SIZE);
		if (!per_cpu(stp_ctx_of, cpu)) {
			rc = -ENOMEM;
			goto fail;
		}
	}
	rc = stp_gen_alloc();
	if (!rc)
		rc = stp_regex_alloc();
	if (!rc)
		rc = stp_stack_alloc();
	if (!rc)
		rc = stp_transport_init(KBUILD_MODNAME);
	if (!rc)
		rc = stp_cx_init();
	if (rc) {
		stp_transport_exit();
		stp_stack_free();
		stp_regex_free();
		stp_gen_free();
		goto fail;
	}
	/* a CPU's context and its print buffer stay paired for good */
	for_each_possible_cpu(cpu)
		per_cpu(stp_ctx_of, cpu)->out = stp_transport_out_cpu(cpu);
	return 0;
fail:
	for_each_possible_cpu(cpu)
		stp_free(per_cpu(stp_ctx_of, cpu));
	return rc;
}

static void __exit stp_exit(void)
{
	int cpu;

	stp_finish(0);
	stp_cx_exit();
	stp_transport_exit();
	stp_regex_free();
	stp_stack_free();
	stp_gen_free();
	for_each_possible_cpu(cpu)
		stp_free(per_cpu(stp_ctx_of, cpu));
}

module_init(stp_init);
module_exit(stp_exit);
MODULE_LICENSE("GPL");
