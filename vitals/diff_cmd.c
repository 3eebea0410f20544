// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stp-vitals diff DB A_FROM..A_TO B_FROM..B_TO [--limit N] [--json]:
 * diff.c's rows, the vital signs first, then programs, then sites, each
 * kind ranked by its score, at most N of each (10 by default, 0: all).
 * A range is two times (when.h's forms) joined by "..": the epochs that
 * overlap [FROM, TO).  The filter options (filter.h) keep some vital
 * signs and samples.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "diff.h"
#include "filter.h"
#include "json.h"
#include "when.h"

struct diff_args {
	const char *db, *range[2];
	int64_t from[2], to[2];
	unsigned long limit;
	int json;
	struct vfilter filter;
};

/* FROM..TO into *from, *to; 0 or the usage error. */
static int range(const struct vcmd *c, const char *which, const char *s,
		 int64_t *from, int64_t *to)
{
	const char *dots = strstr(s, "..");
	char *a;
	int rc;

	if (!dots || dots == s || !dots[2])
		return vcmd_usage(c, "range %s: want FROM..TO, not '%s'", which,
				  s);
	a = strndup(s, (size_t)(dots - s));
	if (!a)
		abort();
	rc = vcmd_time(c, which, a, from);
	free(a);
	if (!rc)
		rc = vcmd_time(c, which, dots + 2, to);
	if (!rc && *from >= *to)
		rc = vcmd_usage(c, "range %s: '%s' ends before it starts",
				which, s);
	return rc;
}

static int one_arg(const struct vcmd *c, int argc, char **argv, int *i,
		   struct diff_args *a, int *npos)
{
	const char *v;
	char *end;
	int rc = 0;

	if (vfilter_arg(c, argc, argv, i, &a->filter, &rc))
		return rc;
	if ((v = vcmd_value(argc, argv, i, "--limit"))) {
		a->limit = strtoul(v, &end, 10);
		if (!*v || *end || *v == '-' || a->limit > 1000000)
			return vcmd_usage(c, "--limit: want a count, not '%s'", v);
		return 0;
	}
	if (!strcmp(argv[*i], "--json"))
		return a->json = 1, 0;
	if (!strcmp(argv[*i], "--limit"))
		return vcmd_usage(c, "--limit needs a count");
	/* a range may start with '-' (-2h..-1h): only options are refused */
	if (argv[*i][0] == '-' && argv[*i][1] == '-')
		return vcmd_usage(c, "unknown option '%s'", argv[*i]);
	if (*npos == 0)
		a->db = argv[*i];
	else if (*npos < 3)
		a->range[*npos - 1] = argv[*i];
	else
		return vcmd_usage(c, "one store and two ranges, not '%s' too",
				  argv[*i]);
	++*npos;
	return 0;
}

static int parse(const struct vcmd *c, int argc, char **argv,
		 struct diff_args *a)
{
	int rc = 0, npos = 0;

	for (int i = 1; i < argc && !rc; i++)
		rc = one_arg(c, argc, argv, &i, a, &npos);
	if (!rc && npos < 3)
		rc = vcmd_usage(c, "%s", npos == 0 ? "no store given" :
				"want two ranges, A and B");
	if (!rc)
		rc = range(c, "A", a->range[0], &a->from[0], &a->to[0]);
	if (!rc)
		rc = range(c, "B", a->range[1], &a->from[1], &a->to[1]);
	return rc;
}

static int put(void *arg, const struct vdiff_row *w)
{
	const int *json = arg;

	if (!*json) {
		printf("%-7s %-8s %14.1f %14.1f %6.2f  %s\n", w->kind, w->vital,
		       w->a, w->b, w->score, w->name);
		return 0;
	}
	printf("{\"kind\":\"%s\",\"vital\":", w->kind);
	json_str(stdout, w->vital);
	fputs(",\"name\":", stdout);
	json_str(stdout, w->name);
	printf(",\"a\":%.3f,\"b\":%.3f,\"score\":%.3f}\n", w->a, w->b,
	       w->score);
	return 0;
}

static int count(void *arg, const struct vr_epoch *e)
{
	(void)e;
	++*(unsigned long *)arg;
	return 0;
}

/* 0 when both ranges hold an epoch, else the failure. */
static int both_hold(struct vread *r, const struct diff_args *a)
{
	unsigned long n;

	for (int i = 0; i < 2; i++) {
		n = 0;
		if (vread_epochs(r, a->from[i], a->to[i], count, &n))
			return vcmd_fail("%s", vread_error(r));
		if (!n)
			return vcmd_fail("diff: range %c (%s) holds no epoch",
					 "AB"[i], a->range[i]);
	}
	return 0;
}

void vcmd_diff_help(void)
{
	puts("A range is FROM..TO, two times T: the epochs that overlap"
	     " [FROM, TO),\ne.g. -2h..-1h or"
	     " 2026-11-24T18:00:00Z..2026-11-24T19:00:00Z.\n"
	     "Columns: kind, vital, weight per epoch in A, in B, score, name;"
	     " the\nscore is |log2((|B| + 1) / (|A| + 1))|, larger first within"
	     " each kind.\n--limit N shows N rows of each kind (default 10, 0:"
	     " all).\n--vital A,B, --exec GLOB, --site GLOB, --uid N, --pid N:"
	     " only those vital signs\nand samples.");
}

int vcmd_diff(const struct vcmd *c, int argc, char **argv)
{
	struct diff_args a = { .limit = 10 };
	struct vread *r;
	int rc;

	vfilter_init(&a.filter);
	rc = parse(c, argc, argv, &a);
	if (rc)
		return rc;
	r = vcmd_open(a.db);
	if (!r)
		return 1;
	rc = both_hold(r, &a);
	if (!rc && !a.json)
		printf("%-7s %-8s %14s %14s %6s  %s\n", "kind", "vital",
		       "A/epoch", "B/epoch", "score", "name");
	if (!rc && vdiff_run_filtered(r, a.from[0], a.to[0], a.from[1],
				      a.to[1], (unsigned)a.limit, &a.filter,
				      put, &a.json))
		rc = vcmd_fail("%s", vread_error(r));
	vread_close(r);
	if (fflush(stdout) || ferror(stdout))
		rc = vcmd_fail("cannot write the diff");
	return rc;
}
