/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A closed Chopstix epoch in stprun, between epoch.c (which reads it from
 * the module and stores it) and epoch_sum.c (which prints its summary).
 */
#ifndef STPRUN_EPOCH_H
#define STPRUN_EPOCH_H

#include <stdio.h>
#include "../store/store.h"

struct epoch {
	struct vx_epoch e;
	struct vx_vital *v;
	struct vx_sample *s;
	uint64_t seq;
	uint32_t missed;
	int final;
};

/* The epoch's summary: a line per vital sign, with its top sites. */
void epoch_summary(const struct epoch *ep, FILE *out);

/* Unique events estimated from an HCA (linear counting). */
uint64_t epoch_unique(const uint32_t *hca, uint32_t n);

#endif
