/* SPDX-License-Identifier: GPL-2.0-or-later */
/* timer.* probes (timer.c); the generated code fills a table of these. */
#ifndef STP_TIMER_H
#define STP_TIMER_H

#include <linux/hrtimer.h>

struct stp_timer;

struct stp_hrt {
	struct hrtimer hr;
	struct stp_timer *t;
};

struct stp_timer {
	const struct stp_probe *probe;
	s64 interval_ns, randomize_ns;
	int percpu;			/* timer.profile */
	int armed;
	struct stp_hrt one;
	struct stp_hrt *cpus;		/* percpu: nr_cpu_ids of them */
};

#endif
