// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The page's first view, answered before it is asked (serve_int.h).
 * Its flags run the ten rules over the whole store, which takes a second
 * or two on three days of epochs, while everything else is cached by
 * the aggregator; so after the server starts, and after each new epoch
 * while someone has the page open, the idle server answers the three
 * requests of web/main.js's start() in advance, under the exact paths
 * the page builds from /api/meta (web/panes.js's seriesPath(), and
 * web/flags.js's loadFlags()).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "api_int.h"
#include "serve_int.h"

/* The integer after "key": in a /api/meta answer; 0 when null. */
static int64_t field(const struct vbuf *b, const char *key)
{
	char pat[32];
	const char *p;
	long long v = 0;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	p = strstr(b->p, pat);
	if (p)
		sscanf(p + strlen(pat), "%lld", &v);
	return v;
}

struct view {
	int64_t first, last, epochs, epoch_ms;
};

/* The store's extent from /api/meta; 0, or -1 when it has no epoch. */
static int read_meta(struct vcache *c, struct vread *r, struct view *v)
{
	const struct vbuf *m = vcache_fill(c, r, "/api/meta", "/api/meta",
					   NULL);

	if (!m)
		return -1;
	v->first = field(m, "first");
	v->last = field(m, "last");
	v->epochs = field(m, "epochs");
	v->epoch_ms = field(m, "epoch_ms");
	return v->epochs ? 0 : -1;
}

/* /api/series?scale=epoch as web/panes.js's seriesPath() builds it. */
static void warm_series(struct vcache *c, struct vread *r,
			const struct view *v)
{
	int64_t from = v->first;
	char q[128], key[160];

	if (v->epochs > VAPI_MAX_BUCKETS &&
	    v->last - (VAPI_MAX_BUCKETS - 1) * v->epoch_ms > from)
		from = v->last - (VAPI_MAX_BUCKETS - 1) * v->epoch_ms;
	snprintf(q, sizeof(q), "scale=epoch&from=%" PRId64 "&to=%" PRId64,
		 from, v->last);
	snprintf(key, sizeof(key), "/api/series?%s", q);
	vcache_fill(c, r, key, "/api/series", q);
}

/* /api/flags as web/flags.js's loadFlags() builds it. */
static void warm_flags(struct vcache *c, struct vread *r,
		       const struct view *v)
{
	char q[128], key[160];

	snprintf(q, sizeof(q), "from=%" PRId64 "&to=%" PRId64, v->first,
		 v->last);
	snprintf(key, sizeof(key), "/api/flags?%s", q);
	vcache_fill(c, r, key, "/api/flags", q);
}

/*
 * Only for a new epoch (the aggregator's own commits change the store
 * too).  The series first: when it keeps new buckets, that commit
 * empties the cache, and the answers are made again (the series now
 * from the kept buckets) before the flags, the costly one, run once.
 */
void vwarm_first_view(struct vcache *c, struct vread *r, int64_t *last)
{
	struct view v;

	vcache_sync(c, r);
	if (read_meta(c, r, &v) || v.last == *last)
		return;
	*last = v.last;
	warm_series(c, r, &v);
	if (vcache_sync(c, r)) {
		if (read_meta(c, r, &v))
			return;
		warm_series(c, r, &v);
	}
	warm_flags(c, r, &v);
}
