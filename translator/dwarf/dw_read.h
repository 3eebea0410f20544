/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading DWARF's encodings from a section in memory, bounds-checked:
 * a read past the end reads nothing and marks the cursor bad.  For
 * dwarf_scan.c (.debug_info, .debug_abbrev, .debug_line) and
 * dwarf_cfa.c (.debug_frame).
 */
#ifndef STP_DW_READ_H
#define STP_DW_READ_H

#include <stdint.h>

struct cursor {
	const unsigned char *p, *end;
	int bad;
};

static inline uint64_t get_n(struct cursor *c, int n)
{
	uint64_t v = 0;

	if (c->end - c->p < n) {
		c->bad = 1;
		c->p = c->end;
		return 0;
	}
	for (int i = 0; i < n; i++)
		v |= (uint64_t)c->p[i] << (8 * i);
	c->p += n;
	return v;
}

static inline uint64_t get_uleb(struct cursor *c)
{
	uint64_t v = 0;
	int shift = 0;

	if (c->p < c->end && *c->p < 0x80)	/* most: one byte */
		return *c->p++;
	while (c->p < c->end) {
		unsigned char b = *c->p++;

		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			return v;
	}
	c->bad = 1;
	return v;
}

static inline int64_t get_sleb(struct cursor *c)
{
	int64_t v = 0;
	int shift = 0;
	unsigned char b = 0;

	while (c->p < c->end) {
		b = *c->p++;
		if (shift < 64)
			v |= (int64_t)((uint64_t)(b & 0x7f) << shift);
		shift += 7;
		if (!(b & 0x80))
			break;
	}
	if (shift < 64 && (b & 0x40))
		v |= -((int64_t)1 << shift);
	return v;
}

static inline void skip(struct cursor *c, uint64_t n)
{
	if ((uint64_t)(c->end - c->p) < n) {
		c->bad = 1;
		c->p = c->end;
	} else {
		c->p += n;
	}
}

#endif
