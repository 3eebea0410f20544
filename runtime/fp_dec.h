/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Doubles to and from decimal text, exactly: a double is m * 2^e, and
 * both directions work on that value with a small fixed-size big
 * integer (no allocation, about 200 bytes a number), so the text printed
 * is what printf("%.*f") prints and the double read is the one nearest
 * the text, ties to even, as strtod gives.
 *
 * Text with more than FP_DEC_DIGITS significant digits keeps the first
 * ones and stands for the rest by a final 1 when any was not 0: the
 * number then lies strictly between the same two doubles, so it rounds
 * the same except in a tie no such short text can express.
 */
#ifndef STP_FP_DEC_H
#define STP_FP_DEC_H

#include "fp.h"

#define FP_BIG_LIMBS	48	/* 1536 bits: 10^371 and 2^1024 with room */
#define FP_DEC_DIGITS	40

struct fp_big {
	int n;			/* limbs in use; d[n - 1] != 0 unless n == 0 */
	uint32_t d[FP_BIG_LIMBS];
};

static inline void fp_big_trim(struct fp_big *b)
{
	while (b->n && !b->d[b->n - 1])
		b->n--;
}

static inline void fp_big_set(struct fp_big *b, uint64_t v)
{
	b->d[0] = (uint32_t)v;
	b->d[1] = (uint32_t)(v >> 32);
	b->n = 2;
	fp_big_trim(b);
}

/* b = b * mul + add; a carry past the last limb is dropped (callers
 * bound their numbers below FP_BIG_LIMBS). */
static inline void fp_big_muladd(struct fp_big *b, uint32_t mul, uint32_t add)
{
	uint64_t c = add;
	int i;

	for (i = 0; i < b->n; i++) {
		c += (uint64_t)b->d[i] * mul;
		b->d[i] = (uint32_t)c;
		c >>= 32;
	}
	if (c && b->n < FP_BIG_LIMBS)
		b->d[b->n++] = (uint32_t)c;
}

/* b /= div; the remainder. */
static inline uint32_t fp_big_divmod(struct fp_big *b, uint32_t div)
{
	uint64_t r = 0;
	int i;

	for (i = b->n - 1; i >= 0; i--) {
		r = (r << 32) | b->d[i];
		b->d[i] = (uint32_t)(r / div);
		r %= div;
	}
	fp_big_trim(b);
	return (uint32_t)r;
}

static inline int fp_big_bitlen(const struct fp_big *b)
{
	return b->n ? 32 * b->n - __builtin_clz(b->d[b->n - 1]) : 0;
}

static inline int fp_big_bit(const struct fp_big *b, int i)
{
	return i / 32 < b->n ? (b->d[i / 32] >> (i % 32)) & 1 : 0;
}

static inline void fp_big_shl(struct fp_big *b, int s)
{
	int w = s / 32, r = s % 32, i, n = b->n + w + 1;

	if (n > FP_BIG_LIMBS)
		n = FP_BIG_LIMBS;
	for (i = n - 1; i >= 0; i--) {
		uint64_t hi = i - w >= 0 && i - w < b->n ? b->d[i - w] : 0;
		uint64_t lo = i - w - 1 >= 0 && i - w - 1 < b->n ? b->d[i - w - 1] : 0;

		b->d[i] = (uint32_t)(((hi << 32 | lo) << r) >> 32);
	}
	b->n = n;
	fp_big_trim(b);
}

static inline void fp_big_shr1(struct fp_big *b)
{
	int i;

	for (i = 0; i < b->n; i++)
		b->d[i] = (b->d[i] >> 1) | (i + 1 < b->n ? b->d[i + 1] << 31 : 0);
	fp_big_trim(b);
}

static inline int fp_big_cmp(const struct fp_big *a, const struct fp_big *b)
{
	int i;

	if (a->n != b->n)
		return a->n < b->n ? -1 : 1;
	for (i = a->n - 1; i >= 0; i--)
		if (a->d[i] != b->d[i])
			return a->d[i] < b->d[i] ? -1 : 1;
	return 0;
}

/* a -= b, a >= b. */
static inline void fp_big_sub(struct fp_big *a, const struct fp_big *b)
{
	int64_t c = 0;
	int i;

	for (i = 0; i < a->n; i++) {
		c += (int64_t)a->d[i] - (i < b->n ? b->d[i] : 0);
		a->d[i] = (uint32_t)c;
		c >>= 32;
	}
	fp_big_trim(a);
}

/* The bits of b from k up (a small number), which are cleared. */
static inline uint32_t fp_big_take_above(struct fp_big *b, int k)
{
	uint32_t v = 0;
	int i;

	for (i = fp_big_bitlen(b) - 1; i >= k; i--) {
		v = v << 1 | fp_big_bit(b, i);
		b->d[i / 32] &= ~(1U << (i % 32));
	}
	fp_big_trim(b);
	return v;
}

/* b (below 2^k) against 2^(k-1): -1, 0, 1. */
static inline int fp_big_cmp_half(const struct fp_big *b, int k)
{
	int i;

	if (!fp_big_bit(b, k - 1))
		return -1;
	for (i = 0; i < k - 1; i++)
		if (fp_big_bit(b, i))
			return 1;
	return 0;
}

/* b as a double (sign given), rounded. */
static inline uint64_t fp_big_to_fp(int sign, int e, const struct fp_big *b, int sticky)
{
	int len = fp_big_bitlen(b), s = len > 64 ? len - 64 : 0, i;
	uint64_t top = 0;

	for (i = 0; i < s; i++)
		sticky |= fp_big_bit(b, i);
	for (i = len - 1; i >= s; i--)
		top = top << 1 | fp_big_bit(b, i);
	return fp_round(sign, e + s, top, sticky);
}

/* Append the decimal digits of b (consumed) at out; their number. */
static inline int fp_big_decimal(struct fp_big *b, char *out)
{
	int n = 0, i;
	char c;

	do
		out[n++] = '0' + fp_big_divmod(b, 10);
	while (b->n);
	for (i = 0; i < n / 2; i++) {
		c = out[i];
		out[i] = out[n - 1 - i];
		out[n - 1 - i] = c;
	}
	return n;
}

/* Add one at the last digit of out[0..len), carrying over a '.'; the new
 * length (a carry out of the first digit inserts a '1'). */
static inline int fp_dec_round_up(char *out, int len)
{
	int i;

	for (i = len - 1; i >= 0; i--) {
		if (out[i] == '.')
			continue;
		if (out[i] != '9') {
			out[i]++;
			return len;
		}
		out[i] = '0';
	}
	memmove(out + 1, out, len);
	out[0] = '1';
	return len + 1;
}

/*
 * x with prec digits after the point, as printf("%.*f") writes it
 * ("nan", "inf" for the others), in out of size at least
 * FP_DEC_MIN_OUT; fewer digits when out cannot hold them.
 */
#define FP_DEC_MIN_OUT	340
static inline void fp_to_decimal(uint64_t x, int prec, char *out, int size)
{
	struct fp_num a = fp_unpack(x);
	struct fp_big b;
	int len = 0, k, i, c;

	if (a.sign)
		out[len++] = '-';
	if (a.cls == FP_NAN_C || a.cls == FP_INF_C) {
		memcpy(out + len, a.cls == FP_NAN_C ? "nan" : "inf", 4);
		return;
	}
	if (prec < 0)
		prec = 0;
	if (a.cls == FP_ZERO_C) {
		a.m = 0;
		a.e = 0;
	}
	k = a.e < 0 ? -a.e : 0;
	fp_big_set(&b, a.m);
	if (!k)
		fp_big_shl(&b, a.e);
	else
		fp_big_set(&b, k < 64 ? a.m >> k : 0);
	len += fp_big_decimal(&b, out + len);
	if (prec > size - len - 3)
		prec = size - len - 3;
	if (prec > 0)
		out[len++] = '.';
	if (k) {
		fp_big_set(&b, k < 64 ? a.m & ((1ULL << k) - 1) : a.m);
		for (i = 0; i < prec; i++) {
			fp_big_muladd(&b, 10, 0);
			out[len++] = '0' + fp_big_take_above(&b, k);
		}
		c = fp_big_cmp_half(&b, k);
		if (c > 0 || (c == 0 && ((out[len - 1] - '0') & 1)))
			len = fp_dec_round_up(out + a.sign, len - a.sign) + a.sign;
	} else {
		for (i = 0; i < prec; i++)
			out[len++] = '0';
	}
	out[len] = '\0';
}

static inline int fp_dec_lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + 'a' - 'A' : c;
}

/* Does s start with word, in any case?  Its length, or 0. */
static inline int fp_dec_word(const char *s, const char *word)
{
	int i;

	for (i = 0; word[i]; i++)
		if (fp_dec_lower(s[i]) != word[i])
			return 0;
	return i;
}

/* The text's digits and exponent: value = D * 10^exp10. */
struct fp_dec_text {
	struct fp_big d;
	int ndigits;		/* significant digits kept in d */
	int exp10;
	int sticky;		/* a nonzero digit was dropped */
};

/* [digits][.digits][e[+-]digits]: the end of it, or NULL without a digit. */
static inline const char *fp_dec_scan(const char *s, struct fp_dec_text *t)
{
	int any = 0, point = 0, eneg = 0;
	long ev = 0;

	fp_big_set(&t->d, 0);
	t->ndigits = t->exp10 = t->sticky = 0;
	for (;; s++) {
		if (*s == '.' && !point) {
			point = 1;
			continue;
		}
		if (*s < '0' || *s > '9')
			break;
		any = 1;
		if (point)
			t->exp10--;
		if (t->ndigits == FP_DEC_DIGITS) {
			t->sticky |= *s != '0';
			t->exp10++;
		} else if (t->ndigits || *s != '0') {
			fp_big_muladd(&t->d, 10, *s - '0');
			t->ndigits++;
		}
	}
	if (!any)
		return NULL;
	if (*s == 'e' || *s == 'E') {
		const char *p = s + 1;

		if (*p == '+' || *p == '-')
			eneg = *p++ == '-';
		if (*p < '0' || *p > '9')
			return s;
		for (; *p >= '0' && *p <= '9'; p++)
			if (ev < 100000)
				ev = ev * 10 + (*p - '0');
		t->exp10 += eneg ? -ev : ev;
		s = p;
	}
	return s;
}

/* D / 10^f, f > 0, rounded: 64 quotient bits by long division. */
static inline uint64_t fp_dec_divide(int sign, struct fp_big *d, int f)
{
	struct fp_big den;
	uint64_t q = 0;
	int s, i;

	fp_big_set(&den, 1);
	for (i = 0; i < f; i++)
		fp_big_muladd(&den, 10, 0);
	/* shift so that the quotient is in [2^62, 2^64) */
	s = fp_big_bitlen(&den) - fp_big_bitlen(d) + 63;
	if (s >= 0)
		fp_big_shl(d, s);
	else
		fp_big_shl(&den, -s);
	fp_big_shl(&den, 63);
	for (i = 63; i >= 0; i--, fp_big_shr1(&den)) {
		if (fp_big_cmp(d, &den) >= 0) {
			fp_big_sub(d, &den);
			q |= 1ULL << i;
		}
	}
	return fp_round(sign, -s, q, d->n != 0);
}

/* The double nearest the text s (spaces around it allowed; inf,
 * infinity, nan); 0, or -1 when s is not a number. */
static inline int fp_from_decimal(const char *s, uint64_t *out)
{
	struct fp_dec_text t;
	int sign = 0, n, i;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '+' || *s == '-')
		sign = *s++ == '-';
	if ((n = fp_dec_word(s, "infinity")) || (n = fp_dec_word(s, "inf"))) {
		*out = ((uint64_t)sign << 63) | FP_INF;
		s += n;
	} else if ((n = fp_dec_word(s, "nan"))) {
		*out = ((uint64_t)sign << 63) | FP_QNAN;
		s += n;
	} else {
		s = fp_dec_scan(s, &t);
		if (!s)
			return -1;
		if (t.sticky) {
			fp_big_muladd(&t.d, 10, 1);
			t.ndigits++;
			t.exp10--;
		}
		if (!t.d.n || t.ndigits + t.exp10 < -330) {
			*out = (uint64_t)sign << 63;
		} else if (t.ndigits + t.exp10 > 310) {
			*out = ((uint64_t)sign << 63) | FP_INF;
		} else if (t.exp10 >= 0) {
			for (i = 0; i < t.exp10; i++)
				fp_big_muladd(&t.d, 10, 0);
			*out = fp_big_to_fp(sign, 0, &t.d, 0);
		} else {
			*out = fp_dec_divide(sign, &t.d, -t.exp10);
		}
	}
	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	return *s ? -1 : 0;
}

#endif /* STP_FP_DEC_H */
