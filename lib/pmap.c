/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Maps keyed by pointer, open addressing (base.h). */
#include "base.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static size_t ptr_hash(const void *p, size_t cap)
{
	uintptr_t x = (uintptr_t)p;

	x ^= x >> 17;
	x *= 0x9e3779b97f4a7c15ull;
	return (size_t)(x >> 20) & (cap - 1);
}

void *pmap_get(const struct pmap *m, const void *key)
{
	size_t j;

	if (!m->cap)
		return NULL;
	for (j = ptr_hash(key, m->cap); m->keys[j]; j = (j + 1) & (m->cap - 1))
		if (m->keys[j] == key)
			return m->vals[j];
	return NULL;
}

static void pmap_resize(struct pmap *m, size_t ncap)
{
	struct pmap old = *m;

	m->cap = ncap;
	m->keys = xcalloc(m->cap, sizeof(*m->keys));
	m->vals = xcalloc(m->cap, sizeof(*m->vals));
	m->len = 0;
	for (size_t i = 0; i < old.cap; i++)
		if (old.keys[i])
			pmap_put(m, old.keys[i], old.vals[i]);
	free(old.keys);
	free(old.vals);
}

void pmap_reserve(struct pmap *m, size_t n)
{
	size_t cap = 64;

	while (cap < 2 * n + 2)
		cap *= 2;
	if (cap > m->cap)
		pmap_resize(m, cap);
}

void pmap_put(struct pmap *m, const void *key, void *val)
{
	size_t j;

	if (2 * (m->len + 1) > m->cap)
		pmap_resize(m, m->cap ? m->cap * 2 : 64);
	for (j = ptr_hash(key, m->cap); m->keys[j]; j = (j + 1) & (m->cap - 1))
		if (m->keys[j] == key) {
			m->vals[j] = val;
			return;
		}
	m->keys[j] = key;
	m->vals[j] = val;
	m->len++;
}
