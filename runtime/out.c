/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Output buffers (out.h).  A write that does not fit first empties the
 * buffer through its flush function, so output stays in order; what
 * still does not fit (a write larger than the whole buffer, or a buffer
 * without a flush function) is cut, and the cut bytes are counted:
 * output is never lost without a trace.
 */
#include "out.h"

void stp_out_flush(struct stp_out *o)
{
	if (o->flush)
		o->flush(o);
}

/*
 * Make room for n bytes if flushing can; true when the buffer was
 * flushed.  A flush function that leaves len alone counts as none.
 */
static int out_make_room(struct stp_out *o, size_t n)
{
	size_t before = o->len;

	if (o->cap - o->len >= n || !o->flush || !o->len)
		return 0;
	o->flush(o);
	return o->len < before;
}

void stp_out_write(struct stp_out *o, const char *p, size_t n)
{
	size_t room;

	out_make_room(o, n);
	room = o->cap - o->len;
	if (n > room) {
		stp_count_n(STP_EV_OUT_TRUNC, (long)(n - room));
		n = room;
	}
	memcpy(o->buf + o->len, p, n);
	o->len += n;
}

void stp_out_str(struct stp_out *o, const char *s)
{
	stp_out_write(o, s, strlen(s));
}

void stp_out_char(struct stp_out *o, char ch)
{
	stp_out_write(o, &ch, 1);
}

void stp_out_long(struct stp_out *o, int64_t v)
{
	char tmp[24];
	int i = sizeof(tmp);
	/* Unsigned, so that INT64_MIN negates without overflow. */
	u64 u = v < 0 ? 0 - (u64)v : (u64)v;

	do {
		tmp[--i] = '0' + (char)(u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		tmp[--i] = '-';
	stp_out_write(o, tmp + i, sizeof(tmp) - i);
}
