/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stp-vitals diff (diff.c): what changed most between two intervals of
 * the store.  Vital signs, programs and sites are ranked by how far their
 * weighted sum per epoch moved from range A to range B.
 */
#ifndef STP_VITALS_DIFF_H
#define STP_VITALS_DIFF_H

#include <stdint.h>

#include "../store/read.h"

struct vdiff_row {
	const char *kind;	/* "vital", "program" or "site" */
	const char *vital;	/* the vital sign it is counted under */
	const char *name;	/* the vital, program path or site */
	double a;		/* weight per epoch over range A */
	double b;		/* and over range B */
	double score;		/* the rank's key, larger first */
};

/* Rows in rank order, at most limit of each kind (0: all). */
int vdiff_run(struct vread *r, int64_t a_from, int64_t a_to, int64_t b_from,
	      int64_t b_to, unsigned limit,
	      int (*fn)(void *arg, const struct vdiff_row *row), void *arg);

/* The same over the samples and vital signs filter keeps (filter.h). */
struct vfilter;
int vdiff_run_filtered(struct vread *r, int64_t a_from, int64_t a_to,
		       int64_t b_from, int64_t b_to, unsigned limit,
		       const struct vfilter *filter,
		       int (*fn)(void *arg, const struct vdiff_row *row),
		       void *arg);

#endif
