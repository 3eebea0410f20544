/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * printf formatting (format.h), byte for byte as SystemTap prints.  Where
 * SystemTap differs from C's printf, SystemTap wins:
 *
 *   - every integer is 64-bit: %x, %o, %u of a negative value print its
 *     two's complement; length modifiers change nothing;
 *   - '#' puts "0x" / "0" in front of zero too, and %p is %#x;
 *   - a precision does not cancel '0', and a precision of 0 still
 *     prints the digit 0;
 *   - a negative "*" precision counts as 0, not as "no precision";
 *   - %#c writes unprintable characters as C escapes;
 *   - the '0' flag on %s, %m, %M appends a NUL byte (binary output);
 *   - widths and precisions are capped at STP_BUFFER_SIZE.
 *
 * Results may contain NUL bytes (%b, %c, %0s): callers use the returned
 * length, not strlen.
 */
#include "format.h"
#include "out.h"

#define FMT_MAX STP_BUFFER_SIZE	/* cap on widths and precisions */

enum {
	F_LEFT = 1,		/* '-' */
	F_PLUS = 2,		/* '+' */
	F_SPACE = 4,		/* ' ' */
	F_SPECIAL = 8,		/* '#' */
	F_ZERO = 16,		/* '0' */
	F_SIGN = 32,		/* signed conversion */
	F_LARGE = 64,		/* upper-case hex */
};

/* Where the output goes: everything is counted, what fits is stored. */
struct fmt_w {
	char *dst;
	size_t size, len;
};

struct fmt_spec {
	unsigned int flags;
	int width, prec;	/* -1: not given */
};

struct fmt_args {
	const union stp_val *v;
	int n, next;
};

static inline void fmt_put(struct fmt_w *w, char c)
{
	if (w->len + 1 < w->size)
		w->dst[w->len] = c;
	w->len++;
}

static void fmt_pad(struct fmt_w *w, char c, int n)
{
	while (n-- > 0)
		fmt_put(w, c);
}

/* ---- integers ---- */

static void fmt_prefix(struct fmt_w *w, int base, unsigned int flags)
{
	if (!(flags & F_SPECIAL) || (base != 8 && base != 16))
		return;
	fmt_put(w, '0');
	if (base == 16)
		fmt_put(w, flags & F_LARGE ? 'X' : 'x');
}

static char fmt_sign(u64 *num, unsigned int flags)
{
	if (!(flags & F_SIGN))
		return 0;
	if ((int64_t)*num < 0) {
		*num = 0 - *num;
		return '-';
	}
	if (flags & F_PLUS)
		return '+';
	return flags & F_SPACE ? ' ' : 0;
}

static void fmt_number(struct fmt_w *w, u64 num, int base,
		       const struct fmt_spec *s)
{
	const char *digits = s->flags & F_LARGE ? "0123456789ABCDEF"
						: "0123456789abcdef";
	unsigned int flags = s->flags;
	int size = s->width, prec = s->prec, i = 0;
	char tmp[24], sign;

	if (flags & F_LEFT)
		flags &= ~F_ZERO;
	sign = fmt_sign(&num, flags);
	if (sign)
		size--;
	if (flags & F_SPECIAL)
		size -= base == 16 ? 2 : base == 8 ? 1 : 0;
	do {
		tmp[i++] = digits[num % base];
		num /= base;
	} while (num);
	if (prec < i)
		prec = i;
	size -= prec;
	if (!(flags & (F_ZERO | F_LEFT))) {
		fmt_pad(w, ' ', size);
		size = 0;
	}
	if (sign)
		fmt_put(w, sign);
	fmt_prefix(w, base, flags);
	if (!(flags & F_LEFT)) {
		fmt_pad(w, '0', size);
		size = 0;
	}
	fmt_pad(w, '0', prec - i);
	while (i > 0)
		fmt_put(w, tmp[--i]);
	fmt_pad(w, ' ', size);
}

/* ---- %c ---- */

/* The letter of a C escape for c, or 0. */
static char fmt_escape(unsigned char c)
{
	static const char from[] = "\a\b\f\n\r\t\v'\\", to[] = "abfnrtv'\\";
	int i;

	for (i = 0; from[i]; i++)
		if (from[i] == (char)c)
			return to[i];
	return 0;
}

static int fmt_char_size(unsigned char c, unsigned int flags)
{
	if (!(flags & F_SPECIAL))
		return 1;
	if (fmt_escape(c))
		return 2;
	return c >= ' ' && c < 0x7f ? 1 : 4;
}

static void fmt_char(struct fmt_w *w, unsigned char c,
		     const struct fmt_spec *s)
{
	int size = fmt_char_size(c, s->flags);

	if (!(s->flags & F_LEFT))
		fmt_pad(w, ' ', s->width - size);
	if (size == 1) {
		fmt_put(w, (char)c);
	} else if (size == 2) {
		fmt_put(w, '\\');
		fmt_put(w, fmt_escape(c));
	} else {
		fmt_put(w, '\\');
		fmt_put(w, '0' + (c >> 6));
		fmt_put(w, '0' + ((c >> 3) & 7));
		fmt_put(w, '0' + (c & 7));
	}
	if (s->flags & F_LEFT)
		fmt_pad(w, ' ', s->width - size);
}

/* ---- %s, %m, %M ---- */

/* n bytes at addr, as they are (%m) or as hex digits (%M). */
static int fmt_read(struct fmt_w *w, unsigned long addr, int n, int hex)
{
	u8 buf[32];
	int i, k, chunk;

	for (i = 0; i < n; i += chunk) {
		chunk = n - i < (int)sizeof(buf) ? n - i : (int)sizeof(buf);
		if (stp_read_kernel(buf, (const void *)(addr + i), chunk))
			return -1;
		for (k = 0; k < chunk; k++) {
			if (hex) {
				fmt_put(w, "0123456789abcdef"[buf[k] >> 4]);
				fmt_put(w, "0123456789abcdef"[buf[k] & 15]);
			} else {
				fmt_put(w, (char)buf[k]);
			}
		}
	}
	return 0;
}

static int fmt_memory(struct fmt_w *w, char conv, union stp_val a,
		      const struct fmt_spec *s)
{
	const char *str = a.s ? a.s : "<NULL>";
	int len, shown;

	if (conv == 's')
		len = (int)strnlen(str, s->prec < 0 ? FMT_MAX : s->prec);
	else
		len = s->prec > 0 ? s->prec : 1;
	shown = conv == 'M' ? 2 * len : len;
	if (!(s->flags & F_LEFT))
		fmt_pad(w, ' ', s->width - shown);
	if (conv == 's') {
		while (len-- > 0)
			fmt_put(w, *str++);
	} else if (fmt_read(w, (unsigned long)a.l, len, conv == 'M')) {
		return -1;
	}
	if (s->flags & F_LEFT)
		fmt_pad(w, ' ', s->width - shown);
	if (s->flags & F_ZERO)
		fmt_put(w, '\0');
	return 0;
}

/* ---- %b ---- */

/* 1, 2, 4 or 8; -1 for anything else. */
static int fmt_bin_size(int n)
{
	return n == 1 || n == 2 || n == 4 || n == 8 ? n : -1;
}

/* A width or a precision alone sets both; neither means 8 bytes. */
static void fmt_binary(struct fmt_w *w, int64_t v, const struct fmt_spec *s)
{
	int width = s->width, size = fmt_bin_size(s->prec), i;
	union {
		int8_t b;
		int16_t h;
		int32_t w;
		int64_t l;
		u8 bytes[8];
	} u;

	if (width < 0)
		width = size = size < 0 ? 8 : size;
	else if (size < 0)
		size = fmt_bin_size(width) < 0 ? 8 : width;
	if (size == 1)
		u.b = (int8_t)v;
	else if (size == 2)
		u.h = (int16_t)v;
	else if (size == 4)
		u.w = (int32_t)v;
	else
		u.l = v;
	if (!(s->flags & F_LEFT))
		fmt_pad(w, '\0', width - size);
	for (i = 0; i < size; i++)
		fmt_put(w, (char)u.bytes[i]);
	if (s->flags & F_LEFT)
		fmt_pad(w, '\0', width - size);
}

/* ---- the format string ---- */

static int fmt_next(struct fmt_args *a, union stp_val *v, const char **err)
{
	if (a->next >= a->n) {
		*err = "format needs more arguments than it was given";
		return -1;
	}
	*v = a->v[a->next++];
	return 0;
}

static int fmt_clamp(int64_t v)
{
	return v < 0 ? 0 : v > FMT_MAX ? FMT_MAX : (int)v;
}

/* Digits, saturating at FMT_MAX. */
static int fmt_digits(const char **f)
{
	int v = 0;

	while (**f >= '0' && **f <= '9') {
		if (v <= FMT_MAX)
			v = v * 10 + (*(*f)++ - '0');
		else
			(*f)++;
	}
	return fmt_clamp(v);
}

/* A width: digits, or "*" taken from the arguments (negative: '-'). */
static int fmt_width(const char **f, struct fmt_spec *s, struct fmt_args *a,
		     const char **err)
{
	union stp_val v;

	s->width = -1;
	if (**f >= '0' && **f <= '9') {
		s->width = fmt_digits(f);
	} else if (**f == '*') {
		(*f)++;
		if (fmt_next(a, &v, err))
			return -1;
		if (v.l < 0) {
			s->flags |= F_LEFT;
			v.l = v.l < -FMT_MAX ? FMT_MAX : -v.l;
		}
		s->width = fmt_clamp(v.l);
	}
	return 0;
}

static int fmt_precision(const char **f, struct fmt_spec *s,
			 struct fmt_args *a, const char **err)
{
	union stp_val v;

	s->prec = -1;
	if (**f != '.')
		return 0;
	(*f)++;
	if (**f == '*') {
		(*f)++;
		if (fmt_next(a, &v, err))
			return -1;
		s->prec = fmt_clamp(v.l);
	} else {
		s->prec = fmt_digits(f);
	}
	return 0;
}

/* Flags, width, precision and length of a conversion; f after them. */
static int fmt_spec(const char **f, struct fmt_spec *s, struct fmt_args *a,
		    const char **err)
{
	static const char flag_chars[] = "-+ #0";
	const char *p;

	s->flags = 0;
	while (**f && (p = strchr(flag_chars, **f))) {
		s->flags |= 1u << (p - flag_chars);
		(*f)++;
	}
	if (fmt_width(f, s, a, err) || fmt_precision(f, s, a, err))
		return -1;
	if (**f == 'h' || **f == 'l') {
		if ((*f)[1] == **f)
			(*f)++;
		(*f)++;
	} else if (**f == 'L') {
		(*f)++;
	}
	return 0;
}

static int fmt_int_conv(struct fmt_w *w, char conv, struct fmt_spec *s,
			struct fmt_args *a, const char **err)
{
	union stp_val v;
	int base = 10;

	if (fmt_next(a, &v, err))
		return -1;
	switch (conv) {
	case 'd':
	case 'i':
		s->flags |= F_SIGN;
		break;
	case 'X':
		s->flags |= F_LARGE;
		base = 16;
		break;
	case 'p':
		s->flags |= F_SPECIAL;
		base = 16;
		break;
	case 'x':
		base = 16;
		break;
	case 'o':
		base = 8;
		break;
	}
	fmt_number(w, (u64)v.l, base, s);
	return 0;
}

/* One conversion, f just after its '%'. */
static int fmt_conv(struct fmt_w *w, const char **f, struct fmt_args *a,
		    const char **err)
{
	struct fmt_spec s;
	union stp_val v;
	char conv;

	if (fmt_spec(f, &s, a, err))
		return -1;
	conv = **f;
	if (conv)
		(*f)++;
	switch (conv) {
	case '%':
		fmt_put(w, '%');
		return 0;
	case 'd': case 'i': case 'u': case 'x': case 'X': case 'o': case 'p':
		return fmt_int_conv(w, conv, &s, a, err);
	case 'c':
		if (fmt_next(a, &v, err))
			return -1;
		fmt_char(w, (unsigned char)v.l, &s);
		return 0;
	case 'b':
		if (fmt_next(a, &v, err))
			return -1;
		fmt_binary(w, v.l, &s);
		return 0;
	case 's': case 'm': case 'M':
		if (fmt_next(a, &v, err))
			return -1;
		if (fmt_memory(w, conv, v, &s)) {
			*err = "kernel read fault in %m/%M";
			return -1;
		}
		return 0;
	case '\0':
		*err = "format string ends inside a conversion";
		return -1;
	default:
		*err = "unknown conversion in format string";
		return -1;
	}
}

notrace int stp_format(char *dst, size_t size, const char *fmt,
		       const union stp_val *args, int nargs, const char **err)
{
	struct fmt_w w = { .dst = dst, .size = size };
	struct fmt_args a = { .v = args, .n = nargs };
	const char *ignored, *f = fmt;
	int rc = 0;

	if (!err)
		err = &ignored;
	while (!rc && *f) {
		if (*f != '%') {
			fmt_put(&w, *f++);
			continue;
		}
		f++;
		rc = fmt_conv(&w, &f, &a, err);
	}
	if (size)
		dst[w.len < size ? w.len : size - 1] = '\0';
	if (rc)
		return -1;
	if (w.len > INT_MAX) {
		*err = "formatted result too long";
		return -1;
	}
	return (int)w.len;
}

/* Cut what does not fit in the buffer (its last byte holds the NUL). */
static int fmt_out_cut(struct stp_out *o, int n)
{
	size_t kept = o->cap - o->len ? o->cap - o->len - 1 : 0;

	o->len += kept;
	stp_count_n(STP_EV_OUT_TRUNC, (long)(n - kept));
	return n;
}

/* Format into the free space; 1 (and *n set) when it fit or failed. */
static int fmt_out_try(struct stp_out *o, const char *fmt,
		       const union stp_val *args, int nargs, const char **err,
		       int *n)
{
	*n = stp_format(o->buf + o->len, o->cap - o->len, fmt, args, nargs,
			err);
	if (*n >= 0 && (size_t)*n >= o->cap - o->len)
		return 0;
	if (*n > 0)
		o->len += *n;
	return 1;
}

notrace int stp_out_format(struct stp_out *o, const char *fmt,
			   const union stp_val *args, int nargs,
			   const char **err)
{
	size_t before = o->len;
	int n;

	if (fmt_out_try(o, fmt, args, nargs, err, &n))
		return n;
	if (!o->flush || !o->len)
		return fmt_out_cut(o, n);
	o->flush(o);
	if (o->len < before && fmt_out_try(o, fmt, args, nargs, err, &n))
		return n;
	return fmt_out_cut(o, n);
}
