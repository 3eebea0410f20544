/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The parser: preprocessed tokens of one file -> struct script.
 * Errors are reported and parsing resumes at the next top-level
 * declaration; the caller checks diag_errors().
 */
#ifndef STP_PARSE_H
#define STP_PARSE_H

#include "ast.h"
#include "preprocess.h"

struct parse_opts {
	int guru;		/* -g: embedded C allowed in the user script */
	/* --compatible below 2.0: string literals with a comment between
	 * them stay apart (SystemTap glues them across one since 2.0) */
	int comment_parts_strings;
};

struct script *parse_tokens(const struct source *src, const struct tokens *ts,
			    const struct parse_opts *opts);
/* Lex, preprocess and parse a file. */
struct script *parse_source(struct pp *pp, const struct source *src,
			    const struct parse_opts *opts);

/* Canonical source for a parsed script (the printer). */
void print_script(struct sbuf *out, const struct script *s);
void print_expr(struct sbuf *out, const struct node *n);
void print_stmt(struct sbuf *out, const struct node *n, int indent);
void print_probe_point(struct sbuf *out, const struct probe_point *pp);

#endif
