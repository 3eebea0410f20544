// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The floor for kernel-function probes: a hand-written module with one
 * kprobe on the same function whose pre_handler only counts.  What any
 * kprobe-based tracer must pay at the least.  symbol is a module
 * parameter (default __x64_sys_getppid); the count is printed to the
 * kernel log on unload.
 */
#include <linux/module.h>
#include <linux/kprobes.h>

static char *symbol = "__x64_sys_getppid";
module_param(symbol, charp, 0444);
static unsigned long hits;

static int pre(struct kprobe *p, struct pt_regs *regs)
{
	hits++;
	return 0;
}

static struct kprobe kp = { .pre_handler = pre };

static int __init floor_init(void)
{
	kp.symbol_name = symbol;
	return register_kprobe(&kp);
}

static void __exit floor_exit(void)
{
	unregister_kprobe(&kp);
	pr_info("floor_kprobe: %lu hits\n", hits);
}

module_init(floor_init);
module_exit(floor_exit);
MODULE_LICENSE("GPL");
