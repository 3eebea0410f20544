/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kernel.data(...) probes (hwbkpt.c); the generated code fills a table
 * of these, each with its handler (translator/families/hwbkpt/hwbkpt_kmod.c).
 */
#ifndef STP_HWBKPT_H
#define STP_HWBKPT_H

#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>

struct stp_hwbkpt {
	const struct stp_probe *probe;
	perf_overflow_handler_t cb;
	int len;			/* 1, 2, 4 or 8 bytes */
	int rw;				/* reads too, else writes only */
	struct perf_event * __percpu *events;	/* one per CPU, while armed */
};

#endif
