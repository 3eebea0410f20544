// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * 6.12: uprobe_register() returns the uprobe, and unregistering is
 * uprobe_unregister_nosync() on it, then uprobe_unregister_sync() once.
 */
#include <linux/uprobes.h>

void stp_feature_test(struct inode *inode, struct uprobe_consumer *uc)
{
	struct uprobe *u = uprobe_register(inode, 0, 0, uc);

	uprobe_unregister_nosync(u, uc);
	uprobe_unregister_sync();
}
