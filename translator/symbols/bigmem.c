// SPDX-License-Identifier: GPL-2.0-or-later
#include "bigmem.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define HUGE_PAGE ((size_t)2 << 20)

int bigmem_init(struct bigmem *m, size_t cap)
{
	char *p;
	size_t extra;

	memset(m, 0, sizeof(*m));
	cap = (cap + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	/* reserved, not committed: the kernel backs what is touched (where
	 * overcommit is off, a smaller reservation may still be had) */
	for (;;) {
		p = mmap(NULL, cap + HUGE_PAGE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (p != MAP_FAILED)
			break;
		if (cap <= 8 * HUGE_PAGE)
			return 0;
		cap = (cap / 2 + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	}
	/* huge pages start on a 2 MB boundary */
	extra = (HUGE_PAGE - (uintptr_t)p % HUGE_PAGE) % HUGE_PAGE;
	if (extra)
		munmap(p, extra);
	munmap(p + extra + cap, HUGE_PAGE - extra);
	m->base = p + extra;
	m->cap = cap;
	madvise(m->base, m->cap, MADV_HUGEPAGE);	/* a hint: 4 KB pages work too */
	return 1;
}

void *bigmem_alloc(struct bigmem *m, size_t n)
{
	size_t size = (n + 15) & ~(size_t)15;
	/* threads may share a region: each takes its bytes at once */
	size_t at = atomic_fetch_add(&m->used, size);

	if (!m->base || size < n || at > m->cap || size > m->cap - at) {
		fprintf(stderr, "stp: out of memory (%zu bytes)\n", n);
		exit(1);
	}
	return m->base + at;
}

void *bigmem_zalloc(struct bigmem *m, size_t n)
{
	char *p = bigmem_alloc(m, n);
	size_t at = (size_t)(p - m->base);

	/* memory never handed out is the kernel's zero pages */
	if (at < m->dirty)
		memset(p, 0, (m->dirty < at + n ? m->dirty : at + n) - at);
	return p;
}

void *bigmem_grow(struct bigmem *m, void *p, size_t old, size_t n)
{
	size_t used = atomic_load(&m->used), want = (n + 15) & ~(size_t)15;
	void *q;

	old = (old + 15) & ~(size_t)15;
	if (p && (char *)p + old == m->base + used && want - old <= m->cap - used) {
		atomic_store(&m->used, used + want - old);
		return p;
	}
	q = bigmem_alloc(m, n);
	if (old)
		memcpy(q, p, old);
	return q;
}

void bigmem_reset(struct bigmem *m)
{
	size_t used = atomic_load(&m->used);

	if (used > m->dirty)
		m->dirty = used;
	atomic_store(&m->used, 0);
}

void bigmem_free(struct bigmem *m)
{
	if (m->base)
		munmap(m->base, m->cap);
	m->base = NULL;
	m->cap = m->dirty = 0;
	atomic_store(&m->used, 0);
}
