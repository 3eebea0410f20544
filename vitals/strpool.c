// SPDX-License-Identifier: GPL-2.0-or-later
/* Interned strings: an open-addressing hash set, see strpool.h. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strpool.h"

struct vpool {
	char **slot;
	size_t cap, used;	/* cap a power of 2, used under 3/4 of it */
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
	struct vpool *p = vmust(calloc(1, sizeof(*p)));

	p->cap = 1024;
	p->slot = vmust(calloc(p->cap, sizeof(*p->slot)));
	return p;
}

void vpool_free(struct vpool *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->cap; i++)
		free(p->slot[i]);
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

static char **find(char **slot, size_t cap, const char *s)
{
	size_t i = hash(s) & (cap - 1);

	while (slot[i] && strcmp(slot[i], s))
		i = (i + 1) & (cap - 1);
	return &slot[i];
}

static void grow(struct vpool *p)
{
	size_t cap = p->cap * 2;
	char **slot = vmust(calloc(cap, sizeof(*slot)));

	for (size_t i = 0; i < p->cap; i++)
		if (p->slot[i])
			*find(slot, cap, p->slot[i]) = p->slot[i];
	free(p->slot);
	p->slot = slot;
	p->cap = cap;
}

const char *vpool_get(struct vpool *p, const char *s)
{
	char **at;

	if (!s)
		return NULL;
	at = find(p->slot, p->cap, s);
	if (*at)
		return *at;
	*at = vmust(strdup(s));
	if (++p->used * 4 > p->cap * 3)
		grow(p);
	return vpool_get(p, s);
}
