/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Memory for the big, short-lived arrays of indexing (a kernel's
 * DWARF gives ~200,000 entries, its System.map 5 MB of text).
 *
 * Each first touch of a 4 KB page costs a page fault, and on a
 * virtual machine a fault costs ~10 us: the index's 40 MB would take
 * 10,000 of them.  A region here is reserved once, asks for huge pages
 * (one fault per 2 MB) and is handed out by bumping a pointer; it is
 * given back whole.
 */
#ifndef STP_BIGMEM_H
#define STP_BIGMEM_H

#include <stdatomic.h>
#include <stddef.h>

struct bigmem {
	char *base;
	_Atomic size_t used;	/* bytes handed out */
	size_t cap;		/* reserved: only touched pages count */
	size_t dirty;		/* handed out before a reset: not zero */
};

/* Reserve up to cap bytes; 0 when the address space is not there. */
int bigmem_init(struct bigmem *m, size_t cap);
/* n bytes, 16-byte aligned (not zeroed once the region was reset);
 * exits like xmalloc when it is full.  Threads may allocate at once. */
void *bigmem_alloc(struct bigmem *m, size_t n);
/* n bytes, zeroed. */
void *bigmem_zalloc(struct bigmem *m, size_t n);
/* Grow allocation p (of old bytes) to n bytes, in place when it is the
 * last one, else by a copy: for arrays built by appending.  One thread. */
void *bigmem_grow(struct bigmem *m, void *p, size_t old, size_t n);
/* Everything handed out is free again; the pages stay. */
void bigmem_reset(struct bigmem *m);
void bigmem_free(struct bigmem *m);

#endif
