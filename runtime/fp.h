/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * IEEE-754 binary64 arithmetic on the bits, in integers: probe handlers
 * run in kernel context, where the FPU is not ours to use.  A script
 * keeps a double in a long (tapsets/fp.stp); these give the correctly
 * rounded result (round to nearest, ties to even) of each operation, as
 * the host's double arithmetic does (tests/unit/rt_fp.c checks them
 * against it).  No 128-bit division: the kernel has no __udivti3.
 *
 * Every finite operation ends in fp_round(): the exact result is
 * m * 2^e, plus "sticky" when something nonzero lies below m's last
 * bit (callers then give m at least 55 significant bits, so that the
 * fraction stays below the rounding position).
 *
 * Header only, so that the kernel module and the host test build it.
 */
#ifndef STP_FP_H
#define STP_FP_H

#ifdef STP_HOST
#include <stdint.h>
#include <string.h>
#else
#include <linux/types.h>
#include <linux/string.h>
#endif

#define FP_SIGN		(1ULL << 63)
#define FP_QNAN		0x7ff8000000000000ULL	/* the NaN an invalid operation gives */
#define FP_INF		0x7ff0000000000000ULL
#define FP_I64_MAX	((int64_t)(~0ULL >> 1))
#define FP_I64_MIN	(-FP_I64_MAX - 1)

enum fp_class { FP_ZERO_C, FP_FINITE_C, FP_INF_C, FP_NAN_C };

struct fp_num {
	enum fp_class cls;
	int sign;
	int e;		/* value = m * 2^e */
	uint64_t m;
};

static inline int fp_clz64(uint64_t x)
{
	return x ? __builtin_clzll(x) : 64;
}

static inline struct fp_num fp_unpack(uint64_t x)
{
	struct fp_num n = { FP_FINITE_C, (int)(x >> 63), 0, x & ((1ULL << 52) - 1) };
	int be = (int)(x >> 52) & 0x7ff;

	if (be == 0x7ff) {
		n.cls = n.m ? FP_NAN_C : FP_INF_C;
	} else if (be == 0) {
		n.cls = n.m ? FP_FINITE_C : FP_ZERO_C;
		n.e = -1074;
	} else {
		n.m |= 1ULL << 52;
		n.e = be - 1075;
	}
	return n;
}

/* Shift m left until bit 52 is its top bit (a subnormal's m is smaller). */
static inline void fp_norm53(struct fp_num *n)
{
	int s = fp_clz64(n->m) - 11;

	n->m <<= s;
	n->e -= s;
}

/* Shift right by s, folding what falls off into *sticky. */
static inline uint64_t fp_shr_sticky(uint64_t m, int s, int *sticky)
{
	if (s <= 0)
		return m;
	if (s >= 64) {
		*sticky |= m != 0;
		return 0;
	}
	*sticky |= (m & ((1ULL << s) - 1)) != 0;
	return m >> s;
}

/* The double nearest to (-1)^sign * (m + sticky fraction) * 2^e. */
static inline uint64_t fp_round(int sign, int e, uint64_t m, int sticky)
{
	uint64_t s = (uint64_t)sign << 63, kept, rem, half, bits;
	int be, sh;

	if (!m && !sticky)
		return s;
	if (m) {
		int z = fp_clz64(m);

		m <<= z;
		e -= z;
	}
	be = e + 63 + 1023;
	if (be > 2046)
		return s | FP_INF;
	sh = be >= 1 ? 11 : 12 - be;
	if (sh > 64)
		return s;	/* below half the smallest subnormal */
	if (sh == 64) {
		kept = 0;
		rem = m;
	} else {
		kept = m >> sh;
		rem = m & ((1ULL << sh) - 1);
	}
	half = 1ULL << (sh - 1);
	if (rem > half || (rem == half && (sticky || (kept & 1))))
		kept++;
	/* kept holds the hidden bit: it adds one to the exponent field, and
	 * a carry out of the mantissa moves to the next binade by itself */
	bits = be >= 1 ? ((uint64_t)(be - 1) << 52) + kept : kept;
	return s | bits;
}

/* The same for a 128-bit m, cut to 64 bits with sticky. */
static inline uint64_t fp_round128(int sign, int e, unsigned __int128 m, int sticky)
{
	uint64_t hi = (uint64_t)(m >> 64);
	int s;

	if (!hi)
		return fp_round(sign, e, (uint64_t)m, sticky);
	s = 64 - fp_clz64(hi);
	sticky |= (m & (((unsigned __int128)1 << s) - 1)) != 0;
	return fp_round(sign, e + s, (uint64_t)(m >> s), sticky);
}

static inline uint64_t fp_quiet(uint64_t x)
{
	return x | (1ULL << 51);
}

static inline uint64_t fp_add(uint64_t x, uint64_t y)
{
	struct fp_num a = fp_unpack(x), b = fp_unpack(y), t;
	int sticky = 0;
	uint64_t ma, mb;

	if (a.cls == FP_NAN_C || b.cls == FP_NAN_C)
		return fp_quiet(a.cls == FP_NAN_C ? x : y);
	if (a.cls == FP_INF_C || b.cls == FP_INF_C) {
		if (a.cls == FP_INF_C && b.cls == FP_INF_C && a.sign != b.sign)
			return FP_QNAN;
		return a.cls == FP_INF_C ? x : y;
	}
	if (a.cls == FP_ZERO_C || b.cls == FP_ZERO_C) {
		if (a.cls == FP_ZERO_C && b.cls == FP_ZERO_C)
			return (uint64_t)(a.sign & b.sign) << 63;
		return a.cls == FP_ZERO_C ? y : x;
	}
	if (a.e < b.e || (a.e == b.e && a.m < b.m)) {
		t = a;
		a = b;
		b = t;
	}
	/* ten spare bits: a difference of exponents up to 10 loses nothing */
	ma = a.m << 10;
	mb = fp_shr_sticky(b.m << 10, a.e - b.e, &sticky);
	if (a.sign == b.sign)
		return fp_round(a.sign, a.e - 10, ma + mb, sticky);
	if (ma == mb && !sticky)
		return 0;
	/* a - (mb + f), 0 < f < 1, is (ma - mb - 1) + (1 - f) */
	return fp_round(a.sign, a.e - 10, ma - mb - sticky, sticky);
}

static inline uint64_t fp_sub(uint64_t x, uint64_t y)
{
	if (fp_unpack(y).cls == FP_NAN_C)
		return fp_add(x, y);
	return fp_add(x, y ^ FP_SIGN);
}

static inline uint64_t fp_mul(uint64_t x, uint64_t y)
{
	struct fp_num a = fp_unpack(x), b = fp_unpack(y);
	int sign = a.sign ^ b.sign;

	if (a.cls == FP_NAN_C || b.cls == FP_NAN_C)
		return fp_quiet(a.cls == FP_NAN_C ? x : y);
	if (a.cls == FP_INF_C || b.cls == FP_INF_C) {
		if (a.cls == FP_ZERO_C || b.cls == FP_ZERO_C)
			return FP_QNAN;
		return ((uint64_t)sign << 63) | FP_INF;
	}
	if (a.cls == FP_ZERO_C || b.cls == FP_ZERO_C)
		return (uint64_t)sign << 63;
	return fp_round128(sign, a.e + b.e, (unsigned __int128)a.m * b.m, 0);
}

static inline uint64_t fp_div(uint64_t x, uint64_t y)
{
	struct fp_num a = fp_unpack(x), b = fp_unpack(y);
	int sign = a.sign ^ b.sign, i;
	uint64_t q = 0, r;

	if (a.cls == FP_NAN_C || b.cls == FP_NAN_C)
		return fp_quiet(a.cls == FP_NAN_C ? x : y);
	if (a.cls == b.cls && (a.cls == FP_INF_C || a.cls == FP_ZERO_C))
		return FP_QNAN;
	if (a.cls == FP_INF_C || b.cls == FP_ZERO_C)
		return ((uint64_t)sign << 63) | FP_INF;
	if (a.cls == FP_ZERO_C || b.cls == FP_INF_C)
		return (uint64_t)sign << 63;
	fp_norm53(&a);
	fp_norm53(&b);
	if (a.m < b.m) {
		a.m <<= 1;
		a.e--;
	}
	/* 64 quotient bits of a.m / b.m, which is in [1, 2) */
	for (r = a.m, i = 0; i < 64; i++, r <<= 1) {
		q <<= 1;
		if (r >= b.m)
			r -= b.m, q |= 1;
	}
	return fp_round(sign, a.e - b.e - 63, q, r != 0);
}

/* floor(sqrt(n)), and whether it was exact. */
static inline uint64_t fp_isqrt128(unsigned __int128 n, int *inexact)
{
	unsigned __int128 r = 0, bit = (unsigned __int128)1 << 126;

	while (bit > n)
		bit >>= 2;
	while (bit) {
		if (n >= r + bit) {
			n -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	*inexact = n != 0;
	return (uint64_t)r;
}

static inline uint64_t fp_sqrt(uint64_t x)
{
	struct fp_num a = fp_unpack(x);
	int inexact;
	uint64_t r;

	if (a.cls == FP_NAN_C)
		return fp_quiet(x);
	if (a.cls == FP_ZERO_C)
		return x;
	if (a.sign)
		return FP_QNAN;
	if (a.cls == FP_INF_C)
		return x;
	fp_norm53(&a);
	if (a.e & 1) {
		a.m <<= 1;
		a.e--;
	}
	/* m * 2^72 < 2^126: a root of 62 or 63 bits */
	r = fp_isqrt128((unsigned __int128)a.m << 72, &inexact);
	return fp_round(0, (a.e - 72) / 2, r, inexact);
}

/*
 * IEEE remainder: x - n*y, n the integer nearest x/y (ties to even),
 * always exact.  The quotient's bits come one at a time, from the
 * exponent difference, keeping only the last for the tie.
 */
static inline uint64_t fp_rem(uint64_t x, uint64_t y)
{
	struct fp_num a = fp_unpack(x), b = fp_unpack(y);
	uint64_t r, q = 0;
	int i;

	if (a.cls == FP_NAN_C || b.cls == FP_NAN_C)
		return fp_quiet(a.cls == FP_NAN_C ? x : y);
	if (a.cls == FP_INF_C || b.cls == FP_ZERO_C)
		return FP_QNAN;
	if (b.cls == FP_INF_C || a.cls == FP_ZERO_C)
		return x;
	fp_norm53(&a);
	fp_norm53(&b);
	if (a.e < b.e - 1)
		return x;	/* |x| < |y| / 2 */
	if (a.e == b.e - 1)	/* n is 1 when |x| > |y| / 2 (a tie goes to 0) */
		return a.m > b.m ? fp_round(!a.sign, a.e, 2 * b.m - a.m, 0) : x;
	q = a.m / b.m;
	r = a.m % b.m;
	for (i = 0; i < a.e - b.e; i++) {
		r <<= 1;
		q = r >= b.m;
		if (q)
			r -= b.m;
	}
	/* |x| = (n' * |y|) + r * 2^b.e, q the last bit of n' */
	if (2 * r > b.m || (2 * r == b.m && (q & 1)))
		return fp_round(!a.sign, b.e, b.m - r, 0);
	return fp_round(a.sign, b.e, r, 0);
}

static inline int fp_is_nan(uint64_t x)
{
	return (x & ~FP_SIGN) > FP_INF;
}

/* An order on the bits that agrees with the numbers' order (NaN aside),
 * with -0 equal to +0. */
static inline int64_t fp_key(uint64_t x)
{
	if (!(x & ~FP_SIGN))
		return 0;
	return x & FP_SIGN ? -(int64_t)(x & ~FP_SIGN) : (int64_t)x;
}

static inline int fp_eq(uint64_t x, uint64_t y)
{
	return !fp_is_nan(x) && !fp_is_nan(y) && fp_key(x) == fp_key(y);
}

static inline int fp_lt(uint64_t x, uint64_t y)
{
	return !fp_is_nan(x) && !fp_is_nan(y) && fp_key(x) < fp_key(y);
}

static inline int fp_le(uint64_t x, uint64_t y)
{
	return !fp_is_nan(x) && !fp_is_nan(y) && fp_key(x) <= fp_key(y);
}

static inline uint64_t fp_from_long(int64_t v)
{
	uint64_t m = v < 0 ? -(uint64_t)v : (uint64_t)v;

	return fp_round(v < 0, 0, m, 0);
}

/* A float's bits (the low 32 of x) as a double: exact. */
static inline uint64_t fp_from_fp32(uint64_t x)
{
	uint64_t s = (x & 0x80000000ULL) << 32, frac = x & 0x7fffff;
	int be = (int)(x >> 23) & 0xff;

	if (be == 0xff)
		return s | FP_INF | (frac << 29) | (frac ? 1ULL << 51 : 0);
	if (be == 0)
		return fp_round((int)(s >> 63), -149, frac, 0);
	return s | ((uint64_t)(be - 127 + 1023) << 52) | (frac << 29);
}

/* Rounding modes of fp_to_long, SoftFloat's numbers. */
enum fp_rmode {
	FP_RNE = 0, FP_RMINMAG = 1, FP_RMIN = 2, FP_RMAX = 3, FP_RNMAXMAG = 4, FP_RODD = 6,
};

/* Round up (away from zero) the integer part i whose fraction is rem
 * of half (2 * half = one unit)? */
static inline int fp_round_away(int mode, int sign, uint64_t i, uint64_t rem, uint64_t half, int sticky)
{
	int inexact = rem || sticky;

	switch (mode) {
	case FP_RMINMAG: return 0;
	case FP_RMIN: return sign && inexact;
	case FP_RMAX: return !sign && inexact;
	case FP_RNMAXMAG: return rem >= half;
	case FP_RODD: return inexact && !(i & 1);
	default: return rem > half || (rem == half && (sticky || (i & 1)));
	}
}

/* x as an int64, rounded by mode; NaN and numbers out of range give the
 * nearest end (NaN the top), as SoftFloat's f64_to_i64 does. */
static inline int64_t fp_to_long(uint64_t x, int mode)
{
	struct fp_num a = fp_unpack(x);
	uint64_t i, rem = 0, half = 0;
	int sticky = 0, sh;

	if (a.cls == FP_NAN_C)
		return FP_I64_MAX;
	if (a.cls == FP_INF_C)
		return a.sign ? FP_I64_MIN : FP_I64_MAX;
	if (a.cls == FP_ZERO_C)
		return 0;
	if (a.e >= 0) {
		if (a.e > 10)
			return a.sign ? FP_I64_MIN : FP_I64_MAX;
		i = a.m << a.e;
	} else {
		sh = -a.e;
		if (sh >= 64) {	/* below 2^-11: all fraction */
			i = 0;
			rem = 0;
			half = 1;
			sticky = 1;
		} else {
			i = a.m >> sh;
			rem = a.m & ((1ULL << sh) - 1);
			half = 1ULL << (sh - 1);
		}
		i += fp_round_away(mode, a.sign, i, rem, half, sticky);
	}
	if (i > (uint64_t)FP_I64_MAX + a.sign)
		return a.sign ? FP_I64_MIN : FP_I64_MAX;
	return a.sign ? (int64_t)(0 - i) : (int64_t)i;
}

#endif /* STP_FP_H */
