/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The paper's ten diagnosis rules as flags (rules*.c).  Each rule looks
 * at the epochs in a range and flags an epoch and, when the rule is about
 * a process, the process, naming its evidence.  A rule that needs a
 * vital sign the store has as unavailable is reported once as not
 * evaluated, with the reason.  Thresholds: struct vrules_cfg, documented
 * in README.md ("Diagnosis rules").
 */
#ifndef STP_VITALS_RULES_H
#define STP_VITALS_RULES_H

#include <stdint.h>

#include "read.h"

#define VRULES_N 10

struct vflag {
	int rule;		/* 1..10 */
	const char *name;	/* "busy-loop", "memory-leak", ... */
	int evaluated;		/* 0: not evaluated, why_not says why */
	const char *why_not;
	int64_t start_ns;	/* the epochs flagged: [start_ns, end_ns) */
	int64_t end_ns;
	int32_t pid;		/* -1 when the rule is not about a process */
	const char *exec;	/* the process's program, or NULL */
	const char *evidence;	/* vitals, values against thresholds, sites */
};

struct vrules_cfg;	/* defaults: vrules_defaults() */

const struct vrules_cfg *vrules_defaults(void);
/* Flags over the epochs overlapping [from, to), in time order. */
int vrules_run(struct vread *r, const struct vrules_cfg *cfg, int64_t from,
	       int64_t to, int (*fn)(void *arg, const struct vflag *f),
	       void *arg);

#endif
