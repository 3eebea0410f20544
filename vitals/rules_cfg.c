// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The rules' thresholds by name (stp-vitals rules --set NAME=VALUE) with
 * their defaults and meanings, which --help and README.md print.
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

#define K(f, d, doc) { #f, offsetof(struct vrules_cfg, f), d, doc }
/* ORDER: struct vrules_cfg */
static const struct knob knobs[] = {
	K(cpuu_high, 500, "1,4,7: system cpuu events/s that are high"
	  " (the 1 ms clock: half a CPU)"),
	K(l2mi_low, 0.01, "1: l2mi events per cpuu event at or under which"
	  " l2mi is near zero"),
	K(proc_share, 0.5, "1: share of cpuu samples that names a program"
	  " as the busy one"),
	K(leak_epochs, 3, "2: epochs in a row with net memory allocated"),
	K(leak_pages, 64, "2: pages allocated over those epochs, at least"),
	K(user_cpuu_low, 0.2, "4: share of cpuu samples in user code at or"
	  " under which the processes' cpuu is low"),
	K(sched_high, 100000, "4: system sched delay, us/s, that is high"),
	K(blck_high, 200000, "5,6: a process's blck, us/s, that is high"),
	K(umem_high, 100, "6,9: a process's umem, pages/s, that is high"),
	K(blio_high, 10, "6: a process's blio weight/s that is high"),
	K(proc_cpuu_low, 50, "7: a process's cpuu events/s at or under"
	  " which it is low"),
	K(proc_sched_high, 50000, "7: a process's sched delay, us/s, that"
	  " is high"),
	K(syscall_high, 1000, "8: a process's system calls/s that are high"),
	K(kmem_per_syscall, 0.01, "8: kmem events per system call at or"
	  " under which kmem is low"),
	K(l2mi_per_umem, 1, "9: l2mi events per umem page under which the"
	  " program is initializing (at or over: rising load)"),
	K(die_min_epochs, 3, "10: epochs a process is seen in before it"
	  " can stop silently"),
	K(die_gap, 2, "10: epochs without its samples that make a stop"),
	K(min_samples, 3, "5-9: samples a process needs of the vital a rule"
	  " is about (blck, umem, sched, syscall) for its figure to count"),
};
#define NKNOBS (sizeof(knobs) / sizeof(knobs[0]))

static double *field(struct vrules_cfg *cfg, const struct knob *k)
{
	return (double *)((char *)cfg + k->off);
}

const struct vrules_cfg *vrules_defaults(void)
{
	static struct vrules_cfg cfg;
	static int done;

	for (size_t i = 0; !done && i < NKNOBS; i++)
		*field(&cfg, &knobs[i]) = knobs[i].def;
	done = 1;
	return &cfg;
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
