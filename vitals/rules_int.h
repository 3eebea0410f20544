/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the rules: each epoch as the rules see it (rules_scan.c builds
 * it from read.h's walks), the rules over it (rules.c), and the flags
 * they raise, merged over epochs in a row and sorted (rules_flags.c).
 */
#ifndef STP_VITALS_RULES_INT_H
#define STP_VITALS_RULES_INT_H

#include <stdint.h>

#include "rules.h"
#include "strpool.h"

/* The vital signs the rules read; ORDER: rules_scan.c's names[]. */
enum rvid {
	RV_CPUU, RV_L2MI, RV_SCHED, RV_BLCK, RV_BLIO, RV_KMEM, RV_UMEM,
	RV_SYSCALL, RV_SIG, RV_SOCK, RV_LOCK, RV_N
};

/* One vital sign over the epoch, as the store has it. */
struct rvital {
	int present;		/* the epoch has it at all */
	int available;
	const char *why;	/* when not available (pooled) */
	int64_t weight;
	uint64_t events;
	uint64_t t;		/* the sampling threshold at its end */
	uint32_t nsamples;	/* samples read back */
	uint32_t counted;	/* of them, those that carry their count */
};

/* One process in the epoch: its samples by vital sign. */
struct rproc {
	int32_t pid;		/* the idle task's 0 as -2 */
	const char *exec;	/* its latest sample's program (pooled) */
	const void *exec_raw;	/* the reader's text it came from (only
				 * compared: an address, never read) */
	uint32_t n[RV_N];	/* samples */
	int64_t w[RV_N];	/* their weights' sum */
	double c[RV_N];		/* each label's largest count, summed */
	int fatal_sig;		/* a signal delivered to a default action
				 * that ends the process */
	int stop_sig;		/* one delivered to the default stop */
	int exited;		/* an exit or exit_group call sampled */
	uint32_t io_short;	/* blio requests answered with less data */
	int64_t io_asked, io_got;
	int64_t io_short_ns;	/* the longest of those, from queueing to
				 * completion (0: the samples do not say) */
	uint64_t last_ns;	/* its last sample */
	const char *last_site;
};

/* Samples by (process, vital, site): the evidence's top sites. */
struct rsite {
	int32_t pid;		/* rproc.pid */
	int vid;
	const char *site;
	uint32_t n;
};

/* A process's label of a vital, with the largest count its samples gave. */
struct rlabel {
	int32_t pid;
	int vid;
	uint64_t label;
	uint32_t most;
};

struct repoch {
	int64_t start_ns, end_ns;
	double secs;
	struct rvital v[RV_N];
	uint32_t user_cpuu;	/* cpuu samples whose PC is in user space */
	uint32_t blio_done;	/* blio samples that say what they got */
	struct rproc *proc;	/* nproc of them */
	uint32_t *proc_idx;	/* by pid: their numbers + 1, cap a power of 2 */
	uint32_t nproc, proc_cap;
	struct rsite *site;	/* nsite of them */
	uint32_t *site_idx;
	uint32_t nsite, site_cap;
	struct rlabel *label;	/* nlabel of them */
	uint32_t *label_idx;
	uint32_t nlabel, label_cap;
};

/* rules_scan.c: read epoch e into ep (cleared first), its samples that
 * filter keeps (NULL: all); -1 on failure. */
int rscan_epoch(struct vread *r, struct vpool *pool,
		const struct vfilter *filter, const struct vr_epoch *e,
		struct repoch *ep);
void rscan_free(struct repoch *ep);
/* The vital's name, and its index for a name (-1: not one of the 11). */
const char *rscan_name(int vid);
int rscan_vid(const char *name);
/* A process's figure for a vital: its labels' largest counts summed (rules_scan.c). */
double rscan_est(const struct repoch *ep, const struct rproc *p, int vid);
/*
 * "site (N%), site (N%)": the top three sites of vital vid for the
 * process whose rproc.pid is pid (0: all processes).
 */
void rscan_top_sites(const struct repoch *ep, int32_t pid, int vid,
		     char *buf, size_t len);

/* One walk of the rules over a range of epochs (rules.c). */
struct rwalk {
	struct vread *r;
	const struct vrules_cfg *c;
	struct vpool *pool;
	struct rflags *fs;
	struct repoch ep;	/* the epoch at hand */
	long idx;		/* its number in the walk, from 0 */
	struct rhist *hist;	/* rules_hist.c: processes across epochs */
	uint64_t blio_samples, blio_done;
	unsigned seen;		/* the vitals (1 << rvid) an epoch had */
	unsigned needs[VRULES_N + 1];	/* the vitals each rule read */
};

/*
 * Rules 2 and 10 (rules_hist.c), which follow processes across epochs:
 * rhist_epoch after each epoch.
 */
struct rhist *rhist_new(void);
void rhist_free(struct rhist *h);
void rhist_epoch(struct rwalk *w);
/* rules.c: the process's pid as flags show it (the idle task is 0). */
int32_t rwalk_pid(const struct rproc *p);
/* rules.c: is the vital measured in this epoch?  If not (unavailable),
 * rule is noted as not evaluated, with why. */
int rwalk_needs(struct rwalk *w, int rule, int vid);

/* rules_flags.c: the flags raised, merged when the same flag goes on. */
struct rflags;

struct rflags *rflags_new(void);
void rflags_free(struct rflags *fs);
/*
 * Raise rule's flag in epoch number idx (the walk's count) over
 * [start_ns, end_ns), for pid (-1: the system) and variant (which of the
 * rule's outcomes, or NULL).  The same rule, pid and variant raised in
 * epoch idx - 1 is extended instead.  The flag, which the caller may
 * widen.
 */
struct vflag *rflags_raise(struct rflags *fs, int rule, long idx,
			   int64_t start_ns, int64_t end_ns, int32_t pid,
			   const char *exec, const char *variant,
			   const char *evidence);
/* The evidence of flag f (rflags_raise's) over all its epochs. */
void rflags_restate(struct vflag *f, const char *evidence);
/* Drop the flags rule raised. */
void rflags_drop(struct rflags *fs, int rule);
/* Rule not evaluated, why (once per rule: later calls are ignored). */
void rflags_not_evaluated(struct rflags *fs, int rule, const char *why);
/* Every flag, not-evaluated rules first, then in time order. */
int rflags_emit(struct rflags *fs, int (*fn)(void *arg, const struct vflag *f),
		void *arg);
const char *rflags_rule_name(int rule);

#endif
