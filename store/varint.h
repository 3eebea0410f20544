/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unsigned LEB128 varints, as the store keeps its numbers: sample blocks
 * (sblock.c) and stacks' frame ids (store.c, read.c).
 */
#ifndef STP_VITALS_VARINT_H
#define STP_VITALS_VARINT_H

#include <stddef.h>
#include <stdint.h>

#define VARINT_MAX 10	/* bytes of a 64-bit varint */

/* v at p (room for VARINT_MAX bytes); the bytes written. */
static inline size_t varint_put(unsigned char *p, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		p[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (unsigned char)v;
	return n;
}

/* The varint at *p (before end), moving *p past it; *bad set when it is
 * cut short or too long. */
static inline uint64_t varint_get(const unsigned char **p,
				  const unsigned char *end, int *bad)
{
	uint64_t x = 0;

	for (int shift = 0; shift < 64 && *p < end; shift += 7) {
		x |= (uint64_t)(**p & 0x7f) << shift;
		if (!(*(*p)++ & 0x80))
			return x;
	}
	*bad = 1;
	return 0;
}

#endif
