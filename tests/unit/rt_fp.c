// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the integer IEEE-754 double arithmetic (runtime/fp.h,
 * runtime/fp_dec.h) against the host's own doubles: every operation on
 * edge values (zeros, subnormals, the extremes, infinities, NaNs) paired
 * with each other, and on a few hundred thousand random bit patterns and
 * random numbers; text both ways against printf("%.*f") and strtod.
 * A NaN result is checked to be a NaN, not for its payload.  sqrt,
 * remainder and rounding come from the instructions (sqrtsd, fprem1,
 * cvtsd2si), so the test
 * needs no libm.
 */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include "fp.h"
#include "fp_dec.h"
#include "unit.h"

static uint64_t bits(double d)
{
	uint64_t u;

	memcpy(&u, &d, sizeof(u));
	return u;
}

static double dbl(uint64_t u)
{
	double d;

	memcpy(&d, &u, sizeof(d));
	return d;
}

static double hw_sqrt(double x)
{
	double r;

	__asm__("sqrtsd %1, %0" : "=x"(r) : "x"(x));
	return r;
}

static double hw_rem(double x, double y)
{
	long double a = x, b = y;

	__asm__("1: fprem1\n\tfnstsw %%ax\n\ttestw $0x400, %%ax\n\tjnz 1b"
		: "+t"(a) : "u"(b) : "ax", "cc");
	return (double)a;
}

/* x * 2^k for |k| < 1000, without libm */
static double ldexp_free(double x, int k)
{
	return x * dbl((uint64_t)(1023 + k) << 52);
}

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* A random double: raw bits, or a number of a modest size, or an
 * integer, so that ties, exact results and cancellations happen too. */
static uint64_t rnd_fp(void)
{
	switch (rnd() % 4) {
	case 0: return rnd();
	case 1: return bits((double)(int64_t)(rnd() % 2000001) - 1000000);
	case 2: return bits(ldexp_free((double)(rnd() >> 11), (int)(rnd() % 120) - 60));
	default: return (rnd() & 0x800fffffffffffffULL) | ((0x3e0 + rnd() % 64) << 52);
	}
}

static const uint64_t edges[] = {
	0, 1ULL << 63, 1, 2, 0x000fffffffffffffULL, 0x0010000000000000ULL,
	0x8000000000000001ULL, 0x7fefffffffffffffULL, 0xffefffffffffffffULL,
	0x7ff0000000000000ULL, 0xfff0000000000000ULL, 0x7ff8000000000000ULL,
	0x7ff0000000000001ULL, 0x3ff0000000000000ULL, 0xbff0000000000000ULL,
	0x3ff0000000000001ULL, 0x3fe0000000000000ULL, 0x4000000000000000ULL,
	0x3ca0000000000000ULL, 0x3cb0000000000000ULL, 0x4340000000000000ULL,
	0x43e0000000000000ULL, 0xc3e0000000000000ULL, 0x43dfffffffffffffULL,
	0x3fd5555555555555ULL, 0x400921fb54442d18ULL, 0x0008000000000000ULL,
};
#define NEDGES (sizeof(edges) / sizeof(edges[0]))

static int same(uint64_t got, double want)
{
	if (fp_is_nan(got) || want != want)
		return fp_is_nan(got) && want != want;
	return got == bits(want);
}

static int fails;

static void check_pair(uint64_t x, uint64_t y)
{
	double a = dbl(x), b = dbl(y);
	int ok = same(fp_add(x, y), a + b) && same(fp_sub(x, y), a - b) &&
		 same(fp_mul(x, y), a * b) && same(fp_div(x, y), a / b) &&
		 same(fp_rem(x, y), hw_rem(a, b)) && same(fp_sqrt(x), hw_sqrt(a)) &&
		 fp_eq(x, y) == (a == b) && fp_lt(x, y) == (a < b) && fp_le(x, y) == (a <= b);

	if (!ok && fails++ < 10)
		printf("  x=%016llx y=%016llx (%a, %a)\n", (unsigned long long)x,
		       (unsigned long long)y, a, b);
	CHECK(ok);
}

TEST(fp_edges_pairwise)
{
	for (size_t i = 0; i < NEDGES; i++)
		for (size_t j = 0; j < NEDGES; j++)
			check_pair(edges[i], edges[j]);
}

TEST(fp_random_pairs)
{
	for (int i = 0; i < 300000; i++)
		check_pair(rnd_fp(), rnd_fp());
	for (size_t i = 0; i < NEDGES; i++)
		for (int j = 0; j < 2000; j++)
			check_pair(edges[i], rnd_fp()), check_pair(rnd_fp(), edges[i]);
}

TEST(fp_from_long_and_fp32)
{
	int bad = 0;

	for (int i = 0; i < 200000; i++) {
		int64_t v = (int64_t)(rnd() >> (rnd() % 64));
		uint32_t f = (uint32_t)rnd();
		float fl;

		v = i & 1 ? -v : v;
		memcpy(&fl, &f, sizeof(fl));
		bad += fp_from_long(v) != bits((double)v);
		bad += !same(fp_from_fp32(f), (double)fl);
	}
	bad += fp_from_long(INT64_MIN) != bits((double)INT64_MIN);
	bad += fp_from_fp32(0x00000001) != bits((double)FLT_TRUE_MIN);
	CHECK_EQ_INT(bad, 0);
}

/* x rounded to an integer by mode, in doubles (exact for these). */
static int64_t want_long(double x, int mode)
{
	double t = (double)(int64_t)x, f = x - t;

	switch (mode) {
	case FP_RMINMAG: return (int64_t)t;
	case FP_RMIN: return (int64_t)(f < 0 ? t - 1 : t);
	case FP_RMAX: return (int64_t)(f > 0 ? t + 1 : t);
	case FP_RNMAXMAG: return (int64_t)(f >= 0.5 ? t + 1 : f <= -0.5 ? t - 1 : t);
	case FP_RODD: return (int64_t)t + (f != 0 && !((int64_t)t & 1) ? (f > 0 ? 1 : -1) : 0);
	default: {
		int64_t r;

		__asm__("cvtsd2si %1, %0" : "=r"(r) : "x"(x));	/* nearest, ties to even */
		return r;
	}
	}
}

TEST(fp_to_long_modes)
{
	static const int modes[] = { 0, 1, 2, 3, 4, 6 };
	int bad = 0;

	for (int i = 0; i < 200000; i++) {
		double x = i & 1 ? (double)(int64_t)(rnd() % 4001) / 4 - 500 :
			   dbl(rnd_fp());

		if (!(x > -9.2e18 && x < 9.2e18))
			continue;
		for (int m = 0; m < 6; m++) {
			int64_t got = fp_to_long(bits(x), modes[m]), want = want_long(x, modes[m]);

			if (got != want && bad++ < 10)
				printf("  %a mode %d: %lld, want %lld\n", x, modes[m],
				       (long long)got, (long long)want);
		}
	}
	bad += fp_to_long(0x7ff8000000000000ULL, 0) != INT64_MAX;
	bad += fp_to_long(bits(-1e19), 0) != INT64_MIN;
	bad += fp_to_long(bits(-9223372036854775808.0), 0) != INT64_MIN;
	bad += fp_to_long(bits(9223372036854775808.0), 0) != INT64_MAX;
	CHECK_EQ_INT(bad, 0);
}

TEST(fp_to_decimal_as_printf)
{
	char got[400], want[400];
	int bad = 0;

	for (int i = 0; i < 60000; i++) {
		uint64_t x = i < (int)NEDGES ? edges[i] : rnd_fp();
		int prec = (int)(rnd() % 25);

		if (i % 7 == 0)	/* exact ties: a few binary fraction digits */
			x = bits((double)(int64_t)(rnd() % 100000) / 64);
		fp_to_decimal(x, prec, got, sizeof(got));
		snprintf(want, sizeof(want), "%.*f", prec, dbl(x));
		if (strcmp(got, want) && bad++ < 10)
			printf("  %016llx %d: %s, want %s\n", (unsigned long long)x, prec, got, want);
	}
	fp_to_decimal(bits(1.5), 0, got, sizeof(got));
	CHECK_EQ_STR(got, "2");
	fp_to_decimal(bits(-0.0), 2, got, sizeof(got));
	CHECK_EQ_STR(got, "-0.00");
	fp_to_decimal(bits(9.996), 2, got, sizeof(got));
	CHECK_EQ_STR(got, "10.00");
	CHECK_EQ_INT(bad, 0);
}

TEST(fp_from_decimal_as_strtod)
{
	char text[128];
	uint64_t got;
	int bad = 0;

	for (int i = 0; i < 100000; i++) {
		uint64_t x = rnd_fp();

		switch (i % 4) {
		case 0: snprintf(text, sizeof(text), "%.17g", dbl(x)); break;
		case 1: snprintf(text, sizeof(text), "%.*g", (int)(rnd() % 17) + 1, dbl(x)); break;
		case 2:	/* halfway between two doubles, then just above it
			 * by a digit past the 40 kept */
			snprintf(text, sizeof(text), "%llu%s",
				 (unsigned long long)((1ULL << 53) + 2 * (rnd() % (1ULL << 52)) + 1),
				 rnd() & 1 ? "" : ".000000000000000000000000000000000000001");
			break;
		default:
			snprintf(text, sizeof(text), "%llu.%llue%d",
				 (unsigned long long)(rnd() % 100000), (unsigned long long)rnd(),
				 (int)(rnd() % 700) - 350);
		}
		if (fp_from_decimal(text, &got) || !same(got, strtod(text, NULL)))
			if (bad++ < 10)
				printf("  %s: %016llx\n", text, (unsigned long long)got);
	}
	CHECK_EQ_INT(bad, 0);
	CHECK_EQ_INT(fp_from_decimal("0.1", &got), 0);
	CHECK(got == bits(0.1));
	CHECK_EQ_INT(fp_from_decimal(" -inf ", &got), 0);
	CHECK(got == bits(-1.0 / 0.0));
	CHECK_EQ_INT(fp_from_decimal("4.9406564584124654e-324", &got), 0);
	CHECK(got == 1);
	CHECK_EQ_INT(fp_from_decimal("2.4703282292062328e-324", &got), 0);
	CHECK(got == 1);
	CHECK_EQ_INT(fp_from_decimal("2.4703282292062327e-324", &got), 0);
	CHECK(got == 0);
	CHECK_EQ_INT(fp_from_decimal("1.7976931348623159e308", &got), 0);
	CHECK(got == 0x7ff0000000000000ULL);
	CHECK_EQ_INT(fp_from_decimal("12x", &got), -1);
	CHECK_EQ_INT(fp_from_decimal(".", &got), -1);
	CHECK_EQ_INT(fp_from_decimal("", &got), -1);
}

int main(int argc, char **argv)
{
	return unit_main(argc, argv);
}
