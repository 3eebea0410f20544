/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Filters over samples (filter.c), the options --vital, --exec, --site,
 * --uid and --pid of stp-vitals rules and diff.  All given must hold.
 */
#ifndef STP_VITALS_FILTER_H
#define STP_VITALS_FILTER_H

#include <stdint.h>

#include "cmd.h"
#include "../store/store.h"

#define VFILTER_USAGE "[--vital A,B] [--exec GLOB] [--site GLOB] [--uid N] [--pid N]"

struct vfilter {
	const char *vitals;	/* "cpuu,sock": the vitals kept; NULL: all */
	const char *exec;	/* a glob (fnmatch) on the program; NULL: any */
	const char *site;	/* a glob on the site; NULL: any */
	int64_t uid, pid;	/* -1: any */
};

void vfilter_init(struct vfilter *f);
/*
 * argv[*i] as a filter option: 1 taken (*i moved past its value), 0 not
 * a filter option, or -1 after a usage error (*rc the exit status).
 */
int vfilter_arg(const struct vcmd *c, int argc, char **argv, int *i,
		struct vfilter *f, int *rc);
/* Does the filter keep this vital sign, this sample? */
int vfilter_vital(const struct vfilter *f, const char *vital);
int vfilter_sample(const struct vfilter *f, const struct vx_sample *s);

#endif
