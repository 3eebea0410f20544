/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Source files, source locations and diagnostics.
 *
 * Every token and node carries a struct loc.  Code that came out of a
 * macro expansion or a script argument also points at where it was
 * expanded (struct origin), so a diagnostic can name both places:
 *
 *   t.stp:4:9: parse error: expected ')', saw ';'
 *       x = @twice(3;
 *           ^
 *   lib.stpm:1:20: note: in expansion of macro '@twice'
 */
#ifndef STP_DIAG_H
#define STP_DIAG_H

#include <stdarg.h>
#include <stddef.h>

struct source {
	const char *name;	/* path as given, or "<input>" for -e */
	const char *text;	/* NUL-terminated contents */
	size_t len;
	int is_user;		/* user script: $1 substitution, -g for %{ %} */
	int is_macro_lib;	/* a .stpm file: only @define allowed */
	int *lines;		/* offsets of line starts, built on demand */
	int nlines;
};

struct origin;

struct loc {
	const struct source *src;
	int line, col, len;	/* 1-based line and column (bytes) */
	const struct origin *from;	/* expansion chain, or NULL */
};

struct origin {
	struct loc loc;		/* the invocation site */
	const char *what;	/* printf format with one %s: the name */
	const char *name;	/* "foo" for "in expansion of macro '@%s'" */
};

/* "in expansion of macro '@foo'"; a static buffer. */
const char *origin_text(const struct origin *o);

struct source *src_new(const char *name, const char *text, size_t len);
struct source *src_load(const char *path);	/* NULL, errno set */

/* Report at loc; label is "parse error", "error", "warning"... */
void diag_at(const struct loc *loc, const char *label, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void diag_vat(const struct loc *loc, const char *label, const char *fmt,
	      va_list ap);
/* A note continuing the previous diagnostic. */
void diag_note(const struct loc *loc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

int diag_errors(void);		/* errors reported so far */
int diag_warnings(void);
int diag_too_many(void);	/* error cap reached: stop reporting */
void diag_set_limit(int max_errors);
void diag_set_warnings(int mode);
void diag_reset(void);		/* counts to 0, nothing seen (stp -i) */	/* 0 off (-w), 1 on, 2 fatal (-W) */

#endif
