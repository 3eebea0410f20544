/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Interned strings: one copy of each text, compared by pointer (base.h). */
#include "base.h"

#include <stdlib.h>
#include <string.h>

static const char **itab;
static size_t icap, icount;
static void *(*permanent_alloc)(size_t n);

void util_set_permanent_alloc(void *(*alloc)(size_t n))
{
	permanent_alloc = alloc;
}

size_t util_hash(const char *s, size_t n)
{
	size_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static void intern_resize(size_t ncap)
{
	const char **nt = permanent_alloc ? permanent_alloc(ncap * sizeof(*nt)) :
					    xcalloc(ncap, sizeof(*nt));

	for (size_t i = 0; i < icap; i++) {
		size_t j;

		if (!itab[i])
			continue;
		j = util_hash(itab[i], strlen(itab[i])) & (ncap - 1);
		while (nt[j])
			j = (j + 1) & (ncap - 1);
		nt[j] = itab[i];
	}
	if (!permanent_alloc)
		free(itab);
	itab = nt;
	icap = ncap;
}

static void intern_grow(void)
{
	intern_resize(icap ? icap * 2 : 4096);
}

const char *intern(const char *s, size_t n)
{
	size_t j;

	if (2 * (icount + 1) > icap)
		intern_grow();
	j = util_hash(s, n) & (icap - 1);
	while (itab[j]) {
		if (!strncmp(itab[j], s, n) && !itab[j][n])
			return itab[j];
		j = (j + 1) & (icap - 1);
	}
	icount++;
	if (permanent_alloc) {
		char *copy = permanent_alloc(n + 1);

		memcpy(copy, s, n);
		copy[n] = '\0';
		return itab[j] = copy;
	}
	return itab[j] = ar_strndup(s, n);
}
