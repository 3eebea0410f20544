// SPDX-License-Identifier: GPL-2.0-or-later
/* The sample block's encoding: see sblock.h. */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "sblock.h"

#define VARINT_MAX 10	/* bytes of a 64-bit LEB128 varint */
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
	while (v >= 0x80) {
		o->p[o->len++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	o->p[o->len++] = (unsigned char)v;
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
	uint64_t x = 0;

	for (int shift = 0; shift < 64 && in->p < in->end; shift += 7) {
		x |= (uint64_t)(*in->p & 0x7f) << shift;
		if (!(*in->p++ & 0x80))
			return x;
	}
	in->bad = 1;
	return 0;
}

static void set_column(struct sb_row *r, const struct sb_row *prev, int c,
		       uint64_t v)
{
	switch (c) {
	case 0: r->vital_id = v; break;
	case 1: r->at_us = unzigzag(v) + (prev ? prev->at_us : 0); break;
	case 2: r->label = v; break;
	case 3: r->weight = unzigzag(v); break;
	case 4: r->exec_id = v; break;
	case 5: r->site_id = v; break;
	case 6: r->stack_id = v; break;
	case 7: r->uid = (uint32_t)v; break;
	default: r->pid = (uint32_t)v; break;
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

/* The raw bytes of a block, inflated: malloc'd, or NULL if not a block. */
static unsigned char *inflate_block(const void *blob, size_t len,
				    size_t *rawlen)
{
	z_stream z = { .next_in = (Bytef *)blob, .avail_in = (uInt)len };
	size_t cap = len * 8 + 64;
	unsigned char *raw = NULL;
	int rc = Z_OK;

	if (inflateInit(&z) != Z_OK)
		abort();
	while (rc == Z_OK) {
		raw = realloc(raw, cap);
		if (!raw)
			abort();
		z.next_out = raw + z.total_out;
		z.avail_out = (uInt)(cap - z.total_out);
		rc = inflate(&z, Z_FINISH);
		if (rc == Z_BUF_ERROR && z.avail_out == 0)
			rc = Z_OK;
		cap *= 2;
	}
	*rawlen = z.total_out;
	inflateEnd(&z);
	if (rc != Z_STREAM_END || z.avail_in) {
		free(raw);
		return NULL;
	}
	return raw;
}

int sblock_decode(const void *blob, size_t len, struct sb_row *rows,
		  uint32_t n, char **arena)
{
	struct in in;
	unsigned char *raw;
	size_t rawlen;

	*arena = NULL;
	raw = inflate_block(blob, len, &rawlen);
	if (!raw)
		return -1;
	in = (struct in){ raw, raw + rawlen, 0 };
	memset(rows, 0, sizeof(*rows) * n);
	for (int c = 0; c < NUM_COLS && !in.bad; c++)
		for (uint32_t i = 0; i < n && !in.bad; i++)
			set_column(&rows[i], i ? &rows[i - 1] : NULL, c,
				   get_u(&in));
	/* every text fits in the raw bytes left, with its NUL */
	*arena = malloc(rawlen + n + 1);
	if (!*arena)
		abort();
	if (!in.bad)
		get_data(&in, rows, n, *arena);
	/* the counts: a block written before them ends here */
	for (uint32_t i = 0; i < n && !in.bad && in.p < in.end; i++)
		rows[i].count = (uint32_t)get_u(&in);
	free(raw);
	if (in.bad || in.p != in.end) {
		free(*arena);
		*arena = NULL;
		return -1;
	}
	return 0;
}
