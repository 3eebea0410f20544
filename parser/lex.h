/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Tokens.  The lexer turns one source file into an array of tokens; the
 * preprocessor rewrites that array; the parser walks the result.
 */
#ifndef STP_LEX_H
#define STP_LEX_H

#include "diag.h"

#include <stdint.h>

enum tok_kind {
	TK_EOF,
	TK_IDENT,	/* name, keyword, $target, @macro, $1/@1/$#/@#; str */
	TK_NUMBER,	/* num; str = spelling */
	TK_STRING,	/* str = contents between the quotes, escapes kept */
	TK_OP,		/* op; str = spelling */
	TK_EMBEDDED,	/* %{ ... %}; str = the C text between the markers */
	TK_PP_OPEN,	/* %( */
	TK_PP_THEN,	/* %? */
	TK_PP_ELSE,	/* %: */
	TK_PP_CLOSE,	/* %) */
};

/*
 * Operators, longest spelling first within a shared prefix so that the
 * lexer's first match is the longest.  ORDER: op_spelling[] follows.
 */
#define OP_LIST(X)                                                        \
	X(OP_SHL_STAT, "<<<") X(OP_SHL_ASSIGN, "<<=") X(OP_SHR_ASSIGN, ">>=") \
	X(OP_ARROW, "->") X(OP_INC, "++") X(OP_DEC, "--")                 \
	X(OP_ADD_ASSIGN, "+=") X(OP_SUB_ASSIGN, "-=")                     \
	X(OP_MUL_ASSIGN, "*=") X(OP_DIV_ASSIGN, "/=")                     \
	X(OP_MOD_ASSIGN, "%=") X(OP_AND_ASSIGN, "&=")                     \
	X(OP_OR_ASSIGN, "|=") X(OP_XOR_ASSIGN, "^=")                      \
	X(OP_CAT_ASSIGN, ".=") X(OP_EQ, "==") X(OP_NE, "!=")              \
	X(OP_LE, "<=") X(OP_GE, ">=") X(OP_SHL, "<<") X(OP_SHR, ">>")     \
	X(OP_ANDAND, "&&") X(OP_OROR, "||") X(OP_MATCH, "=~")             \
	X(OP_NOMATCH, "!~")                                               \
	X(OP_ASSIGN, "=") X(OP_LT, "<") X(OP_GT, ">") X(OP_PLUS, "+")     \
	X(OP_MINUS, "-") X(OP_STAR, "*") X(OP_SLASH, "/")                 \
	X(OP_PERCENT, "%") X(OP_AMP, "&") X(OP_PIPE, "|")                 \
	X(OP_CARET, "^") X(OP_TILDE, "~") X(OP_NOT, "!") X(OP_DOT, ".")   \
	X(OP_COMMA, ",") X(OP_SEMI, ";") X(OP_COLON, ":")                 \
	X(OP_QUESTION, "?") X(OP_LPAREN, "(") X(OP_RPAREN, ")")           \
	X(OP_LBRACKET, "[") X(OP_RBRACKET, "]") X(OP_LBRACE, "{")         \
	X(OP_RBRACE, "}")

enum op {
	OP_NONE,
#define X(id, s) id,
	OP_LIST(X)
#undef X
	OP__COUNT
};

extern const char *const op_spelling[OP__COUNT];

struct token {
	enum tok_kind kind;
	int op;			/* TK_OP: enum op */
	int64_t num;		/* TK_NUMBER */
	const char *str;	/* see enum tok_kind */
	int len;		/* length of str */
	int space_before;	/* whitespace or comment precedes it (| 2: a comment) */
	struct loc loc;
};

struct tokens {
	struct token *t;
	int len, cap;
};

void toks_grow(struct tokens *ts);

static inline void toks_push(struct tokens *ts, const struct token *t)
{
	if (ts->len == ts->cap)
		toks_grow(ts);
	ts->t[ts->len++] = *t;
}

/* Tokenize src; errors are reported and the bad text skipped.  The
 * result always ends with a TK_EOF token. */
void lex_source(const struct source *src, struct tokens *out);

/* Tokenize text that stands at loc (script arguments), each token
 * placed at loc with the given expansion origin. */
void lex_text_at(const char *text, const struct loc *loc, struct tokens *out);

int tok_is(const struct token *t, const char *ident);	/* TK_IDENT == */
/* A reserved word of the language (interned identifiers only). */
int lex_is_keyword(const char *interned);
int tok_is_op(const struct token *t, int op);
/* Human-readable spelling for "saw X" messages; static buffer. */
const char *tok_describe(const struct token *t);

#endif
