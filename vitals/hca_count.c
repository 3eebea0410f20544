// SPDX-License-Identifier: GPL-2.0-or-later
/* Linear counting over HCA occupancy bitmaps: see hca_count.h. */
#include <math.h>

#include "hca_count.h"

void vhca_or(uint64_t *acc, const uint64_t *occ, uint32_t nbits)
{
	for (uint32_t i = 0; i < vhca_words(nbits); i++)
		acc[i] |= occ[i];
}

/* Set bits among the first nbits (bits past nbits in the last word are
 * not counters, whatever they hold). */
static uint64_t set_bits(const uint64_t *occ, uint32_t nbits)
{
	uint64_t n = 0, w;

	for (uint32_t i = 0; i < nbits / 64; i++)
		n += (uint64_t)__builtin_popcountll(occ[i]);
	if (nbits % 64) {
		w = occ[nbits / 64] & ((1ULL << (nbits % 64)) - 1);
		n += (uint64_t)__builtin_popcountll(w);
	}
	return n;
}

uint64_t vhca_unique(const uint64_t *occ, uint32_t nbits)
{
	uint64_t used = set_bits(occ, nbits), empty = nbits - used;

	if (!nbits || !used)
		return 0;
	if (!empty)
		empty = 1;
	return (uint64_t)llround((double)nbits * log((double)nbits / (double)empty));
}
