// SPDX-License-Identifier: GPL-2.0-or-later
/* JSON strings: see json.h. */
#include <string.h>

#include "json.h"

/*
 * The length of the well-formed UTF-8 sequence at p (RFC 3629: no
 * overlong forms, no surrogates, nothing past U+10FFFF), or 0.
 */
static int utf8_len(const unsigned char *p)
{
	unsigned char c = p[0], lo = 0x80, hi = 0xbf;
	int n;

	if (c < 0x80)
		return 1;
	if (c < 0xc2 || c > 0xf4)
		return 0;
	n = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (int i = 2; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

static void put_ascii(FILE *f, unsigned char c)
{
	switch (c) {
	case '"':  fputs("\\\"", f); return;
	case '\\': fputs("\\\\", f); return;
	case '\b': fputs("\\b", f); return;
	case '\f': fputs("\\f", f); return;
	case '\n': fputs("\\n", f); return;
	case '\r': fputs("\\r", f); return;
	case '\t': fputs("\\t", f); return;
	}
	if (c < 0x20 || c == 0x7f)
		fprintf(f, "\\u%04x", c);
	else
		fputc(c, f);
}

/* Write n bytes of s up to its NUL as a JSON string's body. */
static void put_body(FILE *f, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	const unsigned char *end = p + n;
	int len;

	while (p < end) {
		len = utf8_len(p);
		if (len == 0 || p + len > end) {
			fputs("\xef\xbf\xbd", f);	/* U+FFFD */
			p++;
		} else if (len == 3 && !memcmp(p, "\xe2\x80", 2) &&
			   (p[2] == 0xa8 || p[2] == 0xa9)) {
			fprintf(f, "\\u%04x", 0x2000 + p[2] - 0x80);
			p += 3;
		} else if (len == 1) {
			put_ascii(f, *p++);
		} else {
			fwrite(p, 1, (size_t)len, f);
			p += len;
		}
	}
}

void json_str(FILE *f, const char *s)
{
	if (!s) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	put_body(f, s, strlen(s));
	fputc('"', f);
}

void json_lines(FILE *f, const char *s)
{
	const char *nl;

	fputc('[', f);
	while (s && *s) {
		nl = strchrnul(s, '\n');
		fputc('"', f);
		put_body(f, s, (size_t)(nl - s));
		fputc('"', f);
		s = *nl ? nl + 1 : nl;
		if (*s)
			fputc(',', f);
	}
	fputc(']', f);
}
