// SPDX-License-Identifier: GPL-2.0-or-later
/* hrtimer_setup() replaced hrtimer_init() + ->function in 6.13. */
#include <linux/hrtimer.h>

static enum hrtimer_restart f(struct hrtimer *t) { return HRTIMER_NORESTART; }

void stp_feature_test(struct hrtimer *t)
{
	hrtimer_setup(t, f, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
}
