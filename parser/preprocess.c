// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The preprocessor works on token arrays, in two steps per file, as
 * SystemTap's language reference describes:
 *
 *  1. keep the chosen branch of each file-level conditional, and take
 *     out every "@define NAME(params) %( body %)" found on the way (a
 *     definition in a branch not taken does not count, as in
 *     SystemTap 4);
 *  2. walk what is left, expanding macro calls and script arguments;
 *     conditionals that macro bodies bring are decided there.
 *
 * Macro arguments are expanded before they are substituted (as in C),
 * so a macro body that passes its own parameter on to another macro
 * works.  Expanded tokens keep their own position and point back at
 * the invocation, so errors inside macros name both places.
 */

#include "preprocess.h"
#include "../lib/base.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>

#define MAX_DEPTH 64
/* Tokens one file may produce: far beyond any real tapset (the largest
 * in systemtap-common makes about 11,000), small enough that a macro
 * doubling its argument at every level fails fast instead of eating
 * the machine. */
#define MAX_TOKENS (512 << 10)
/* Macro calls one file may make: a macro that calls another twice,
 * nested twenty deep, produces nothing yet costs a million calls. */
#define MAX_CALLS 100000

struct macro {
	const char *name;	/* without the '@' */
	const char **params;	/* without the '@' */
	int nparams;
	int has_parens;		/* defined as NAME(...), even NAME() */
	const struct token *body;
	int nbody;
	struct loc loc;
};

struct pp {
	const struct pp_env *env;
	struct pmap lib;	/* from .stpm files, visible everywhere */
	/* Token buffers reused file after file: a tapset library is
	 * hundreds of files, and fresh buffers for each cost page faults. */
	struct tokens raw, rest, out;
	int overflow;		/* MAX_TOKENS reached in this file */
	int calls;		/* macro calls in this file */
};

/* What a walk over a token range needs to know. */
struct walk {
	struct pp *pp;
	const struct source *src;
	struct pmap *local;	/* this file's macros */
	const struct macro *frame;	/* macro whose body is walked */
	const struct origin *origin;	/* where that body was invoked */
	struct tokens *args;	/* frame's expanded arguments */
	int depth;		/* macro expansion nesting */
	int cond_depth;		/* conditional nesting */
};

static const char *const builtins[] = {
	"@cast", "@var", "@entry", "@defined", "@probewrite", "@const",
	"@perf", "@count", "@sum", "@min", "@max", "@avg", "@variance",
	"@hist_linear", "@hist_log", "@kregister", "@uregister",
	"@kderef", "@uderef",
};

static void walk(struct walk *w, const struct token *t, int n,
		 struct tokens *out);
static int choose_branch(struct walk *w, const struct token *t, int i, int n,
			 int *from, int *to);

struct pp *pp_new(const struct pp_env *env)
{
	struct pp *pp = ar_alloc(sizeof(*pp));

	pp->env = env;
	return pp;
}

int pp_vercmp(const char *a, const char *b)
{
	return strverscmp(a, b);
}

static void perr(const struct token *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void perr(const struct token *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vat(&t->loc, "parse error", fmt, ap);
	va_end(ap);
}

/* Where to go on after an error that spoils the rest of t[0..n): the
 * end, but a range that ends a file keeps its EOF token. */
static int rest_of(const struct token *t, int n)
{
	return n > 0 && t[n - 1].kind == TK_EOF ? n - 1 : n;
}

static int is_builtin(const char *name)
{
	for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
		if (!strcmp(name, builtins[i]))
			return 1;
	return 0;
}

/* name: interned, without the '@' */
static struct macro *find_macro(struct walk *w, const char *name)
{
	struct macro *m = pmap_get(w->local, name);

	return m ? m : pmap_get(&w->pp->lib, name);
}

/* A token of the range being walked, placed in the expansion chain. */
static const struct token *at(const struct walk *w, const struct token *t)
{
	static struct token copy;

	if (!w->origin || t->loc.from)
		return t;
	copy = *t;
	copy.loc.from = w->origin;
	return &copy;
}

/* Index just past the %) matching the %( at t[i]; n if unmatched. */
static int match_close(const struct token *t, int i, int n)
{
	int depth = 0;

	for (; i < n; i++) {
		if (t[i].kind == TK_PP_OPEN)
			depth++;
		else if (t[i].kind == TK_PP_CLOSE && --depth == 0)
			return i + 1;
		else if (t[i].kind == TK_EOF)
			break;
	}
	return -1;
}

/* ---- step 1: definitions ---- */

/* After a malformed @define, skip what is left of it, body included,
 * so its pieces do not cause errors of their own. */
static int skip_define(const struct token *t, int i, int n)
{
	while (i < n && t[i].kind != TK_EOF && t[i].kind != TK_PP_OPEN &&
	       !tok_is(&t[i], "@define"))
		i++;
	if (i < n && t[i].kind == TK_PP_OPEN) {
		int close = match_close(t, i, n);

		return close < 0 ? n - 1 : close;
	}
	return i;
}

/* define = "@define" IDENT ( "(" [ IDENT { "," IDENT } ] ")" )? "%(" body "%)" */
static int parse_define(struct walk *w, const struct token *t, int i, int n)
{
	struct macro *m = ar_alloc(sizeof(*m));
	struct vec params = { 0 };
	struct pmap *map;
	struct macro *prev;
	int close;

	m->loc = t[i].loc;
	if (++i >= n || t[i].kind != TK_IDENT || t[i].str[0] == '$' ||
	    t[i].str[0] == '@') {
		perr(&t[i], "expected a macro name, saw %s",
		     tok_describe(&t[i]));
		return skip_define(t, i, n);
	}
	if (lex_is_keyword(t[i].str)) {
		perr(&t[i], "expected a macro name, saw %s", tok_describe(&t[i]));
		return skip_define(t, i, n);
	}
	if (!strcmp(t[i].str, "define")) {
		perr(&t[i], "'@define' cannot be redefined");
		return skip_define(t, i, n);
	}
	m->name = t[i].str;
	m->loc = t[i].loc;
	i++;
	if (tok_is_op(&t[i], OP_LPAREN)) {
		m->has_parens = 1;
		i++;
		do {
			if (t[i].kind != TK_IDENT || t[i].str[0] == '$' ||
			    t[i].str[0] == '@') {
				perr(&t[i], "expected a macro parameter name, saw %s",
				     tok_describe(&t[i]));
				return skip_define(t, i, n);
			}
			vec_push(&params, (void *)t[i].str);
			i++;
			if (!tok_is_op(&t[i], OP_COMMA) &&
			    !tok_is_op(&t[i], OP_RPAREN)) {
				perr(&t[i], "expected ',' or ')', saw %s",
				     tok_describe(&t[i]));
				return skip_define(t, i, n);
			}
		} while (tok_is_op(&t[i++], OP_COMMA));
	}
	if (t[i].kind != TK_PP_OPEN) {
		perr(&t[i], "expected '%%(', saw %s", tok_describe(&t[i]));
		return i;
	}
	close = match_close(t, i, n);
	if (close < 0) {
		perr(&t[i], "unterminated macro body: missing '%%)'");
		return rest_of(t, n);
	}
	m->nbody = close - i - 2;
	m->body = ar_alloc((m->nbody + 1) * sizeof(*m->body));
	memcpy((void *)m->body, &t[i + 1], m->nbody * sizeof(*m->body));
	m->nparams = params.len;
	m->params = (const char **)params.v;
	map = w->src->is_macro_lib ? &w->pp->lib : w->local;
	prev = pmap_get(map, m->name);
	/* A library file read later (a -I directory's, after the installed
	 * library's) replaces a macro of another file: SystemTap's own
	 * tapset directory given with -I defines @choose_defined too. */
	if (prev && w->src->is_macro_lib && prev->loc.src != m->loc.src)
		prev = NULL;
	if (prev) {
		diag_at(&m->loc, "parse error", "macro '@%s' is already defined",
			m->name);
		diag_note(&prev->loc, "previous definition of '@%s' is here",
			  m->name);
	} else {
		pmap_put(map, m->name, m);
	}
	return close;
}

/* ---- conditions ---- */

struct cond_parser {
	struct walk *w;
	const struct token *t;
	int i, n;
	const struct token *end;	/* the "%?" after the condition */
	int failed;
};

static const struct token *cp_peek(struct cond_parser *cp)
{
	return cp->i < cp->n ? &cp->t[cp->i] : cp->end;
}

static void cp_fail(struct cond_parser *cp, const char *fmt, const char *saw)
{
	if (!cp->failed)
		perr(cp_peek(cp), fmt, saw);
	cp->failed = 1;
}

static const char *config_value(struct walk *w, const char *name)
{
	const struct pp_env *env = w->pp->env;
	const char *v = env->config ? env->config(env->config_ctx, name) : NULL;

	return v ? v : "";
}

/* What an operand of a comparison is: a number compares with numbers,
 * a string with strings (SystemTap's language reference).  A CONFIG_
 * option set to a number, or not set, compares with either. */
enum operand_kind { OPK_NUM, OPK_STR, OPK_ANY };

struct operand {
	const struct token *tok;	/* where it starts */
	const char *str;		/* its string form */
	int64_t num;			/* its value, when a number */
	enum operand_kind kind;
	int is_ver;			/* ordered as versions */
	int is_num;			/* num holds its value */
	int eq_only;			/* compared with == and != only */
};

/* A symbol of the target or the session into o; 0 if s names none. */
static int cond_symbol(struct cond_parser *cp, const char *s,
		       struct operand *o)
{
	const struct pp_env *env = cp->w->pp->env;
	char *end;

	o->kind = OPK_STR;
	if (!strcmp(s, "kernel_v") || !strcmp(s, "kernel_vr") ||
	    !strcmp(s, "systemtap_v")) {
		o->is_ver = 1;
		o->str = !strcmp(s, "kernel_v") ? env->kernel_v :
			 !strcmp(s, "kernel_vr") ? env->kernel_vr :
						   env->systemtap_v;
	} else if (!strcmp(s, "arch")) {
		o->str = env->arch;
		o->eq_only = 1;
	} else if (!strcmp(s, "runtime")) {
		o->str = env->runtime;
		o->eq_only = 1;
	} else if (!strcmp(s, "systemtap_privilege")) {
		o->str = env->privilege;
		o->eq_only = 1;
	} else if (!strcmp(s, "guru_mode") || !strcmp(s, "$#")) {
		o->eq_only = s[0] == 'g';
		/* $# is a literal by evaluation time, but not yet when a
		 * malformed conditional is parsed to find its end. */
		o->kind = OPK_NUM;
		o->is_num = 1;
		o->num = s[0] == 'g' ? env->guru : env->argc;
		o->str = ar_printf("%lld", (long long)o->num);
	} else if (!strcmp(s, "@#")) {
		o->str = ar_printf("%d", env->argc);
	} else if (!strncmp(s, "CONFIG_", 7)) {
		/* an option not set is "" to a string, 0 to a number */
		o->str = config_value(cp->w, s);
		o->num = strtoll(o->str, &end, 0);
		o->is_num = !*end;
		o->kind = o->is_num || !*o->str ? OPK_ANY : OPK_STR;
	} else {
		return 0;
	}
	return 1;
}

/* operand = NUMBER | "-" NUMBER | STRING | symbol
 * ($# and the script arguments are literals by now.) */
static void cond_operand(struct cond_parser *cp, int rhs, struct operand *o)
{
	const struct token *t = cp_peek(cp);

	memset(o, 0, sizeof(*o));
	o->tok = t;
	o->str = "";
	if (t->kind == TK_NUMBER) {
		cp->i++;
		o->kind = OPK_NUM;
		o->is_num = 1;
		o->num = t->num;
		o->str = t->str;
	} else if (t->kind == TK_STRING) {
		cp->i++;
		o->kind = OPK_STR;
		o->str = t->str;
	} else if (t->kind == TK_OP && t->op == OP_MINUS && cp->i + 1 < cp->n &&
		   cp->t[cp->i + 1].kind == TK_NUMBER) {
		cp->i += 2;
		o->kind = OPK_NUM;
		o->is_num = 1;
		o->num = (int64_t)(0 - (uint64_t)cp->t[cp->i - 1].num);
		o->str = ar_printf("%lld", (long long)o->num);
	} else if (t->kind != TK_IDENT) {
		cp_fail(cp, rhs ? "expected a literal, saw %s" :
			"expected a preprocessor condition, saw %s",
			tok_describe(t));
	} else if (cond_symbol(cp, t->str, o)) {
		cp->i++;
	} else {
		cp_fail(cp, "unknown preprocessor condition %s", tok_describe(t));
	}
}

static const char *const kind_name[] = { "a number", "a string" };

/* Report a number compared with a string at the right operand. */
static int kinds_agree(struct cond_parser *cp, const struct operand *l,
		       const struct operand *r)
{
	if (l->kind == OPK_ANY || r->kind == OPK_ANY || l->kind == r->kind)
		return 1;
	perr(r->tok, "expected %s, saw %s", kind_name[l->kind],
	     tok_describe(r->tok));
	if (l->tok->kind == TK_IDENT && !strncmp(l->tok->str, "CONFIG_", 7))
		diag_note(&l->tok->loc, "the left side is a string: %s is \"%s\"",
			  l->tok->str, l->str);
	else
		diag_note(&l->tok->loc, "the left side is %s", kind_name[l->kind]);
	cp->failed = 1;
	return 0;
}

static int compare(int op, int c)
{
	switch (op) {
	case OP_EQ: return c == 0;
	case OP_NE: return c != 0;
	case OP_LT: return c < 0;
	case OP_LE: return c <= 0;
	case OP_GT: return c > 0;
	default: return c >= 0;
	}
}

static int is_cmp_op(const struct token *t)
{
	return t->kind == TK_OP &&
	       (t->op == OP_EQ || t->op == OP_NE || t->op == OP_LT ||
		t->op == OP_LE || t->op == OP_GT || t->op == OP_GE);
}

static int cond_or(struct cond_parser *cp);

/* cmp = "(" or ")" | operand op operand */
static int cond_cmp(struct cond_parser *cp)
{
	struct operand l, r;
	int op, c;

	if (tok_is_op(cp_peek(cp), OP_LPAREN)) {
		cp->i++;
		c = cond_or(cp);
		if (!tok_is_op(cp_peek(cp), OP_RPAREN))
			cp_fail(cp, "expected ')', saw %s",
				tok_describe(cp_peek(cp)));
		cp->i++;
		return c;
	}
	cond_operand(cp, 0, &l);
	if (cp->failed)
		return 0;
	if (!is_cmp_op(cp_peek(cp))) {
		cp_fail(cp, "expected a comparison operator, saw %s",
			tok_describe(cp_peek(cp)));
		return 0;
	}
	op = cp_peek(cp)->op;
	/* a name, a runtime, a mode: equal or not, never ordered (as stap) */
	if (l.eq_only && op != OP_EQ && op != OP_NE) {
		cp_fail(cp, ar_printf("expected '==' or '!=' after %s, saw %%s", l.tok->str),
			tok_describe(cp_peek(cp)));
		return 0;
	}
	cp->i++;
	cond_operand(cp, 1, &r);
	if (cp->failed || !kinds_agree(cp, &l, &r))
		return 0;
	if (l.is_num && r.is_num)
		return compare(op, l.num < r.num ? -1 : l.num > r.num);
	if ((op == OP_EQ || op == OP_NE) && !r.is_num)
		return compare(op, fnmatch(r.str, l.str, 0) ? 1 : 0);
	if (l.is_ver || r.is_ver)
		return compare(op, pp_vercmp(l.str, r.str));
	return compare(op, strcmp(l.str, r.str));
}

static int cond_and(struct cond_parser *cp)
{
	int v = cond_cmp(cp);

	while (!cp->failed && tok_is_op(cp_peek(cp), OP_ANDAND)) {
		cp->i++;
		v = cond_cmp(cp) && v;
	}
	return v;
}

static int cond_or(struct cond_parser *cp)
{
	int v = cond_and(cp);

	while (!cp->failed && tok_is_op(cp_peek(cp), OP_OROR)) {
		cp->i++;
		v = cond_and(cp) || v;
	}
	return v;
}

static int eval_cond(struct walk *w, const struct token *t, int n,
		     const struct token *at)
{
	struct cond_parser cp = { w, t, 0, n, at, 0 };
	int v;

	if (n == 0) {
		perr(at, "expected a preprocessor condition, saw '%%?'");
		return 0;
	}
	v = cond_or(&cp);
	if (!cp.failed && cp.i < n)
		cp_fail(&cp, "expected '%%?', saw %s", tok_describe(cp_peek(&cp)));
	return cp.failed ? 0 : v;
}

/* ---- step 1: file-level conditionals and definitions ---- */

/* Keep the chosen branch of each file-level conditional and take out
 * the @define's, so a definition counts only where its branch does. */
static void resolve_top(struct walk *w, const struct token *t, int n,
			struct tokens *rest)
{
	for (int i = 0; i < n;) {
		if (diag_too_many())
			return;
		if (tok_is(&t[i], "@define")) {
			i = parse_define(w, t, i, n);
			continue;
		}
		if (t[i].kind == TK_PP_OPEN) {
			int from, to;

			if (w->cond_depth >= MAX_DEPTH) {
				perr(&t[i], "conditionals nested deeper than %d levels",
				     MAX_DEPTH);
				return;
			}
			i = choose_branch(w, t, i, n, &from, &to);
			w->cond_depth++;
			resolve_top(w, &t[from], to - from, rest);
			w->cond_depth--;
			continue;
		}
		if (w->src->is_macro_lib && t[i].kind != TK_EOF) {
			perr(&t[i], "a macro library holds only @define, saw %s",
			     tok_describe(&t[i]));
			while (i < n && t[i].kind != TK_EOF &&
			       !tok_is(&t[i], "@define") &&
			       t[i].kind != TK_PP_OPEN)
				i++;
			continue;
		}
		toks_push(rest, &t[i++]);
	}
}

/* ---- step 2: expansion ---- */

struct cond_parts {
	int then, els, close;	/* indices of %?, %: (or -1) and %) */
};

/* cond = "%(" COND "%?" TOKENS [ "%:" TOKENS ] "%)"
 * Finds the parts of the conditional at t[i]; returns the index to go
 * on from when it is malformed (after reporting), else -1. */
static int split_conditional(struct walk *w, const struct token *t, int i,
			     int n, struct cond_parts *c)
{
	int depth = 0, extra = -1;

	c->then = c->els = c->close = -1;
	for (int j = i; j < n && c->close < 0; j++) {
		enum tok_kind k = t[j].kind;

		if (k == TK_PP_OPEN)
			depth++;
		else if (k == TK_PP_CLOSE && --depth == 0)
			c->close = j;
		else if (depth == 1 && k == TK_PP_THEN && c->then < 0)
			c->then = j;
		else if (depth == 1 && k == TK_PP_ELSE && c->then >= 0 &&
			 c->els < 0)
			c->els = j;
		else if (depth == 1 && (k == TK_PP_THEN || k == TK_PP_ELSE) &&
			 c->then >= 0 && extra < 0)
			extra = j;	/* a second "%?", or "%:" */
		else if (k == TK_EOF)
			break;
	}
	if (c->close < 0) {
		perr(at(w, &t[i]), "unterminated conditional: missing '%%)'");
		return rest_of(t, n);
	}
	if (extra >= 0) {
		perr(at(w, &t[extra]), extra < c->els || c->els < 0 ?
		     "expected '%%:' or '%%)', saw %s" : "expected '%%)', saw %s",
		     tok_describe(&t[extra]));
		return c->close + 1;
	}
	if (c->then < 0) {
		/* Parse the condition to find where it stops: that token
		 * is where the "%?" should have been. */
		struct cond_parser cp = { w, &t[i + 1], 0, c->close - i - 1,
					  &t[c->close], 0 };

		cond_or(&cp);
		if (!cp.failed)
			perr(at(w, cp_peek(&cp)), "expected '%%?', saw %s",
			     tok_describe(cp_peek(&cp)));
		return c->close + 1;
	}
	return -1;
}

/* Evaluate the conditional at t[i]; from and to get the chosen branch
 * (empty when none).  Returns the index past its "%)". */
static int choose_branch(struct walk *w, const struct token *t, int i, int n,
			 int *from, int *to)
{
	struct cond_parts c;
	struct tokens cond = { 0 };
	int bad = split_conditional(w, t, i, n, &c);

	*from = *to = 0;
	if (bad >= 0)
		return bad;
	walk(w, &t[i + 1], c.then - i - 1, &cond);
	if (eval_cond(w, cond.t, cond.len, &t[c.then])) {
		*from = c.then + 1;
		*to = c.els < 0 ? c.close : c.els;
	} else if (c.els >= 0) {
		*from = c.els + 1;
		*to = c.close;
	}
	free(cond.t);
	return c.close + 1;
}

static int conditional(struct walk *w, const struct token *t, int i, int n,
		       struct tokens *out)
{
	int from, to, next;

	if (w->cond_depth >= MAX_DEPTH) {
		perr(at(w, &t[i]), "conditionals nested deeper than %d levels",
		     MAX_DEPTH);
		return rest_of(t, n);
	}
	next = choose_branch(w, t, i, n, &from, &to);
	w->cond_depth++;
	walk(w, &t[from], to - from, out);
	w->cond_depth--;
	return next;
}

/* Split "( a, b(c, d), e )" at top-level commas; returns index past ')'. */
static int collect_args(const struct token *t, int i, int n,
			struct vec *starts, struct vec *ends)
{
	int depth = 0;

	vec_push(starts, (void *)(intptr_t)(i + 1));
	for (int j = i; j < n; j++) {
		const struct token *k = &t[j];

		if (k->kind == TK_EOF)
			break;
		if (k->kind != TK_OP)
			continue;
		if (k->op == OP_LPAREN || k->op == OP_LBRACKET ||
		    k->op == OP_LBRACE)
			depth++;
		else if (k->op == OP_RPAREN || k->op == OP_RBRACKET ||
			 k->op == OP_RBRACE) {
			if (--depth == 0) {
				vec_push(ends, (void *)(intptr_t)j);
				return j + 1;
			}
		} else if (k->op == OP_COMMA && depth == 1) {
			vec_push(ends, (void *)(intptr_t)j);
			vec_push(starts, (void *)(intptr_t)(j + 1));
		}
	}
	return -1;
}

static void emit_body(struct walk *w, const struct macro *m,
		      struct tokens *args, const struct token *call,
		      struct tokens *out)
{
	struct origin *o = ar_alloc(sizeof(*o));
	struct walk inner = *w;
	int first = out->len;

	o->loc = at(w, call)->loc;
	o->what = "in expansion of macro '@%s'";
	o->name = m->name;
	inner.frame = m;
	inner.args = args;
	inner.origin = o;
	inner.depth = w->depth + 1;
	walk(&inner, m->body, m->nbody, out);
	if (out->len > first)
		out->t[first].space_before = call->space_before;
}

/* call = "@" NAME [ "(" arg { "," arg } ")" ] */
static int invoke(struct walk *w, const struct macro *m, const struct token *t,
		  int i, int n, struct tokens *out)
{
	struct vec starts = { 0 }, ends = { 0 };
	struct tokens *args;
	int next = i + 1, given = 0;

	if (++w->pp->calls > MAX_CALLS) {
		perr(at(w, &t[i]), "macro expansion too large (over %d macro calls)",
		     MAX_CALLS);
		w->pp->overflow = 1;
		return i + 1;
	}
	if (w->depth >= MAX_DEPTH) {
		perr(at(w, &t[i]), "macro '@%s' expands too deeply (recursive?)",
		     m->name);
		w->pp->overflow = 1;	/* once is enough: stop this file */
		return i + 1;
	}
	if (m->has_parens && tok_is_op(&t[i + 1], OP_LPAREN)) {
		next = collect_args(t, i + 1, n, &starts, &ends);
		if (next < 0) {
			perr(at(w, &t[i + 1]), "unterminated argument list of macro '@%s'",
			     m->name);
			return rest_of(t, n);
		}
		given = starts.len;
		if (given == 1 && (intptr_t)starts.v[0] == (intptr_t)ends.v[0])
			given = 0;	/* "@m()" */
	}
	if (given != m->nparams) {
		perr(at(w, &t[i]), "macro '@%s' takes %d argument%s, given %d",
		     m->name, m->nparams, m->nparams == 1 ? "" : "s", given);
		free(starts.v);
		free(ends.v);
		return next;
	}
	args = xcalloc(given ? given : 1, sizeof(*args));
	for (int a = 0; a < given; a++) {
		int s = (int)(intptr_t)starts.v[a], e = (int)(intptr_t)ends.v[a];

		walk(w, &t[s], e - s, &args[a]);
	}
	emit_body(w, m, args, &t[i], out);
	for (int a = 0; a < given; a++)
		free(args[a].t);
	free(args);
	free(starts.v);
	free(ends.v);
	return next;
}

static int used_before_defined(const struct walk *w, const struct token *use,
			       const struct macro *m)
{
	if (w->origin || use->loc.from || use->loc.src != m->loc.src)
		return 0;
	return use->loc.line < m->loc.line ||
	       (use->loc.line == m->loc.line && use->loc.col < m->loc.col);
}

static int frame_param(const struct walk *w, const char *name)
{
	if (!w->frame)
		return -1;
	for (int p = 0; p < w->frame->nparams; p++)
		if (!strcmp(w->frame->params[p], name + 1))
			return p;
	return -1;
}

/* "$3": paste the argument's tokens; "@3": the argument as a string. */
static int is_arg_ref(const char *s);

static void script_arg(struct walk *w, const struct token *t,
		       struct tokens *out)
{
	const struct pp_env *env = w->pp->env;
	struct origin *o;
	struct token s = *at(w, t);
	struct loc place = s.loc;
	int idx;

	if (t->str[1] == '#') {
		s.kind = t->str[0] == '$' ? TK_NUMBER : TK_STRING;
		s.num = env->argc;
		s.str = ar_printf("%d", env->argc);
		s.len = (int)strlen(s.str);
		toks_push(out, &s);
		return;
	}
	idx = atoi(t->str + 1);
	if (idx < 1 || idx > env->argc) {
		perr(at(w, t), "script argument %s out of range: %d given",
		     t->str, env->argc);
		return;
	}
	if (t->str[0] == '@') {
		struct sbuf sb = { 0 };

		for (const char *p = env->argv[idx - 1]; *p; p++) {
			if (*p == '"' || *p == '\\')
				sb_putc(&sb, '\\');
			sb_putc(&sb, *p);
		}
		s.kind = TK_STRING;
		s.str = ar_strndup(sb.s ? sb.s : "", sb.len);
		s.len = (int)sb.len;
		free(sb.s);
		toks_push(out, &s);
		return;
	}
	o = ar_alloc(sizeof(*o));
	o->loc = at(w, t)->loc;
	o->what = "in script argument %s";
	o->name = t->str;
	place.from = o;
	{
		int first = out->len;

		lex_text_at(env->argv[idx - 1], &place, out);
		if (out->len > first)
			out->t[first].space_before = t->space_before;
		/* its text is put in as tokens once: one naming another
		 * argument is refused, as stap refuses it */
		for (int k = first; k < out->len; k++)
			if (out->t[k].kind == TK_IDENT && is_arg_ref(out->t[k].str)) {
				perr(at(w, t), "invalid nested substitution: script argument %s is "
				     "'%s', which names %s", t->str, env->argv[idx - 1],
				     out->t[k].str);
				out->len = first;
				break;
			}
	}
}

static int is_arg_ref(const char *s)
{
	if (s[0] != '$' && s[0] != '@')
		return 0;
	if (s[1] == '#' && !s[2])
		return 1;
	if (s[1] < '0' || s[1] > '9')
		return 0;
	for (s += 2; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

static int at_ident(struct walk *w, const struct token *t, int i, int n,
		    struct tokens *out)
{
	const char *name = t[i].str;
	const struct macro *m;
	int p = frame_param(w, name);

	if (p >= 0) {
		for (int k = 0; k < w->args[p].len; k++) {
			struct token a = w->args[p].t[k];

			if (k == 0)
				a.space_before = t[i].space_before;
			toks_push(out, &a);
		}
		return i + 1;
	}
	/* A script's own macro may reuse a builtin's name ("@max"). */
	m = find_macro(w, intern(name + 1, strlen(name + 1)));
	if (m && used_before_defined(w, &t[i], m))
		m = NULL;	/* as in SystemTap: not defined yet there */
	if (m)
		return invoke(w, m, t, i, n, out);
	if (is_builtin(name)) {
		toks_push(out, at(w, &t[i]));
		return i + 1;
	}
	if (is_arg_ref(name)) {
		script_arg(w, &t[i], out);
		return i + 1;
	}
	if (!strcmp(name, "@define"))
		perr(at(w, &t[i]), "@define inside a macro body or conditional branch");
	else if (isdigit((unsigned char)name[1]))
		perr(at(w, &t[i]), "malformed script argument '%s': @N takes digits only", name);
	else
		perr(at(w, &t[i]), "unknown macro '%s'", name);
	return i + 1;
}

static void walk(struct walk *w, const struct token *t, int n,
		 struct tokens *out)
{
	for (int i = 0; i < n;) {
		const struct token *k = &t[i];

		if (diag_too_many() || w->pp->overflow)
			return;
		if (out->len >= MAX_TOKENS) {
			perr(at(w, k), "macro expansion too large (over %d tokens)",
			     MAX_TOKENS);
			w->pp->overflow = 1;
			return;
		}
		switch (k->kind) {
		case TK_PP_OPEN:
			i = conditional(w, t, i, n, out);
			break;
		case TK_PP_THEN:
		case TK_PP_ELSE:
		case TK_PP_CLOSE:
			perr(at(w, k), "'%s' outside a conditional", k->str);
			i++;
			break;
		case TK_IDENT:
			if (k->str[0] == '@') {
				i = at_ident(w, t, i, n, out);
				break;
			}
			if (k->str[0] == '$' && is_arg_ref(k->str)) {
				script_arg(w, k, out);
				i++;
				break;
			}
			if (k->str[0] == '$' && isdigit((unsigned char)k->str[1])) {
				perr(at(w, k), "malformed script argument '%s': $N takes "
				     "digits only", k->str);
				i++;
				break;
			}
			/* fall through */
		default:
			toks_push(out, k);
			if (w->origin)
				out->t[out->len - 1].loc.from = w->origin;
			i++;
		}
	}
}

void pp_file(struct pp *pp, const struct source *src,
	     const struct tokens *in, struct tokens *out)
{
	struct walk w = { 0 };
	struct pmap local = { 0 };

	w.pp = pp;
	w.src = src;
	w.local = &local;
	pp->overflow = 0;
	pp->calls = 0;
	pp->rest.len = 0;
	resolve_top(&w, in->t, in->len, &pp->rest);
	walk(&w, pp->rest.t, pp->rest.len, out);
	if (!out->len || out->t[out->len - 1].kind != TK_EOF) {
		struct token eof = in->t[in->len - 1];

		toks_push(out, &eof);
	}
	free(local.keys);
	free(local.vals);
}

const struct tokens *pp_source(struct pp *pp, const struct source *src)
{
	pp->raw.len = 0;
	pp->out.len = 0;
	lex_source(src, &pp->raw);
	pp_file(pp, src, &pp->raw, &pp->out);
	return &pp->out;
}
