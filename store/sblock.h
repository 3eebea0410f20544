/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An epoch's samples as the store keeps them (sblock.c): one block per
 * epoch, column by column (all vital ids, then all times, ...), each
 * number an LEB128 varint (signed ones zigzagged, times as differences;
 * the counts last, so a block of schema 2 without them still reads),
 * texts as ids into the exec, site and stack tables or, for data, inline,
 * the whole deflated with zlib.  Columns put like values side by side,
 * which is what lets deflate take a busy epoch's samples to about a
 * fifth of what a row per sample took.
 */
#ifndef STP_VITALS_SBLOCK_H
#define STP_VITALS_SBLOCK_H

#include <stddef.h>
#include <stdint.h>

/* One sample with its texts as ids (0: none) and its time from the epoch's
 * start. */
struct sb_row {
	uint64_t vital_id;
	int64_t at_us;
	uint64_t label;
	int64_t weight;
	uint64_t exec_id, site_id, stack_id;
	uint32_t uid, pid;
	uint32_t count;
	const char *data;	/* NULL: none */
};

/* The block of n rows: malloc'd, its size in *len. */
unsigned char *sblock_encode(const struct sb_row *rows, uint32_t n,
			     size_t *len);
/* Room a reader keeps from one block to the next: no malloc per block. */
struct sb_buf {
	unsigned char *raw;	/* the inflated bytes */
	size_t raw_cap;
	char *arena;		/* the data texts */
	size_t arena_cap;
};

/*
 * Decode a block of n rows into rows[] (n of them); data points into
 * buf->arena, good until the next decode with buf.  0, or -1 when the
 * block is not n rows.
 */
int sblock_decode(const void *blob, size_t len, struct sb_row *rows,
		  uint32_t n, struct sb_buf *buf);
void sblock_buf_free(struct sb_buf *buf);

#endif
