// SPDX-License-Identifier: GPL-2.0-or-later
/* 6.13: uprobe handlers take a per-call __u64 *data (for sessions). */
#include <linux/uprobes.h>

static int h(struct uprobe_consumer *uc, struct pt_regs *regs, __u64 *data)
{
	return 0;
}

static int r(struct uprobe_consumer *uc, unsigned long func,
	     struct pt_regs *regs, __u64 *data)
{
	return 0;
}

void stp_feature_test(struct uprobe_consumer *uc)
{
	uc->handler = h;
	uc->ret_handler = r;
}
