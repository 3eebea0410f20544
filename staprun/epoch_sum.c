// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The terminal summary of a closed epoch: a line per vital sign with its
 * weighted total, events, unique events, samples (and drops), the
 * threshold t, and the sites and programs most of its samples came from;
 * a vital sign the machine cannot measure says so, and why.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "stprun.h"
#include "epoch.h"

#define TOP 2

struct tally {
	const char *key;
	int n;
};

/* Count key into t (at most max keys); the table is small. */
static void count(struct tally *t, int *nt, int max, const char *key)
{
	int i;

	for (i = 0; i < *nt; i++)
		if (!strcmp(t[i].key, key)) {
			t[i].n++;
			return;
		}
	if (*nt < max) {
		t[*nt].key = key;
		t[(*nt)++].n = 1;
	}
}

static int by_count(const void *a, const void *b)
{
	const struct tally *x = a, *y = b;

	return y->n - x->n;
}

/* The last path component: programs are named as ps names them. */
static const char *base(const char *p)
{
	const char *s = strrchr(p, '/');

	return s && p[0] != '[' ? s + 1 : p;
}

static void tops(const struct epoch *ep, const char *vital, FILE *out)
{
	struct tally *sites = calloc(ep->e.nsamples + 1, sizeof(*sites));
	struct tally *progs = calloc(ep->e.nsamples + 1, sizeof(*progs));
	int ns = 0, np = 0, i;
	uint32_t k;

	if (!sites || !progs)
		goto out;
	for (k = 0; k < ep->e.nsamples; k++) {
		const struct vx_sample *s = &ep->s[k];

		if (strcmp(s->vital, vital))
			continue;
		count(sites, &ns, ep->e.nsamples, s->site[0] ? s->site : "?");
		count(progs, &np, ep->e.nsamples, base(s->exec ? s->exec : "?"));
	}
	qsort(sites, ns, sizeof(*sites), by_count);
	qsort(progs, np, sizeof(*progs), by_count);
	for (i = 0; i < ns && i < TOP; i++)
		fprintf(out, "%s%s (%d)", i ? ", " : "  ", sites[i].key, sites[i].n);
	for (i = 0; i < np && i < TOP; i++)
		fprintf(out, "%s%s (%d)", i ? ", " : "; ", progs[i].key, progs[i].n);
out:
	free(sites);
	free(progs);
}

void epoch_summary(const struct epoch *ep, FILE *out)
{
	time_t t0 = ep->e.start_ns / 1000000000;
	char when[32];
	struct tm tm;
	uint32_t i;

	gmtime_r(&t0, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	fprintf(out, "vitals epoch %llu: %s UTC, %.1f s%s\n", (unsigned long long)ep->seq, when,
		(ep->e.end_ns - ep->e.start_ns) / 1e9, ep->final ? " (the last)" : "");
	if (ep->missed)
		fprintf(out, "  (%u epoch ends came before the last epoch was read: this one is longer)\n",
			ep->missed);
	fprintf(out, "  %-8s %12s %9s %8s %8s %8s %6s  %s\n", "vital", "weight", "events",
		"unique", "samples", "dropped", "t", "top sites; programs");
	for (i = 0; i < ep->e.nvitals; i++) {
		const struct vx_vital *v = &ep->v[i];

		if (!v->available) {
			fprintf(out, "  %-8s unavailable: %s\n", v->vital, v->why ? v->why : "");
			continue;
		}
		fprintf(out, "  %-8s %12lld %9llu %8llu %8llu %8llu %6llu", v->vital,
			(long long)v->weight, (unsigned long long)v->count,
			(unsigned long long)v->unique, (unsigned long long)v->samples,
			(unsigned long long)v->dropped, (unsigned long long)v->t);
		tops(ep, v->vital, out);
		fputc('\n', out);
	}
	fflush(out);
}
