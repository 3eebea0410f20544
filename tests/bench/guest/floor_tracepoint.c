// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The floor for tracepoint probes: a hand-written module whose callback
 * on one tracepoint only counts.  What any tracepoint-based tracer must
 * pay at the least.  name is a module parameter (default sys_enter, whose
 * callback takes (struct pt_regs *, long)); the count is printed to the
 * kernel log on unload.  tests/bench/guest.sh's tracepoint cost.
 */
#include <linux/module.h>
#include <linux/tracepoint.h>

static char *name = "sys_enter";
module_param(name, charp, 0444);
static unsigned long hits;
static struct tracepoint *tp;

static void count(void *data, struct pt_regs *regs, long id)
{
	hits++;
}

static void find(struct tracepoint *t, void *priv)
{
	if (!strcmp(t->name, name))
		tp = t;
}

static int __init floor_init(void)
{
	for_each_kernel_tracepoint(find, NULL);
	if (!tp)
		return -ENOENT;
	return tracepoint_probe_register(tp, count, NULL);
}

static void __exit floor_exit(void)
{
	tracepoint_probe_unregister(tp, count, NULL);
	tracepoint_synchronize_unregister();
	pr_info("floor_tracepoint: %lu hits\n", hits);
}

module_init(floor_init);
module_exit(floor_exit);
MODULE_LICENSE("GPL");
