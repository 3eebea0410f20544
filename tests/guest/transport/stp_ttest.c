// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A hand-written module that drives runtime/transport.c the way a
 * generated module's session does, for tests/guest/transport/run.sh.
 * Its session hooks are a stub, not session.c:
 *
 *   START   prints "begin target=T greeting=G", then stpd_LINES lines
 *           "line N", each on CPU N % ncpus (so stprun must merge the
 *           CPUs' buffers by sequence number); width pads each line to
 *           that many bytes.  Then a timer prints "tick N" every 20 ms;
 *           after exit_after ticks it sends a WARNING and EXIT (0: it
 *           never asks to stop).
 *   STOP    prints "bye", flushes and sends DONE with errors=nerrors
 *           and ntrunc strings truncated.
 *   release (stprun died) prints "released" into the void.
 */
#include <linux/module.h>
#include <linux/timer.h>
#include <linux/smp.h>
#include <linux/cpumask.h>

#include "shim.h"
#include "transport.h"

#if __has_include("out.c")
#include "out.c"
#else
/* out.c not written yet: the part of it this test needs. */
void stp_out_flush(struct stp_out *o)
{
	if (o->len && o->flush)
		o->flush(o);
	o->len = 0;
}

void stp_out_write(struct stp_out *o, const char *p, size_t n)
{
	size_t k;

	while (n) {
		if (o->len == o->cap)
			stp_out_flush(o);
		k = min(n, o->cap - o->len);
		memcpy(o->buf + o->len, p, k);
		o->len += k;
		p += k;
		n -= k;
	}
}
#endif
#include "transport.c"

stp_atomic_t stp_events[STP_EV_COUNT];

static int stpd_LINES = 3;
module_param(stpd_LINES, int, 0444);
static int width;
module_param(width, int, 0444);
static int exit_after = 3;
module_param(exit_after, int, 0444);
static int nerrors;
module_param(nerrors, int, 0444);
static int ntrunc;
module_param(ntrunc, int, 0444);
static char *greeting = "hello";
module_param(greeting, charp, 0444);

static struct timer_list tick_timer;
static int ticks;
static atomic_t stopping = ATOMIC_INIT(0);

/* One record on this CPU, as a probe handler would write it. */
static __printf(1, 2) void say(const char *fmt, ...)
{
	char line[512];
	unsigned long flags;
	struct stp_out *o;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vscnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	while (n < width && n < (int)sizeof(line) - 1)
		line[n++] = '.';
	line[n++] = '\n';
	local_irq_save(flags);
	o = stp_transport_out();
	stp_out_write(o, line, n);
	stp_out_flush(o);
	local_irq_restore(flags);
}

static void say_line(void *arg)
{
	say("line %d", *(int *)arg);
}

static void tick(struct timer_list *t)
{
	if (atomic_read(&stopping))
		return;
	ticks++;
	if (exit_after == 0 && ticks > 3) {
		mod_timer(&tick_timer, jiffies + msecs_to_jiffies(20));
		return;
	}
	say("tick %d", ticks);
	if (exit_after && ticks == exit_after) {
		stp_ctl_printf(STP_MSG_WARNING, "WARNING: test warning %d\n",
			       ticks);
		stp_ctl_send(STP_MSG_EXIT, NULL, 0);
		return;
	}
	mod_timer(&tick_timer, jiffies + msecs_to_jiffies(20));
}

void stp_on_start(const struct stp_msg_start *m)
{
	struct stp_msg_started r = { 0 };
	int i, cpu, ncpus = num_online_cpus();

	say("begin target=%d greeting=%s", m->target, greeting);
	for (i = 0; i < stpd_LINES; i++) {
		cpu = cpumask_nth(i % ncpus, cpu_online_mask);
		smp_call_function_single(cpu, say_line, &i, 1);
	}
	stp_transport_flush_all();
	mod_timer(&tick_timer, jiffies + msecs_to_jiffies(20));
	stp_ctl_send(STP_MSG_STARTED, &r, sizeof(r));
}

void stp_on_stop(void)
{
	struct {
		struct stp_msg_done d;
		__s64 ev[STP_EV_COUNT];
	} done = { 0 };
	int i;

	atomic_set(&stopping, 1);
	del_timer_sync(&tick_timer);
	say("bye");
	stp_atomic_add(&stp_events[STP_EV_STR_TRUNC], ntrunc);
	stp_transport_flush_all();
	done.d.errors = nerrors;
	done.d.nevents = STP_EV_COUNT;
	for (i = 0; i < STP_EV_COUNT; i++)
		done.ev[i] = stp_atomic_read(&stp_events[i]);
	stp_ctl_send(STP_MSG_DONE, &done, sizeof(done));
}

void stp_on_release(void)
{
	atomic_set(&stopping, 1);
	del_timer_sync(&tick_timer);
	say("released");
}

/* No probe hits here: nothing else uses a CPU's buffers with ours. */
bool stp_on_flush_enter(void)
{
	return true;
}

void stp_on_flush_exit(void)
{
}

static int __init ttest_init(void)
{
	timer_setup(&tick_timer, tick, 0);
	return stp_transport_init(KBUILD_MODNAME);
}

static void __exit ttest_exit(void)
{
	atomic_set(&stopping, 1);
	del_timer_sync(&tick_timer);
	stp_transport_exit();
}

module_init(ttest_init);
module_exit(ttest_exit);
MODULE_DESCRIPTION("stp transport test");
MODULE_LICENSE("GPL");
