// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * timer.* probes, on high-resolution timers: timer.ms/s/us/ns/hz/jiffies
 * fire one timer each, with an optional random spread; timer.profile
 * fires one per CPU every tick and passes the interrupted registers.
 */
#include <linux/random.h>
#include <asm/irq_regs.h>
#include <linux/smp.h>
#include <linux/kprobes.h>

static s64 stp_timer_next(const struct stp_timer *t)
{
	s64 ns = t->interval_ns;

	if (t->randomize_ns)
		ns += (s64)(get_random_u32() % (u32)(2 * t->randomize_ns + 1)) -
		      t->randomize_ns;
	return ns > 1000 ? ns : 1000;
}

static notrace enum hrtimer_restart stp_timer_fire(struct hrtimer *hr)
{
	struct stp_hrt *h = container_of(hr, struct stp_hrt, hr);
	struct stp_timer *t = h->t;

	if (!READ_ONCE(t->armed))
		return HRTIMER_NORESTART;
	stp_run_probe(t->probe, t->percpu ? get_irq_regs() : NULL, NULL);
	hrtimer_forward_now(hr, ns_to_ktime(stp_timer_next(t)));
	return HRTIMER_RESTART;
}
NOKPROBE_SYMBOL(stp_timer_fire);

static void stp_hrt_init(struct stp_hrt *h, struct stp_timer *t, int pinned)
{
	h->t = t;
	stp_hrtimer_setup(&h->hr, stp_timer_fire,
			  pinned ? HRTIMER_MODE_REL_PINNED : HRTIMER_MODE_REL);
}

/* on_each_cpu: start this CPU's profile timer, pinned to it. */
static void stp_profile_start(void *arg)
{
	struct stp_timer *t = arg;
	struct stp_hrt *h = &t->cpus[smp_processor_id()];

	hrtimer_start(&h->hr, ns_to_ktime(t->interval_ns),
		      HRTIMER_MODE_REL_PINNED);
}

static int stp_timers_arm(void)
{
	int i, cpu;

	for (i = 0; i < STP_NTIMERS; i++) {
		struct stp_timer *t = &stp_timers[i];

		WRITE_ONCE(t->armed, 1);
		if (t->percpu) {
			t->cpus = kcalloc(nr_cpu_ids, sizeof(*t->cpus), GFP_KERNEL);
			if (!t->cpus)
				return -ENOMEM;
			for_each_possible_cpu(cpu)
				stp_hrt_init(&t->cpus[cpu], t, 1);
			on_each_cpu(stp_profile_start, t, 1);
		} else {
			stp_hrt_init(&t->one, t, 0);
			hrtimer_start(&t->one.hr, ns_to_ktime(stp_timer_next(t)),
				      HRTIMER_MODE_REL);
		}
	}
	return 0;
}

static void stp_timers_disarm(void)
{
	int i, cpu;

	for (i = 0; i < STP_NTIMERS; i++) {
		struct stp_timer *t = &stp_timers[i];

		if (!READ_ONCE(t->armed))
			continue;
		WRITE_ONCE(t->armed, 0);
		if (t->percpu) {
			if (!t->cpus)
				continue;
			for_each_possible_cpu(cpu)
				hrtimer_cancel(&t->cpus[cpu].hr);
			kfree(t->cpus);
			t->cpus = NULL;
		} else {
			hrtimer_cancel(&t->one.hr);
		}
	}
}
