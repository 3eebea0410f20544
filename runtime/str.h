/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Strings as the generated code keeps them: char arrays of MAXSTRINGLEN,
 * always NUL-terminated, every cut counted (STP_EV_STR_TRUNC); the
 * escapes text_str() makes; regular expression matching (regex.c).
 */
#ifndef STP_STR_H
#define STP_STR_H

/*
 * String helpers: always NUL-terminated, cuts counted.  A literal
 * (x = "text") is copied with its known length, a few moves: strnlen's
 * and memmove's calls cost about 100 instructions a hit.
 */
static __always_inline void stp_str_assign(char *dst, const char *src)
{
	size_t n;

	if (__builtin_constant_p(__builtin_strlen(src)) &&
	    __builtin_strlen(src) < MAXSTRINGLEN) {
		__builtin_memcpy(dst, src, __builtin_strlen(src) + 1);
		return;
	}
	/*
	 * A short string (a name, a word) by a byte loop: the calls cost
	 * more than it.  The buffers are distinct (each a MAXSTRINGLEN
	 * array) or the same one, which needs only its end checked.
	 */
	if (dst != src) {
		for (n = 0; n < 32 && n < MAXSTRINGLEN - 1; n++) {
			if (!(dst[n] = src[n]))
				return;
		}
	} else {
		n = 0;
	}
	n += strnlen(src + n, MAXSTRINGLEN - n);
	if (n >= MAXSTRINGLEN) {
		n = MAXSTRINGLEN - 1;
		stp_count(STP_EV_STR_TRUNC);
	}
	if (dst != src && n > 32)
		memmove(dst + 32, src + 32, n - 32);
	dst[n] = '\0';
}

/* The n bytes at src (no NUL needed among them). */
static inline void stp_str_append_n(char *dst, const char *src, size_t n)
{
	size_t have = strnlen(dst, MAXSTRINGLEN - 1);

	if (have + n >= MAXSTRINGLEN) {
		n = MAXSTRINGLEN - 1 - have;
		stp_count(STP_EV_STR_TRUNC);
	}
	memmove(dst + have, src, n);
	dst[have + n] = '\0';
}

static inline void stp_str_append(char *dst, const char *src)
{
	stp_str_append_n(dst, src, strlen(src));
}

static inline void stp_str_append_long(char *dst, int64_t v)
{
	char b[24];

	snprintf(b, sizeof(b), "%lld", (long long)v);
	stp_str_append(dst, b);
}

void stp_text_escape(char *dst, const char *src, int64_t len, int64_t quoted);
/*
 * s =~ re: 1 on a match, 0 without, -1 for a bad expression.  POSIX
 * extended syntax, matched by bounded backtracking (regex.c).
 */
int stp_regex_match(const char *s, const char *re);

#endif
