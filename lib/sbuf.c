/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Growable string buffers (base.h). */
#include "base.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void sb_grow(struct sbuf *sb, size_t extra)
{
	if (sb->len + extra + 1 <= sb->cap)
		return;
	while (sb->len + extra + 1 > sb->cap)
		sb->cap = sb->cap ? sb->cap * 2 : 64;
	sb->s = xrealloc(sb->s, sb->cap);
}

void sb_putn(struct sbuf *sb, const char *s, size_t n)
{
	sb_grow(sb, n);
	memcpy(sb->s + sb->len, s, n);
	sb->len += n;
	sb->s[sb->len] = '\0';
}

void sb_putc(struct sbuf *sb, char c)
{
	sb_putn(sb, &c, 1);
}

void sb_puts(struct sbuf *sb, const char *s)
{
	sb_putn(sb, s, strlen(s));
}

void sb_vprintf(struct sbuf *sb, const char *fmt, va_list ap)
{
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		return;
	sb_grow(sb, n);
	vsnprintf(sb->s + sb->len, n + 1, fmt, ap);
	sb->len += n;
}

void sb_printf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sb_vprintf(sb, fmt, ap);
	va_end(ap);
}
