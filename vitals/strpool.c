// SPDX-License-Identifier: GPL-2.0-or-later
/* Interned strings: an open-addressing hash set, see strpool.h. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strpool.h"

struct slot {
	char *s;
	uint64_t hash;
};

#define MEMO 65536	/* a power of 2 */

/*
 * Readers hand out the same text at the same address again and again
 * (read.c caches texts by id), so the pool remembers the addresses it
 * was asked with; a hit is checked with strcmp, which is cheaper than
 * hashing, and stays right if the address is reused for another text.
 */
struct memo {
	const char *asked, *copy;
};

struct vpool {
	struct slot *slot;
	size_t cap, used;	/* cap a power of 2, used under half of it */
	struct memo memo[MEMO];
};

void *vmust(void *p)
{
	if (!p) {
		fputs("stp-vitals: out of memory\n", stderr);
		abort();
	}
	return p;
}

struct vpool *vpool_new(void)
{
	struct vpool *p = vmust(calloc(1, sizeof(*p)));	/* 1 MB of memo */

	p->cap = 1024;
	p->slot = vmust(calloc(p->cap, sizeof(*p->slot)));
	return p;
}

void vpool_free(struct vpool *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->cap; i++)
		free(p->slot[i].s);
	free(p->slot);
	free(p);
}

/* FNV-1a */
static uint64_t hash(const char *s)
{
	uint64_t h = 14695981039346656037ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static struct slot *find(struct slot *slot, size_t cap, const char *s,
			 uint64_t h)
{
	size_t i = (h ^ h >> 29) & (cap - 1);

	while (slot[i].s && (slot[i].hash != h || strcmp(slot[i].s, s)))
		i = (i + 1) & (cap - 1);
	return &slot[i];
}

static void grow(struct vpool *p)
{
	size_t cap = p->cap * 2;
	struct slot *slot = vmust(calloc(cap, sizeof(*slot)));

	for (size_t i = 0; i < p->cap; i++)
		if (p->slot[i].s)
			*find(slot, cap, p->slot[i].s, p->slot[i].hash) =
				p->slot[i];
	free(p->slot);
	p->slot = slot;
	p->cap = cap;
}

const char *vpool_get(struct vpool *p, const char *s)
{
	struct memo *m = &p->memo[((uintptr_t)s >> 4) & (MEMO - 1)];
	uint64_t h;
	struct slot *at;

	if (!s)
		return NULL;
	if (m->asked == s && !strcmp(m->copy, s))
		return m->copy;
	h = hash(s);
	at = find(p->slot, p->cap, s, h);
	if (!at->s) {
		*at = (struct slot){ vmust(strdup(s)), h };
		if (++p->used * 2 > p->cap) {
			grow(p);
			at = find(p->slot, p->cap, s, h);
		}
	}
	m->asked = s;
	m->copy = at->s;
	return at->s;
}
