// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stp-vitals report DB -o FILE [--from T] [--to T] [--web DIR]: the web
 * page as one file to share, which works from file:// with no server.
 * The page's stylesheets and scripts are put inline where index.html
 * links them, and window.STP_EMBED holds the API's answers for the
 * range, keyed by the path the page asks for (web/api.js): the meta,
 * the series at each timescale and the flags (their range left out of
 * the key), and each epoch by its start with its samples.  Samples are
 * the bulk, so they are embedded up to a budget: the flagged epochs
 * first, then the others, oldest first; the page says which are not in
 * the report.  A diff of two ranges needs the server.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "api.h"
#include "cmd.h"
#include "../store/read.h"
#include "when.h"

#define SAMPLES_BUDGET (16u << 20)	/* bytes of embedded samples */

struct report {
	struct vread *r;
	const char *db, *out, *web;
	int64_t from, to;	/* ns, as given */
	struct rep_epoch {
		int64_t id, start_ms;
		int flagged;
	} *ep;
	size_t nep, cap;
	int64_t last_end_ms;	/* the newest epoch's end */
	struct vbuf embed;	/* the STP_EMBED object being written */
	int nanswers;
	int failed;		/* an answer was the store's failure */
};

static void add(struct vbuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;

		while (cap < b->len + n + 1)
			cap *= 2;
		b->p = realloc(b->p, cap);
		if (!b->p) {
			perror("stp-vitals: report");
			exit(1);
		}
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = 0;
}

static void adds(struct vbuf *b, const char *s)
{
	add(b, s, strlen(s));
}

/*
 * JSON put inside a <script>: every '<' as \u003c (it can only be in a
 * string), so no "</script>" or "<!--" ends or bends the element.
 */
static void add_json(struct vbuf *b, const char *s, size_t n)
{
	for (const char *e = s + n, *lt; s < e; s = lt + 1) {
		lt = memchr(s, '<', e - s);
		if (!lt) {
			add(b, s, e - s);
			return;
		}
		add(b, s, lt - s);
		adds(b, "\\u003c");
	}
}

/*
 * "KEY": ANSWER, into the embed.  A 4xx answer is embedded as it is (the
 * page shows its error: too many epochs for the epoch scale); the
 * store's failure (5xx) fails the report.
 */
static void answer(struct report *rp, const char *key, const char *path,
		   const char *query)
{
	struct vbuf body = { 0 };
	const char *type;
	int status = vapi_get(rp->r, path, query, &body, &type);

	if (status >= 500 && !rp->failed) {
		vcmd_fail("%s: %s: %s", rp->db, key, body.p ? body.p : "");
		rp->failed = 1;
	}
	adds(&rp->embed, rp->nanswers++ ? ",\n\"" : "\"");
	adds(&rp->embed, key);
	adds(&rp->embed, "\":");
	add_json(&rp->embed, body.p ? body.p : "null", body.p ? body.len : 4);
	free(body.p);
}

static int each_epoch(void *arg, const struct vr_epoch *e)
{
	struct report *rp = arg;

	if (rp->nep == rp->cap) {
		size_t cap = rp->cap ? 2 * rp->cap : 256;
		struct rep_epoch *ep = realloc(rp->ep, cap * sizeof(*ep));

		if (!ep)
			return -1;
		rp->ep = ep;
		rp->cap = cap;
	}
	rp->ep[rp->nep++] = (struct rep_epoch){
		.id = e->id,
		.start_ms = e->start_ns / 1000000,
	};
	rp->last_end_ms = e->end_ns / 1000000;
	return 0;
}

/* The last epoch that starts at or before ms (they are oldest first). */
static struct rep_epoch *epoch_of(struct report *rp, long long ms)
{
	size_t lo = 0, hi = rp->nep;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (rp->ep[mid].start_ms <= ms)
			lo = mid;
		else
			hi = mid;
	}
	return rp->ep[lo].start_ms <= ms ? &rp->ep[lo] : NULL;
}

/*
 * Mark the epochs a flag starts in: the flags' answer holds
 * "start":MS for each flag (the rules not evaluated have none, and a
 * string cannot hold the bytes "start": with its quotes unescaped).
 */
static void mark_flagged(struct report *rp, const char *flags)
{
	struct rep_epoch *e;

	for (const char *s = flags; (s = strstr(s, "\"start\":")); s += 8)
		if ((e = epoch_of(rp, strtoll(s + 8, NULL, 10))))
			e->flagged = 1;
}

/* The epoch's answers, unless its samples would pass the budget. */
static void embed_epoch(struct report *rp, const struct rep_epoch *e,
			size_t *used)
{
	char key[64], query[48];
	size_t before = rp->embed.len;

	if (*used >= SAMPLES_BUDGET)
		return;
	/* web/samples.js's key: the ms after the start, cut down to a ms */
	snprintf(query, sizeof(query), "at=%lld", (long long)e->start_ms + 1);
	snprintf(key, sizeof(key), "/api/epoch?%s", query);
	answer(rp, key, "/api/epoch", query);
	snprintf(query, sizeof(query), "epoch=%lld", (long long)e->id);
	snprintf(key, sizeof(key), "/api/samples?%s", query);
	answer(rp, key, "/api/samples", query);
	*used += rp->embed.len - before;
}

/*
 * Everything but the samples: meta, series, flags.  Their range starts a
 * millisecond after the first epoch's start cut down to a ms, as the
 * epoch before ends within that ms, and would overlap [first, last).
 */
static void embed_views(struct report *rp, long long first, long long last)
{
	static const char *const scales[] = { "epoch", "hour", "day" };
	char key[64], query[128];
	size_t flags_at;

	if (first + 1 < last)
		first++;
	answer(rp, "/api/meta", "/api/meta", NULL);
	for (int i = 0; i < 3; i++) {
		snprintf(query, sizeof(query), "scale=%s&from=%lld&to=%lld",
			 scales[i], first, last);
		snprintf(key, sizeof(key), "/api/series?scale=%s", scales[i]);
		answer(rp, key, "/api/series", query);
	}
	snprintf(query, sizeof(query), "from=%lld&to=%lld", first, last);
	flags_at = rp->embed.len;
	answer(rp, "/api/flags", "/api/flags", query);
	mark_flagged(rp, rp->embed.p + flags_at);
}

static int embed_all(struct report *rp)
{
	long long first, last;
	size_t used = 0;
	char head[160], when[WHEN_LEN];
	struct timespec now;

	if (vread_epochs(rp->r, rp->from, rp->to, each_epoch, rp))
		return vcmd_fail("%s", vread_error(rp->r));
	if (!rp->nep)
		return vcmd_fail("%s: no epoch in the range", rp->db);
	first = rp->ep[0].start_ms;
	last = rp->last_end_ms;
	clock_gettime(CLOCK_REALTIME, &now);
	snprintf(head, sizeof(head), "{\"first\":%lld,\"last\":%lld,"
		 "\"written\":\"%s\",\"answers\":{", first, last,
		 when_format(now.tv_sec * 1000000000LL + now.tv_nsec, when));
	adds(&rp->embed, head);
	embed_views(rp, first, last);
	for (size_t i = 0; i < rp->nep; i++)
		if (rp->ep[i].flagged)
			embed_epoch(rp, &rp->ep[i], &used);
	for (size_t i = 0; i < rp->nep; i++)
		if (!rp->ep[i].flagged)
			embed_epoch(rp, &rp->ep[i], &used);
	adds(&rp->embed, "}}");
	if (rp->failed)
		return 1;
	return 0;
}

#ifndef WEB_DIR
#define WEB_DIR "/usr/local/share/stp/web"
#endif

/*
 * The page's directory, as stp-vitals serve finds it: --web DIR, or
 * build/web beside build/stp-vitals, or $(PREFIX)/share/stp/web.
 */
static const char *web_dir(const char *given, char *buf, size_t len)
{
	char exe[PATH_MAX], *slash;
	ssize_t n;

	if (given)
		return given;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return WEB_DIR;
	exe[n] = 0;
	slash = strrchr(exe, '/');
	if (slash && (size_t)snprintf(buf, len, "%.*s/web/index.html",
				      (int)(slash - exe), exe) < len &&
	    !access(buf, R_OK)) {
		buf[strlen(buf) - strlen("/index.html")] = 0;
		return buf;
	}
	return WEB_DIR;
}

/* The whole of DIR/NAME, NUL-ended; NULL with errno. */
static char *slurp(const char *dir, const char *name, size_t *n)
{
	char path[PATH_MAX];
	struct vbuf b = { 0 };
	char chunk[65536];
	size_t got;
	FILE *f;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    sizeof(path)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	f = fopen(path, "rb");
	if (!f)
		return NULL;
	while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0)
		add(&b, chunk, got);
	if (ferror(f) || !b.p) {
		fclose(f);
		free(b.p);
		errno = errno ? errno : EIO;
		return NULL;
	}
	fclose(f);
	*n = b.len;
	return b.p;
}

/*
 * text inside <TAG>...</TAG>: a "</" that starts "</TAG" (any case)
 * becomes "<\/" (the same in a script's string or regex, and in CSS).
 */
static void put_inline(FILE *f, const char *tag, const char *text, size_t n)
{
	size_t tl = strlen(tag);

	fprintf(f, "<%s>\n", tag);
	for (size_t i = 0; i < n; i++) {
		if (text[i] == '<' && i + 1 + tl < n && text[i + 1] == '/' &&
		    !strncasecmp(text + i + 2, tag, tl)) {
			fputs("<\\/", f);
			i++;
			continue;
		}
		fputc(text[i], f);
	}
	fprintf(f, "\n</%s>\n", tag);
}

/* The file NAME that line links with ATTR="NAME" (no '/': the web dir's). */
static int linked(const char *line, const char *attr, char *name, size_t len)
{
	const char *s = strstr(line, attr), *e;

	if (!s)
		return 0;
	s += strlen(attr);
	e = strchr(s, '"');
	if (!e || e == s || (size_t)(e - s) >= len || memchr(s, '/', e - s))
		return 0;
	memcpy(name, s, e - s);
	name[e - s] = 0;
	return 1;
}

/* One line of index.html, with what it links put inline; 0 or -1. */
static int page_line(struct report *rp, FILE *f, const char *line,
		     int *embedded)
{
	char name[256];
	const char *tag = NULL;
	size_t n;
	char *text;

	if (strstr(line, "<link rel=\"stylesheet\"") &&
	    linked(line, "href=\"", name, sizeof(name)))
		tag = "style";
	else if (strstr(line, "<script src=") &&
		 linked(line, "src=\"", name, sizeof(name)))
		tag = "script";
	if (!tag)
		return fputs(line, f) < 0 ? -1 : 0;
	if (!strcmp(tag, "script") && !*embedded) {
		fputs("<script>\nwindow.STP_EMBED = ", f);
		fwrite(rp->embed.p, 1, rp->embed.len, f);
		fputs(";\n</script>\n", f);
		*embedded = 1;
	}
	text = slurp(rp->web, name, &n);
	if (!text) {
		vcmd_fail("%s/%s: %s", rp->web, name, strerror(errno));
		return -1;
	}
	put_inline(f, tag, text, n);
	free(text);
	return 0;
}

/* index.html with everything inline into f; 0, or -1 (said why). */
static int write_page(struct report *rp, FILE *f)
{
	size_t n;
	char *page = slurp(rp->web, "index.html", &n), *line, *next;
	int embedded = 0, rc = 0;

	if (!page)
		return vcmd_fail("%s/index.html: %s", rp->web, strerror(errno)),
		       -1;
	for (line = page; *line && !rc; line = next) {
		next = strchr(line, '\n');
		next = next ? next + 1 : line + strlen(line);
		char c = *next;

		*next = 0;
		rc = page_line(rp, f, line, &embedded);
		*next = c;
	}
	free(page);
	if (!rc && !embedded)
		return vcmd_fail("%s/index.html: no <script src=...> to put the"
				 " answers before", rp->web), -1;
	return rc;
}

/* The page into rp->out, through a temporary file: whole, or not at all. */
static int write_report(struct report *rp)
{
	char tmp[PATH_MAX];
	FILE *f;
	int rc;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp", rp->out) >=
	    sizeof(tmp))
		return vcmd_fail("%s: %s", rp->out, strerror(ENAMETOOLONG));
	f = fopen(tmp, "w");
	if (!f)
		return vcmd_fail("%s: %s", rp->out, strerror(errno));
	rc = write_page(rp, f);
	if (fclose(f) && !rc)
		rc = vcmd_fail("%s: %s", tmp, strerror(errno));
	if (!rc && rename(tmp, rp->out))
		rc = vcmd_fail("%s: %s", rp->out, strerror(errno));
	if (rc)
		unlink(tmp);
	return rc ? 1 : 0;
}

static int is_option(const char *a)
{
	return !strcmp(a, "-o") || !strcmp(a, "--from") ||
	       !strcmp(a, "--to") || !strcmp(a, "--web");
}

/* The arguments into rp; 0, or the usage error's status. */
static int report_args(const struct vcmd *c, int argc, char **argv,
		       struct report *rp)
{
	const char *v;
	int rc = 0;

	for (int i = 1; i < argc && !rc; i++) {
		if ((v = vcmd_value(argc, argv, &i, "--from")))
			rc = vcmd_time(c, "--from", v, &rp->from);
		else if ((v = vcmd_value(argc, argv, &i, "--to")))
			rc = vcmd_time(c, "--to", v, &rp->to);
		else if ((v = vcmd_value(argc, argv, &i, "-o")))
			rp->out = v;
		else if ((v = vcmd_value(argc, argv, &i, "--web")))
			rp->web = v;
		else if (is_option(argv[i]))
			rc = vcmd_usage(c, "%s needs a value", argv[i]);
		else if (argv[i][0] == '-' && argv[i][1])
			rc = vcmd_usage(c, "unknown option '%s'", argv[i]);
		else if (rp->db)
			rc = vcmd_usage(c, "one store, not '%s' too", argv[i]);
		else
			rp->db = argv[i];
	}
	if (!rc && !rp->db)
		rc = vcmd_usage(c, "no store given");
	if (!rc && !rp->out)
		rc = vcmd_usage(c, "no output file given (-o report.html)");
	if (!rc && rp->from >= rp->to)
		rc = vcmd_usage(c, "--from is not before --to");
	return rc;
}

int vcmd_report(const struct vcmd *c, int argc, char **argv)
{
	struct report rp = { .from = INT64_MIN, .to = INT64_MAX };
	char dir[PATH_MAX];
	int rc = report_args(c, argc, argv, &rp);

	if (rc)
		return rc;
	rp.web = web_dir(rp.web, dir, sizeof(dir));
	rp.r = vcmd_open(rp.db);
	if (!rp.r)
		return 1;
	/* not in one transaction: each answer is one of vapi_get's */
	rc = embed_all(&rp);
	if (!rc)
		rc = write_report(&rp);
	vread_close(rp.r);
	free(rp.ep);
	free(rp.embed.p);
	return rc;
}
