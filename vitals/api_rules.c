// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /api/flags and /api/diff (doc/web.md, "The web page's API"): the
 * diagnosis rules' flags (rules.h) and stp-vitals diff's rows (diff.h)
 * over ranges given in ms.  A rule that was not evaluated goes in a
 * list of its own, so the page can say why, never show a silent pass.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "api_int.h"
#include "diff.h"
#include "json.h"
#include "rules.h"

struct flags {
	FILE *flags, *skipped;	/* the two arrays' bodies */
	int nflag, nskip;
};

static void put_flag(FILE *f, const struct vflag *g, int first)
{
	fprintf(f, "%s{\"rule\":%d,\"name\":", first ? "" : ",", g->rule);
	json_str(f, g->name);
	fprintf(f, ",\"start\":%lld,\"end\":%lld,\"pid\":",
		(long long)vapi_ns_ms(g->start_ns),
		(long long)vapi_ns_ms(g->end_ns));
	if (g->pid < 0)
		fputs("null", f);
	else
		fprintf(f, "%d", g->pid);
	fputs(",\"exec\":", f);
	json_str(f, g->exec);
	fputs(",\"evidence\":", f);
	json_str(f, g->evidence);
	fputc('}', f);
}

static int on_flag(void *arg, const struct vflag *g)
{
	struct flags *fl = arg;

	if (g->evaluated) {
		put_flag(fl->flags, g, !fl->nflag++);
		return 0;
	}
	fprintf(fl->skipped, "%s{\"rule\":%d,\"name\":", fl->nskip++ ? "," : "",
		g->rule);
	json_str(fl->skipped, g->name);
	fputs(",\"why\":", fl->skipped);
	json_str(fl->skipped, g->why_not);
	fputc('}', fl->skipped);
	return 0;
}

static int run_flags(struct vapi_req *q, int64_t from, int64_t to)
{
	struct flags fl = { 0 };
	char *pf = NULL, *ps = NULL;
	size_t nf = 0, ns = 0;
	int rc = -2;

	fl.flags = open_memstream(&pf, &nf);
	fl.skipped = open_memstream(&ps, &ns);
	if (fl.flags && fl.skipped)
		rc = vrules_run(q->r, vrules_defaults(), from * 1000000,
				to * 1000000, on_flag, &fl);
	if (fl.flags)
		fclose(fl.flags);
	if (fl.skipped)
		fclose(fl.skipped);
	if (!rc)
		fprintf(q->out, "{\"from\":%lld,\"to\":%lld,\"flags\":[%s],"
			"\"not_evaluated\":[%s]}\n", (long long)from,
			(long long)to, pf ? pf : "", ps ? ps : "");
	free(pf);
	free(ps);
	if (rc == -2)
		return vapi_fail(q, 500, "out of memory");
	return rc ? vapi_store_fail(q) : 200;
}

int vapi_flags(struct vapi_req *q)
{
	static const char *const names[] = { "from", "to", NULL };
	int64_t from, to;
	int rc = vapi_allow(q, names);

	if (!rc)
		rc = vapi_range(q, &from, &to);
	return rc ? rc : run_flags(q, from, to);
}

/* "FROM-TO" of parameter key into r[0], r[1]; 0 or 400. */
static int parse_pair(struct vapi_req *q, const char *key, int64_t r[2])
{
	const char *s = vapi_param(q, key), *dash;

	if (!s)
		return vapi_fail(q, 400, "missing parameter '%s'", key);
	dash = strchr(s, '-');
	if (!dash || vapi_num(s, (size_t)(dash - s), 0, VAPI_MAX_MS, &r[0]) ||
	    vapi_num(dash + 1, strlen(dash + 1), 0, VAPI_MAX_MS, &r[1]))
		return vapi_fail(q, 400,
				 "%s: '%.100s' is not FROM-TO in ms from 0 to %lld",
				 key, s, (long long)VAPI_MAX_MS);
	if (r[0] >= r[1])
		return vapi_fail(q, 400, "%s: %lld is not before %lld", key,
				 (long long)r[0], (long long)r[1]);
	return 0;
}

/* JSON has no infinity or NaN: those are null. */
static void put_num(FILE *f, const char *key, double v)
{
	if (isfinite(v))
		fprintf(f, ",\"%s\":%.15g", key, v);
	else
		fprintf(f, ",\"%s\":null", key);
}

struct rows {
	FILE *f;
	int n;
};

static int on_row(void *arg, const struct vdiff_row *w)
{
	struct rows *rs = arg;
	FILE *f = rs->f;

	fputs(rs->n++ ? ",{\"kind\":" : "{\"kind\":", f);
	json_str(f, w->kind);
	fputs(",\"vital\":", f);
	json_str(f, w->vital);
	fputs(",\"name\":", f);
	json_str(f, w->name);
	put_num(f, "a", w->a);
	put_num(f, "b", w->b);
	put_num(f, "score", w->score);
	fputc('}', f);
	return 0;
}

int vapi_diff(struct vapi_req *q)
{
	static const char *const names[] = { "a", "b", "limit", NULL };
	int64_t a[2], b[2], limit = 20;
	struct rows rs = { q->out, 0 };
	int rc = vapi_allow(q, names);

	if (!rc)
		rc = parse_pair(q, "a", a);
	if (!rc)
		rc = parse_pair(q, "b", b);
	if (!rc)
		rc = vapi_int(q, "limit", 0, 1, 1000, &limit);
	if (rc)
		return rc;
	fprintf(q->out, "{\"a\":[%lld,%lld],\"b\":[%lld,%lld],\"rows\":[",
		(long long)a[0], (long long)a[1], (long long)b[0],
		(long long)b[1]);
	if (vdiff_run(q->r, a[0] * 1000000, a[1] * 1000000, b[0] * 1000000,
		      b[1] * 1000000, (unsigned)limit, on_row, &rs))
		return vapi_store_fail(q);
	fputs("]}\n", q->out);
	return 200;
}
