// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /api/meta (doc/web.md, "The web page's API"): the store's extent, its
 * hosts and its vital signs, which the page reads first to lay out its
 * panes.  The vital signs are the newest epoch's, then the oldest's, so
 * the answer costs two epochs' reads whatever the store's size.
 */
#include <stdlib.h>
#include <string.h>

#include "api_int.h"
#include "json.h"

#define MAX_HOSTS 64
#define MAX_VITALS 64

struct vit {
	char *name, *why;
	int available;
};

struct meta {
	int64_t n;
	struct vr_epoch first, last;	/* host strings are ours */
	int nhost;
	char *host[MAX_HOSTS];
	int nvit;
	struct vit vit[MAX_VITALS];
	int fail;
};

static int copy_epoch(struct vr_epoch *d, const struct vr_epoch *e)
{
	free((char *)d->host);
	*d = *e;
	d->host = strdup(e->host ? e->host : "");
	return d->host ? 0 : -1;
}

static int on_epoch(void *arg, const struct vr_epoch *e)
{
	struct meta *m = arg;
	const char *h = e->host ? e->host : "";
	int i;

	if (!m->n++ && copy_epoch(&m->first, e))
		return m->fail = 2;
	if (copy_epoch(&m->last, e))
		return m->fail = 2;
	for (i = 0; i < m->nhost && strcmp(m->host[i], h); i++)
		;
	if (i == m->nhost && m->nhost < MAX_HOSTS &&
	    !(m->host[m->nhost++] = strdup(h)))
		return m->fail = 2;
	return 0;
}

static int on_vital(void *arg, const struct vr_epoch *e,
		    const struct vr_vital *v)
{
	struct meta *m = arg;
	struct vit *t;

	(void)e;
	for (int i = 0; i < m->nvit; i++)
		if (!strcmp(m->vit[i].name, v->v.vital))
			return 0;
	if (m->nvit == MAX_VITALS)
		return 0;
	t = &m->vit[m->nvit];
	t->name = strdup(v->v.vital);
	t->why = v->v.why && !v->v.available ? strdup(v->v.why) : NULL;
	t->available = v->v.available;
	if (!t->name)
		return m->fail = 2;
	m->nvit++;
	return 0;
}

static int read_meta(struct vapi_req *q, struct meta *m)
{
	int rc = vread_begin(q->r);

	if (!rc)
		rc = vread_epochs(q->r, INT64_MIN, INT64_MAX, on_epoch, m);
	if (!rc && m->n)
		rc = vread_vitals(q->r, &m->last, on_vital, m);
	if (!rc && m->n)
		rc = vread_vitals(q->r, &m->first, on_vital, m);
	vread_end(q->r);
	if (m->fail)
		return vapi_fail(q, 500, "out of memory");
	return rc ? vapi_store_fail(q) : 0;
}

static void put_meta(struct vapi_req *q, const struct meta *m)
{
	FILE *f = q->out;

	fputs("{\"host\":", f);
	json_str(f, m->n ? m->last.host : NULL);
	fputs(",\"hosts\":[", f);
	for (int i = 0; i < m->nhost; i++) {
		if (i)
			fputc(',', f);
		json_str(f, m->host[i]);
	}
	if (m->n)
		fprintf(f, "],\"first\":%lld,\"last\":%lld,\"epochs\":%lld,"
			"\"epoch_ms\":%lld", (long long)vapi_ns_ms(m->first.start_ns),
			(long long)vapi_ns_ms(m->last.end_ns), (long long)m->n,
			(long long)vapi_ns_ms(m->last.end_ns - m->last.start_ns));
	else
		fputs("],\"first\":null,\"last\":null,\"epochs\":0,"
		      "\"epoch_ms\":null", f);
	fputs(",\"vitals\":[", f);
	for (int i = 0; i < m->nvit; i++) {
		fputs(i ? ",{\"name\":" : "{\"name\":", f);
		json_str(f, m->vit[i].name);
		vapi_bool(q, "available", m->vit[i].available);
		vapi_str(q, "why", m->vit[i].why);
		fputc('}', f);
	}
	fprintf(f, "],\"scales\":[\"epoch\",\"hour\",\"day\"],"
		"\"limits\":{\"buckets\":%d}}\n", VAPI_MAX_BUCKETS);
}

int vapi_meta(struct vapi_req *q)
{
	static const char *const names[] = { NULL };
	struct meta m = { 0 };
	int rc = vapi_allow(q, names);

	if (!rc)
		rc = read_meta(q, &m);
	if (!rc)
		put_meta(q, &m);
	free((char *)m.first.host);
	free((char *)m.last.host);
	for (int i = 0; i < m.nhost; i++)
		free(m.host[i]);
	for (int i = 0; i < m.nvit; i++) {
		free(m.vit[i].name);
		free(m.vit[i].why);
	}
	return rc ? rc : 200;
}
