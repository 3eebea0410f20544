// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /api/meta and /api/series (doc/web.md, "The web page's API").  A series
 * comes from the aggregator (agg.h) as points, bucket by bucket; it is
 * turned into aligned columns, one array per figure and vital sign with
 * null where a vital sign has no point in a bucket, the layout a chart
 * library draws without reshaping.
 */
#include <stdlib.h>
#include <string.h>

#include "agg.h"
#include "api_int.h"
#include "json.h"

struct col {
	char *name;
	int64_t *weight;
	uint64_t *events, *unique, *samples, *dropped;
	signed char *avail;	/* -1: no point in that bucket */
};

struct series {
	int n, cap;		/* buckets */
	int64_t *start, *end;	/* ns */
	uint32_t *epochs;
	int ncol;
	struct col *col;
	int fail;		/* out of memory */
};

#define GROW(p, n) ((p) = realloc((p), (size_t)(n) * sizeof(*(p))))

static int grow_col(struct col *c, int from, int cap)
{
	if (!GROW(c->weight, cap) || !GROW(c->events, cap) ||
	    !GROW(c->unique, cap) || !GROW(c->samples, cap) ||
	    !GROW(c->dropped, cap) || !GROW(c->avail, cap))
		return -1;
	memset(c->avail + from, -1, (size_t)(cap - from));
	return 0;
}

static int new_bucket(struct series *s, const struct vagg_point *p)
{
	int cap = s->cap ? s->cap * 2 : 64;

	if (s->n == s->cap) {
		if (!GROW(s->start, cap) || !GROW(s->end, cap) ||
		    !GROW(s->epochs, cap))
			return -1;
		for (int i = 0; i < s->ncol; i++)
			if (grow_col(&s->col[i], s->cap, cap))
				return -1;
		s->cap = cap;
	}
	s->start[s->n] = p->start_ns;
	s->end[s->n] = p->end_ns;
	s->epochs[s->n++] = 0;
	return 0;
}

static struct col *find_col(struct series *s, const char *name)
{
	struct col *c;

	for (int i = 0; i < s->ncol; i++)
		if (!strcmp(s->col[i].name, name))
			return &s->col[i];
	if (!GROW(s->col, s->ncol + 1))
		return NULL;
	c = memset(&s->col[s->ncol], 0, sizeof(*c));
	c->name = strdup(name);
	if (!c->name || grow_col(c, 0, s->cap))
		return NULL;
	s->ncol++;
	return c;
}

static int on_point(void *arg, const struct vagg_point *p)
{
	struct series *s = arg;
	struct col *c;
	int i;

	if (!s->n || s->start[s->n - 1] != p->start_ns) {
		if (s->n == VAPI_MAX_BUCKETS)
			return 1;
		if (new_bucket(s, p))
			return s->fail = 2;
	}
	c = find_col(s, p->vital ? p->vital : "");
	if (!c)
		return s->fail = 2;
	i = s->n - 1;
	c->weight[i] = p->weight;
	c->events[i] = p->events;
	c->unique[i] = p->unique;
	c->samples[i] = p->samples;
	c->dropped[i] = p->dropped;
	c->avail[i] = p->available != 0;
	if (p->epochs > s->epochs[i])
		s->epochs[i] = p->epochs;
	return 0;
}

static void put_ms(FILE *f, const char *key, const int64_t *ns, int n)
{
	fprintf(f, ",\"%s\":[", key);
	for (int i = 0; i < n; i++)
		fprintf(f, "%s%lld", i ? "," : "", (long long)vapi_ns_ms(ns[i]));
	fputc(']', f);
}

/* One figure's column: a value, or null where avail is -1. */
static void put_col(FILE *f, const char *key, const struct col *c,
		    const void *v, int is_signed, int n)
{
	fprintf(f, ",\"%s\":[", key);
	for (int i = 0; i < n; i++) {
		if (i)
			fputc(',', f);
		if (c->avail[i] < 0)
			fputs("null", f);
		else if (is_signed)
			fprintf(f, "%lld", (long long)((const int64_t *)v)[i]);
		else
			fprintf(f, "%llu",
				(unsigned long long)((const uint64_t *)v)[i]);
	}
	fputc(']', f);
}

static void put_avail(FILE *f, const struct col *c, int n)
{
	static const char *const word[] = { "null", "false", "true" };

	fputs(",\"available\":[", f);
	for (int i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? "," : "", word[c->avail[i] + 1]);
	fputc(']', f);
}

static void put_series(struct vapi_req *q, const char *scale, int64_t from,
		       int64_t to, const struct series *s)
{
	FILE *f = q->out;

	fprintf(f, "{\"scale\":\"%s\",\"from\":%lld,\"to\":%lld", scale,
		(long long)from, (long long)to);
	put_ms(f, "t", s->start, s->n);
	put_ms(f, "end", s->end, s->n);
	fputs(",\"epochs\":[", f);
	for (int i = 0; i < s->n; i++)
		fprintf(f, "%s%u", i ? "," : "", s->epochs[i]);
	fputs("],\"vitals\":[", f);
	for (int i = 0; i < s->ncol; i++) {
		const struct col *c = &s->col[i];

		fputs(i ? ",{\"name\":" : "{\"name\":", f);
		json_str(f, c->name);
		put_col(f, "weight", c, c->weight, 1, s->n);
		put_col(f, "events", c, c->events, 0, s->n);
		put_col(f, "unique", c, c->unique, 0, s->n);
		put_col(f, "samples", c, c->samples, 0, s->n);
		put_col(f, "dropped", c, c->dropped, 0, s->n);
		put_avail(f, c, s->n);
		fputc('}', f);
	}
	fputs("]}\n", f);
}

static void free_series(struct series *s)
{
	for (int i = 0; i < s->ncol; i++) {
		struct col *c = &s->col[i];

		free(c->name);
		free(c->weight);
		free(c->events);
		free(c->unique);
		free(c->samples);
		free(c->dropped);
		free(c->avail);
	}
	free(s->col);
	free(s->start);
	free(s->end);
	free(s->epochs);
}

static const struct {
	const char *name;
	enum vagg_scale scale;
	int64_t ms;		/* a bucket's length; 0: an epoch's */
} scales[] = {
	{ "epoch", VAGG_EPOCH, 0 },
	{ "hour", VAGG_HOUR, 3600000 },
	{ "day", VAGG_DAY, 86400000 },
};

static int pick_scale(struct vapi_req *q, int *k)
{
	const char *s = vapi_param(q, "scale");

	if (!s)
		return vapi_fail(q, 400, "missing parameter 'scale'");
	for (*k = 0; *k < 3; ++*k)
		if (!strcmp(s, scales[*k].name))
			return 0;
	return vapi_fail(q, 400,
			 "scale: '%.100s' is not epoch, hour or day", s);
}

static int run_series(struct vapi_req *q, int k, int64_t from, int64_t to)
{
	struct series s = { 0 };
	int rc;

	rc = vagg_series(q->r, scales[k].scale, from * 1000000, to * 1000000,
			 on_point, &s);
	if (rc == 1 && !s.fail)
		rc = vapi_fail(q, 400,
			       "more than %d %ss in the range (choose a shorter range or a coarser scale)",
			       VAPI_MAX_BUCKETS, scales[k].name);
	else if (s.fail)
		rc = vapi_fail(q, 500, "out of memory");
	else if (rc)
		rc = vapi_store_fail(q);
	else
		put_series(q, scales[k].name, from, to, &s);
	free_series(&s);
	return rc ? rc : 200;
}

int vapi_series(struct vapi_req *q)
{
	static const char *const names[] = { "scale", "from", "to", NULL };
	int64_t from, to;
	int k, rc;

	rc = vapi_allow(q, names);
	if (!rc)
		rc = pick_scale(q, &k);
	if (!rc)
		rc = vapi_range(q, &from, &to);
	if (rc)
		return rc;
	if (scales[k].ms && (to - from) / scales[k].ms + 2 > VAPI_MAX_BUCKETS)
		return vapi_fail(q, 400,
				 "more than %d %ss in the range (choose a shorter range or a coarser scale)",
				 VAPI_MAX_BUCKETS, scales[k].name);
	return run_series(q, k, from, to);
}
