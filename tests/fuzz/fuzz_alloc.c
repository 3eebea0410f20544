// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Memory for the fuzz targets.
 *
 * The translator never frees: AST nodes and strings come from an
 * arena (parser/util.c), token buffers and vectors from malloc, and all
 * of it lives until exit.  A fuzzer runs millions of inputs in one
 * process, so that would grow without bound, and objects carved out of
 * 16 MiB arena chunks are invisible to AddressSanitizer (an overrun
 * lands in the next object, not in a redzone).
 *
 * So in the fuzz build:
 *
 *  - parser/util.c is compiled with its arena functions renamed away
 *    (-Dar_alloc=stp_arena_alloc ..., see run.sh) and this file
 *    provides ar_alloc, ar_strndup, ar_strdup, ar_printf and intern on
 *    top of malloc: every AST object gets its own ASan redzones.  Like
 *    the arena, ar_alloc returns zeroed memory (the parser relies on it).
 *
 *  - a sanitizer malloc/free hook records every heap block allocated
 *    while one input runs; fuzz_iter_end() frees the ones still live.
 *    That reclaims the arena objects and everything the parser "leaks"
 *    by design (pp token buffers, vectors, line tables), so memory stays
 *    flat however long the fuzzer runs.
 *
 * Nothing allocated during an input may be used after it.  The one
 * exception is intern(): the parser caches interned pointers (keywords)
 * in statics and compares names by pointer, so interned strings are
 * allocated untracked and live for the whole run, as in stp.
 */
#include "fuzz_alloc.h"
#include "util.h"

#include <sanitizer/allocator_interface.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* ---- the live-block tracker ---- */

#define TBITS 22
#define TSIZE ((size_t)1 << TBITS)
#define TOMB ((uintptr_t)1)

static uintptr_t *slots;	/* open addressing; 0 empty, 1 deleted */
static uint32_t *touched;	/* slots filled during this input */
static size_t ntouched;
static void **doomed;		/* scratch for fuzz_iter_end */
static __thread int tracking;	/* only the fuzzing thread's blocks */
static size_t untracked;	/* blocks we had no room to record */

static size_t slot_of(uintptr_t p)
{
	return (size_t)(((p >> 4) * 0x9E3779B97F4A7C15ull) >> (64 - TBITS));
}

static void on_malloc(const volatile void *ptr, size_t size)
{
	uintptr_t p = (uintptr_t)ptr;
	size_t i;

	(void)size;
	if (!tracking || !p)
		return;
	if (ntouched >= TSIZE / 2) {
		untracked++;
		return;
	}
	/* The first free or deleted slot: a block that was freed makes
	 * room for the next, so malloc/free churn does not grow chains. */
	for (i = slot_of(p); slots[i] > TOMB; i = (i + 1) & (TSIZE - 1))
		;
	if (!slots[i])
		touched[ntouched++] = (uint32_t)i;	/* first use */
	slots[i] = p;
}

static void on_free(const volatile void *ptr)
{
	uintptr_t p = (uintptr_t)ptr;

	if (!tracking || !p)
		return;
	for (size_t i = slot_of(p); slots[i]; i = (i + 1) & (TSIZE - 1))
		if (slots[i] == p) {
			slots[i] = TOMB;
			return;
		}
}

static void *map(size_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (p == MAP_FAILED) {
		perror("fuzz_alloc: mmap");
		abort();
	}
	return p;
}

void fuzz_alloc_init(void)
{
	slots = map(TSIZE * sizeof(*slots));
	touched = map(TSIZE / 2 * sizeof(*touched));
	doomed = map(TSIZE / 2 * sizeof(*doomed));
	if (!__sanitizer_install_malloc_and_free_hooks(on_malloc, on_free)) {
		fprintf(stderr, "fuzz_alloc: cannot install malloc hooks\n");
		abort();
	}
}

/* ---- intern: permanent, like parser/util.c's ---- */

static const char **itab;
static size_t icap, icount;

static size_t hash(const char *s, size_t n)
{
	size_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static void intern_grow(void)
{
	size_t ncap = icap ? icap * 2 : 256;
	const char **nt = xcalloc(ncap, sizeof(*nt));

	for (size_t i = 0; i < icap; i++) {
		size_t j;

		if (!itab[i])
			continue;
		j = hash(itab[i], strlen(itab[i])) & (ncap - 1);
		while (nt[j])
			j = (j + 1) & (ncap - 1);
		nt[j] = itab[i];
	}
	free(itab);
	itab = nt;
	icap = ncap;
}

const char *intern(const char *s, size_t n)
{
	int was = tracking;
	char *copy;
	size_t j;

	tracking = 0;	/* what it allocates outlives the input */
	if (2 * (icount + 1) > icap)
		intern_grow();
	j = hash(s, n) & (icap - 1);
	while (itab[j]) {
		if (!strncmp(itab[j], s, n) && !itab[j][n]) {
			tracking = was;
			return itab[j];
		}
		j = (j + 1) & (icap - 1);
	}
	icount++;
	copy = xmalloc(n + 1);
	memcpy(copy, s, n);
	copy[n] = '\0';
	itab[j] = copy;
	tracking = was;
	return copy;
}

size_t fuzz_interned(void)
{
	return icount;
}

/* ---- the arena API on calloc ---- */

void *ar_alloc(size_t n)
{
	return xcalloc(n ? n : 1, 1);
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

/* ---- per input ---- */

void fuzz_iter_begin(void)
{
	ntouched = 0;
	tracking = 1;
}

void fuzz_iter_end(void)
{
	size_t n = 0;

	tracking = 0;
	for (size_t k = 0; k < ntouched; k++) {
		uint32_t i = touched[k];

		if (slots[i] > TOMB)
			doomed[n++] = (void *)slots[i];
		slots[i] = 0;
	}
	ntouched = 0;
	for (size_t k = 0; k < n; k++)
		free(doomed[k]);
}

size_t fuzz_untracked(void)
{
	return untracked;
}
