// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The lexer.  It works on a whole file at once and never stops at the
 * first error: a bad character or literal is reported and skipped so
 * that the rest of the file still gets checked.
 *
 * Identifiers follow SystemTap: they may start with a letter, '_', '$'
 * or '@' and continue with letters, digits, '_' and '$', so "$var$$",
 * "$$parms" and "@cast" are single tokens.  "$1", "@2", "$#" and "@#"
 * are identifiers too; the preprocessor substitutes script arguments.
 */
#include "lex.h"
#include "../lib/base.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const op_spelling[OP__COUNT] = {
	[OP_NONE] = "",
#define X(id, s) [id] = s,
	OP_LIST(X)
#undef X
};

struct lexer {
	const struct source *src;
	const char *p, *end;
	int line;
	const char *line_start;
	const struct origin *from;
	struct loc fixed;	/* lex_text_at: every token sits here */
	int use_fixed;
	struct tokens *out;
};

void toks_grow(struct tokens *ts)
{
	ts->cap = ts->cap ? ts->cap * 2 : 16;
	ts->t = xrealloc(ts->t, ts->cap * sizeof(*ts->t));
}

static struct loc here(struct lexer *lx, const char *start)
{
	struct loc l;

	if (lx->use_fixed)
		return lx->fixed;
	l.src = lx->src;
	l.line = lx->line;
	l.col = (int)(start - lx->line_start) + 1;
	l.len = (int)(lx->p - start);
	l.from = lx->from;
	return l;
}

static void __attribute__((format(printf, 4, 5)))
lex_error(struct lexer *lx, const char *start, int len, const char *fmt, ...)
{
	struct loc l = here(lx, start);
	va_list ap;

	if (!lx->use_fixed) {
		l.len = len;
		l.col = (int)(start - lx->line_start) + 1;
	}
	va_start(ap, fmt);
	diag_vat(&l, "parse error", fmt, ap);
	va_end(ap);
}

static void newline(struct lexer *lx, const char *nl)
{
	lx->line++;
	lx->line_start = nl + 1;
}

/* Skip blanks and comments; report whether anything was skipped. */
/* 0: nothing skipped; else 1, and 2 more when a comment was among it. */
static int skip_space(struct lexer *lx)
{
	const char *start = lx->p;
	int comment = 0;

	while (lx->p < lx->end) {
		char c = *lx->p;

		if (c == '\n') {
			newline(lx, lx->p++);
		} else if (isspace((unsigned char)c)) {
			lx->p++;
		} else if (c == '#' || (c == '/' && lx->p[1] == '/')) {
			comment = 2;
			while (lx->p < lx->end && *lx->p != '\n')
				lx->p++;
		} else if (c == '/' && lx->p[1] == '*') {
			struct loc open = here(lx, lx->p);

			open.len = 2;
			comment = 2;
			lx->p += 2;
			while (lx->p < lx->end &&
			       !(lx->p[0] == '*' && lx->p[1] == '/')) {
				if (*lx->p == '\n')
					newline(lx, lx->p);
				lx->p++;
			}
			if (lx->p >= lx->end) {
				diag_at(&open, "parse error", "unterminated comment");
				return 1;
			}
			lx->p += 2;
		} else {
			break;
		}
	}
	return lx->p != start ? 1 | comment : 0;
}

static void emit(struct lexer *lx, enum tok_kind kind, const char *start,
		 const char *str, int len, int space)
{
	struct token t = { 0 };

	t.kind = kind;
	t.str = str;
	t.len = len;
	t.space_before = space;
	t.loc = here(lx, start);
	if (kind == TK_EMBEDDED && !lx->use_fixed)
		t.loc.len = 2;
	toks_push(lx->out, &t);
}

static int is_ident_start(int c)
{
	return isalpha(c) || c == '_' || c == '$' || c == '@';
}

static int is_ident_char(int c)
{
	return isalnum(c) || c == '_' || c == '$';
}

static void lex_ident(struct lexer *lx, int space)
{
	const char *s = lx->p++;

	if ((*s == '$' || *s == '@') && *lx->p == '#')
		lx->p++;
	else
		while (lx->p < lx->end && is_ident_char((unsigned char)*lx->p))
			lx->p++;
	emit(lx, TK_IDENT, s, intern(s, lx->p - s), (int)(lx->p - s), space);
}

static void lex_number(struct lexer *lx, int space)
{
	const char *s = lx->p;
	unsigned long long v;
	char *end;
	char *text;

	while (lx->p < lx->end && isalnum((unsigned char)*lx->p))
		lx->p++;
	text = (char *)intern(s, lx->p - s);
	errno = 0;
	v = strtoull(text, &end, 0);
	if (*end || (text[0] == '0' && (text[1] == 'x' || text[1] == 'X') &&
		     !text[2])) {
		lex_error(lx, s, (int)(lx->p - s), "invalid number '%s'",
			  text);
		v = 0;
	} else if (errno == ERANGE) {
		lex_error(lx, s, (int)(lx->p - s),
			  "number '%s' out of range", text);
		v = 0;
	}
	emit(lx, TK_NUMBER, s, text, (int)(lx->p - s), space);
	lx->out->t[lx->out->len - 1].num = (int64_t)v;
}

/* A backslash before a newline continues the string on the next line,
 * as in SystemTap; the escape stays in the raw contents. */
static void lex_string(struct lexer *lx, int space)
{
	const char *s = lx->p++;
	const char *body = lx->p;
	struct loc l = here(lx, s);
	struct token t = { 0 };

	while (lx->p < lx->end && *lx->p != '"') {
		if (*lx->p == '\\' && lx->p + 1 < lx->end) {
			lx->p++;
			if (*lx->p == '\n')
				newline(lx, lx->p);
		} else if (*lx->p == '\n') {
			break;
		}
		lx->p++;
	}
	if (lx->p >= lx->end || *lx->p != '"') {
		l.len = 1;
		diag_at(&l, "parse error", "unterminated string literal");
		return;
	}
	if (memchr(body, '\0', lx->p - body)) {
		l.len = 1;
		diag_at(&l, "parse error",
			"invalid character '\\x00' in string literal");
		lx->p++;
		return;
	}
	lx->p++;
	t.kind = TK_STRING;
	t.str = intern(body, lx->p - 1 - body);
	t.len = (int)(lx->p - 1 - body);
	t.space_before = space;
	t.loc = l;
	if (!lx->use_fixed)
		t.loc.len = (int)(lx->p - s);
	toks_push(lx->out, &t);
}

static void lex_embedded(struct lexer *lx, int space)
{
	const char *s = lx->p;
	int line = lx->line;
	const char *ls = lx->line_start;
	struct token t = { 0 };
	struct loc open = here(lx, s);

	open.len = 2;
	lx->p += 2;
	while (lx->p < lx->end && !(lx->p[0] == '%' && lx->p[1] == '}')) {
		if (*lx->p == '\n')
			newline(lx, lx->p);
		lx->p++;
	}
	if (lx->p >= lx->end) {
		diag_at(&open, "parse error", "unterminated embedded C block");
		return;
	}
	if (memchr(s, '\0', lx->p - s)) {
		diag_at(&open, "parse error",
			"invalid character '\\x00' in embedded C block");
		lx->p += 2;
		return;
	}
	t.kind = TK_EMBEDDED;
	t.str = ar_strndup(s + 2, lx->p - s - 2);
	t.len = (int)(lx->p - s - 2);
	t.space_before = space;
	if (lx->use_fixed) {
		t.loc = lx->fixed;
	} else {
		t.loc.src = lx->src;
		t.loc.line = line;
		t.loc.col = (int)(s - ls) + 1;
		t.loc.len = 2;
		t.loc.from = lx->from;
	}
	lx->p += 2;
	toks_push(lx->out, &t);
}

static int lex_pp(struct lexer *lx, int space)
{
	static const struct {
		char c;
		enum tok_kind kind;
	} pp[] = {
		{ '(', TK_PP_OPEN }, { '?', TK_PP_THEN },
		{ ':', TK_PP_ELSE }, { ')', TK_PP_CLOSE },
	};
	const char *s = lx->p;

	for (size_t i = 0; i < sizeof(pp) / sizeof(pp[0]); i++) {
		if (s[1] != pp[i].c)
			continue;
		lx->p += 2;
		emit(lx, pp[i].kind, s, ar_strndup(s, 2), 2, space);
		return 1;
	}
	return 0;
}

/* Operators by first character, longest first: a byte's list is
 * short, so matching is a few comparisons, not a scan of every op. */
static signed char op_first[256][8];

static void index_ops(void)
{
	static int done;

	if (done)
		return;
	done = 1;
	for (int op = 1; op < OP__COUNT; op++) {
		unsigned char c = (unsigned char)op_spelling[op][0];
		int k = 0;

		while (op_first[c][k])
			k++;
		op_first[c][k] = (signed char)op;
	}
}

static void lex_op(struct lexer *lx, int space)
{
	const char *s = lx->p;
	const signed char *ops = op_first[(unsigned char)*s];

	for (int k = 0; ops[k]; k++) {
		int op = ops[k];
		const char *sp = op_spelling[op];
		size_t n = sp[1] ? (sp[2] ? 3 : 2) : 1;

		if ((size_t)(lx->end - s) < n || memcmp(s, sp, n))
			continue;
		lx->p += n;
		emit(lx, TK_OP, s, sp, (int)n, space);
		lx->out->t[lx->out->len - 1].op = op;
		return;
	}
	lx->p++;
	if (isprint((unsigned char)*s)) {
		char buf[2] = { *s, 0 };

		lex_error(lx, s, 1, "invalid character '%s'", buf);
	} else {
		char buf[8];

		snprintf(buf, sizeof(buf), "\\x%02x", (unsigned char)*s);
		lex_error(lx, s, 1, "invalid character '%s'", buf);
	}
}

static void lex_run(struct lexer *lx)
{
	for (;;) {
		int space = skip_space(lx);
		unsigned char c;

		if (lx->p >= lx->end)
			break;
		c = (unsigned char)*lx->p;
		if (is_ident_start(c))
			lex_ident(lx, space);
		else if (isdigit(c))
			lex_number(lx, space);
		else if (c == '"')
			lex_string(lx, space);
		else if (c == '%' && lx->p[1] == '{')
			lex_embedded(lx, space);
		else if (c == '%' && lx->p[1] == '}') {
			/* a stray "%}": one token, so errors name it whole */
			lx->p += 2;
			emit(lx, TK_OP, lx->p - 2, "%}", 2, space);
		}
		else if (c == '%' && lex_pp(lx, space))
			;
		else
			lex_op(lx, space);
	}
	emit(lx, TK_EOF, lx->p, "", 0, 1);
}

void lex_source(const struct source *src, struct tokens *out)
{
	struct lexer lx = { 0 };

	index_ops();
	lx.src = src;
	lx.p = src->text;
	lx.end = src->text + src->len;
	lx.line = 1;
	lx.line_start = src->text;
	lx.out = out;
	/* A "#!" first line is a comment already; nothing special. */
	lex_run(&lx);
}

void lex_text_at(const char *text, const struct loc *loc, struct tokens *out)
{
	struct lexer lx = { 0 };

	index_ops();
	lx.src = loc->src;
	lx.p = text;
	lx.end = text + strlen(text);
	lx.line = loc->line;
	lx.line_start = text;
	lx.fixed = *loc;
	lx.use_fixed = 1;
	lx.out = out;
	lex_run(&lx);
	out->len--;		/* drop the EOF */
}

static const char *const keywords[] = {
	"probe", "global", "private", "function", "if", "else", "while",
	"for", "foreach", "in", "limit", "break", "continue", "next",
	"return", "delete", "try", "catch", "long", "string",
};

#define NKEYWORDS (sizeof(keywords) / sizeof(keywords[0]))

/* Identifiers are interned, so a keyword is one of these pointers: no
 * string compares on the parser's hottest path. */
static const char *kw_interned[NKEYWORDS];

int lex_is_keyword(const char *s)
{
	if (!kw_interned[0])
		for (size_t i = 0; i < NKEYWORDS; i++)
			kw_interned[i] = intern(keywords[i], strlen(keywords[i]));
	for (size_t i = 0; i < NKEYWORDS; i++)
		if (s == kw_interned[i])
			return 1;
	return 0;
}

int tok_is(const struct token *t, const char *ident)
{
	return t->kind == TK_IDENT && !strcmp(t->str, ident);
}

int tok_is_op(const struct token *t, int op)
{
	return t->kind == TK_OP && t->op == op;
}

const char *tok_describe(const struct token *t)
{
	static char buf[96];

	switch (t->kind) {
	case TK_EOF:
		return "end of input";
	case TK_STRING:
		snprintf(buf, sizeof(buf), "'\"%.*s%s\"'",
			 t->len > 60 ? 60 : t->len, t->str,
			 t->len > 60 ? "..." : "");
		return buf;
	case TK_EMBEDDED:
		return "'%{'";
	default:
		snprintf(buf, sizeof(buf), "'%.80s'", t->str);
		return buf;
	}
}
