// SPDX-License-Identifier: GPL-2.0-or-later
/* The HCA blob's encoding: see hca.h. */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "hca.h"

#define HOW_RAW 0
#define HOW_DEFLATED 1

unsigned char *vhca_encode(const uint32_t *c, uint32_t n, size_t *len)
{
	size_t nbytes = (n + 7) / 8;
	unsigned char *bits, *out;
	uLongf zlen;

	*len = 0;
	if (!n)
		return NULL;
	bits = calloc(1, nbytes);
	zlen = compressBound(nbytes);
	out = malloc(zlen + 1 > nbytes + 1 ? zlen + 1 : nbytes + 1);
	if (!bits || !out)
		abort();
	for (uint32_t i = 0; i < n; i++)
		if (c[i])
			bits[i / 8] |= (unsigned char)(1u << (i % 8));
	if (compress2(out + 1, &zlen, bits, nbytes, Z_BEST_COMPRESSION) != Z_OK)
		abort();	/* only for lack of memory or room, both ruled out */
	if (zlen < nbytes) {
		out[0] = HOW_DEFLATED;
		*len = zlen + 1;
	} else {
		out[0] = HOW_RAW;
		memcpy(out + 1, bits, nbytes);
		*len = nbytes + 1;
	}
	free(bits);
	return out;
}

int vhca_decode(const void *blob, size_t len, uint64_t *occ, uint32_t n)
{
	const unsigned char *b = blob;
	size_t nbytes = (n + 7) / 8;
	uLongf rawlen = nbytes;
	unsigned char *bits;
	int rc = 0;

	if (!n)
		return len ? -1 : 0;
	if (!len)
		return -1;
	bits = malloc(nbytes);
	if (!bits)
		abort();
	if (b[0] == HOW_RAW && len == nbytes + 1)
		memcpy(bits, b + 1, nbytes);
	else if (b[0] != HOW_DEFLATED ||
		 uncompress(bits, &rawlen, b + 1, len - 1) != Z_OK ||
		 rawlen != nbytes)
		rc = -1;
	memset(occ, 0, (n + 63) / 64 * sizeof(*occ));
	for (uint32_t i = 0; i < n && !rc; i++)
		if (bits[i / 8] >> (i % 8) & 1)
			occ[i / 64] |= 1ULL << (i % 64);
	/* bits past n in the last byte must be clear */
	if (!rc && n % 8 && bits[nbytes - 1] >> (n % 8))
		rc = -1;
	free(bits);
	return rc;
}
