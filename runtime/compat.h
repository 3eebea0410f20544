/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel API differences, in one place.  STP_HAVE_* come from the feature
 * tests pass 4 runs against the target's headers (translator/build.c,
 * runtime/features/), cached per kernel, written to stp_features.h.
 */
#ifndef STP_COMPAT_H
#define STP_COMPAT_H

#include "stp_features.h"
#include <linux/hrtimer.h>

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

#endif
