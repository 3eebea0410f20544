/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An HCA's counters as the store keeps them (hca.c): each counter as an
 * unsigned LEB128 varint (a zero is one byte), the whole deflated with
 * zlib.  An idle vital's HCA is mostly zeros and shrinks to a few bytes;
 * a busy one's counters take two or three bytes each before deflate.
 * Every counter is kept, so the aggregator can add epochs' HCAs and
 * count their empty counters to rebuild unique counts over any range.
 */
#ifndef STP_VITALS_HCA_H
#define STP_VITALS_HCA_H

#include <stddef.h>
#include <stdint.h>

/* The blob for n counters: malloc'd, its size in *len; NULL if n is 0. */
unsigned char *vhca_encode(const uint32_t *c, uint32_t n, size_t *len);
/* Decode a blob into n counters; 0, or -1 when it is not n counters. */
int vhca_decode(const void *blob, size_t len, uint32_t *c, uint32_t n);

#endif
