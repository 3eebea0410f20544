// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The floor for timer probes: a hand-written module with one hrtimer of
 * the same period whose callback only counts.  What any timer-driven
 * tracer must pay at the least.  period_ns is a module parameter; the
 * count is printed to the kernel log on unload.
 */
#include <linux/module.h>
#include <linux/hrtimer.h>

static unsigned long period_ns = 100000;
module_param(period_ns, ulong, 0444);
static struct hrtimer t;
static unsigned long hits;

static enum hrtimer_restart fire(struct hrtimer *h)
{
	hits++;
	hrtimer_forward_now(h, ns_to_ktime(period_ns));
	return HRTIMER_RESTART;
}

static int __init floor_init(void)
{
	hrtimer_init(&t, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	t.function = fire;
	hrtimer_start(&t, ns_to_ktime(period_ns), HRTIMER_MODE_REL);
	return 0;
}

static void __exit floor_exit(void)
{
	hrtimer_cancel(&t);
	pr_info("floor_timer: %lu hits\n", hits);
}

module_init(floor_init);
module_exit(floor_exit);
MODULE_LICENSE("GPL");
