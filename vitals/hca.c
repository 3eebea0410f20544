// SPDX-License-Identifier: GPL-2.0-or-later
/* The HCA blob's encoding: see hca.h. */
#include <stdlib.h>
#include <zlib.h>

#include "hca.h"

#define VARINT_MAX 5	/* bytes of a 32-bit LEB128 varint */

static size_t put_varint(unsigned char *p, uint32_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		p[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (unsigned char)v;
	return n;
}

unsigned char *vhca_encode(const uint32_t *c, uint32_t n, size_t *len)
{
	unsigned char *raw, *out;
	uLongf outlen;
	size_t rawlen = 0;

	*len = 0;
	if (!n)
		return NULL;
	raw = malloc((size_t)n * VARINT_MAX);
	outlen = compressBound((uLong)n * VARINT_MAX);
	out = malloc(outlen);
	if (!raw || !out)
		abort();
	for (uint32_t i = 0; i < n; i++)
		rawlen += put_varint(raw + rawlen, c[i]);
	if (compress2(out, &outlen, raw, rawlen, Z_BEST_COMPRESSION) != Z_OK)
		abort();	/* only for lack of memory or room, both ruled out */
	free(raw);
	*len = outlen;
	return out;
}

/* The next varint at *p (before end) into *v; 0, or -1 if cut short. */
static int get_varint(const unsigned char **p, const unsigned char *end,
		      uint32_t *v)
{
	uint32_t x = 0;

	for (int shift = 0; shift < 7 * VARINT_MAX; shift += 7) {
		if (*p == end)
			return -1;
		x |= (uint32_t)(**p & 0x7f) << shift;
		if (!(*(*p)++ & 0x80)) {
			*v = x;
			return 0;
		}
	}
	return -1;
}

int vhca_decode(const void *blob, size_t len, uint32_t *c, uint32_t n)
{
	uLongf rawlen = (uLongf)n * VARINT_MAX;
	const unsigned char *p;
	unsigned char *raw;
	int rc = -1;

	if (!n)
		return len ? -1 : 0;
	raw = malloc(rawlen);
	if (!raw)
		abort();
	if (uncompress(raw, &rawlen, blob, len) == Z_OK) {
		p = raw;
		rc = 0;
		for (uint32_t i = 0; i < n && !rc; i++)
			rc = get_varint(&p, raw + rawlen, &c[i]);
		if (!rc && p != raw + rawlen)
			rc = -1;
	}
	free(raw);
	return rc;
}
