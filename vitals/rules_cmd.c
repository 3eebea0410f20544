// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stp-vitals rules DB [--from T] [--to T] [--json] [--set NAME=VALUE]...:
 * the diagnosis rules' flags over the epochs that overlap [from, to).
 * The filter options (filter.h) keep only the samples they match: the
 * processes' figures come from those.  Text, one line a flag:
 *
 *   START..END rule N NAME pid PID EXEC: EVIDENCE
 *   rule N NAME: not evaluated: WHY
 *
 * (no "pid PID EXEC" when the flag is about the system), or with --json
 * one object a line.  "no flags" when none is raised.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "filter.h"
#include "json.h"
#include "rules.h"
#include "when.h"

struct rules_args {
	const char *db;
	int64_t from, to;
	int json;
	struct vrules_cfg cfg;
	struct vfilter filter;
};

struct out {
	int json;
	unsigned long n;
};

static int set(const struct vcmd *c, struct vrules_cfg *cfg, const char *v)
{
	const char *eq = strchr(v, '=');
	char name[64];

	if (!eq || (size_t)(eq - v) >= sizeof(name))
		return vcmd_usage(c, "--set: want NAME=VALUE, not '%s'", v);
	memcpy(name, v, (size_t)(eq - v));
	name[eq - v] = 0;
	if (vrules_set(cfg, name, eq + 1))
		return vcmd_usage(c, "--set: no threshold '%s' takes '%s'"
				  " (stp-vitals rules --help lists them)",
				  name, eq + 1);
	return 0;
}

static int one_arg(const struct vcmd *c, int argc, char **argv, int *i,
		   struct rules_args *a)
{
	const char *v;
	int rc = 0;

	if (vfilter_arg(c, argc, argv, i, &a->filter, &rc))
		return rc;
	if ((v = vcmd_value(argc, argv, i, "--from")))
		return vcmd_time(c, "--from", v, &a->from);
	if ((v = vcmd_value(argc, argv, i, "--to")))
		return vcmd_time(c, "--to", v, &a->to);
	if ((v = vcmd_value(argc, argv, i, "--set")))
		return set(c, &a->cfg, v);
	if (!strcmp(argv[*i], "--json"))
		return a->json = 1, 0;
	if (!strcmp(argv[*i], "--from") || !strcmp(argv[*i], "--to"))
		return vcmd_usage(c, "%s needs a time", argv[*i]);
	if (!strcmp(argv[*i], "--set"))
		return vcmd_usage(c, "--set needs NAME=VALUE");
	if (argv[*i][0] == '-' && argv[*i][1])
		return vcmd_usage(c, "unknown option '%s'", argv[*i]);
	if (a->db)
		return vcmd_usage(c, "one store, not '%s' too", argv[*i]);
	a->db = argv[*i];
	return 0;
}

static void put_text(const struct vflag *f)
{
	char a[WHEN_LEN], b[WHEN_LEN];

	if (!f->evaluated) {
		printf("rule %d %s: not evaluated: %s\n", f->rule, f->name,
		       f->why_not);
		return;
	}
	printf("%s..%s rule %d %s", when_format(f->start_ns, a),
	       when_format(f->end_ns, b), f->rule, f->name);
	if (f->pid >= 0)
		printf(" pid %d %s", f->pid, f->exec ? f->exec : "?");
	printf(": %s\n", f->evidence);
}

static void put_json(const struct vflag *f)
{
	char a[WHEN_LEN];

	printf("{\"rule\":%d,\"name\":\"%s\",\"evaluated\":%s", f->rule,
	       f->name, f->evaluated ? "true" : "false");
	if (!f->evaluated) {
		fputs(",\"why_not\":", stdout);
		json_str(stdout, f->why_not);
		fputs("}\n", stdout);
		return;
	}
	printf(",\"start\":\"%s\"", when_format(f->start_ns, a));
	printf(",\"end\":\"%s\"", when_format(f->end_ns, a));
	if (f->pid >= 0)
		printf(",\"pid\":%d", f->pid);
	else
		fputs(",\"pid\":null", stdout);
	fputs(",\"exec\":", stdout);
	json_str(stdout, f->exec);
	fputs(",\"evidence\":", stdout);
	json_str(stdout, f->evidence);
	fputs("}\n", stdout);
}

static int put(void *arg, const struct vflag *f)
{
	struct out *o = arg;

	if (o->json)
		put_json(f);
	else
		put_text(f);
	o->n += f->evaluated;
	return 0;
}

void vcmd_rules_help(void)
{
	puts("Flags the paper's ten diagnosis rules raise, one a line"
	     " (doc/vitals.md,\n\"Diagnosis rules\").  --exec GLOB, --site GLOB,"
	     " --uid N, --pid N, --vital A,B:\nonly the samples that match"
	     " count.  --set NAME=VALUE sets a threshold\n(rates are per"
	     " second of an epoch):");
	vrules_describe(stdout, vrules_defaults());
}

int vcmd_rules(const struct vcmd *c, int argc, char **argv)
{
	struct rules_args a = { .from = INT64_MIN, .to = INT64_MAX,
				.cfg = *vrules_defaults() };
	struct out o = { 0 };
	struct vread *r;
	int rc = 0;

	vfilter_init(&a.filter);
	a.cfg.filter = &a.filter;
	for (int i = 1; i < argc && !rc; i++)
		rc = one_arg(c, argc, argv, &i, &a);
	if (!rc && !a.db)
		rc = vcmd_usage(c, "no store given");
	if (rc)
		return rc;
	r = vcmd_open(a.db);
	if (!r)
		return 1;
	o.json = a.json;
	if (vrules_run(r, &a.cfg, a.from, a.to, put, &o))
		rc = vcmd_fail("%s", vread_error(r));
	else if (!o.n && !o.json)
		puts("no flags");
	vread_close(r);
	if (fflush(stdout) || ferror(stdout))
		rc = vcmd_fail("cannot write the flags");
	return rc;
}
