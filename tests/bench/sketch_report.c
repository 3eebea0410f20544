// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The tables of the "sketch coverage" section (tests/bench/run.sh) from
 * the raw rows sketch_coverage printed for every HCA size (its comment
 * says what each column is): rows of one configuration (HCA size,
 * vitals counting at once, label shape, s, labels, t) are summed over
 * their epochs, and tables sum configurations further.
 *
 *   sketch_report FILE DEFAULT_HCA TARGET1 TARGET2
 *
 * DEFAULT_HCA: cx_core.h's CX_HCA_BYTES (sketch_size prints it); the
 * targets, false-negative rates: TARGET1 over the labels with at least
 * t events, TARGET2 over every label of the streams of up to 1,000
 * labels (issue 27).  A target is met when the measured rate is within
 * it in every configuration it covers; the one-sided 95% upper bound
 * beside each rate says whether the labels behind it were enough to
 * tell.
 *
 * Agreement of the HCA alone with the formula: its misses are a sum of
 * many nearly independent rare events, close to Poisson with the
 * estimate as mean; "agree" is within 3 standard deviations
 * (sqrt(estimate)) plus one.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXAGG 4096
#define MAXDIM 16
#define TARGET2_LABELS 1000	/* target 2 covers up to this many labels */
#define NSHAPE 4
#define ANY (-1)

static const char *const shape_name[NSHAPE] = { "random", "pid", "pc", "syscall" };

/* A configuration's key; ANY (or s < 0) in a filter matches every value. */
struct key {
	int hca, nv, shape, labels, t;
	double s;
};

/* Sums over epochs (cov rows, then smp rows). */
struct agg {
	struct key k;
	long epochs, events, seen, missed, hmissed, seen_t, missed_t, hmissed_t;
	double est_pow, est_exact, est_t;
	long sepochs, slots, claimed, stored, firsts, dropped, selected, unstored;
	long evicted, violations, tail, tail_stored;
	long drop_bad;		/* epochs where dropped != claimed - slots */
	long over, over_stored, over_firsts;	/* epochs whose selected labels
						 * outnumbered the slots */
};

static struct agg agg[MAXAGG];
static int nagg;
static int hcas[MAXDIM], nhca, nls[MAXDIM], nlab, ts[MAXDIM], nts;
static double exps[MAXDIM];
static int nexp;
static struct { int hca, labels; double ns; } timing[2 * MAXDIM];
static int ntiming, rounds;
static int def_hca;

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

static int matches(const struct key *k, const struct key *f)
{
	return (f->hca == ANY || f->hca == k->hca) && (f->nv == ANY || f->nv == k->nv) &&
	       (f->shape == ANY || f->shape == k->shape) &&
	       (f->labels == ANY || f->labels == k->labels) &&
	       (f->t == ANY || f->t == k->t) && (f->s < 0 || f->s == k->s);
}

/* The configuration k's sums, made when new. */
static struct agg *slot(const struct key *k)
{
	for (int i = 0; i < nagg; i++)
		if (!memcmp(&agg[i].k, k, sizeof(*k)))
			return &agg[i];
	if (nagg == MAXAGG) {
		fprintf(stderr, "sketch_report: too many configurations\n");
		exit(2);
	}
	memset(&agg[nagg], 0, sizeof(agg[nagg]));
	agg[nagg].k = *k;
	add_int(hcas, &nhca, k->hca);
	add_int(nls, &nlab, k->labels);
	add_int(ts, &nts, k->t);
	add_exp(k->s);
	return &agg[nagg++];
}

static int shape_of(const char *name)
{
	for (int i = 0; i < NSHAPE; i++)
		if (!strcmp(name, shape_name[i]))
			return i;
	return ANY;
}

/* The key's columns of a line: the number of characters read, or 0. */
static int parse_key(const char *line, struct key *k)
{
	char shape[16];
	int used = 0;

	memset(k, 0, sizeof(*k));
	if (sscanf(line, "%*s %d %d %15s %lf %d %d%n", &k->hca, &k->nv, shape, &k->s,
		   &k->labels, &k->t, &used) != 6 || (k->shape = shape_of(shape)) == ANY)
		return 0;
	return used;
}

static int load_cov(const char *line)
{
	long ev, seen, missed, hmissed, seen_t, missed_t, hmissed_t;
	double pw, ex, est_t;
	struct agg *a;
	struct key k;
	int n = parse_key(line, &k);

	if (!n || sscanf(line + n, "%ld %ld %ld %ld %lf %lf %ld %ld %ld %lf", &ev, &seen,
			 &missed, &hmissed, &pw, &ex, &seen_t, &missed_t, &hmissed_t, &est_t) != 10)
		return -1;
	a = slot(&k);
	a->epochs++, a->events += ev, a->seen += seen, a->missed += missed;
	a->hmissed += hmissed, a->est_pow += pw, a->est_exact += ex;
	a->seen_t += seen_t, a->missed_t += missed_t, a->hmissed_t += hmissed_t;
	a->est_t += est_t;
	return 0;
}

static int load_smp(const char *line)
{
	long sl, cl, st, fi, dr, se, un, ev, vi, ra, rs, want;
	struct agg *a;
	struct key k;
	int n = parse_key(line, &k);

	if (!n || sscanf(line + n, "%ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld", &sl, &cl, &st,
			 &fi, &dr, &se, &un, &ev, &vi, &ra, &rs) != 11)
		return -1;
	a = slot(&k);
	want = cl > sl ? cl - sl : 0;
	a->sepochs++, a->slots += sl, a->claimed += cl, a->stored += st;
	a->firsts += fi, a->dropped += dr, a->selected += se, a->unstored += un;
	a->evicted += ev, a->violations += vi, a->drop_bad += dr != want;
	a->tail += ra, a->tail_stored += rs;
	if (se > sl)
		a->over++, a->over_stored += st, a->over_firsts += fi;
	return 0;
}

static int load_line(const char *line)
{
	int hca, labels;
	double v;

	if (!strncmp(line, "cov ", 4))
		return load_cov(line);
	if (!strncmp(line, "smp ", 4))
		return load_smp(line);
	if (sscanf(line, "ns %d %d %d %lf", &hca, &labels, &rounds, &v) == 4 &&
	    ntiming < 2 * MAXDIM) {
		timing[ntiming].hca = hca, timing[ntiming].labels = labels;
		timing[ntiming++].ns = v;
		return 0;
	}
	return -1;
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
	int bad = 0;

	if (!f) {
		perror(path);
		return -1;
	}
	while (fgets(line, sizeof(line), f))
		if (load_line(line) && !bad++)
			fprintf(stderr, "sketch_report: not a row: %s", line);
	fclose(f);
	qsort(hcas, nhca, sizeof(int), by_int);
	qsort(nls, nlab, sizeof(int), by_int);
	qsort(ts, nts, sizeof(int), by_int);
	qsort(exps, nexp, sizeof(double), by_double);
	return nagg && !bad ? 0 : -1;
}

/* ---- sums and statistics ---- */

static struct key filter(int hca, int nv, int shape, double s, int labels, int t)
{
	return (struct key){ .hca = hca, .nv = nv, .shape = shape, .s = s,
			     .labels = labels, .t = t };
}

/* Every configuration f matches, summed. */
static struct agg sum(struct key f)
{
	struct agg r;

	memset(&r, 0, sizeof(r));
	r.k = f;
	for (int i = 0; i < nagg; i++) {
		const struct agg *a = &agg[i];

		if (!matches(&a->k, &f))
			continue;
		r.epochs += a->epochs, r.events += a->events, r.seen += a->seen;
		r.missed += a->missed, r.hmissed += a->hmissed, r.est_pow += a->est_pow;
		r.est_exact += a->est_exact, r.seen_t += a->seen_t, r.missed_t += a->missed_t;
		r.hmissed_t += a->hmissed_t, r.est_t += a->est_t;
		r.sepochs += a->sepochs, r.slots += a->slots, r.claimed += a->claimed;
		r.stored += a->stored, r.firsts += a->firsts, r.dropped += a->dropped;
		r.selected += a->selected, r.unstored += a->unstored;
		r.evicted += a->evicted, r.violations += a->violations;
		r.tail += a->tail, r.tail_stored += a->tail_stored;
		r.drop_bad += a->drop_bad, r.over += a->over;
		r.over_stored += a->over_stored, r.over_firsts += a->over_firsts;
	}
	return r;
}

static double ratio(double a, double b)
{
	return b ? a / b : 0;
}

/* P[X <= k] for X binomial (n, p). */
static double binom_cdf(long k, long n, double p)
{
	double c = 0;

	for (long i = 0; i <= k; i++)
		c += exp(lgamma(n + 1.0) - lgamma(i + 1.0) - lgamma(n - i + 1.0) +
			 i * log(p) + (n - i) * log1p(-p));
	return c;
}

/*
 * The one-sided 95% upper bound of a rate of k in n: exact (Clopper-
 * Pearson) for a few misses, 1 - 0.05^(1/n) (about 3/n) for none;
 * Wilson's score bound for many, where the two agree.
 */
static double upper95(long k, long n)
{
	double lo, hi, p, z = 1.645;

	if (!n)
		return 1;
	if (!k)
		return 1 - pow(0.05, 1.0 / n);
	if (k > 50) {
		p = (double)k / n;
		return (p + z * z / (2 * n) + z * sqrt(p * (1 - p) / n + z * z / (4.0 * n * n))) /
		       (1 + z * z / n);
	}
	lo = (double)k / n, hi = 1;
	for (int i = 0; i < 60; i++) {
		p = (lo + hi) / 2;
		if (binom_cdf(k, n, p) > 0.05)
			lo = p;
		else
			hi = p;
	}
	return hi;
}

static const char *size_name(int bytes)
{
	static char buf[8][16];
	static int k;
	char *b = buf[k++ & 7];

	if (bytes >= 1024)
		snprintf(b, 16, "%dK", bytes >> 10);
	else
		snprintf(b, 16, "%d", bytes);
	return b;
}

/* k/n in a field of w characters. */
static void frac(int w, long k, long n)
{
	char b[32];

	snprintf(b, sizeof(b), "%ld/%ld", k, n);
	printf(" %*s", w, b);
}

/* A rate: 0 printed as 0, so that zeros stand out. */
static void rate(int w, double r)
{
	if (r == 0)
		printf(" %*s", w, "0");
	else
		printf(" %*.1e", w, r);
}

/* ---- the tables ---- */

/* The trials behind a line: epochs per shape. */
static long trials_of(const struct agg *a)
{
	return a->epochs / (a->k.shape == ANY ? NSHAPE : 1);
}

/* The events the rarest of nl labels expects in an epoch of nev. */
static double expect_rarest(double s, int nl, double nev)
{
	double z = 0;

	for (int i = 1; i <= nl; i++)
		z += pow(i, -s);
	return nev * pow(nl, -s) / z;
}

/* What "rare" is in these streams: a miss is a label rare against its
 * counter's other labels (the paper's case), seldom one of 1 event. */
static void rarest(void)
{
	struct agg a = sum(filter(def_hca, 1, ANY, -1, ANY, ANY));
	double nev = ratio(a.events, a.epochs);

	printf("the rarest label's expected events in an epoch of %.0f, s =", nev);
	for (int e = 0; e < nexp; e++)
		printf("%s %.1f", e ? "," : "", exps[e]);
	printf(":\n ");
	for (int l = 0; l < nlab; l++) {
		printf(" %d labels", nls[l]);
		for (int e = 0; e < nexp; e++)
			printf("%s %.0f", e ? "," : "", expect_rarest(exps[e], nls[l], nev));
		printf("%s", l + 1 == nlab ? "\n\n" : l % 3 == 2 ? ";\n " : ";");
	}
}

/* Every label, one vital, the default HCA, t = 2: by shape. */
static void table_every(void)
{
	printf("every label (target 2): labels with an event never selected, one vital,\n"
	       "HCA %s (the default), t = 2; missed/labels over all epochs:\n\n"
	       "  %-4s %6s %6s", size_name(def_hca), "s", "labels", "epochs");
	for (int sh = 0; sh < NSHAPE; sh++)
		printf(" %11s", shape_name[sh]);
	printf(" %13s %8s %9s\n", "all shapes", "rate", "95% bound");
	for (int e = 0; e < nexp; e++)
		for (int l = 0; l < nlab; l++) {
			struct agg all = sum(filter(def_hca, 1, ANY, exps[e], nls[l], 2));

			printf("  %-4.1f %6d %6ld", exps[e], nls[l], trials_of(&all));
			for (int sh = 0; sh < NSHAPE; sh++) {
				struct agg a = sum(filter(def_hca, 1, sh, exps[e], nls[l], 2));

				frac(11, a.missed, a.seen);
			}
			frac(13, all.missed, all.seen);
			rate(8, ratio(all.missed, all.seen));
			rate(9, upper95(all.missed, all.seen));
			printf("\n");
		}
	printf("\n");
	rarest();
}

/* Labels with at least t events, one vital, the default HCA: by t and
 * labels, all exponents. */
static void table_qualifying(void)
{
	printf("labels with at least t events (target 1): never selected, one vital,\n"
	       "HCA %s, s = 0.8, 1.0, 1.2 together; the sketch, by shape, and the HCA alone:\n\n"
	       "  %6s %3s %13s %8s %9s", size_name(def_hca), "labels", "t", "missed", "rate",
	       "95% bound");
	for (int sh = 0; sh < NSHAPE; sh++)
		printf(" %8s", shape_name[sh]);
	printf(" %9s\n", "HCA alone");
	for (int l = 0; l < nlab; l++)
		for (int t = 0; t < nts; t++) {
			struct agg all = sum(filter(def_hca, 1, ANY, -1, nls[l], ts[t]));

			printf("  %6d %3d", nls[l], ts[t]);
			frac(13, all.missed_t, all.seen_t);
			rate(8, ratio(all.missed_t, all.seen_t));
			rate(9, upper95(all.missed_t, all.seen_t));
			for (int sh = 0; sh < NSHAPE; sh++) {
				struct agg a = sum(filter(def_hca, 1, sh, -1, nls[l], ts[t]));

				rate(8, ratio(a.missed_t, a.seen_t));
			}
			rate(9, ratio(all.hmissed_t, all.seen_t));
			printf("\n");
		}
	printf("\n");
}

/* The worst configuration among f's of up to most labels, by rate of
 * every label (target 2) or of those with t events (target 1); 1 when
 * every one meets target. */
static int judge(struct key f, int qualifying, int most, double target, struct agg *worst)
{
	double wr = -1;
	int ok = 1;

	memset(worst, 0, sizeof(*worst));
	for (int i = 0; i < nagg; i++) {
		const struct agg *a = &agg[i];
		double r = qualifying ? ratio(a->missed_t, a->seen_t) : ratio(a->missed, a->seen);

		if (!matches(&a->k, &f) || a->k.labels > most)
			continue;
		ok &= r <= target;
		if (r > wr)
			wr = r, *worst = *a;
	}
	return ok;
}

static void target_line(const char *what, int ok, const struct agg *w, int qualifying,
			double target)
{
	long k = qualifying ? w->missed_t : w->missed, n = qualifying ? w->seen_t : w->seen;

	printf("  %s:\n     rate <= %.0e in every configuration -> %s\n"
	       "     worst: %s labels, s %.1f, %d labels, t %d: %ld/%ld = %.1e (95%% bound %.1e)\n",
	       what, target, ok ? "met" : "NOT met", shape_name[w->k.shape], w->k.s,
	       w->k.labels, w->k.t, k, n, ratio(k, n), upper95(k, n));
}

/* The largest label count up to which every configuration of f meets
 * the target; 0 when none. */
static int met_up_to(struct key f, int qualifying, double target)
{
	int upto = 0;

	for (int l = 0; l < nlab; l++) {
		struct agg w;

		f.labels = nls[l];
		if (!judge(f, qualifying, INT_MAX, target, &w))
			break;
		upto = nls[l];
	}
	return upto;
}

static void targets(double t1, double t2)
{
	struct key f1 = filter(def_hca, 1, ANY, -1, ANY, ANY);
	struct key f2 = filter(def_hca, 1, ANY, -1, ANY, 2);
	struct key fl = filter(def_hca, 11, ANY, -1, ANY, ANY);
	struct agg w1, w2, wl, w;
	/* target 1 is for any count of labels; its worst is shown among
	 * the streams of target 2's range when one fails there */
	int ok1 = judge(f1, 1, INT_MAX, t1, &w1);
	int ok2 = judge(f2, 0, TARGET2_LABELS, t2, &w2);
	int okl = judge(fl, 0, TARGET2_LABELS, t2, &wl);

	if (!judge(f1, 1, TARGET2_LABELS, t1, &w))
		w1 = w;
	printf("targets (HCA %s, the default; each configuration: a shape, s, labels, t):\n",
	       size_name(def_hca));
	target_line("target 1: labels with >= t events, every stream and t", ok1, &w1, 1, t1);
	printf("     met up to %d labels an epoch\n", met_up_to(f1, 1, t1));
	target_line("target 2: every label, up to 1,000 labels, t = 2, s = 0.8, 1.0, 1.2", ok2,
		    &w2, 0, t2);
	printf("     met up to %d labels an epoch\n", met_up_to(f2, 0, t2));
	if (wl.epochs)
		target_line("(load) target 2 with the 11 standard vitals counting at once", okl,
			    &wl, 0, t2);
	printf("\n");
}

/* The curve over HCA sizes, every label, t = 2, one vital, all shapes. */
static void table_sizes(void)
{
	printf("every label by HCA size: the sketch's rate of labels never selected\n"
	       "(one vital, t = 2, all shapes; the first-occurrence table and samples as\n"
	       "the default):\n\n  %-4s %6s", "s", "labels");
	for (int h = 0; h < nhca; h++)
		printf(" %8s", size_name(hcas[h]));
	printf("\n");
	for (int e = 0; e < nexp; e++)
		for (int l = 0; l < nlab; l++) {
			printf("  %-4.1f %6d", exps[e], nls[l]);
			for (int h = 0; h < nhca; h++) {
				struct agg a = sum(filter(hcas[h], 1, ANY, exps[e], nls[l], 2));

				rate(8, ratio(a.missed, a.seen));
			}
			printf("\n");
		}
	printf("\n");
}

/* The HCA alone against the formula, by size, s, labels and t. */
static void table_formula(void)
{
	printf("the HCA alone (the paper's sampler: selected when the count crosses a\n"
	       "power of t), every label: measured rate | the formula's estimate (exact\n"
	       "form), one vital, all shapes:\n\n  %-4s %6s %3s", "s", "labels", "t");
	for (int h = 0; h < nhca; h++)
		printf(" %17s", size_name(hcas[h]));
	printf("\n");
	for (int e = 0; e < nexp; e++)
		for (int l = 0; l < nlab; l++)
			for (int t = 0; t < nts; t++) {
				printf("  %-4.1f %6d %3d", exps[e], nls[l], ts[t]);
				for (int h = 0; h < nhca; h++) {
					struct agg a = sum(filter(hcas[h], 1, ANY, exps[e],
								  nls[l], ts[t]));

					printf(" ");
					rate(8, ratio(a.hmissed, a.seen));
					rate(8, ratio(a.est_exact, a.seen));
				}
				printf("\n");
			}
	printf("\n");
}

/* The misses within 3 standard deviations (+1) of an estimate. */
static int near(long missed, double est)
{
	return fabs(missed - est) <= 3 * sqrt(est) + 1;
}

static void agreement(void)
{
	int n = 0, exact = 0, power = 0, shown = 0;

	for (int i = 0; i < nagg; i++) {
		const struct agg *a = &agg[i];

		if (a->k.nv != 1)
			continue;
		n++;
		exact += near(a->hmissed, a->est_exact);
		power += near(a->hmissed, a->est_pow);
	}
	printf("the HCA alone against the formula, per configuration (shape, s, labels,\n"
	       "t, size; misses within 3 sqrt(estimate) + 1 of the estimate): the exact\n"
	       "form agrees in %d of %d, the paper's form ((N-n)/N)^k in %d.\n", exact, n, power);
	for (int i = 0; i < nagg; i++) {
		const struct agg *a = &agg[i];

		if (a->k.nv != 1 || near(a->hmissed, a->est_exact))
			continue;
		if (!shown++)
			printf("the exact form and the measurement differ at:\n");
		printf("  HCA %s %s s %.1f labels %d t %d: %ld missed, %.1f expected\n",
		       size_name(a->k.hca), shape_name[a->k.shape], a->k.s, a->k.labels,
		       a->k.t, a->hmissed, a->est_exact);
	}
	printf("\n");
}

/* The 11 standard vitals at once: the shared table's load. */
static void table_load(void)
{
	struct agg any = sum(filter(def_hca, 11, ANY, -1, ANY, ANY));

	if (!any.epochs)
		return;
	printf("the 11 standard vitals counting at once (one epoch each, interleaved;\n"
	       "they share the first-occurrence table), HCA %s, t = 2, every label;\n"
	       "missed/labels, per shape over the vitals of that shape:\n\n"
	       "  %-4s %6s %15s %8s %9s", size_name(def_hca), "s", "labels", "missed", "rate",
	       "95% bound");
	for (int sh = 0; sh < NSHAPE; sh++)
		printf(" %10s", shape_name[sh]);
	printf(" %9s\n", "HCA alone");
	for (int e = 0; e < nexp; e++)
		for (int l = 0; l < nlab; l++) {
			struct agg a = sum(filter(def_hca, 11, ANY, exps[e], nls[l], ANY));

			if (!a.epochs)
				continue;
			printf("  %-4.1f %6d", exps[e], nls[l]);
			frac(15, a.missed, a.seen);
			rate(8, ratio(a.missed, a.seen));
			rate(9, upper95(a.missed, a.seen));
			for (int sh = 0; sh < NSHAPE; sh++) {
				struct agg b = sum(filter(def_hca, 11, sh, exps[e], nls[l], ANY));

				frac(10, b.missed, b.seen);
			}
			rate(9, ratio(a.hmissed, a.seen));
			printf("\n");
		}
	printf("\n");
}

/* The stored samples, per vital and epoch, one vital, the default HCA. */
static void table_samples(void)
{
	struct agg one = sum(filter(def_hca, 1, ANY, -1, ANY, 2));
	long slots = one.sepochs ? one.slots / one.sepochs : 0;

	printf("stored samples (%ld slots per vital and epoch), one vital, HCA %s, t = 2,\n"
	       "all shapes; per epoch: labels the sketch selected, events it selected\n"
	       "(slots claimed), samples stored at the close, of them first occurrences,\n"
	       "drops counted by the sketch (c->dropped), samples that took a repeat's\n"
	       "slot, selected labels never stored; labels of the rarer half (Zipf\n"
	       "rank past labels / 2) selected, and stored:\n\n"
	       "  %-4s %6s %8s %8s %6s %6s %8s %7s %8s %8s %6s\n",
	       slots, size_name(def_hca), "s", "labels", "selected", "claimed", "stored", "firsts",
	       "dropped", "evicted", "unstored", "tail sel", "stored");
	for (int e = 0; e < nexp; e++)
		for (int l = 0; l < nlab; l++) {
			struct agg a = sum(filter(def_hca, 1, ANY, exps[e], nls[l], 2));
			double n = a.sepochs;

			printf("  %-4.1f %6d %8.1f %8.1f %6.1f %6.1f %8.1f %7.1f %8.1f %8.1f %6.1f\n",
			       exps[e], nls[l], ratio(a.selected, n), ratio(a.claimed, n),
			       ratio(a.stored, n), ratio(a.firsts, n), ratio(a.dropped, n),
			       ratio(a.evicted, n), ratio(a.unstored, n), ratio(a.tail, n),
			       ratio(a.tail_stored, n));
		}
	printf("\n");
}

/* The list's rule and the drop count, over every epoch of every run. */
static void sample_checks(void)
{
	struct agg a = sum(filter(ANY, ANY, ANY, -1, ANY, ANY));

	printf("the sample list, over all %ld vital-epochs (every size, t, shape):\n",
	       a.sepochs);
	printf("  drops = slots claimed past the list's end in every epoch: %s (%ld epochs differ)\n",
	       a.drop_bad ? "NO" : "yes", a.drop_bad);
	printf("  a label never stored this epoch, selected and turned away while a\n"
	       "     repeat held a slot: %ld times -> first occurrences before repeats: %s\n",
	       a.violations, a.violations ? "does NOT hold" : "holds");
	printf("  in the %ld epochs whose selected labels outnumbered the slots, %ld of %ld\n"
	       "     stored samples were first occurrences (%.2f%%); %ld samples took a\n"
	       "     repeat's slot\n\n", a.over, a.over_firsts, a.over_stored,
	       100 * ratio(a.over_firsts, a.over_stored), a.evicted);
}

static void table_timing(void)
{
	int labels[2] = { 1000, 10000 };

	printf("ns per event (host, one thread: cx_hash, cx_count, and for the few\n"
	       "selected the slot filled and published; random labels, s = 1.0; the\n"
	       "thread's CPU time, best of %d epochs of the stream):\n\n  %6s", rounds, "labels");
	for (int h = 0; h < nhca; h++)
		printf(" %6s", size_name(hcas[h]));
	printf("\n");
	for (int l = 0; l < 2; l++) {
		printf("  %6d", labels[l]);
		for (int h = 0; h < nhca; h++) {
			double v = 0;

			for (int i = 0; i < ntiming; i++)
				if (timing[i].hca == hcas[h] && timing[i].labels == labels[l])
					v = timing[i].ns;
			printf(" %6.1f", v);
		}
		printf("\n");
	}
	printf("\n");
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: sketch_report FILE DEFAULT_HCA TARGET1 TARGET2\n");
		return 2;
	}
	def_hca = atoi(argv[2]);
	if (load(argv[1]))
		return 1;
	table_every();
	table_qualifying();
	targets(atof(argv[3]), atof(argv[4]));
	table_load();
	table_samples();
	sample_checks();
	table_sizes();
	table_formula();
	agreement();
	table_timing();
	return 0;
}
