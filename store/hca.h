/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An HCA as the store keeps it (hca.c): which of its counters were not
 * zero at the epoch's end, one bit per counter (bit i in byte i / 8, low
 * bit first), after a first byte that says how: 0 the bits as they are,
 * 1 deflated by zlib (when that is shorter: an idle vital's few bits).
 *
 * The counters' values are not kept: the one thing read from a saved HCA
 * is how many of its counters stayed empty, over an epoch or a union of
 * epochs (the OR of their bitmaps), from which linear counting rebuilds
 * the number of unique events, as Chopstix's aggregator did.  A busy
 * vital's 256 counters take 33 bytes this way, against about 400 as
 * deflated varints.
 */
#ifndef STP_VITALS_HCA_H
#define STP_VITALS_HCA_H

#include <stddef.h>
#include <stdint.h>

/* The blob for n counters: malloc'd, its size in *len; NULL if n is 0. */
unsigned char *vhca_encode(const uint32_t *c, uint32_t n, size_t *len);
/*
 * Decode a blob of n counters into occ (n / 64 rounded up words; bit i of
 * occ[i / 64] set when counter i was not zero); 0, or -1 when it is not
 * n counters.
 */
int vhca_decode(const void *blob, size_t len, uint64_t *occ, uint32_t n);

#endif
