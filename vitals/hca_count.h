/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unique events over any union of epochs (hca_count.c), as the paper's
 * aggregator rebuilt them: OR the epochs' HCA occupancy bitmaps (read.h's
 * struct vr_vital.occ) and count the empty counters left, by linear
 * counting: n = m ln(m / z) for m counters of which z are empty.
 */
#ifndef STP_VITALS_HCA_COUNT_H
#define STP_VITALS_HCA_COUNT_H

#include <stdint.h>

/* 64-bit words of a bitmap of nbits bits. */
static inline uint32_t vhca_words(uint32_t nbits)
{
	return (nbits + 63) / 64;
}

/* acc |= occ, both of nbits bits. */
void vhca_or(uint64_t *acc, const uint64_t *occ, uint32_t nbits);
/*
 * Linear counting's estimate from nbits bits.  A full bitmap (no empty
 * counter) is counted as if one were empty: m ln m, the most it can say.
 */
uint64_t vhca_unique(const uint64_t *occ, uint32_t nbits);

#endif
