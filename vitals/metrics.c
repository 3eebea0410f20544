// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * OpenMetrics for Prometheus (doc/web.md, "Metrics for Prometheus"):
 * /metrics on the server and stp-vitals metrics DB.  Every figure of
 * each host's newest epoch is a gauge labelled by host and vital sign;
 * the rules' flags that touch the newest epoch are counted per rule,
 * with the rules run over the hour before it so that a rule with a
 * window has one.  No timestamps: Prometheus stamps a scrape itself and
 * refuses samples older than its head block, which a quiet store's
 * newest epoch may well be.
 */
#include <stdlib.h>
#include <string.h>

#include "api_int.h"
#include "cmd.h"
#include "rules.h"

#define MAX_HOSTS 64
#define MAX_VITALS 64
#define HOUR_NS 3600000000000LL

struct mvital {
	char *name;
	int64_t weight;
	uint64_t events, unique, samples, dropped;
	int available;
};

struct mhost {
	char *name;
	struct vr_epoch e;	/* its newest epoch (e.host: name) */
	int nvital;
	struct mvital vital[MAX_VITALS];
};

struct mstore {
	int nhost;
	struct mhost host[MAX_HOSTS];
	int64_t newest_start, newest_end;
	uint64_t flags[VRULES_N + 1];
	int evaluated[VRULES_N + 1];
	int fail;
};

static int on_epoch(void *arg, const struct vr_epoch *e)
{
	struct mstore *m = arg;
	const char *h = e->host ? e->host : "";
	struct mhost *mh;
	int i;

	for (i = 0; i < m->nhost && strcmp(m->host[i].name, h); i++)
		;
	if (i == MAX_HOSTS)
		return 0;
	mh = &m->host[i];
	if (i == m->nhost) {
		if (!(mh->name = strdup(h)))
			return m->fail = 2;
		m->nhost++;
	}
	mh->e = *e;
	mh->e.host = mh->name;
	if (!m->newest_end || e->end_ns > m->newest_end) {
		m->newest_start = e->start_ns;
		m->newest_end = e->end_ns;
	}
	return 0;
}

static int on_vital(void *arg, const struct vr_epoch *e,
		    const struct vr_vital *v)
{
	struct mhost *mh = arg;
	struct mvital *mv;

	(void)e;
	if (mh->nvital == MAX_VITALS)
		return 0;
	mv = &mh->vital[mh->nvital];
	mv->name = strdup(v->v.vital ? v->v.vital : "");
	if (!mv->name)
		return 2;
	mv->weight = v->v.weight;
	mv->events = v->v.count;
	mv->unique = v->v.unique;
	mv->samples = v->v.samples;
	mv->dropped = v->v.dropped;
	mv->available = v->v.available;
	mh->nvital++;
	return 0;
}

static int on_flag(void *arg, const struct vflag *g)
{
	struct mstore *m = arg;

	if (g->rule < 1 || g->rule > VRULES_N)
		return 0;
	if (!g->evaluated)
		m->evaluated[g->rule] = 0;
	else if (g->end_ns > m->newest_start && g->start_ns < m->newest_end)
		m->flags[g->rule]++;
	return 0;
}

/* The hosts' newest epochs and their vitals, in one consistent view. */
static int read_epochs(struct vread *r, struct mstore *m)
{
	int rc = vread_begin(r);

	if (!rc)
		rc = vread_epochs(r, INT64_MIN, INT64_MAX, on_epoch, m);
	for (int i = 0; !rc && i < m->nhost; i++)
		rc = vread_vitals(r, &m->host[i].e, on_vital, &m->host[i]);
	if (vread_end(r) && !rc)
		rc = -1;
	return rc;
}

/* The rules take their own view of the store (vrules_run begins one). */
static int read_store(struct vread *r, struct mstore *m)
{
	int rc = read_epochs(r, m);

	for (int i = 1; i <= VRULES_N; i++)
		m->evaluated[i] = 1;
	if (!rc && m->nhost)
		rc = vrules_run(r, vrules_defaults(), m->newest_end - HOUR_NS,
				m->newest_end, on_flag, m);
	return rc;
}

/* A label's value: backslash, quote and newline escaped. */
static void label(FILE *f, const char *key, const char *v, int first)
{
	fprintf(f, "%s%s=\"", first ? "" : ",", key);
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			fputc('\\', f);
		if (*v == '\n')
			fputs("\\n", f);
		else
			fputc(*v, f);
	}
	fputc('"', f);
}

static void family(FILE *f, const char *name, const char *help)
{
	fprintf(f, "# TYPE %s gauge\n# HELP %s %s\n", name, name, help);
}

/* ORDER: figure() below takes these by index. */
static const struct {
	const char *name, *help;
} vital_families[] = {
	{ "stp_vitals_weight", "The weighted sum of the vital sign's events over the newest epoch." },
	{ "stp_vitals_events", "The number of the vital sign's events over the newest epoch." },
	{ "stp_vitals_unique_events", "Unique events of the vital sign over the newest epoch, estimated from its HCA." },
	{ "stp_vitals_samples", "Samples of the vital sign kept over the newest epoch." },
	{ "stp_vitals_dropped_samples", "Samples of the vital sign dropped over the newest epoch (the list was full)." },
	{ "stp_vitals_available", "1 when the machine can measure the vital sign, 0 when it cannot." },
};

/* The k-th figure of vital_families[] as the value of a line. */
static void figure(FILE *f, const struct mvital *v, int k)
{
	const uint64_t u[] = { 0, v->events, v->unique, v->samples,
			       v->dropped, v->available != 0 };

	if (k == 0)
		fprintf(f, " %lld\n", (long long)v->weight);
	else
		fprintf(f, " %llu\n", (unsigned long long)u[k]);
}

static void put_vitals(FILE *f, const struct mstore *m)
{
	for (size_t k = 0; k < 6; k++) {
		family(f, vital_families[k].name, vital_families[k].help);
		for (int i = 0; i < m->nhost; i++)
			for (int j = 0; j < m->host[i].nvital; j++) {
				const struct mvital *v = &m->host[i].vital[j];

				fprintf(f, "%s{", vital_families[k].name);
				label(f, "host", m->host[i].name, 1);
				label(f, "vital", v->name, 0);
				fputc('}', f);
				figure(f, v, (int)k);
			}
	}
}

static void put_epochs(FILE *f, const struct mstore *m)
{
	family(f, "stp_vitals_epoch_start_seconds",
	       "The start of the host's newest epoch, in Unix seconds.");
	for (int i = 0; i < m->nhost; i++) {
		fputs("stp_vitals_epoch_start_seconds{", f);
		label(f, "host", m->host[i].name, 1);
		fprintf(f, "} %.3f\n", m->host[i].e.start_ns / 1e9);
	}
	family(f, "stp_vitals_epoch_length_seconds",
	       "The length of the host's newest epoch.");
	for (int i = 0; i < m->nhost; i++) {
		fputs("stp_vitals_epoch_length_seconds{", f);
		label(f, "host", m->host[i].name, 1);
		fprintf(f, "} %.3f\n",
			(m->host[i].e.end_ns - m->host[i].e.start_ns) / 1e9);
	}
}

static void put_rules(FILE *f, const struct mstore *m)
{
	family(f, "stp_vitals_flags",
	       "The rule's flags that touch the newest epoch.");
	for (int i = 1; i <= VRULES_N; i++)
		fprintf(f, "stp_vitals_flags{rule=\"%d\"} %llu\n", i,
			(unsigned long long)m->flags[i]);
	family(f, "stp_vitals_rule_evaluated",
	       "1 when the rule could be evaluated, 0 when a vital sign it needs is unavailable.");
	for (int i = 1; i <= VRULES_N; i++)
		fprintf(f, "stp_vitals_rule_evaluated{rule=\"%d\"} %d\n", i,
			m->nhost ? m->evaluated[i] : 0);
}

int vmetrics_write(struct vread *r, FILE *f)
{
	struct mstore *m = calloc(1, sizeof(*m));
	int rc = m ? read_store(r, m) : -1;

	if (!rc && !m->fail) {
		put_vitals(f, m);
		put_epochs(f, m);
		put_rules(f, m);
		fputs("# EOF\n", f);
	}
	for (int i = 0; m && i < m->nhost; i++) {
		free(m->host[i].name);
		for (int j = 0; j < m->host[i].nvital; j++)
			free(m->host[i].vital[j].name);
	}
	rc = rc || !m || m->fail ? -1 : 0;
	free(m);
	return rc;
}

int vcmd_metrics(const struct vcmd *c, int argc, char **argv)
{
	struct vread *r;
	int rc;

	if (argc < 2)
		return vcmd_usage(c, "no store given");
	if (argv[1][0] == '-')
		return vcmd_usage(c, "unknown option '%s'", argv[1]);
	if (argc > 2)
		return vcmd_usage(c, "one store, not '%s' too", argv[2]);
	r = vcmd_open(argv[1]);
	if (!r)
		return 1;
	rc = vmetrics_write(r, stdout) ? vcmd_fail("%s", vread_error(r)) : 0;
	vread_close(r);
	if (fflush(stdout) || ferror(stdout))
		rc = vcmd_fail("cannot write the metrics");
	return rc;
}
