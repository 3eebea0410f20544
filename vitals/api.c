// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The web page's JSON API (api.h): routes a path to its endpoint
 * (api_series.c, api_epoch.c, api_rules.c, metrics.c), each writing its
 * answer to a memory stream.  An error's body replaces whatever the
 * endpoint had written, so a failure half way never sends half a JSON
 * document.  doc/web.md ("The web page's API") documents the answers.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "api_int.h"
#include "json.h"

static const struct route {
	const char *path;
	int (*fn)(struct vapi_req *q);
} routes[] = {
	{ "/api/meta", vapi_meta },
	{ "/api/series", vapi_series },
	{ "/api/epoch", vapi_epoch },
	{ "/api/samples", vapi_samples },
	{ "/api/flags", vapi_flags },
	{ "/api/diff", vapi_diff },
};

int vapi_fail(struct vapi_req *q, int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(q->err, sizeof(q->err), fmt, ap);
	va_end(ap);
	return status;
}

int vapi_store_fail(struct vapi_req *q)
{
	return vapi_fail(q, 500, "%s", vread_error(q->r));
}

void vapi_str(struct vapi_req *q, const char *key, const char *s)
{
	fprintf(q->out, ",\"%s\":", key);
	json_str(q->out, s);
}

void vapi_bool(struct vapi_req *q, const char *key, int b)
{
	fprintf(q->out, ",\"%s\":%s", key, b ? "true" : "false");
}

static int buf_add(struct vbuf *b, const char *s, size_t n)
{
	size_t cap = b->cap ? b->cap : 256;
	char *p;

	while (cap < b->len + n + 1)
		cap *= 2;
	if (cap != b->cap) {
		p = realloc(b->p, cap);
		if (!p)
			return -1;
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = 0;
	return 0;
}

/* {"error":"..."} for q->err into out. */
static void error_body(struct vapi_req *q, struct vbuf *out)
{
	char *p = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&p, &n);

	if (!f)
		return;
	fputs("{\"error\":", f);
	json_str(f, q->err);
	fputs("}\n", f);
	fclose(f);
	buf_add(out, p, n);
	free(p);
}

static int route(struct vapi_req *q, const char *path, const char *query,
		 const char **type)
{
	int status = vapi_parse_query(q, query);

	if (status)
		return status;
	if (!strcmp(path, "/metrics")) {
		*type = VMETRICS_TYPE;
		if (q->nparam)
			return vapi_fail(q, 400, "/metrics takes no parameters");
		return vmetrics_write(q->r, q->out) ? vapi_store_fail(q) : 200;
	}
	for (size_t i = 0; i < sizeof(routes) / sizeof(routes[0]); i++)
		if (!strcmp(path, routes[i].path))
			return routes[i].fn(q);
	return vapi_fail(q, 404, "no such path: %.200s", path);
}

int vapi_get(struct vread *r, const char *path, const char *query,
	     struct vbuf *out, const char **type)
{
	struct vapi_req q = { .r = r };
	char *p = NULL;
	size_t n = 0;
	int status;

	*type = "application/json";
	q.out = open_memstream(&p, &n);
	if (!q.out)
		return 500;
	status = route(&q, path, query, type);
	if (fclose(q.out))
		status = vapi_fail(&q, 500, "out of memory");
	for (int i = 0; i < q.nparam; i++) {
		free(q.param[i].key);
		free(q.param[i].val);
	}
	if (status == 200) {
		if (buf_add(out, p, n))
			status = 500;
	} else {
		*type = "application/json";
		error_body(&q, out);
	}
	free(p);
	return status;
}
