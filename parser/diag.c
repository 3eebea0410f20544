// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Diagnostics in the compiler form users know:
 *
 *   FILE:LINE:COL: LABEL: MESSAGE
 *   <the source line, tabs expanded>
 *   <spaces>^~~~
 *
 * followed by one note per expansion step.  Errors are collected, not
 * fatal: passes keep going so one run shows several, up to a cap.
 */
#include "diag.h"
#include "../lib/base.h"

#include <errno.h>
#include <stdio.h>
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#include <stdlib.h>
#include <string.h>

static int n_errors, n_warnings, max_errors = 20, warn_mode = 1;
static int capped;
/* what diag_vat() has reported, "src:line:col:label:message" */
static struct pmap seen;

struct source *src_new(const char *name, const char *text, size_t len)
{
	struct source *s = ar_alloc(sizeof(*s));

	s->name = name;
	s->text = text;
	s->len = len;
	return s;
}

struct source *src_load(const char *path)
{
	size_t len;
	char *text = util_read_file(path, &len);

	if (!text)
		return NULL;
	return src_new(ar_strdup(path), text, len);
}

static void index_lines(struct source *s)
{
	int cap = 64;

	s->lines = xmalloc(cap * sizeof(int));
	s->lines[s->nlines++] = 0;
	for (size_t i = 0; i < s->len; i++) {
		if (s->text[i] != '\n')
			continue;
		if (s->nlines == cap) {
			cap *= 2;
			s->lines = xrealloc(s->lines, cap * sizeof(int));
		}
		s->lines[s->nlines++] = (int)i + 1;
	}
}

/* Long lines are shown as a window around the column. */
#define SHOW_WIDTH 120

static void show_line(const struct loc *loc)
{
	struct source *s = (struct source *)loc->src;
	const char *p, *end, *from, *to, *at;
	int col = 0, caret = -1, width;

	if (!s || loc->line < 1)
		return;
	if (!s->lines)
		index_lines(s);
	if (loc->line > s->nlines)
		return;
	p = s->text + s->lines[loc->line - 1];
	end = p;
	while (end < s->text + s->len && *end != '\n' && *end != '\r')
		end++;
	at = p + loc->col - 1;
	if (at > end)
		at = end;
	from = p;
	to = end;
	if (to - from > SHOW_WIDTH) {
		from = at - SHOW_WIDTH / 2 > p ? at - SHOW_WIDTH / 2 : p;
		to = from + SHOW_WIDTH < end ? from + SHOW_WIDTH : end;
	}
	if (from > p) {
		fputs("...", stderr);
		col = 3;
	}
	for (const char *q = from; q < to; q++) {
		if (q == at)
			caret = col;
		if (*q == '\t') {
			do
				fputc(' ', stderr);
			while (++col % 8);
		} else {
			fputc((unsigned char)*q < ' ' ? '?' : *q, stderr);
			col++;
		}
	}
	if (to < end)
		fputs("...", stderr);
	fputc('\n', stderr);
	if (caret < 0)
		caret = col;
	width = loc->len > 1 ? loc->len : 1;
	if (at + width > to)
		width = to - at > 0 ? (int)(to - at) : 1;
	fprintf(stderr, "%*s^", caret, "");
	for (int i = 1; i < width; i++)
		fputc('~', stderr);
	fputc('\n', stderr);
}

/* The outermost steps of a deep chain say little; keep it readable. */
#define MAX_NOTES 6

static void show_chain(const struct loc *loc)
{
	int k = 0;

	for (const struct origin *o = loc->from; o; o = o->loc.from) {
		if (++k > MAX_NOTES) {
			int more = 0;

			for (; o; o = o->loc.from)
				more++;
			fprintf(stderr, "note: ... and %d more expansion step%s\n",
				more, more == 1 ? "" : "s");
			return;
		}
		fprintf(stderr, "%s:%d:%d: note: %s\n", o->loc.src->name,
			o->loc.line, o->loc.col, origin_text(o));
		show_line(&o->loc);
	}
}

const char *origin_text(const struct origin *o)
{
	static char buf[256];

	snprintf(buf, sizeof(buf), o->what, o->name);
	return buf;
}

/* The same message at the same place is reported once: an error in a
 * probe alias would otherwise repeat for every probe made from it. */
static int seen_before(const struct loc *loc, const char *label,
		       const char *fmt, va_list ap)
{
	struct sbuf sb = { 0 };
	const char *key;
	va_list aq;

	va_copy(aq, ap);
	sb_printf(&sb, "%p:%d:%d:%s:", loc ? (const void *)loc->src : NULL,
		  loc ? loc->line : 0, loc ? loc->col : 0, label);
	sb_vprintf(&sb, fmt, aq);
	va_end(aq);
	key = intern(sb.s, sb.len);
	free(sb.s);
	if (pmap_get(&seen, key))
		return 1;
	pmap_put(&seen, key, (void *)key);
	return 0;
}

void diag_vat(const struct loc *loc, const char *label, const char *fmt,
	      va_list ap)
{
	int is_warning = !strcmp(label, "warning");

	if (seen_before(loc, label, fmt, ap))
		return;

	if (is_warning) {
		if (warn_mode == 0)
			return;
		if (warn_mode == 2)
			label = "error";
	}
	if (is_warning && warn_mode != 2)
		n_warnings++;
	else if (++n_errors > max_errors) {
		if (!capped)
			fprintf(stderr, "stp: too many errors (%d), stopping\n",
				max_errors);
		capped = 1;
		return;
	}
	if (loc && loc->src)
		fprintf(stderr, "%s:%d:%d: %s: ", loc->src->name, loc->line,
			loc->col, label);
	else
		fprintf(stderr, "stp: %s: ", label);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	if (loc && loc->src) {
		show_line(loc);
		show_chain(loc);
	}
}

void diag_at(const struct loc *loc, const char *label, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vat(loc, label, fmt, ap);
	va_end(ap);
}

void diag_note(const struct loc *loc, const char *fmt, ...)
{
	va_list ap;

	if (capped)
		return;
	fprintf(stderr, "%s:%d:%d: note: ", loc->src->name, loc->line,
		loc->col);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	show_line(loc);
}

int diag_errors(void)
{
	return n_errors;
}

int diag_warnings(void)
{
	return n_warnings;
}

int diag_too_many(void)
{
	return capped;
}

void diag_set_limit(int n)
{
	max_errors = n;
}

/* stp -i: a new command starts with no errors counted or seen, so one
 * bad line does not fail the next. */
void diag_reset(void)
{
	free(seen.keys);
	free(seen.vals);
	memset(&seen, 0, sizeof(seen));
	n_errors = n_warnings = capped = 0;
}

void diag_set_warnings(int mode)
{
	warn_mode = mode;
}
