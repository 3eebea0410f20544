// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Memory for the fuzz targets.
 *
 * The translator never frees: AST nodes and strings come from an
 * arena (lib/mem.c), token buffers and vectors from malloc, and all
 * of it lives until exit.  A fuzzer runs millions of inputs in one
 * process, so that would grow without bound, and objects carved out of
 * 16 MiB arena chunks are invisible to AddressSanitizer (an overrun
 * lands in the next object, not in a redzone).
 *
 * So in the fuzz build:
 *
 *  - this file's ar_alloc overrides lib/mem.c's weak one: every AST
 *    object is its own heap block, with ASan redzones.  Like the arena,
 *    it returns zeroed memory (the parser relies on it).
 *
 *  - a sanitizer malloc/free hook records every heap block allocated
 *    while one input runs; fuzz_iter_end() frees the ones still live.
 *    That reclaims the arena objects and everything the parser "leaks"
 *    by design (pp token buffers, vectors, line tables), so memory stays
 *    flat however long the fuzzer runs.
 *
 * Nothing allocated during an input may be used after it.  The one
 * exception is intern(): the parser caches interned pointers (keywords)
 * in statics and compares names by pointer, so interned strings and
 * their table come from permanent(), untracked, and live for the whole
 * run, as in stp.
 */
#include "fuzz_alloc.h"
#include "../../lib/base.h"

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

static void *permanent(size_t n);

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
	util_set_permanent_alloc(permanent);
	if (!__sanitizer_install_malloc_and_free_hooks(on_malloc, on_free)) {
		fprintf(stderr, "fuzz_alloc: cannot install malloc hooks\n");
		abort();
	}
}

/* ---- allocation ---- */

/* Interned names outlive the input: allocated untracked, never freed. */
static void *permanent(size_t n)
{
	int was = tracking;
	void *p;

	tracking = 0;
	p = xcalloc(n ? n : 1, 1);
	tracking = was;
	return p;
}

/* Overrides lib/mem.c's (weak) arena: one heap block per object. */
void *ar_alloc(size_t n)
{
	return xcalloc(n ? n : 1, 1);
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
