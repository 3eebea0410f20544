// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stp-vitals dump DB [--from T] [--to T]: the store as JSON lines.  Each
 * epoch that overlaps [from, to) gives one "vital" line per vital sign,
 * in the order they were put, then one "sample" line per sample, all of
 * its samples whatever their times.  The whole dump is read in one
 * transaction, so a writer's commit during it is either all in or out.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "json.h"
#include "../store/read.h"
#include "when.h"

struct dump {
	struct vread *r;
	int64_t from, to;
};

static void put_time(const char *key, int64_t ns)
{
	char buf[WHEN_LEN];

	printf(",\"%s\":\"%s\"", key, when_format(ns, buf));
}

static int put_vital(void *arg, const struct vr_epoch *e,
		     const struct vr_vital *vr)
{
	const struct vx_vital *v = &vr->v;

	(void)arg;
	fputs("{\"kind\":\"vital\"", stdout);
	put_time("epoch_start", e->start_ns);
	put_time("epoch_end", e->end_ns);
	fputs(",\"vital\":", stdout);
	json_str(stdout, v->vital);
	printf(",\"weight\":%lld,\"events\":%llu,\"unique\":%llu,"
	       "\"samples\":%llu,\"dropped\":%llu,\"t\":%llu,\"available\":%s",
	       (long long)v->weight, (unsigned long long)v->count,
	       (unsigned long long)v->unique, (unsigned long long)v->samples,
	       (unsigned long long)v->dropped, (unsigned long long)v->t,
	       v->available ? "true" : "false");
	if (!v->available) {
		fputs(",\"why\":", stdout);
		json_str(stdout, v->why ? v->why : "");
	}
	fputs("}\n", stdout);
	return 0;
}

static int put_sample(void *arg, const struct vr_epoch *e,
		      const struct vx_sample *s)
{
	(void)arg;
	fputs("{\"kind\":\"sample\"", stdout);
	put_time("epoch_start", e->start_ns);
	put_time("time", (int64_t)s->time_ns);
	fputs(",\"vital\":", stdout);
	json_str(stdout, s->vital);
	fputs(",\"exec\":", stdout);
	json_str(stdout, s->exec);
	printf(",\"uid\":%llu,\"pid\":%llu,\"site\":",
	       (unsigned long long)s->uid, (unsigned long long)s->pid);
	json_str(stdout, s->site);
	fputs(",\"data\":", stdout);
	json_str(stdout, s->data);
	printf(",\"weight\":%lld,\"count\":%lu,\"label\":%llu,\"stack\":",
	       (long long)s->weight, (unsigned long)s->count,
	       (unsigned long long)s->label);
	json_lines(stdout, s->stack);
	fputs("}\n", stdout);
	return 0;
}

static int dump_epoch(void *arg, const struct vr_epoch *e)
{
	struct dump *d = arg;
	int rc = vread_vitals(d->r, e, put_vital, NULL);

	return rc ? rc : vread_samples(d->r, e, put_sample, NULL);
}

static int dump_store(struct dump *d)
{
	int rc = vread_begin(d->r);

	if (!rc)
		rc = vread_epochs(d->r, d->from, d->to, dump_epoch, d);
	if (!rc)
		rc = vread_end(d->r);
	return rc;
}

/* The arguments into d; the DB path, or NULL after a usage error (*rc). */
static const char *dump_args(const struct vcmd *c, int argc, char **argv,
			     struct dump *d, int *rc)
{
	const char *db = NULL, *v;

	*rc = 0;
	for (int i = 1; i < argc && !*rc; i++) {
		if ((v = vcmd_value(argc, argv, &i, "--from")))
			*rc = vcmd_time(c, "--from", v, &d->from);
		else if ((v = vcmd_value(argc, argv, &i, "--to")))
			*rc = vcmd_time(c, "--to", v, &d->to);
		else if (!strcmp(argv[i], "--from") || !strcmp(argv[i], "--to"))
			*rc = vcmd_usage(c, "%s needs a time", argv[i]);
		else if (argv[i][0] == '-' && argv[i][1])
			*rc = vcmd_usage(c, "unknown option '%s'", argv[i]);
		else if (db)
			*rc = vcmd_usage(c, "one store, not '%s' too", argv[i]);
		else
			db = argv[i];
	}
	if (!*rc && !db)
		*rc = vcmd_usage(c, "no store given");
	return *rc ? NULL : db;
}

int vcmd_dump(const struct vcmd *c, int argc, char **argv)
{
	struct dump d = { .from = INT64_MIN, .to = INT64_MAX };
	const char *path;
	int rc;

	path = dump_args(c, argc, argv, &d, &rc);
	if (!path)
		return rc;
	d.r = vcmd_open(path);
	if (!d.r)
		return 1;
	rc = dump_store(&d);
	if (rc)
		rc = vcmd_fail("%s", vread_error(d.r));
	vread_close(d.r);
	if (fflush(stdout) || ferror(stdout))
		rc = vcmd_fail("cannot write the dump");
	return rc;
}
