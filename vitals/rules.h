/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The paper's ten diagnosis rules as flags (rules*.c).  Each rule looks
 * at the epochs in a range and flags an epoch and, when the rule is about
 * a process, the process, naming its evidence.  A rule that needs a
 * vital sign the store has as unavailable is reported once as not
 * evaluated, with the reason.  Thresholds: struct vrules_cfg, documented
 * in doc/vitals.md ("Diagnosis rules").
 */
#ifndef STP_VITALS_RULES_H
#define STP_VITALS_RULES_H

#include <stdint.h>
#include <stdio.h>

#include "../store/read.h"

#define VRULES_N 10

struct vfilter;		/* filter.h */

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

/*
 * The thresholds.  Rates are per second of an epoch.  A process's figure
 * for a vital sign is the vital's weighted sum (for kmem, its events)
 * times the process's share of the vital's samples: the store keeps a
 * process's events only as samples.  ORDER: rules_cfg.c's table names
 * each field, with its default and its meaning.
 */
struct vrules_cfg {
	double cpuu_high;	/* 1, 4, 7: system cpuu events/s */
	double l2mi_low;	/* 1: l2mi events per cpuu event */
	double proc_share;	/* 1: a program's share of cpuu samples */
	double leak_epochs;	/* 2: epochs in a row with net allocation */
	double leak_pages;	/* 2: pages allocated over them */
	double user_cpuu_low;	/* 4: share of cpuu samples in user code */
	double sched_high;	/* 4: system sched delay, us/s */
	double blck_high;	/* 5, 6: a process's blck, us/s */
	double umem_high;	/* 6, 9: a process's umem, pages/s */
	double blio_high;	/* 6: a process's blio, weight/s */
	double proc_cpuu_low;	/* 7: a process's cpuu events/s */
	double proc_sched_high;	/* 7: a process's sched delay, us/s */
	double syscall_high;	/* 8: a process's system calls/s */
	double kmem_per_syscall; /* 8: kmem events per system call */
	double l2mi_per_umem;	/* 9: l2mi events per umem page */
	double die_min_epochs;	/* 10: epochs seen before a silent stop */
	double die_gap;		/* 10: epochs without a sample: stopped */
	double min_samples;	/* 5-9: a process's samples of the vital */
	const struct vfilter *filter;	/* the samples counted; NULL: all */
};

const struct vrules_cfg *vrules_defaults(void);
/* Set the threshold NAME from VALUE; 0, or -1 (unknown name, bad value). */
int vrules_set(struct vrules_cfg *cfg, const char *name, const char *value);
/* The thresholds, one "  NAME=VALUE  meaning" line each, into f. */
void vrules_describe(FILE *f, const struct vrules_cfg *cfg);
/* Flags over the epochs overlapping [from, to), in time order. */
int vrules_run(struct vread *r, const struct vrules_cfg *cfg, int64_t from,
	       int64_t to, int (*fn)(void *arg, const struct vflag *f),
	       void *arg);

#endif
