// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The tables of the "sketch coverage" section (tests/bench/run.sh) from
 * the raw rows sketch_coverage printed for every HCA size: rows of one
 * configuration (HCA size, s, labels, t) are summed over their epochs.
 *
 *   sketch_report FILE TARGET
 *
 * Agreement of measurement and formula: the misses are a sum of many
 * nearly independent rare events, so their count is close to Poisson
 * with the estimate as mean; "agree" is within 3 standard deviations
 * (sqrt(estimate)) plus one.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXCONF 4096
#define MAXDIM 16

struct conf {
	int hca, labels, shift;
	double s;
	long events, seen, missed, lost, epochs;
	double power, exact;	/* the formula's expected misses */
};

static struct conf conf[MAXCONF];
static int nconf;
static int hcas[MAXDIM], nhca, nls[MAXDIM], nlab, shifts[MAXDIM], nshift;
static double exps[MAXDIM];
static int nexp;
static int ns_hca[MAXDIM], nns;
static double ns[MAXDIM];	/* of ns_hca[i] */

static void add_int(int *set, int *n, int v)
{
	for (int i = 0; i < *n; i++)
		if (set[i] == v)
			return;
	if (*n < MAXDIM)
		set[(*n)++] = v;
}

static void add_exp(double v)
{
	for (int i = 0; i < nexp; i++)
		if (exps[i] == v)
			return;
	if (nexp < MAXDIM)
		exps[nexp++] = v;
}

static struct conf *find(int hca, double s, int labels, int shift)
{
	for (int i = 0; i < nconf; i++)
		if (conf[i].hca == hca && conf[i].s == s &&
		    conf[i].labels == labels && conf[i].shift == shift)
			return &conf[i];
	return NULL;
}

static void add_row(const struct conf *r)
{
	struct conf *c = find(r->hca, r->s, r->labels, r->shift);

	if (!c) {
		if (nconf == MAXCONF)
			exit(2);
		c = &conf[nconf++];
		*c = *r;
		c->events = c->seen = c->missed = c->lost = 0;
		c->power = c->exact = 0;
		add_int(hcas, &nhca, r->hca);
		add_int(nls, &nlab, r->labels);
		add_int(shifts, &nshift, r->shift);
		add_exp(r->s);
	}
	c->events += r->events;
	c->seen += r->seen;
	c->missed += r->missed;
	c->lost += r->lost;
	c->power += r->power;
	c->exact += r->exact;
	c->epochs++;
}

static int by_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static int by_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int load(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512];
	struct conf r;
	int hca;
	double v;

	if (!f) {
		perror(path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "cov %d %lf %d %d %ld %ld %ld %ld %lf %lf",
			   &r.hca, &r.s, &r.labels, &r.shift, &r.events,
			   &r.seen, &r.missed, &r.lost, &r.power,
			   &r.exact) == 10)
			add_row(&r);
		else if (sscanf(line, "ns %d %lf", &hca, &v) == 2 &&
			 nns < MAXDIM) {
			ns_hca[nns] = hca;
			ns[nns++] = v;
		}
	}
	fclose(f);
	qsort(hcas, nhca, sizeof(int), by_int);
	qsort(nls, nlab, sizeof(int), by_int);
	qsort(shifts, nshift, sizeof(int), by_int);
	qsort(exps, nexp, sizeof(double), by_double);
	return nconf ? 0 : -1;
}

static double rate(const struct conf *c)
{
	return c->seen ? (double)c->missed / c->seen : 0;
}

/* The misses within 3 standard deviations (+1) of an estimate. */
static int near(long missed, double est)
{
	return fabs(missed - est) <= 3 * sqrt(est) + 1;
}

static int agrees(const struct conf *c)
{
	return near(c->missed, c->exact);
}

static const char *size_name(int bytes)
{
	static char buf[8][16];
	static int k;
	char *b = buf[k++ & 7];

	if (bytes >= 1 << 20)
		snprintf(b, 16, "%dM", bytes >> 20);
	else if (bytes >= 1024)
		snprintf(b, 16, "%dK", bytes >> 10);
	else
		snprintf(b, 16, "%d", bytes);
	return b;
}

/* One line per (s, labels, t), one column per HCA size. */
static void table(const char *title, double (*val)(const struct conf *))
{
	printf("%s\n\n  %-4s %7s %3s", title, "s", "labels", "t");
	for (int h = 0; h < nhca; h++)
		printf(" %8s", size_name(hcas[h]));
	printf("\n");
	for (int e = 0; e < nexp; e++)
		for (int l = 0; l < nlab; l++)
			for (int t = 0; t < nshift; t++) {
				printf("  %-4.1f %7d %3d", exps[e], nls[l],
				       1 << shifts[t]);
				for (int h = 0; h < nhca; h++) {
					struct conf *c = find(hcas[h], exps[e],
							      nls[l], shifts[t]);

					if (c)
						printf(" %8.1e", val(c));
					else
						printf(" %8s", "-");
				}
				printf("\n");
			}
	printf("\n");
}

static double est_rate(const struct conf *c)
{
	return c->seen ? c->exact / c->seen : 0;
}

static double lost_share(const struct conf *c)
{
	return c->events ? (double)c->lost / c->events : 0;
}

/*
 * The smallest HCA from which on every size meets the target (a rate of
 * a few labels is noisy: one miss more at a larger size is no trend).
 */
static const char *smallest(double s, int labels, int shift,
			    double (*val)(const struct conf *), double target)
{
	const char *need = NULL;

	for (int h = nhca - 1; h >= 0; h--) {
		struct conf *c = find(hcas[h], s, labels, shift);

		if (!c || val(c) > target)
			break;
		need = size_name(hcas[h]);
	}
	return need ? need : "none";
}

/* The fewest labels seen behind a rate of (s, labels): its resolution. */
static double resolution(double s, int labels)
{
	long least = 0;

	for (int i = 0; i < nconf; i++)
		if (conf[i].s == s && conf[i].labels == labels &&
		    (!least || conf[i].seen < least))
			least = conf[i].seen;
	return least ? 1.0 / least : 0;
}

static void needed(double target)
{
	printf("smallest HCA from which on every size meets the target (rate <= %.0e),\n"
	       "by the measurement and by the formula's estimate; resolution: 1 / the\n"
	       "fewest labels seen behind a measured rate:\n\n"
	       "  %-4s %7s", target, "s", "labels");
	for (int t = 0; t < nshift; t++)
		printf(" meas t=%-3d", 1 << shifts[t]);
	for (int t = 0; t < nshift; t++)
		printf(" est t=%-4d", 1 << shifts[t]);
	printf(" %10s\n", "resolution");
	for (int e = 0; e < nexp; e++)
		for (int l = 0; l < nlab; l++) {
			printf("  %-4.1f %7d", exps[e], nls[l]);
			for (int t = 0; t < nshift; t++)
				printf(" %-10s", smallest(exps[e], nls[l],
							   shifts[t], rate,
							   target));
			for (int t = 0; t < nshift; t++)
				printf(" %-10s", smallest(exps[e], nls[l],
							   shifts[t], est_rate,
							   target));
			printf(" %10.0e\n", resolution(exps[e], nls[l]));
		}
	printf("\n");
}

/* How far the paper's form is above the exact one, relatively. */
static double above(const struct conf *c)
{
	return (c->power - c->exact) / c->exact;
}

static void agreement(void)
{
	int agree = 0, agree_power = 0, shown = 0, worst = -1;

	for (int i = 0; i < nconf; i++) {
		struct conf *c = &conf[i];

		agree += agrees(c);
		agree_power += near(c->missed, c->power);
		if (c->exact >= 10 && (worst < 0 || above(c) > above(&conf[worst])))
			worst = i;
	}
	printf("measurement against the formula (misses within 3 sqrt(estimate) + 1\n"
	       "of the estimate): the exact form agrees in %d of %d configurations,\n"
	       "the paper's form ((N-n)/N)^k in %d.\n", agree, nconf, agree_power);
	if (worst >= 0) {
		struct conf *c = &conf[worst];

		printf("The paper's form is furthest above the exact one (among estimates\n"
		       "of 10 misses or more) at HCA %s s %.1f labels %d t %d: %.1f against\n"
		       "%.1f, %ld measured (labels sharing counters that stay small).\n",
		       size_name(c->hca), c->s, c->labels, 1 << c->shift,
		       c->power, c->exact, c->missed);
	}
	for (int i = 0; i < nconf; i++) {
		struct conf *c = &conf[i];

		if (agrees(c))
			continue;
		if (!shown++)
			printf("the exact form and the measurement differ at:\n");
		printf("  HCA %s s %.1f labels %d t %d: %ld missed, %.1f expected\n",
		       size_name(c->hca), c->s, c->labels, 1 << c->shift,
		       c->missed, c->exact);
	}
	printf("\n");
}

static void timing(void)
{
	printf("ns per cx_event + cx_done (host, one thread, 10,000 labels, s=1.0):\n\n ");
	for (int h = 0; h < nhca; h++)
		printf(" %6s", size_name(hcas[h]));
	printf("\n ");
	for (int h = 0; h < nhca; h++) {
		double v = 0;

		for (int i = 0; i < nns; i++)
			if (ns_hca[i] == hcas[h])
				v = ns[i];
		printf(" %6.1f", v);
	}
	printf("\n\n");
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: sketch_report FILE TARGET\n");
		return 2;
	}
	if (load(argv[1]))
		return 1;
	table("false-negative rate, measured (labels that occurred, never selected):",
	      rate);
	table("false-negative rate, the formula's estimate (exact form):",
	      est_rate);
	table("share of the events whose label was never selected:", lost_share);
	agreement();
	needed(atof(argv[2]));
	timing();
	return 0;
}
