/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sprintf in a kernel probe (translator/bpf/ksprintf.c): each integer,
 * and each string with a width or precision, is first written as
 * runtime/format.c writes it (the same flags, padding and prefixes) into
 * a string temporary; bpf_snprintf (Linux 5.13) then joins the literal
 * text and those strings, as %s.  Its own conversions are too few for
 * the print family's (no '#', no octal, no precision).
 */
#ifndef STP_BPF_KSPRINTF_H
#define STP_BPF_KSPRINTF_H

/* runtime/format.c's flags */
enum {
	STP_F_LEFT = 1, STP_F_PLUS = 2, STP_F_SPACE = 4, STP_F_SPECIAL = 8, STP_F_ZERO = 16,
	STP_F_SIGN = 32, STP_F_LARGE = 64,
};

/* Where the next character goes, if it fits (a NUL is left room for). */
#define STP_KPUT(dst, pos, ch) do { \
	if ((pos) < MAXSTRINGLEN - 1) \
		(dst)[(pos) & (MAXSTRINGLEN - 1)] = (ch); \
	(pos)++; \
} while (0)

/*
 * Where a bpf_loop (Linux 5.17) callback's string is at: kept in a map,
 * not on the stack.  The verifier walks a callback again for every value
 * it knows a variable to have; one loaded from a map it knows nothing
 * of, so the callback is checked once, not once per position.
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, int[2]);
} stp_kpos SEC(".maps");

/* [0] the innermost walk's; [1] a walk that calls others (_sc_argv's) */
STP_INLINE int *stp_kposp(void)
{
	u32 zero = 0;

	return bpf_map_lookup_elem(&stp_kpos, &zero);
}

STP_INLINE int *stp_kposp_outer(void)
{
	int *p = stp_kposp();

	return p ? p + 1 : 0;
}

/* A run of n characters at dst + the position: ch each time, or src's
 * (backwards when rev). */
struct stp_krun {
	char *dst;
	const char *src;
	int n, rev;
	char ch;
};

static long stp_krun_one(u32 i, struct stp_krun *r)
{
	int *pp = stp_kposp(), pos;
	char c = r->ch;

	if (!pp)
		return 1;
	pos = *pp;
	if (r->src)
		c = r->src[i & (MAXSTRINGLEN - 1)];
	STP_KPUT(r->dst, pos, c);
	*pp = pos;
	return 0;
}

/* backwards: a number's digits, from 32 bytes on the stack */
static long stp_krun_rev_one(u32 i, struct stp_krun *r)
{
	int *pp = stp_kposp(), pos;

	if (!pp)
		return 1;
	pos = *pp;
	STP_KPUT(r->dst, pos, r->src[(r->n - 1 - (int)i) & 31]);
	*pp = pos;
	return 0;
}

/* n of ch, or of src's characters, at dst + pos; the new pos. */
STP_INLINE int stp_krun(char *dst, int pos, const char *src, int n, int rev, char ch)
{
	struct stp_krun r = { dst, src, n, rev, ch };
	int *pp = stp_kposp();

	if (!pp || n <= 0)
		return pos;
	*pp = pos;
	if (rev)
		bpf_loop(n & 31, stp_krun_rev_one, &r, 0);
	else
		bpf_loop(n < MAXSTRINGLEN ? n : MAXSTRINGLEN, stp_krun_one, &r, 0);
	return *pp;
}

STP_INLINE int stp_kpad(char *dst, int pos, char ch, int n)
{
	return stp_krun(dst, pos, 0, n, 0, ch);
}

/* Digit d (0-15), without a branch: one per digit would make the
 * verifier follow every mix of digits and letters. */
STP_INLINE char stp_kdigit(u64 d, int large)
{
	s64 letter = 9 - (s64)d;

	/* opaque, or clang turns the arithmetic back into a branch */
	asm volatile("" : "+r"(letter));
	letter >>= 63;	/* -1 for 10-15, else 0 */
	return (char)('0' + d + (letter & (large ? 7 : 39)));
}

/* num in base (8, 10 or 16) with flags, width and precision (-1: none):
 * packed into spec, for BPF's five arguments. */
#define stp_kfmt_int(dst, num, base, flags, width, prec) \
	stp_kfmt_int_spec((dst), (num), (u64)(base) | (u64)(flags) << 8 | \
			  (u64)(u16)(s16)(width) << 16 | (u64)(u16)(s16)(prec) << 32)

/* a function of its own: inlined at every conversion, the stacks add up */
static __attribute__((noinline)) char *stp_kfmt_int_spec(char *dst, u64 num, u64 spec)
{
	int base = spec & 0xff, width = (s16)(spec >> 16), prec = (s16)(spec >> 32);
	unsigned flags = (spec >> 8) & 0xff;
	char tmp[32], sign = 0;
	int size = width, i = 0, pos = 0;

	if (flags & STP_F_LEFT)
		flags &= ~STP_F_ZERO;
	if ((flags & STP_F_SIGN) && (int64_t)num < 0) {
		num = 0 - num;
		sign = '-';
	} else if (flags & STP_F_SIGN) {
		sign = flags & STP_F_PLUS ? '+' : flags & STP_F_SPACE ? ' ' : 0;
	}
	if (sign)
		size--;
	if (flags & STP_F_SPECIAL)
		size -= base == 16 ? 2 : base == 8 ? 1 : 0;
	for (int k = 0; k < 23; k++) {
		u64 d = num % (u64)base;

		tmp[i++ & 31] = stp_kdigit(d, flags & STP_F_LARGE);
		num /= (u64)base;
		if (!num)
			break;
	}
	if (prec < i)
		prec = i;
	size -= prec;
	if (!(flags & (STP_F_ZERO | STP_F_LEFT))) {
		pos = stp_kpad(dst, pos, ' ', size);
		size = 0;
	}
	if (sign)
		STP_KPUT(dst, pos, sign);
	if ((flags & STP_F_SPECIAL) && (base == 8 || base == 16)) {
		STP_KPUT(dst, pos, '0');
		if (base == 16)
			STP_KPUT(dst, pos, flags & STP_F_LARGE ? 'X' : 'x');
	}
	if (!(flags & STP_F_LEFT)) {
		pos = stp_kpad(dst, pos, '0', size);
		size = 0;
	}
	pos = stp_kpad(dst, pos, '0', prec - i);
	pos = stp_krun(dst, pos, tmp, i & 31, 1, 0);
	pos = stp_kpad(dst, pos, ' ', size);
	dst[(pos < MAXSTRINGLEN - 1 ? pos : MAXSTRINGLEN - 1) & (MAXSTRINGLEN - 1)] = 0;
	return dst;
}

/* A string's copy, per CPU: s may be any string, of any size. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, char[MAXSTRINGLEN]);
} stp_kstr SEC(".maps");

/* s cut at prec (-1: whole) and padded to width. */
static __attribute__((noinline)) char *stp_kfmt_str(char *dst, const char *src, unsigned flags,
						    int width, int prec)
{
	u32 zero = 0;
	char *s = bpf_map_lookup_elem(&stp_kstr, &zero);
	long n;
	int pos = 0;

	if (!s)
		return dst;
	n = bpf_probe_read_kernel_str(s, MAXSTRINGLEN, src) - 1;
	if (n < 0)
		n = 0;
	if (prec >= 0 && n > prec)
		n = prec;
	if (!(flags & STP_F_LEFT))
		pos = stp_kpad(dst, pos, ' ', width - n);
	pos = stp_krun(dst, pos, s, n, 0, 0);
	if (flags & STP_F_LEFT)
		pos = stp_kpad(dst, pos, ' ', width - n);
	dst[(pos < MAXSTRINGLEN - 1 ? pos : MAXSTRINGLEN - 1) & (MAXSTRINGLEN - 1)] = 0;
	return dst;
}

#endif
