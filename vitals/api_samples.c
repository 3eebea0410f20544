// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /api/samples (doc/web.md, "The web page's API"): one epoch's samples
 * that pass every filter given: vital (a comma list), exec, uid, pid and
 * site, each an exact match.
 */
#include <stdlib.h>
#include <string.h>

#include "api_int.h"
#include "json.h"

#define MAX_VITALS 64

struct filter {
	int nvital;
	char *vital[MAX_VITALS];	/* none: every vital sign */
	const char *exec, *site;
	int64_t uid, pid;		/* -1: any */
	int known[MAX_VITALS];		/* the epoch has vital[i] */
	uint64_t total, matched;
	FILE *out;
};

static int split_vitals(struct vapi_req *q, struct filter *fl)
{
	const char *s = vapi_param(q, "vital"), *c;

	while (s) {
		c = strchrnul(s, ',');
		if (c == s)
			return vapi_fail(q, 400, "vital: an empty name");
		if (fl->nvital == MAX_VITALS)
			return vapi_fail(q, 400, "vital: more than %d names",
					 MAX_VITALS);
		fl->vital[fl->nvital] = strndup(s, (size_t)(c - s));
		if (!fl->vital[fl->nvital++])
			return vapi_fail(q, 500, "out of memory");
		s = *c ? c + 1 : NULL;
	}
	return 0;
}

static int on_vital(void *arg, const struct vr_epoch *e,
		    const struct vr_vital *v)
{
	struct filter *fl = arg;

	(void)e;
	for (int i = 0; i < fl->nvital; i++)
		if (!strcmp(fl->vital[i], v->v.vital))
			fl->known[i] = 1;
	return 0;
}

/* Every vital sign of the filter is one the epoch has; 0 or 400. */
static int check_vitals(struct vapi_req *q, struct filter *fl,
			const struct vr_epoch *e)
{
	if (!fl->nvital)
		return 0;
	if (vread_vitals(q->r, e, on_vital, fl))
		return vapi_store_fail(q);
	for (int i = 0; i < fl->nvital; i++)
		if (!fl->known[i])
			return vapi_fail(q, 400, "vital: epoch %lld has no '%.100s'",
					 (long long)e->id, fl->vital[i]);
	return 0;
}

static int str_eq(const char *want, const char *have)
{
	return !want || (have && !strcmp(want, have));
}

static int vital_ok(const struct filter *fl, const char *vital)
{
	for (int i = 0; i < fl->nvital; i++)
		if (vital && !strcmp(fl->vital[i], vital))
			return 1;
	return !fl->nvital;
}

static int passes(const struct filter *fl, const struct vx_sample *s)
{
	return vital_ok(fl, s->vital) && str_eq(fl->exec, s->exec) &&
	       str_eq(fl->site, s->site) &&
	       (fl->uid < 0 || fl->uid == s->uid) &&
	       (fl->pid < 0 || fl->pid == s->pid);
}

static void put_sample(FILE *f, const struct vx_sample *s, int first)
{
	fputs(first ? "{\"vital\":" : ",{\"vital\":", f);
	json_str(f, s->vital);
	fprintf(f, ",\"time\":%lld,\"exec\":",
		(long long)vapi_ns_ms((int64_t)s->time_ns));
	json_str(f, s->exec);
	fprintf(f, ",\"uid\":%u,\"pid\":%u,\"site\":", s->uid, s->pid);
	json_str(f, s->site);
	fputs(",\"data\":", f);
	json_str(f, s->data);
	fprintf(f, ",\"weight\":%lld,\"label\":\"%llu\",\"stack\":",
		(long long)s->weight, (unsigned long long)s->label);
	json_lines(f, s->stack);
	fputc('}', f);
}

static int on_sample(void *arg, const struct vr_epoch *e,
		     const struct vx_sample *s)
{
	struct filter *fl = arg;

	(void)e;
	fl->total++;
	if (passes(fl, s))
		put_sample(fl->out, s, !fl->matched++);
	return 0;
}

static int list_samples(struct vapi_req *q, struct filter *fl,
			const struct vr_epoch *e)
{
	char *p = NULL;
	size_t n = 0;
	int rc;

	fl->out = open_memstream(&p, &n);
	if (!fl->out)
		return vapi_fail(q, 500, "out of memory");
	rc = vread_samples(q->r, e, on_sample, fl);
	fclose(fl->out);
	if (!rc)
		fprintf(q->out, "{\"epoch\":%lld,\"start\":%lld,\"end\":%lld,"
			"\"total\":%llu,\"matched\":%llu,\"samples\":[%s]}\n",
			(long long)e->id, (long long)vapi_ns_ms(e->start_ns),
			(long long)vapi_ns_ms(e->end_ns),
			(unsigned long long)fl->total,
			(unsigned long long)fl->matched, p ? p : "");
	free(p);
	return rc ? vapi_store_fail(q) : 0;
}

static int read_filter(struct vapi_req *q, struct filter *fl, int64_t *id)
{
	static const char *const names[] = {
		"epoch", "vital", "exec", "uid", "pid", "site", NULL
	};
	int rc = vapi_allow(q, names);

	if (!rc)
		rc = vapi_int(q, "epoch", 1, 0, INT64_MAX, id);
	if (!rc)
		rc = vapi_int(q, "uid", 0, 0, UINT32_MAX, &fl->uid);
	if (!rc)
		rc = vapi_int(q, "pid", 0, 0, UINT32_MAX, &fl->pid);
	if (!rc)
		rc = split_vitals(q, fl);
	fl->exec = vapi_param(q, "exec");
	fl->site = vapi_param(q, "site");
	return rc;
}

int vapi_samples(struct vapi_req *q)
{
	struct filter fl = { .uid = -1, .pid = -1 };
	struct vr_epoch e;
	char *host = NULL;
	int64_t id;
	int rc = read_filter(q, &fl, &id);

	if (!rc && vread_begin(q->r))
		rc = vapi_store_fail(q);
	if (!rc) {
		rc = vread_epoch(q->r, id, &e, &host);
		rc = rc < 0 ? vapi_store_fail(q) :
		     rc ? vapi_fail(q, 404, "no epoch %lld", (long long)id) : 0;
		if (!rc)
			rc = check_vitals(q, &fl, &e);
		if (!rc)
			rc = list_samples(q, &fl, &e);
		vread_end(q->r);
	}
	free(host);
	for (int i = 0; i < fl.nvital; i++)
		free(fl.vital[i]);
	return rc ? rc : 200;
}
