// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /api/epoch and /api/samples (doc/web.md, "The web page's API"): one
 * epoch's figures, and its samples through the page's filters.  A
 * vital sign named in a filter must be one the epoch has, so a typo is
 * a 400 and not an empty list.
 */
#include <stdlib.h>
#include <string.h>

#include "api_int.h"
#include "json.h"

struct found {
	struct vr_epoch e;
	char *host;
};

static int on_first(void *arg, const struct vr_epoch *e)
{
	struct found *f = arg;

	f->e = *e;
	f->host = strdup(e->host ? e->host : "");
	f->e.host = f->host;
	return f->host ? 1 : 2;
}

/* The epoch holding at ms; 0, 404 or 500. */
static int epoch_at(struct vapi_req *q, int64_t at, struct found *f)
{
	int rc = vread_epochs(q->r, at * 1000000, at * 1000000 + 1000000,
			      on_first, f);

	if (rc == 1)
		return 0;
	if (rc == 2)
		return vapi_fail(q, 500, "out of memory");
	if (rc)
		return vapi_store_fail(q);
	return vapi_fail(q, 404, "no epoch holds %lld", (long long)at);
}

static int epoch_id(struct vapi_req *q, int64_t id, struct found *f)
{
	int rc = vread_epoch(q->r, id, &f->e, &f->host);

	if (rc < 0)
		return vapi_store_fail(q);
	if (rc)
		return vapi_fail(q, 404, "no epoch %lld", (long long)id);
	f->e.host = f->host;
	return 0;
}

static int on_vital(void *arg, const struct vr_epoch *e,
		    const struct vr_vital *v)
{
	struct vapi_req *q = arg;
	const struct vx_vital *x = &v->v;

	(void)e;
	fputs(ftell(q->out) ? ",{\"name\":" : "{\"name\":", q->out);
	json_str(q->out, x->vital);
	fprintf(q->out, ",\"weight\":%lld,\"events\":%llu,\"unique\":%llu,"
		"\"samples\":%llu,\"dropped\":%llu,\"t\":%llu",
		(long long)x->weight, (unsigned long long)x->count,
		(unsigned long long)x->unique, (unsigned long long)x->samples,
		(unsigned long long)x->dropped, (unsigned long long)x->t);
	vapi_bool(q, "available", x->available);
	vapi_str(q, "why", x->available ? NULL : x->why ? x->why : "");
	fputc('}', q->out);
	return 0;
}

static void put_head(FILE *f, const char *key, const struct vr_epoch *e)
{
	fprintf(f, "{\"%s\":%lld,\"start\":%lld,\"end\":%lld", key,
		(long long)e->id, (long long)vapi_ns_ms(e->start_ns),
		(long long)vapi_ns_ms(e->end_ns));
}

/* The vitals array into a stream of its own (ftell says if first). */
static int put_vitals(struct vapi_req *q, const struct vr_epoch *e)
{
	struct vapi_req sub = *q;
	char *p = NULL;
	size_t n = 0;
	int rc;

	sub.out = open_memstream(&p, &n);
	if (!sub.out)
		return vapi_fail(q, 500, "out of memory");
	rc = vread_vitals(q->r, e, on_vital, &sub);
	fclose(sub.out);
	if (!rc)
		fprintf(q->out, ",\"vitals\":[%s]}\n", p ? p : "");
	free(p);
	return rc ? vapi_store_fail(q) : 0;
}

int vapi_epoch(struct vapi_req *q)
{
	static const char *const names[] = { "at", "id", NULL };
	struct found f = { 0 };
	int64_t at = -1, id = -1;
	int rc = vapi_allow(q, names);

	if (!rc)
		rc = vapi_ms(q, "at", 0, &at);
	if (!rc)
		rc = vapi_int(q, "id", 0, 0, INT64_MAX, &id);
	if (!rc && (at < 0) == (id < 0))
		rc = vapi_fail(q, 400, "give one of 'at' and 'id'");
	if (!rc)
		rc = at >= 0 ? epoch_at(q, at, &f) : epoch_id(q, id, &f);
	if (!rc) {
		put_head(q->out, "id", &f.e);
		vapi_str(q, "host", f.host);
		rc = put_vitals(q, &f.e);
	}
	free(f.host);
	return rc ? rc : 200;
}
