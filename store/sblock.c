// SPDX-License-Identifier: GPL-2.0-or-later
/* The sample block's encoding: see sblock.h. */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "sblock.h"
#include "varint.h"

#define NUM_COLS 9

struct out {
	unsigned char *p;
	size_t len, cap;
};

static void reserve(struct out *o, size_t more)
{
	if (o->len + more <= o->cap)
		return;
	o->cap = (o->len + more) * 2;
	o->p = realloc(o->p, o->cap);
	if (!o->p)
		abort();
}

static void put_u(struct out *o, uint64_t v)
{
	reserve(o, VARINT_MAX);
	o->len += varint_put(o->p + o->len, v);
}

static uint64_t zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static int64_t unzigzag(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

/* Column c of row r, as the varint it is kept as. */
static uint64_t column(const struct sb_row *r, const struct sb_row *prev,
		       int c)
{
	switch (c) {
	case 0: return r->vital_id;
	case 1: return zigzag(r->at_us - (prev ? prev->at_us : 0));
	case 2: return r->label;
	case 3: return zigzag(r->weight);
	case 4: return r->exec_id;
	case 5: return r->site_id;
	case 6: return r->stack_id;
	case 7: return r->uid;
	default: return r->pid;
	}
}

static void put_data(struct out *o, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	put_u(o, s ? n + 1 : 0);
	reserve(o, n);
	memcpy(o->p + o->len, s ? s : "", n);
	o->len += n;
}

unsigned char *sblock_encode(const struct sb_row *rows, uint32_t n,
			     size_t *len)
{
	struct out raw = { 0 };
	unsigned char *z;
	uLongf zlen;

	for (int c = 0; c < NUM_COLS; c++)
		for (uint32_t i = 0; i < n; i++)
			put_u(&raw, column(&rows[i], i ? &rows[i - 1] : NULL, c));
	for (uint32_t i = 0; i < n; i++)
		put_data(&raw, rows[i].data);
	for (uint32_t i = 0; i < n; i++)
		put_u(&raw, rows[i].count);
	zlen = compressBound(raw.len);
	z = malloc(zlen + 1);
	if (!z)
		abort();
	if (compress2(z, &zlen, raw.p ? raw.p : (unsigned char *)"", raw.len,
		      Z_BEST_COMPRESSION) != Z_OK)
		abort();	/* only for lack of memory or room, both ruled out */
	free(raw.p);
	*len = zlen;
	return z;
}

struct in {
	const unsigned char *p, *end;
	int bad;
};

static uint64_t get_u(struct in *in)
{
	return varint_get(&in->p, in->end, &in->bad);
}

/* Column c of every row, as kept (sblock_encode's column()). */
static void get_column(struct in *in, struct sb_row *rows, uint32_t n, int c)
{
	int64_t at = 0;

	for (uint32_t i = 0; i < n; i++) {
		uint64_t v = get_u(in);

		switch (c) {
		case 0: rows[i].vital_id = v; break;
		case 1: rows[i].at_us = at += unzigzag(v); break;
		case 2: rows[i].label = v; break;
		case 3: rows[i].weight = unzigzag(v); break;
		case 4: rows[i].exec_id = v; break;
		case 5: rows[i].site_id = v; break;
		case 6: rows[i].stack_id = v; break;
		case 7: rows[i].uid = (uint32_t)v; break;
		default: rows[i].pid = (uint32_t)v; break;
		}
	}
}

/* The data column: texts copied into the arena, each NUL-terminated. */
static void get_data(struct in *in, struct sb_row *rows, uint32_t n,
		     char *arena)
{
	uint64_t k;

	for (uint32_t i = 0; i < n && !in->bad; i++) {
		k = get_u(in);
		if (k > (uint64_t)(in->end - in->p) + 1) {
			in->bad = 1;
			break;
		}
		rows[i].data = k ? arena : NULL;
		if (!k)
			continue;
		memcpy(arena, in->p, k - 1);
		arena[k - 1] = 0;
		arena += k;
		in->p += k - 1;
	}
}

static void *room(void *p, size_t *cap, size_t need)
{
	if (need <= *cap)
		return p;
	*cap = need * 2;
	p = realloc(p, *cap);
	if (!p)
		abort();
	return p;
}

/* Inflate a block into buf->raw; its size, or -1 if not a block. */
static long inflate_block(const void *blob, size_t len, struct sb_buf *buf)
{
	z_stream z = { .next_in = (Bytef *)blob, .avail_in = (uInt)len };
	int rc = Z_OK;

	if (inflateInit(&z) != Z_OK)
		abort();
	buf->raw = room(buf->raw, &buf->raw_cap, len * 8 + 64);
	while (rc == Z_OK) {
		z.next_out = buf->raw + z.total_out;
		z.avail_out = (uInt)(buf->raw_cap - z.total_out);
		rc = inflate(&z, Z_FINISH);
		if (rc == Z_BUF_ERROR && z.avail_out == 0) {
			buf->raw = room(buf->raw, &buf->raw_cap,
					buf->raw_cap + 1);
			rc = Z_OK;
		}
	}
	inflateEnd(&z);
	if (rc != Z_STREAM_END || z.avail_in)
		return -1;
	return (long)z.total_out;
}

int sblock_decode(const void *blob, size_t len, struct sb_row *rows,
		  uint32_t n, struct sb_buf *buf)
{
	long rawlen = inflate_block(blob, len, buf);
	struct in in;

	if (rawlen < 0)
		return -1;
	in = (struct in){ buf->raw, buf->raw + rawlen, 0 };
	memset(rows, 0, sizeof(*rows) * n);
	for (int c = 0; c < NUM_COLS && !in.bad; c++)
		get_column(&in, rows, n, c);
	/* every text fits in the raw bytes left, with its NUL */
	buf->arena = room(buf->arena, &buf->arena_cap, (size_t)rawlen + n + 1);
	if (!in.bad)
		get_data(&in, rows, n, buf->arena);
	/* the counts: a block written before them ends here */
	for (uint32_t i = 0; i < n && !in.bad && in.p < in.end; i++)
		rows[i].count = (uint32_t)get_u(&in);
	return in.bad || in.p != in.end ? -1 : 0;
}

void sblock_buf_free(struct sb_buf *buf)
{
	free(buf->raw);
	free(buf->arena);
	*buf = (struct sb_buf){ 0 };
}
