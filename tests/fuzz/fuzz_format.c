// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for stp_format (runtime/format.c), built by
 * tests/fuzz/run.sh with FUZZ_TARGET=format.
 *
 * Input: a format string up to the first NUL byte, then the bytes the
 * arguments are made from.  The harness reads the format the way
 * runtime/format.c documents it to learn which arguments are strings
 * (a long where a string is expected would be a wild pointer, which the
 * kernel's callers never pass), and makes %m/%M addresses point into,
 * near or far from a small readable area through stp_host_read_hook.
 *
 * Checked, besides ASan/UBSan: the snprintf contract.  The length with
 * no buffer equals the length with a large one; every smaller buffer
 * (allocated to its exact size) gets the same prefix and a NUL in its
 * last byte; an error is an error at every size, with a message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "format.h"

stp_atomic_t stp_events[STP_EV_COUNT];
int stp_host_cpu, stp_host_ncpus = 1;
int (*stp_host_read_hook)(void *dst, const void *src, size_t n);

#define MAXARGS 64

static unsigned char readable[64];

static int read_hook(void *dst, const void *src, size_t n)
{
	uintptr_t p = (uintptr_t)src, lo = (uintptr_t)readable;

	if (p < lo || p > lo + sizeof(readable) ||
	    n > lo + sizeof(readable) - p)
		return -EFAULT;
	memcpy(dst, src, n);
	return 0;
}

static void fail(const char *what)
{
	fprintf(stderr, "==FUZZ== FAIL: %s\n", what);
	abort();
}

/* Argument bytes, consumed front to back; zeros once they run out. */
struct src {
	const unsigned char *p;
	size_t n;
};

static unsigned char byte(struct src *s)
{
	if (!s->n)
		return 0;
	s->n--;
	return *s->p++;
}

static int64_t make_long(struct src *s)
{
	uint64_t v = 0;
	unsigned char tag = byte(s);

	switch (tag % 8) {
	case 0: return INT64_MIN;
	case 1: return INT64_MAX;
	case 2: return -1;
	case 3: return 0;
	case 4: return (signed char)byte(s);
	case 5: return (int64_t)(uintptr_t)readable + byte(s) % 80 - 8;
	case 6: return (int64_t)byte(s) * 64 - 8192;
	default:
		for (int i = 0; i < 8; i++)
			v = v << 8 | byte(s);
		return (int64_t)v;
	}
}

static char strings[MAXARGS][300];

static const char *make_str(struct src *s, int i)
{
	unsigned char len = byte(s);
	size_t n = len % 300 < s->n ? len % 300 : s->n;

	if (len == 255)
		return NULL;
	memcpy(strings[i], s->p, n);
	strings[i][n] = 0;
	s->p += n;
	s->n -= n;
	return strings[i];
}

/* Which arguments fmt reads, in order: 's' for a string, 'l' else. */
static int arg_kinds(const char *f, char *kinds)
{
	int n = 0;

	while (*f && n < MAXARGS - 2) {
		if (*f++ != '%')
			continue;
		while (*f && strchr("-+ #0", *f))
			f++;
		if (*f == '*' && ++f)
			kinds[n++] = 'l';
		while (*f >= '0' && *f <= '9')
			f++;
		if (*f == '.') {
			f++;
			if (*f == '*' && ++f)
				kinds[n++] = 'l';
			while (*f >= '0' && *f <= '9')
				f++;
		}
		if (*f == 'h' || *f == 'l')
			f += f[1] == *f ? 2 : 1;
		else if (*f == 'L')
			f++;
		if (!*f || !strchr("diuxXopcbmMs%", *f))
			break;
		if (*f != '%')
			kinds[n++] = *f == 's' ? 's' : 'l';
		f++;
	}
	return n;
}

static void check_sizes(const char *fmt, const union stp_val *a, int n,
			int len)
{
	char *big = malloc(len + 1);
	size_t sizes[3] = { 1, len / 2 + 1, len };

	if (stp_format(big, len + 1, fmt, a, n, NULL) != len)
		fail("length differs with a large enough buffer");
	if (big[len])
		fail("no NUL after the result");
	for (int i = 0; i < 3; i++) {
		size_t sz = sizes[i];
		char *small;

		if (!sz)
			continue;
		small = malloc(sz);
		if (stp_format(small, sz, fmt, a, n, NULL) != len)
			fail("length differs with a small buffer");
		if (memcmp(small, big, sz - 1) || small[sz - 1])
			fail("a small buffer does not hold the result's prefix");
		free(small);
	}
	free(big);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	size_t flen = strnlen((const char *)data, size);
	char *fmt = malloc(flen + 1);
	struct src s = { data + flen + (flen < size), 0 };
	union stp_val args[MAXARGS];
	char kinds[MAXARGS], small[4];
	const char *err = NULL;
	int n, len;

	s.n = size - (s.p - data);
	memcpy(fmt, data, flen);
	fmt[flen] = 0;
	for (size_t i = 0; i < sizeof(readable); i++)
		readable[i] = (unsigned char)(i * 37);
	stp_host_read_hook = read_hook;
	n = arg_kinds(fmt, kinds);
	/* Sometimes one argument short, to reach that error. */
	if (n && (s.n % 7) == 3)
		n--;
	for (int i = 0; i < n; i++) {
		if (kinds[i] == 's')
			args[i].s = make_str(&s, i);
		else
			args[i].l = make_long(&s);
	}
	len = stp_format(NULL, 0, fmt, args, n, &err);
	if (len < 0) {
		if (!err)
			fail("an error without a message");
		if (stp_format(small, sizeof(small), fmt, args, n, NULL) != -1)
			fail("an error only at some sizes");
		if (small[sizeof(small) - 1] && strnlen(small, 4) == 4)
			fail("no NUL after an error");
	} else {
		check_sizes(fmt, args, n, len);
	}
	free(fmt);
	return 0;
}
