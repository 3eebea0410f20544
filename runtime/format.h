/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * printf/sprintf formatting, as SystemTap defines it: conversions
 * %d %i %u %x %X %o %c %s %p %b %m %M %%, flags - + space # 0, width,
 * precision, "*" for either (taken from the arguments), and the length
 * modifiers l, ll, h, hh, L (accepted, ignored: every integer is 64-bit).
 * %b writes the value's bytes in native order (width 1, 2, 4 or 8; 8 by
 * default); %m writes precision bytes read from the address (1 if no
 * precision), %M the same as hex digits; an unreadable address is an error.
 *
 * Arguments are union stp_val: .s for %s, .l for everything else
 * (including "*" widths), in order.
 */
#ifndef STP_FORMAT_H
#define STP_FORMAT_H

#include "map.h"

/*
 * Format into dst (size bytes, always NUL-terminated when size > 0).
 * Returns the length the whole result has (which may exceed size-1, as
 * snprintf), or -1 when a %m/%M address cannot be read or the format
 * itself is bad (*err then says why; err may be NULL).
 */
int stp_format(char *dst, size_t size, const char *fmt,
	       const union stp_val *args, int nargs, const char **err);

/* The same, appended to an output buffer. */
int stp_out_format(struct stp_out *o, const char *fmt,
		   const union stp_val *args, int nargs, const char **err);

#endif
