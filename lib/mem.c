/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Checked allocation, the arena, and dying with a message (base.h).  Out
 * of memory is fatal: a translator that cannot allocate has nothing
 * useful left to do.
 */
#include "base.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

void util_die(const char *fmt, ...)
{
	va_list ap;

	fputs("stp: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		util_die("out of memory (%zu bytes)", n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		util_die("out of memory (%zu x %zu bytes)", n, size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		util_die("out of memory (%zu bytes)", n);
	return p;
}

/*
 * Arena chunks are large and backed by transparent huge pages where the
 * kernel offers them: parsing a whole tapset library touches tens of
 * megabytes, and with 4 KiB pages the page faults cost more than the
 * parsing itself.
 */
#define ARENA_CHUNK (16 << 20)
#define HUGE_PAGE (2 << 20)

static void *chunk_alloc(size_t sz)
{
	char *p = mmap(NULL, sz + HUGE_PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uintptr_t a;

	if (p == MAP_FAILED)
		util_die("out of memory (%zu bytes)", sz);
	a = ((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
	madvise((void *)a, sz, MADV_HUGEPAGE);
	return (void *)a;
}

static char *ar_cur, *ar_end;

/* Weak, so that a fuzzer can give every object its own heap block
 * (tests/fuzz/fuzz_alloc.c); stp itself uses this arena. */
__attribute__((weak)) void *ar_alloc(size_t n)
{
	char *p;

	n = (n + 15) & ~(size_t)15;
	if ((size_t)(ar_end - ar_cur) < n) {
		size_t sz = n > ARENA_CHUNK / 4 ? n : ARENA_CHUNK;

		p = chunk_alloc(sz);
		if (n > ARENA_CHUNK / 4)
			return p;	/* big blocks stand alone */
		ar_cur = p;
		ar_end = p + sz;
	}
	p = ar_cur;
	ar_cur += n;
	return p;
}

char *ar_strndup(const char *s, size_t n)
{
	char *p = ar_alloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *ar_strdup(const char *s)
{
	return ar_strndup(s, strlen(s));
}

char *ar_printf(const char *fmt, ...)
{
	struct sbuf sb = { 0 };
	va_list ap;
	char *p;

	va_start(ap, fmt);
	sb_vprintf(&sb, fmt, ap);
	va_end(ap);
	p = ar_strndup(sb.s ? sb.s : "", sb.len);
	free(sb.s);
	return p;
}
