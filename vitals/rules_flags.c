// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The flags the rules raise.  A rule that holds in epoch after epoch for
 * the same process (a spinner spins for hours) is one flag over those
 * epochs, with the first epoch's evidence and their count, not one flag
 * a minute.  Flags are kept until the walk ends and then sorted, so the
 * rules can look back (rule 10 raises a flag epochs after the fact).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules_int.h"

struct rflag {
	struct vflag f;
	const char *variant;
	long first, last;	/* the walk's epoch numbers */
	char *evidence;		/* the first epoch's */
	int restated;		/* evidence is the whole flag's */
};

struct rflags {
	struct rflag *v;
	size_t n, cap;
	size_t *open;		/* the flags that epoch idx may extend */
	size_t nopen, open_cap;
	long open_idx;
	const char *why_not[VRULES_N + 1];
};

/* ORDER: the rules' numbers */
static const char *const rule_names[VRULES_N + 1] = {
	NULL, "busy-loop", "memory-leak", "bad-blocks", "kernel-bottleneck",
	"blocking-source", "low-memory", "held-from-running",
	"syscall-busy-loop", "memory-init-or-load", "process-died",
};

const char *rflags_rule_name(int rule)
{
	return rule_names[rule];
}

struct rflags *rflags_new(void)
{
	struct rflags *fs = vmust(calloc(1, sizeof(*fs)));

	fs->open_idx = -2;
	return fs;
}

void rflags_free(struct rflags *fs)
{
	for (size_t i = 0; i < fs->n; i++) {
		free(fs->v[i].evidence);
		free((char *)fs->v[i].f.evidence);
	}
	for (int i = 0; i <= VRULES_N; i++)
		free((char *)fs->why_not[i]);
	free(fs->v);
	free(fs->open);
	free(fs);
}

static int same(const struct rflag *f, int rule, int32_t pid,
		const char *variant)
{
	return f->f.rule == rule && f->f.pid == pid && f->variant == variant;
}

/* Keep open only the flags that epoch idx may extend: idx - 1's. */
static void close_old(struct rflags *fs, long idx)
{
	size_t k = 0;

	if (fs->open_idx == idx)
		return;
	for (size_t i = 0; i < fs->nopen; i++)
		if (fs->v[fs->open[i]].last >= idx - 1)
			fs->open[k++] = fs->open[i];
	fs->nopen = k;
	fs->open_idx = idx;
}

/* The flag raised for the same thing in epoch idx - 1, or NULL. */
static struct rflag *going_on(struct rflags *fs, int rule, long idx,
			      int32_t pid, const char *variant)
{
	struct rflag *f;

	close_old(fs, idx);
	for (size_t i = 0; i < fs->nopen; i++) {
		f = &fs->v[fs->open[i]];
		if (f->last == idx - 1 && same(f, rule, pid, variant))
			return f;
	}
	return NULL;
}

static void add_open(struct rflags *fs, size_t i)
{
	if (fs->nopen == fs->open_cap) {
		fs->open_cap = fs->open_cap ? fs->open_cap * 2 : 64;
		fs->open = vmust(realloc(fs->open,
					 fs->open_cap * sizeof(*fs->open)));
	}
	fs->open[fs->nopen++] = i;
}

struct vflag *rflags_raise(struct rflags *fs, int rule, long idx,
			   int64_t start_ns, int64_t end_ns, int32_t pid,
			   const char *exec, const char *variant,
			   const char *evidence)
{
	struct rflag *f = going_on(fs, rule, idx, pid, variant);

	if (f) {
		f->last = idx;
		f->f.end_ns = end_ns;
		return &f->f;
	}
	if (fs->n == fs->cap) {
		fs->cap = fs->cap ? fs->cap * 2 : 64;
		fs->v = vmust(realloc(fs->v, fs->cap * sizeof(*fs->v)));
	}
	add_open(fs, fs->n);
	f = &fs->v[fs->n++];
	*f = (struct rflag){
		.f = { .rule = rule, .name = rule_names[rule], .evaluated = 1,
		       .start_ns = start_ns, .end_ns = end_ns,
		       .pid = pid, .exec = exec },
		.variant = variant, .first = idx, .last = idx,
		.evidence = vmust(strdup(evidence)),
	};
	return &f->f;
}

void rflags_restate(struct vflag *f, const char *evidence)
{
	struct rflag *rf = (struct rflag *)f;	/* f is its first member */

	free(rf->evidence);
	rf->evidence = vmust(strdup(evidence));
	rf->restated = 1;
}

void rflags_drop(struct rflags *fs, int rule)
{
	size_t k = 0;

	for (size_t i = 0; i < fs->n; i++) {
		if (fs->v[i].f.rule == rule)
			free(fs->v[i].evidence);
		else
			fs->v[k++] = fs->v[i];
	}
	fs->n = k;
	fs->nopen = 0;	/* the walk is over */
}

void rflags_not_evaluated(struct rflags *fs, int rule, const char *why)
{
	if (!fs->why_not[rule])
		fs->why_not[rule] = vmust(strdup(why));
}

static int by_time(const void *a, const void *b)
{
	const struct vflag *x = &((const struct rflag *)a)->f;
	const struct vflag *y = &((const struct rflag *)b)->f;

	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	if (x->rule != y->rule)
		return x->rule - y->rule;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/* The evidence as shown: with the epochs' count when more than one. */
static void finish(struct rflag *f)
{
	long n = f->last - f->first + 1;
	char *s;

	if (n == 1 || f->restated)
		s = strdup(f->evidence);
	else if (asprintf(&s, "%ld epochs in a row, the first: %s", n,
			  f->evidence) < 0)
		s = NULL;
	f->f.evidence = vmust(s);
}

int rflags_emit(struct rflags *fs, int (*fn)(void *arg, const struct vflag *f),
		void *arg)
{
	struct vflag ne;
	int rc;

	for (int i = 1; i <= VRULES_N; i++) {
		if (!fs->why_not[i])
			continue;
		ne = (struct vflag){ .rule = i, .name = rule_names[i],
				     .why_not = fs->why_not[i], .pid = -1 };
		if ((rc = fn(arg, &ne)))
			return rc;
	}
	if (fs->n)
		qsort(fs->v, fs->n, sizeof(*fs->v), by_time);
	for (size_t i = 0; i < fs->n; i++) {
		finish(&fs->v[i]);
		if ((rc = fn(arg, &fs->v[i].f)))
			return rc;
	}
	return 0;
}
