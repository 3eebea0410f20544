// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The rules' thresholds by name (stp-vitals rules --set NAME=VALUE) with
 * their defaults and meanings, which --help and doc/vitals.md print.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"

struct knob {
	const char *name;
	size_t off;
	double def;
	const char *doc;
};

/* ORDER: struct vrules_cfg.  Each threshold: name, default, meaning. */
#define KNOBS(X) \
	X(cpuu_high, 500, "1,4,7: system cpuu events/s that are high" \
	  " (the 1 ms clock: half a CPU)") \
	X(l2mi_low, 0.01, "1: l2mi events per cpuu event at or under which" \
	  " l2mi is near zero") \
	X(proc_share, 0.5, "1: share of cpuu samples that names a program" \
	  " as the busy one") \
	X(leak_epochs, 3, "2: epochs in a row with net memory allocated") \
	X(leak_pages, 64, "2: pages allocated over those epochs, at least") \
	X(user_cpuu_low, 0.2, "4: share of cpuu samples in user code at or" \
	  " under which the processes' cpuu is low") \
	X(sched_high, 100000, "4: system sched delay, us/s, that is high") \
	X(blck_high, 200000, "5,6: a process's blck, us/s, that is high") \
	X(umem_high, 100, "6,9: a process's umem, pages/s, that is high") \
	X(blio_high, 10, "6: a process's blio weight/s that is high") \
	X(proc_cpuu_low, 50, "7: a process's cpuu events/s at or under" \
	  " which it is low") \
	X(proc_sched_high, 50000, "7: a process's sched delay, us/s, that" \
	  " is high") \
	X(syscall_high, 1000, "8: a process's system calls/s that are high") \
	X(kmem_per_syscall, 0.01, "8: kmem events per system call at or" \
	  " under which kmem is low") \
	X(l2mi_per_umem, 1, "9: l2mi events per umem page under which the" \
	  " program is initializing (at or over: rising load)") \
	X(die_min_epochs, 3, "10: epochs a process is seen in before it" \
	  " can stop silently") \
	X(die_gap, 2, "10: epochs without its samples that make a stop") \
	X(min_samples, 3, "5-9: samples a process needs of the vital a rule" \
	  " is about (blck, umem, sched, syscall) for its figure to count")

#define KNOB(f, d, doc) { #f, offsetof(struct vrules_cfg, f), d, doc },
#define DEFAULT(f, d, doc) .f = d,

static const struct knob knobs[] = { KNOBS(KNOB) };
#define NKNOBS (sizeof(knobs) / sizeof(knobs[0]))

/* const, so any thread may read it (the server answers in several) */
static const struct vrules_cfg defaults = { KNOBS(DEFAULT) };

static double *field(struct vrules_cfg *cfg, const struct knob *k)
{
	return (double *)((char *)cfg + k->off);
}

const struct vrules_cfg *vrules_defaults(void)
{
	return &defaults;
}

int vrules_set(struct vrules_cfg *cfg, const char *name, const char *value)
{
	char *end;
	double v;

	for (size_t i = 0; i < NKNOBS; i++) {
		if (strcmp(knobs[i].name, name))
			continue;
		v = strtod(value, &end);
		if (end == value || *end || !isfinite(v) || v < 0)
			return -1;
		*field(cfg, &knobs[i]) = v;
		return 0;
	}
	return -1;
}

void vrules_describe(FILE *f, const struct vrules_cfg *cfg)
{
	for (size_t i = 0; i < NKNOBS; i++)
		fprintf(f, "  %s=%g\n      %s\n", knobs[i].name,
			*field((struct vrules_cfg *)cfg, &knobs[i]),
			knobs[i].doc);
}
