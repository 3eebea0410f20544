/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel API differences, in one place.  STP_HAVE_* come from the feature
 * tests pass 4 runs against the target's headers (translator/kmod/build.c,
 * runtime/features/), cached per kernel, written to stp_features.h.
 */
#ifndef STP_COMPAT_H
#define STP_COMPAT_H

#include "stp_features.h"
#include <linux/hrtimer.h>
#include <linux/uprobes.h>

static inline void stp_hrtimer_setup(struct hrtimer *t,
				     enum hrtimer_restart (*fn)(struct hrtimer *),
				     enum hrtimer_mode mode)
{
#ifdef STP_HAVE_HRTIMER_SETUP
	hrtimer_setup(t, fn, CLOCK_MONOTONIC, mode);
#else
	hrtimer_init(t, CLOCK_MONOTONIC, mode);
	t->function = fn;
#endif
}

/*
 * uprobes: 6.12's uprobe_register() returns the uprobe (or an ERR_PTR),
 * which unregistering takes, and unregistering is two steps, the wait
 * once for all the probes (stp_uprobe_unregister_sync()); before, 0 or
 * -errno, and uprobe_unregister() waits for each.  6.13's handlers take
 * a per-call data pointer: STP_UPROBE_DATA ends their parameter lists.
 * ref_ctr_offset (an SDT marker's semaphore, or 0) is taken by
 * uprobe_register_refctr() before 6.12, by uprobe_register() from then.
 */

static inline int stp_uprobe_register(struct inode *inode, loff_t offset,
				      loff_t ref_ctr_offset,
				      struct uprobe_consumer *uc,
				      struct uprobe **up)
{
#ifdef STP_HAVE_UPROBE_NOSYNC
	*up = uprobe_register(inode, offset, ref_ctr_offset, uc);
	return IS_ERR(*up) ? PTR_ERR(*up) : 0;
#else
	*up = NULL;
	return uprobe_register_refctr(inode, offset, ref_ctr_offset, uc);
#endif
}

static inline void stp_uprobe_unregister(struct inode *inode, loff_t offset,
					 struct uprobe_consumer *uc,
					 struct uprobe *up)
{
#ifdef STP_HAVE_UPROBE_NOSYNC
	uprobe_unregister_nosync(up, uc);
#else
	uprobe_unregister(inode, offset, uc);
#endif
}

static inline void stp_uprobe_unregister_sync(void)
{
#ifdef STP_HAVE_UPROBE_NOSYNC
	uprobe_unregister_sync();
#endif
}

#ifdef STP_HAVE_UPROBE_HANDLER_DATA
#define STP_UPROBE_DATA , __u64 *data
#else
#define STP_UPROBE_DATA
#endif

#endif
