// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Recursive-descent parser for the SystemTap language.  Each function
 * is named after the grammar rule above it.  Operator precedence, from
 * loosest to tightest, is SystemTap's:
 *
 *   assignment (= += ... .= <<<, right)  ?:  ||  &&  |  ^  &
 *   in  comparison (== != < <= > >= =~ !~)  << >>  .  + -  * / %
 *   unary (! ~ - + ++ --)  postfix (++ --)  primary
 *
 * A syntax error longjmps back to the top-level loop, which skips to
 * the next declaration keyword, so one run reports several errors.
 * Errors that leave the syntax whole (a parameter or global declared
 * twice, 'return' in a probe, printd without its delimiter) are
 * reported and parsing goes on: SystemTap rejects them in pass 1 too,
 * and checking them here covers every file, tapsets included.
 */
#include "parse.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NESTING 500

struct parser {
	const struct source *src;
	struct token *t;
	int i, n;
	int guru;
	int comment_parts_strings;
	int nesting;
	int in_function;	/* parsing a function body: 'return' allowed */
	struct pmap globals;	/* this file's globals: name -> N_GLOBAL */
	jmp_buf recover;
};


static struct node *expr(struct parser *p);
static struct node *stmt(struct parser *p);
static struct node *block(struct parser *p);
static struct node *unary(struct parser *p);

struct node *node_new(enum node_kind kind, const struct loc *loc)
{
	struct node *n = ar_alloc(sizeof(*n));

	n->kind = kind;
	n->loc = *loc;
	return n;
}

const char *type_name(enum type t)
{
	static const char *const names[] = { "unknown", "long", "string",
					     "stats", "hist" };
	return names[t];
}

/* ---- token helpers ---- */

static struct token *peek(struct parser *p)
{
	return &p->t[p->i];
}

static struct token *peek_at(struct parser *p, int k)
{
	int i = p->i + k;

	return &p->t[i < p->n ? i : p->n - 1];
}

static struct token *advance(struct parser *p)
{
	struct token *t = &p->t[p->i];

	if (t->kind != TK_EOF)
		p->i++;
	return t;
}

static void __attribute__((noreturn, format(printf, 3, 4)))
fail_at(struct parser *p, const struct token *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vat(&t->loc, "parse error", fmt, ap);
	va_end(ap);
	longjmp(p->recover, 1);
}

/* An error that leaves the syntax intact: report it, parse on. */
static void __attribute__((format(printf, 2, 3)))
error_at(const struct loc *loc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vat(loc, "parse error", fmt, ap);
	va_end(ap);
}

static void __attribute__((noreturn)) expected(struct parser *p,
					       const char *what)
{
	fail_at(p, peek(p), "expected %s, saw %s", what, tok_describe(peek(p)));
}

static int is_op(struct parser *p, int op)
{
	return tok_is_op(peek(p), op);
}

static int accept_op(struct parser *p, int op)
{
	if (!is_op(p, op))
		return 0;
	advance(p);
	return 1;
}

static struct token *expect_op(struct parser *p, int op)
{
	char what[16];

	if (!is_op(p, op)) {
		snprintf(what, sizeof(what), "'%s'", op_spelling[op]);
		expected(p, what);
	}
	return advance(p);
}

static int is_kw(struct parser *p, const char *kw)
{
	return tok_is(peek(p), kw);
}

static int is_keyword(const char *s)
{
	return lex_is_keyword(s);
}

/* A plain name: not a keyword, not $target, not @builtin. */
static int is_name(const struct token *t)
{
	return t->kind == TK_IDENT && t->str[0] != '$' && t->str[0] != '@' &&
	       !is_keyword(t->str);
}

static struct token *expect_name(struct parser *p)
{
	if (!is_name(peek(p)))
		expected(p, "an identifier");
	return advance(p);
}

static void enter(struct parser *p)
{
	if (++p->nesting > MAX_NESTING)
		fail_at(p, peek(p), "nesting deeper than %d levels",
			MAX_NESTING);
}

static void leave(struct parser *p)
{
	p->nesting--;
}

static void check_embedded(struct parser *p, const struct token *t)
{
	if (p->src->is_user && !p->guru)
		fail_at(p, t, "embedded C needs guru mode (-g)");
}

/* ---- literals ---- */

/* string = STRING { STRING }   (adjacent literals concatenate) */
static struct node *string_lit(struct parser *p)
{
	struct token *t = advance(p);
	struct node *n = node_new(N_STR, &t->loc);
	struct sbuf sb = { 0 };

	sb_putn(&sb, t->str, t->len);
	while (peek(p)->kind == TK_STRING &&
	       !(p->comment_parts_strings && (peek(p)->space_before & 2))) {
		t = advance(p);
		sb_putn(&sb, t->str, t->len);
	}
	n->str = ar_strndup(sb.s ? sb.s : "", sb.len);
	free(sb.s);
	return n;
}

static struct node *number_lit(struct parser *p)
{
	struct token *t = advance(p);
	struct node *n = node_new(N_NUM, &t->loc);

	n->num = t->num;
	n->str = t->str;
	return n;
}

/* literal = [ "-" ] NUMBER | string */
static struct node *literal(struct parser *p)
{
	struct token *t = peek(p);
	struct node *n;

	if (t->kind == TK_STRING)
		return string_lit(p);
	if (tok_is_op(t, OP_MINUS) && peek_at(p, 1)->kind == TK_NUMBER) {
		advance(p);
		n = number_lit(p);
		n->num = (int64_t)(0 - (uint64_t)n->num);	/* -INT64_MIN wraps */
		n->str = ar_printf("-%s", n->str);
		n->loc = t->loc;
		return n;
	}
	if (t->kind == TK_NUMBER)
		return number_lit(p);
	expected(p, "a literal");
}

/* ---- expressions ---- */

static int is_lvalue(const struct node *n)
{
	return n->kind == N_VAR || n->kind == N_INDEX ||
	       n->kind == N_TARGET || node_has_comps(n) ||
	       (n->kind == N_AT && (n->at == ATOP_CAST || n->at == ATOP_VAR));
}

/* args = [ expr { "," expr } ] ")"   (after the "(") */
static void call_args(struct parser *p, struct vec *args)
{
	if (accept_op(p, OP_RPAREN))
		return;
	do
		vec_push_ar(args, expr(p));
	while (accept_op(p, OP_COMMA));
	expect_op(p, OP_RPAREN);
}

/* keys = key { "," key } "]"   key = "*" | expr   (after the "[") */
static void index_keys(struct parser *p, struct vec *keys)
{
	do {
		if (is_op(p, OP_STAR) &&
		    (tok_is_op(peek_at(p, 1), OP_COMMA) ||
		     tok_is_op(peek_at(p, 1), OP_RBRACKET)))
			vec_push_ar(keys, node_new(N_STAR, &advance(p)->loc));
		else
			vec_push_ar(keys, expr(p));
	} while (accept_op(p, OP_COMMA));
	expect_op(p, OP_RBRACKET);
}

/* Strip trailing '$'s of "$var$$" or "field$" into *pretty. */
static const char *strip_pretty(const char *s, int *pretty)
{
	size_t len = strlen(s), min = s[0] == '$' ? (s[1] == '$' ? 2 : 1) : 0;
	int k = 0;

	while (len > min + 1 && s[len - 1] == '$' && k < 2) {
		len--;
		k++;
	}
	if (k)
		*pretty = k;
	return k ? ar_strndup(s, len) : s;
}

/* comps = { "->" IDENT | "[" expr "]" } [ "$" | "$$" ] */
static void components(struct parser *p, struct node *n)
{
	int pretty = 0;

	for (;;) {
		struct token *t = peek(p);
		struct node *c;

		if (n->pretty)
			return;	/* "$x$" ends the chain */
		if (tok_is_op(t, OP_ARROW)) {
			advance(p);
			t = peek(p);
			if (t->kind != TK_IDENT || t->str[0] == '@' ||
			    (t->str[0] == '$' && strspn(t->str, "$") != strlen(t->str)))
				expected(p, "a member name");
			advance(p);
			if (strspn(t->str, "$") == strlen(t->str)) {
				n->pretty = (unsigned char)strlen(t->str);
				if (n->pretty > 2)
					fail_at(p, t, "expected '$' or '$$', saw '%s'",
						t->str);
				continue;
			}
			c = node_new(N_MEMBER, &t->loc);
			c->name = strip_pretty(t->str, &pretty);
			n->pretty = (unsigned char)pretty;
			vec_push_ar(&n->comps, c);
		} else if (t->kind == TK_IDENT && !t->space_before &&
			   strspn(t->str, "$") == strlen(t->str)) {
			/* "@cast(p, "t")$": pretty-print the whole value */
			advance(p);
			n->pretty = (unsigned char)strlen(t->str);
			if (n->pretty > 2)
				fail_at(p, t, "expected '$' or '$$', saw '%s'",
					t->str);
		} else if (tok_is_op(t, OP_LBRACKET)) {
			advance(p);
			c = node_new(N_SUBSCRIPT, &t->loc);
			c->lhs = expr(p);
			expect_op(p, OP_RBRACKET);
			vec_push_ar(&n->comps, c);
		} else {
			return;
		}
	}
}

/* target = "$NAME" comps */
static struct node *target(struct parser *p)
{
	struct token *t = advance(p);
	struct node *n = node_new(N_TARGET, &t->loc);

	if (!t->str[1] || (t->str[1] == '$' && !t->str[2]))
		fail_at(p, t, "expected a target variable name after '$'");
	int pretty = 0;

	n->name = strip_pretty(t->str, &pretty);
	n->pretty = (unsigned char)pretty;
	components(p, n);
	return n;
}

static const char *const at_names[] = {
	[ATOP_CAST] = "@cast", [ATOP_VAR] = "@var", [ATOP_ENTRY] = "@entry",
	[ATOP_DEFINED] = "@defined", [ATOP_PROBEWRITE] = "@probewrite",
	[ATOP_CONST] = "@const", [ATOP_PERF] = "@perf",
	[ATOP_KREGISTER] = "@kregister", [ATOP_UREGISTER] = "@uregister",
	[ATOP_KDEREF] = "@kderef", [ATOP_UDEREF] = "@uderef",
	[ATOP_COUNT] = "@count", [ATOP_SUM] = "@sum", [ATOP_MIN] = "@min",
	[ATOP_MAX] = "@max", [ATOP_AVG] = "@avg", [ATOP_VARIANCE] = "@variance",
	[ATOP_HIST_LINEAR] = "@hist_linear", [ATOP_HIST_LOG] = "@hist_log",
};

enum at_op at_op_named(const char *name)
{
	for (size_t i = 1; i < sizeof(at_names) / sizeof(at_names[0]); i++)
		if (!strcmp(name, at_names[i]))
			return (enum at_op)i;
	return ATOP_NONE;
}

static int is_aggregate(const char *s)
{
	return at_is_aggregate(at_op_named(s));
}

static void need_string(struct parser *p, const char *what)
{
	if (peek(p)->kind != TK_STRING)
		expected(p, what);
}

/*
 * at = "@cast" "(" expr "," string [ "," string ] ")" comps
 *    | "@var" "(" string [ "," string ] ")" comps
 *    | ( "@entry" | "@defined" | "@probewrite" ) "(" expr ")"
 *    | ( "@const" | "@perf" ) "(" string ")"
 *    | AGGREGATE "(" expr ")"
 *    | "@hist_linear" "(" expr "," expr "," expr "," expr ")"
 *    | "@hist_log" "(" expr ")"
 */
static struct node *at_builtin(struct parser *p)
{
	struct token *t = advance(p);
	struct node *n = node_new(N_AT, &t->loc);
	enum at_op at = at_op_named(t->str);
	int nargs = 1;

	n->name = t->str;
	n->at = (unsigned char)at;
	/* the kernel's memory and registers, read raw: a user's script in
	 * guru mode only, as stap has it (tapsets are guru code) */
	if ((at == ATOP_KDEREF || at == ATOP_KREGISTER) && p->src->is_user && !p->guru)
		fail_at(p, t, "%s reads the kernel's %s raw: it needs guru mode (-g)", t->str,
			at == ATOP_KDEREF ? "memory" : "registers");
	expect_op(p, OP_LPAREN);
	if (at == ATOP_CAST) {
		vec_push_ar(&n->args, expr(p));
		expect_op(p, OP_COMMA);
		need_string(p, "a type name string");
		vec_push_ar(&n->args, string_lit(p));
		if (accept_op(p, OP_COMMA)) {
			need_string(p, "a module name string");
			vec_push_ar(&n->args, string_lit(p));
		}
		expect_op(p, OP_RPAREN);
		components(p, n);
		return n;
	}
	if (at == ATOP_VAR) {
		need_string(p, "a variable name string");
		vec_push_ar(&n->args, string_lit(p));
		if (accept_op(p, OP_COMMA)) {
			need_string(p, "a module name string");
			vec_push_ar(&n->args, string_lit(p));
		}
		expect_op(p, OP_RPAREN);
		components(p, n);
		return n;
	}
	if (at == ATOP_CONST || at == ATOP_PERF) {
		struct node *name;

		need_string(p, "a string literal");
		name = string_lit(p);
		vec_push_ar(&n->args, name);
		/* a counter's name: never empty (stap refuses it here too) */
		if (at == ATOP_PERF && !*name->str)
			expected(p, "a non-empty string (a counter's name)");
		expect_op(p, OP_RPAREN);
		return n;
	}
	if (at == ATOP_HIST_LINEAR)
		nargs = 4;
	else if (at == ATOP_KDEREF || at == ATOP_UDEREF)
		nargs = 2;	/* (size, address) */
	vec_push_ar(&n->args, expr(p));
	for (int i = 1; i < nargs; i++) {
		expect_op(p, OP_COMMA);
		vec_push_ar(&n->args, expr(p));
	}
	if (at == ATOP_KREGISTER || at == ATOP_UREGISTER || at == ATOP_VARIANCE)
		if (accept_op(p, OP_COMMA))	/* register size; bit shift */
			vec_push_ar(&n->args, expr(p));
	expect_op(p, OP_RPAREN);
	return n;
}

static int is_printd(const char *name)
{
	return !strcmp(name, "printd") || !strcmp(name, "printdln") ||
	       !strcmp(name, "sprintd") || !strcmp(name, "sprintdln");
}

/* printd = ( "printd" | "printdln" | "sprintd" | "sprintdln" )
 *          "(" string "," expr "," expr { "," expr } ")"
 * The delimiter goes between the values: it must be known when the
 * script is translated, and there must be two values to go between. */
static void check_printd(const struct node *n)
{
	const struct node *delim = n->args.len ? n->args.v[0] : NULL;

	if (n->args.len < 3)
		error_at(&n->loc, "%s needs a delimiter and at least two values",
			 n->name);
	else if (delim->kind != N_STR)
		error_at(&delim->loc, "%s needs a delimiter string literal first",
			 n->name);
}

/* name_expr = IDENT "(" args | IDENT "[" keys | IDENT */
static struct node *name_expr(struct parser *p)
{
	struct token *t = advance(p);
	struct node *n;

	if (tok_is_op(peek(p), OP_LPAREN)) {
		advance(p);
		n = node_new(N_CALL, &t->loc);
		n->name = t->str;
		call_args(p, &n->args);
		if (is_printd(n->name))
			check_printd(n);
		return n;
	}
	n = node_new(N_VAR, &t->loc);
	n->name = t->str;
	if (tok_is_op(peek(p), OP_LBRACKET)) {
		struct node *ix = node_new(N_INDEX, &t->loc);

		advance(p);
		ix->lhs = n;
		index_keys(p, &ix->args);
		return ix;
	}
	return n;
}

/* primary = literal | EMBEDDED | "(" expr ")" | target | at | name_expr */
static struct node *primary(struct parser *p)
{
	struct token *t = peek(p);
	struct node *n;

	switch (t->kind) {
	case TK_NUMBER:
		return number_lit(p);
	case TK_STRING:
		return string_lit(p);
	case TK_EMBEDDED:
		check_embedded(p, t);
		advance(p);
		n = node_new(N_EMBEDDED, &t->loc);
		n->str = t->str;
		return n;
	case TK_IDENT:
		if (t->str[0] == '$')
			return target(p);
		if (t->str[0] == '@') {
			if (!tok_is_op(peek_at(p, 1), OP_LPAREN))
				fail_at(p, peek_at(p, 1), "expected '(' after '%s', saw %s",
					t->str, tok_describe(peek_at(p, 1)));
			return at_builtin(p);
		}
		if (is_name(t))
			return name_expr(p);
		break;
	case TK_OP:
		if (t->op == OP_LPAREN) {
			advance(p);
			n = expr(p);
			expect_op(p, OP_RPAREN);
			if (is_op(p, OP_ARROW) || is_op(p, OP_LBRACKET)) {
				struct node *w = node_new(N_AUTOCAST, &n->loc);

				w->lhs = n;
				components(p, w);
				return w;
			}
			return n;
		}
		break;
	default:
		break;
	}
	expected(p, "an expression");
}

/* postfix = primary [ comps ] [ "++" | "--" ]
 * comps after a plain variable or call are SystemTap's autocast:
 * "s->name" where s holds a typed pointer. */
static struct node *postfix(struct parser *p)
{
	struct node *n = primary(p);
	struct token *t = peek(p);
	struct node *inc;

	if (!n->pretty && (n->kind == N_VAR || n->kind == N_CALL ||
			   n->kind == N_INDEX || n->kind == N_AT) &&
	    (tok_is_op(t, OP_ARROW) ||
	     (tok_is_op(t, OP_LBRACKET) && n->kind != N_VAR))) {
		components(p, n);
		t = peek(p);
	}

	if (!tok_is_op(t, OP_INC) && !tok_is_op(t, OP_DEC))
		return n;
	if (!is_lvalue(n))
		return n;	/* "1 ++x": the ++ belongs to what follows */
	advance(p);
	inc = node_new(N_INCDEC, &t->loc);
	inc->op = t->op;
	inc->post = 1;
	inc->lhs = n;
	return inc;
}

/* unary = ( "!" | "~" | "-" | "+" ) unary | ( "++" | "--" ) unary
 *       | "&" target-or-cast | postfix */
static struct node *unary(struct parser *p)
{
	struct token *t = peek(p);
	struct node *n;

	if (t->kind != TK_OP)
		return postfix(p);
	switch (t->op) {
	case OP_NOT:
	case OP_TILDE:
	case OP_MINUS:
	case OP_PLUS:
		advance(p);
		enter(p);
		n = node_new(N_UNARY, &t->loc);
		n->op = t->op;
		n->lhs = unary(p);
		leave(p);
		return n;
	case OP_INC:
	case OP_DEC:
		advance(p);
		enter(p);
		n = node_new(N_INCDEC, &t->loc);
		n->op = t->op;
		n->lhs = unary(p);
		leave(p);
		if (!is_lvalue(n->lhs))
			fail_at(p, t, "'%s' needs a variable, array element or target variable",
				op_spelling[t->op]);
		return n;
	case OP_AMP:
		advance(p);
		n = postfix(p);
		if (n->kind == N_TARGET || node_has_comps(n) ||
		    (n->kind == N_AT && (n->at == ATOP_CAST || n->at == ATOP_VAR))) {
			n->addr = 1;
			return n;
		}
		/* "&(e)": pass 2 decides whether e has an address */
		{
			struct node *u = node_new(N_UNARY, &t->loc);

			u->op = OP_AMP;
			u->lhs = n;
			return u;
		}
	default:
		return postfix(p);
	}
}

struct binop_level {
	int ops[9];	/* zero-terminated */
};

/* Binary levels, tightest first.  ORDER: binary() walks it by index. */
static const struct binop_level levels[] = {
	{ { OP_STAR, OP_SLASH, OP_PERCENT } },			/* 0 */
	{ { OP_PLUS, OP_MINUS } },				/* 1 */
	{ { OP_DOT } },						/* 2 */
	{ { OP_SHL, OP_SHR } },					/* 3 */
	{ { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_MATCH,
	    OP_NOMATCH } },					/* 4 */
	{ { 0 } },	/* 5: "in", see array_in() */
	{ { OP_AMP } },						/* 6 */
	{ { OP_CARET } },					/* 7 */
	{ { OP_PIPE } },					/* 8 */
	{ { OP_ANDAND } },					/* 9 */
	{ { OP_OROR } },					/* 10 */
};

#define LEVEL_IN 5
#define LEVEL_TOP 10

static int level_has(int level, const struct token *t)
{
	if (t->kind != TK_OP)
		return 0;
	for (int i = 0; levels[level].ops[i]; i++)
		if (levels[level].ops[i] == t->op)
			return 1;
	return 0;
}

static struct node *binary(struct parser *p, int level);

/* array_in = "[" keys "in" IDENT | binary(4) [ "in" IDENT ] */
static struct node *array_in(struct parser *p)
{
	struct token *t = peek(p);
	struct node *n, *in;

	if (tok_is_op(t, OP_LBRACKET)) {
		advance(p);
		in = node_new(N_IN, &t->loc);
		index_keys(p, &in->args);
	} else {
		n = binary(p, LEVEL_IN - 1);
		if (!is_kw(p, "in"))
			return n;
		in = node_new(N_IN, &n->loc);
		vec_push_ar(&in->args, n);
	}
	if (!is_kw(p, "in"))
		expected(p, "'in'");
	advance(p);
	t = expect_name(p);
	in->lhs = node_new(N_VAR, &t->loc);
	in->lhs->name = t->str;
	return in;
}

/* binary(L) = binary(L-1) { OP(L) binary(L-1) }, left-associative */
static struct node *binary(struct parser *p, int level)
{
	struct node *n;

	if (level < 0)
		return unary(p);
	if (level == LEVEL_IN)
		return array_in(p);
	n = binary(p, level - 1);
	while (level_has(level, peek(p))) {
		struct token *t = advance(p);
		struct node *b = node_new(N_BINARY, &t->loc);

		b->op = t->op;
		b->lhs = n;
		if ((t->op == OP_MATCH || t->op == OP_NOMATCH) &&
		    peek(p)->kind != TK_STRING)
			expected(p, "a regular expression (a string literal)");
		b->rhs = binary(p, level - 1);
		n = b;
	}
	return n;
}

/* ternary = binary(TOP) [ "?" expr ":" ternary ] */
static struct node *ternary(struct parser *p)
{
	struct node *c = binary(p, LEVEL_TOP), *n;
	struct token *t = peek(p);

	if (!tok_is_op(t, OP_QUESTION))
		return c;
	advance(p);
	enter(p);
	n = node_new(N_TERNARY, &t->loc);
	n->cond = c;
	n->then = expr(p);
	expect_op(p, OP_COLON);
	n->els = ternary(p);
	leave(p);
	return n;
}

static int is_assign_op(const struct token *t)
{
	if (t->kind != TK_OP)
		return 0;
	switch (t->op) {
	case OP_ASSIGN: case OP_ADD_ASSIGN: case OP_SUB_ASSIGN:
	case OP_MUL_ASSIGN: case OP_DIV_ASSIGN: case OP_MOD_ASSIGN:
	case OP_SHL_ASSIGN: case OP_SHR_ASSIGN: case OP_AND_ASSIGN:
	case OP_XOR_ASSIGN: case OP_OR_ASSIGN: case OP_CAT_ASSIGN:
	case OP_SHL_STAT:
		return 1;
	default:
		return 0;
	}
}

/* expr = ternary [ ASSIGNOP expr ] */
static struct node *expr(struct parser *p)
{
	struct node *l, *n;
	struct token *t;

	enter(p);
	l = ternary(p);
	t = peek(p);
	if (is_assign_op(t)) {
		if (!is_lvalue(l))
			fail_at(p, t, "'%s' needs a variable, array element or target variable on its left",
				op_spelling[t->op]);
		advance(p);
		n = node_new(N_ASSIGN, &t->loc);
		n->op = t->op;
		n->lhs = l;
		n->rhs = expr(p);
		l = n;
	}
	leave(p);
	return l;
}

/* ---- statements ---- */

static int can_start_expr(const struct token *t)
{
	switch (t->kind) {
	case TK_IDENT:
		return !is_keyword(t->str);
	case TK_NUMBER:
	case TK_STRING:
	case TK_EMBEDDED:
		return 1;
	case TK_OP:
		switch (t->op) {
		case OP_LPAREN: case OP_LBRACKET: case OP_NOT: case OP_TILDE:
		case OP_MINUS: case OP_PLUS: case OP_INC: case OP_DEC:
		case OP_AMP:
			return 1;
		default:
			return 0;
		}
	default:
		return 0;
	}
}

static void optional_semi(struct parser *p)
{
	accept_op(p, OP_SEMI);
}

/* cond = "(" expr ")" */
static struct node *paren_expr(struct parser *p)
{
	struct node *n;

	expect_op(p, OP_LPAREN);
	n = expr(p);
	expect_op(p, OP_RPAREN);
	return n;
}

/* if = "if" "(" expr ")" stmt [ "else" stmt ] */
static struct node *if_stmt(struct parser *p, struct token *kw)
{
	struct node *n = node_new(N_IF, &kw->loc);

	n->cond = paren_expr(p);
	n->then = stmt(p);
	if (is_kw(p, "else")) {
		advance(p);
		n->els = stmt(p);
	}
	return n;
}

/* for = "for" "(" [expr] ";" [expr] ";" [expr] ")" stmt */
static struct node *for_stmt(struct parser *p, struct token *kw)
{
	struct node *n = node_new(N_FOR, &kw->loc);

	expect_op(p, OP_LPAREN);
	if (!is_op(p, OP_SEMI))
		n->init = expr(p);
	expect_op(p, OP_SEMI);
	if (!is_op(p, OP_SEMI))
		n->cond = expr(p);
	expect_op(p, OP_SEMI);
	if (!is_op(p, OP_RPAREN) && !is_op(p, OP_SEMI))
		n->incr = expr(p);
	expect_op(p, OP_RPAREN);
	n->body = stmt(p);
	return n;
}

static int sort_mark(struct parser *p)
{
	if (accept_op(p, OP_PLUS))
		return 1;
	if (accept_op(p, OP_MINUS))
		return -1;
	return 0;
}

static void set_sort(struct parser *p, struct foreach *fe, int *slot,
		     int mark, struct token *at)
{
	if (!mark)
		return;
	for (int i = 0; i < fe->keys.len; i++)
		if (fe->key_sort[i])
			fail_at(p, at, "only one sort marker is allowed in foreach");
	if (fe->value_sort)
		fail_at(p, at, "only one sort marker is allowed in foreach");
	*slot = mark;
}

static struct node *key_var(struct parser *p)
{
	struct token *t = expect_name(p);
	struct node *v = node_new(N_VAR, &t->loc);

	v->name = t->str;
	return v;
}

/* keyvars = "[" IDENT [sort] { "," IDENT [sort] } "]" | IDENT [sort] */
static void foreach_keys(struct parser *p, struct foreach *fe)
{
	int bracket = accept_op(p, OP_LBRACKET);

	do {
		struct token *at;

		if (fe->keys.len == 9)
			fail_at(p, peek(p), "foreach takes at most 9 keys");
		vec_push_ar(&fe->keys, key_var(p));
		at = peek(p);
		set_sort(p, fe, &fe->key_sort[fe->keys.len - 1], sort_mark(p),
			 at);
	} while (bracket && accept_op(p, OP_COMMA));
	if (bracket)
		expect_op(p, OP_RBRACKET);
}

/*
 * foreach = "foreach" "(" [ IDENT [sort] "=" ] keyvars "in" IDENT
 *           [ "[" keys ] [ AGGREGATE ] [sort] [ "limit" expr ] ")" stmt
 */
static struct node *foreach_stmt(struct parser *p, struct token *kw)
{
	struct node *n = node_new(N_FOREACH, &kw->loc);
	struct foreach *fe = ar_alloc(sizeof(*fe));
	struct token *t;

	n->fe = fe;
	expect_op(p, OP_LPAREN);
	if (is_name(peek(p)) &&
	    (tok_is_op(peek_at(p, 1), OP_ASSIGN) ||
	     ((tok_is_op(peek_at(p, 1), OP_PLUS) ||
	       tok_is_op(peek_at(p, 1), OP_MINUS)) &&
	      tok_is_op(peek_at(p, 2), OP_ASSIGN)))) {
		fe->value = advance(p)->str;
		fe->value_sort = sort_mark(p);
		expect_op(p, OP_ASSIGN);
	}
	foreach_keys(p, fe);
	if (!is_kw(p, "in"))
		expected(p, "'in'");
	advance(p);
	t = peek(p);
	if (t->kind == TK_IDENT && at_is_hist(at_op_named(t->str))) {
		fe->array = at_builtin(p);	/* buckets of a histogram */
	} else {
		t = expect_name(p);
		fe->array = node_new(N_VAR, &t->loc);
		fe->array->name = t->str;
		if (accept_op(p, OP_LBRACKET))
			index_keys(p, &fe->slice);
	}
	t = peek(p);
	if (t->kind == TK_IDENT && is_aggregate(t->str)) {
		fe->sort_agg = advance(p)->str;
		fe->sort_at = at_op_named(fe->sort_agg);
		if (!is_op(p, OP_PLUS) && !is_op(p, OP_MINUS))
			expected(p, "'+' or '-' after the aggregate");
	}
	t = peek(p);
	set_sort(p, fe, &fe->value_sort, sort_mark(p), t);
	if (is_kw(p, "limit")) {
		advance(p);
		fe->limit = expr(p);
	}
	expect_op(p, OP_RPAREN);
	n->body = stmt(p);
	return n;
}

/* delete = "delete" ( IDENT | IDENT "[" keys | target ) */
static struct node *delete_stmt(struct parser *p, struct token *kw)
{
	struct node *n = node_new(N_DELETE, &kw->loc);

	if (!is_name(peek(p)) || tok_is_op(peek_at(p, 1), OP_LPAREN))
		expected(p, "an array, array element or variable");
	n->lhs = name_expr(p);
	optional_semi(p);
	return n;
}

/* try = "try" block "catch" [ "(" IDENT ")" ] block */
static struct node *try_stmt(struct parser *p, struct token *kw)
{
	struct node *n = node_new(N_TRY, &kw->loc);

	n->body = block(p);
	if (!is_kw(p, "catch"))
		expected(p, "'catch'");
	advance(p);
	if (accept_op(p, OP_LPAREN)) {
		struct token *t = expect_name(p);

		n->name = t->str;
		n->lhs = node_new(N_VAR, &t->loc);	/* for its position */
		n->lhs->name = t->str;
		expect_op(p, OP_RPAREN);
	}
	n->els = block(p);
	return n;
}

/* return = "return" [ expr ] */
static struct node *return_stmt(struct parser *p, struct token *kw)
{
	struct node *n = node_new(N_RETURN, &kw->loc);

	if (!p->in_function)
		error_at(&kw->loc, "'return' in a probe handler; 'next' leaves a probe");
	if (!is_op(p, OP_SEMI) && !is_op(p, OP_RBRACE) &&
	    peek(p)->kind != TK_EOF)
		n->lhs = expr(p);
	optional_semi(p);
	return n;
}

static struct node *keyword_stmt(struct parser *p)
{
	struct token *kw = peek(p);
	const char *s = kw->str;
	struct node *n;

	if (!strcmp(s, "if"))
		return advance(p), if_stmt(p, kw);
	if (!strcmp(s, "while")) {
		advance(p);
		n = node_new(N_WHILE, &kw->loc);
		n->cond = paren_expr(p);
		n->body = stmt(p);
		return n;
	}
	if (!strcmp(s, "for"))
		return advance(p), for_stmt(p, kw);
	if (!strcmp(s, "foreach"))
		return advance(p), foreach_stmt(p, kw);
	if (!strcmp(s, "delete"))
		return advance(p), delete_stmt(p, kw);
	if (!strcmp(s, "try"))
		return advance(p), try_stmt(p, kw);
	if (!strcmp(s, "return"))
		return advance(p), return_stmt(p, kw);
	if (!strcmp(s, "break") || !strcmp(s, "continue") ||
	    !strcmp(s, "next")) {
		advance(p);
		n = node_new(s[0] == 'b' ? N_BREAK :
			     s[0] == 'c' ? N_CONTINUE : N_NEXT, &kw->loc);
		optional_semi(p);
		return n;
	}
	expected(p, "a statement");
}

/*
 * stmt = block | ";" | if | while | for | foreach | delete | try
 *      | return | "break" | "continue" | "next" | expr [ ";" ]
 */
static struct node *stmt(struct parser *p)
{
	struct token *t = peek(p);
	struct node *n;

	enter(p);
	if (tok_is_op(t, OP_LBRACE)) {
		n = block(p);
	} else if (tok_is_op(t, OP_SEMI)) {
		advance(p);
		n = node_new(N_NULL, &t->loc);
	} else if (t->kind == TK_IDENT && is_keyword(t->str)) {
		n = keyword_stmt(p);
	} else {
		if (!can_start_expr(t))
			expected(p, "a statement");
		n = node_new(N_EXPRSTMT, &t->loc);
		n->lhs = expr(p);
		optional_semi(p);
	}
	leave(p);
	return n;
}

/* block = "{" { stmt } "}" */
static struct node *block(struct parser *p)
{
	struct token *t = expect_op(p, OP_LBRACE);
	struct node *n = node_new(N_BLOCK, &t->loc);

	enter(p);
	while (!is_op(p, OP_RBRACE)) {
		if (peek(p)->kind == TK_EOF)
			expected(p, "'}'");
		vec_push_ar(&n->args, stmt(p));
	}
	advance(p);
	leave(p);
	return n;
}

/* ---- probe points ---- */

static int glues(const struct token *t)
{
	return !t->space_before &&
	       ((t->kind == TK_IDENT && t->str[0] != '$' && t->str[0] != '@') ||
		tok_is_op(t, OP_STAR) || t->kind == TK_NUMBER);
}

static struct probe_point *probe_chain(struct parser *p);

/* Is the "{" here a brace group ("{open,close}") rather than a body?
 * A group has a comma at its top level and only probe point tokens. */
static int is_brace_group(struct parser *p)
{
	int depth = 0, comma = 0;

	for (int i = p->i; i < p->n; i++) {
		const struct token *t = &p->t[i];

		if (tok_is_op(t, OP_LBRACE)) {
			depth++;
		} else if (tok_is_op(t, OP_RBRACE)) {
			if (--depth == 0)
				return comma;
		} else if (tok_is_op(t, OP_COMMA)) {
			comma |= depth == 1;
		} else if (!(t->kind == TK_IDENT || t->kind == TK_STRING ||
			     t->kind == TK_NUMBER || tok_is_op(t, OP_STAR) ||
			     tok_is_op(t, OP_DOT) || tok_is_op(t, OP_LPAREN) ||
			     tok_is_op(t, OP_RPAREN) || tok_is_op(t, OP_MINUS) ||
			     tok_is_op(t, OP_NOT) || tok_is_op(t, OP_QUESTION))) {
			return 0;
		}
	}
	return 0;
}

/* A chain's "?" (optional) or "!" (optional, and enough when it
 * resolves), after a point or an alternative of a group. */
static void point_marks(struct parser *p, struct probe_point *pp)
{
	if (accept_op(p, OP_QUESTION))
		pp->optional = 1;
	else if (accept_op(p, OP_NOT))
		pp->sufficient = pp->optional = 1;
}

/* group = "{" chain [ "?" | "!" ] { "," chain [ "?" | "!" ] } "}"
 * (kernel.{trace("new")!, trace("old")}: each alternative its own marks) */
static void brace_group(struct parser *p, struct probe_comp *c)
{
	struct vec alts = { 0 };

	c->loc = expect_op(p, OP_LBRACE)->loc;
	enter(p);
	do {
		struct probe_point *alt = probe_chain(p);

		point_marks(p, alt);
		vec_push(&alts, alt);
	} while (accept_op(p, OP_COMMA));
	expect_op(p, OP_RBRACE);
	leave(p);
	c->alts = (struct probe_point **)alts.v;
	c->nalts = alts.len;
}

/* comp = group | NAMEPART { NAMEPART } [ "(" literal ")" ]
 * NAMEPART = IDENT | "*" (glued together when nothing separates them) */
static void probe_comp(struct parser *p, struct probe_comp *c)
{
	struct token *t = peek(p);
	struct sbuf sb = { 0 };

	if (tok_is_op(t, OP_LBRACE)) {
		brace_group(p, c);
		return;
	}
	if (!(t->kind == TK_IDENT && t->str[0] != '$' && t->str[0] != '@') &&
	    !tok_is_op(t, OP_STAR))
		expected(p, "a probe point");
	c->loc = t->loc;
	sb_puts(&sb, advance(p)->str);
	while (glues(peek(p)))
		sb_puts(&sb, advance(p)->str);
	c->name = ar_strdup(sb.s);
	c->loc.len = (int)sb.len;
	free(sb.s);
	if (accept_op(p, OP_LPAREN)) {
		c->arg = literal(p);
		expect_op(p, OP_RPAREN);
	}
}

/* chain = comp { "." comp } */
static struct probe_point *probe_chain(struct parser *p)
{
	struct probe_point *pp = ar_alloc(sizeof(*pp));
	struct vec comps = { 0 };

	pp->loc = peek(p)->loc;
	do {
		struct probe_comp *c = ar_alloc(sizeof(*c));

		if (tok_is_op(peek(p), OP_LBRACE) && !is_brace_group(p))
			expected(p, "a probe point");
		probe_comp(p, c);
		vec_push(&comps, c);
	} while (accept_op(p, OP_DOT));
	pp->ncomps = comps.len;
	pp->comps = ar_alloc(comps.len * sizeof(*pp->comps));
	for (int i = 0; i < comps.len; i++)
		pp->comps[i] = *(struct probe_comp *)comps.v[i];
	free(comps.v);
	return pp;
}

/* probe_point = chain { "?" | "!" } [ "if" "(" expr ")" ] */
static struct probe_point *probe_point(struct parser *p)
{
	struct probe_point *pp = probe_chain(p);

	point_marks(p, pp);
	if (is_kw(p, "if")) {
		advance(p);
		pp->cond = paren_expr(p);
	}
	return pp;
}

static void points_to_node(struct vec *v, struct probe_point ***out, int *n)
{
	*out = (struct probe_point **)v->v;
	*n = v->len;
}

/* probe = "probe" probe_point { "," probe_point } block
 * alias = "probe" probe_point ( "=" | "+=" ) probe_point { "," ... } block */
static struct node *probe_decl(struct parser *p, struct token *kw)
{
	struct vec pts = { 0 };
	struct node *n = node_new(N_PROBE, &kw->loc);

	vec_push(&pts, probe_point(p));
	if (is_op(p, OP_ASSIGN) || is_op(p, OP_ADD_ASSIGN)) {
		struct probe_point *name = pts.v[0];
		struct vec targets = { 0 };

		if (name->optional || name->cond)
			fail_at(p, peek(p), "an alias name takes no '?', '!' or condition");
		for (int i = 0; i < name->ncomps; i++)
			if (name->comps[i].alts)
				fail_at(p, peek(p), "an alias name cannot use brace expansion");
		n->kind = N_ALIAS;
		n->epilogue = advance(p)->op == OP_ADD_ASSIGN;
		points_to_node(&pts, &n->alias_names, &n->nalias_names);
		do
			vec_push(&targets, probe_point(p));
		while (accept_op(p, OP_COMMA));
		points_to_node(&targets, &n->points, &n->npoints);
		n->body = block(p);
		if (!n->epilogue && accept_op(p, OP_COMMA))
			n->els = block(p);
		return n;
	} else {
		while (accept_op(p, OP_COMMA))
			vec_push(&pts, probe_point(p));
		points_to_node(&pts, &n->points, &n->npoints);
	}
	n->body = block(p);
	return n;
}

/* ---- declarations ---- */

/* type = "long" | "string" */
static enum type type_spec(struct parser *p)
{
	struct token *t = peek(p);

	if (tok_is(t, "long"))
		return advance(p), T_LONG;
	if (tok_is(t, "string"))
		return advance(p), T_STRING;
	expected(p, "a type name (long or string)");
}

/* global_var = IDENT [ "%" ] [ "[" [ NUMBER ] "]" ] [ "%" ] [ "=" literal ] */
static struct node *global_var(struct parser *p, int is_private)
{
	struct token *t = expect_name(p);
	struct node *n = node_new(N_GLOBAL, &t->loc);

	n->name = t->str;
	n->private_ = is_private;
	if (accept_op(p, OP_PERCENT))
		n->wrap = 1;
	if (accept_op(p, OP_LBRACKET)) {
		struct token *num = peek(p);

		n->is_array = 1;
		if (num->kind != TK_NUMBER)
			expected(p, "an array size (a number)");
		advance(p);
		if (num->num <= 0 || num->num > 1000000000)
			fail_at(p, num, "array size %s out of range", num->str);
		n->size = (int)num->num;
		expect_op(p, OP_RBRACKET);
	}
	if (accept_op(p, OP_ASSIGN)) {
		if (n->is_array || n->wrap)
			fail_at(p, &p->t[p->i - 1],
				"an array takes no initial value");
		n->init_value = literal(p);
	}
	return n;
}

/* A name is one global per file, private or not; across files the
 * library decides (pass 2). */
static void declare_global(struct parser *p, struct node *g)
{
	struct node *old = pmap_get(&p->globals, g->name);

	if (!old) {
		pmap_put(&p->globals, g->name, g);
		return;
	}
	error_at(&g->loc, "global '%s' is declared twice", g->name);
	diag_note(&old->loc, "the other declaration is here");
}

/* globals = global_var { "," global_var } [ ";" ] */
static void globals(struct parser *p, struct script *s, int is_private)
{
	do {
		struct node *g = global_var(p, is_private);

		declare_global(p, g);
		vec_push_ar(&s->decls, g);
	} while (accept_op(p, OP_COMMA));
	optional_semi(p);
}

/* param = IDENT [ ":" type ] */
static void param(struct parser *p, struct param *pa)
{
	struct token *t = expect_name(p);

	pa->name = t->str;
	pa->loc = t->loc;
	if (accept_op(p, OP_COLON))
		pa->type = type_spec(p);
}

/* Each parameter name once: a call could not say which one it sets. */
static void check_params(const struct node *f)
{
	for (int i = 1; i < f->nparams; i++)
		for (int j = 0; j < i; j++) {
			if (f->params[i].name != f->params[j].name)
				continue;
			error_at(&f->params[i].loc,
				 "parameter '%s' is declared twice",
				 f->params[i].name);
			diag_note(&f->params[j].loc, "the other declaration is here");
			break;
		}
}

/*
 * function = "function" IDENT [ ":" type ] "(" [ param { "," param } ] ")"
 *            [ ":" NUMBER ] ( block | EMBEDDED )
 */
static struct node *function_decl(struct parser *p, int is_private)
{
	struct token *t = expect_name(p);
	struct node *n = node_new(N_FUNCTION, &t->loc);
	struct vec params = { 0 };

	n->name = t->str;
	n->private_ = is_private;
	if (accept_op(p, OP_COLON))
		n->type = type_spec(p);
	expect_op(p, OP_LPAREN);
	if (!accept_op(p, OP_RPAREN)) {
		do {
			struct param *pa = ar_alloc(sizeof(*pa));

			if (params.len && is_op(p, OP_RPAREN))
				break;	/* "f(a, b,)": SystemTap allows it */
			param(p, pa);
			vec_push(&params, pa);
		} while (accept_op(p, OP_COMMA));
		expect_op(p, OP_RPAREN);
	}
	n->nparams = params.len;
	n->params = ar_alloc((params.len + 1) * sizeof(*n->params));
	for (int i = 0; i < params.len; i++)
		n->params[i] = *(struct param *)params.v[i];
	free(params.v);
	check_params(n);
	if (accept_op(p, OP_COLON)) {
		struct token *num = peek(p);

		if (num->kind != TK_NUMBER)
			expected(p, "a priority number");
		n->has_priority = 1;
		n->priority = advance(p)->num;
	}
	t = peek(p);
	if (t->kind == TK_EMBEDDED) {
		check_embedded(p, t);
		advance(p);
		n->body = node_new(N_EMBEDDED, &t->loc);
		n->body->str = t->str;
	} else if (tok_is_op(t, OP_LBRACE)) {
		p->in_function = 1;
		n->body = block(p);
		p->in_function = 0;
	} else {
		expected(p, "'{' or '%{'");
	}
	return n;
}

#define DECL_WHAT "a declaration (probe, global, function, private or %{ %})"

/* decl = "probe" ... | "global" globals | "function" function
 *      | "private" ( "global" globals | "function" function | globals )
 *      | EMBEDDED */
static void decl(struct parser *p, struct script *s)
{
	struct token *t = peek(p);

	if (t->kind == TK_EMBEDDED) {
		struct node *n = node_new(N_EMBEDDED, &t->loc);

		check_embedded(p, t);
		advance(p);
		n->str = t->str;
		vec_push_ar(&s->decls, n);
		return;
	}
	if (tok_is(t, "probe")) {
		advance(p);
		vec_push_ar(&s->decls, probe_decl(p, t));
	} else if (tok_is(t, "global")) {
		advance(p);
		globals(p, s, 0);
	} else if (tok_is(t, "function")) {
		advance(p);
		vec_push_ar(&s->decls, function_decl(p, 0));
	} else if (tok_is(t, "private")) {
		advance(p);
		if (is_kw(p, "function")) {
			advance(p);
			vec_push_ar(&s->decls, function_decl(p, 1));
			return;
		}
		if (is_kw(p, "global"))
			advance(p);
		globals(p, s, 1);
	} else {
		expected(p, DECL_WHAT);
	}
}

/* Skip to where a new declaration can start. */
static void resync(struct parser *p)
{
	advance(p);
	for (;;) {
		struct token *t = peek(p);

		if (t->kind == TK_EOF || tok_is(t, "probe") ||
		    tok_is(t, "global") || tok_is(t, "function") ||
		    tok_is(t, "private") ||
		    (t->kind == TK_EMBEDDED && t->loc.col == 1))
			return;
		advance(p);
	}
}

/* script = { decl } */
struct script *parse_tokens(const struct source *src, const struct tokens *ts,
			    const struct parse_opts *opts)
{
	struct script *s = ar_alloc(sizeof(*s));
	struct parser p = { 0 };
	int errors = diag_errors();

	s->src = src;
	p.src = src;
	p.t = (struct token *)ts->t;	/* the parser only reads them */
	p.n = ts->len;
	p.guru = opts ? opts->guru : 0;
	p.comment_parts_strings = opts ? opts->comment_parts_strings : 0;
	for (;;) {
		if (setjmp(p.recover)) {
			p.nesting = 0;
			p.in_function = 0;
			if (diag_too_many())
				break;
			resync(&p);
		}
		if (peek(&p)->kind == TK_EOF)
			break;
		decl(&p, s);
	}
	if (src->is_user && !s->decls.len && diag_errors() == errors)
		diag_at(&peek(&p)->loc, "parse error", "expected %s, saw end of input",
			DECL_WHAT);
	free(p.globals.keys);
	free(p.globals.vals);
	return s;
}

struct script *parse_source(struct pp *pp, const struct source *src,
			    const struct parse_opts *opts)
{
	return parse_tokens(src, pp_source(pp, src), opts);
}
