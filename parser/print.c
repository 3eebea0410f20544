// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The printer: AST -> canonical source (stp -p1).  Parentheses appear
 * only where precedence needs them, one declaration and one statement
 * per line, tabs for indentation.  Printing, reparsing and printing
 * again gives the same text, which the tests check on every corpus.
 */
#include "parse.h"

#include <string.h>

/* Precedence, loosest first; mirrors the parser's levels. */
enum prec {
	P_ASSIGN = 1,
	P_TERNARY,
	P_OROR,
	P_ANDAND,
	P_OR,
	P_XOR,
	P_AND,
	P_IN,
	P_CMP,
	P_SHIFT,
	P_CAT,
	P_ADD,
	P_MUL,
	P_UNARY,
	P_POSTFIX,
	P_PRIMARY,
};

static void stmt(struct sbuf *o, const struct node *n, int ind);

static int binop_prec(int op)
{
	switch (op) {
	case OP_OROR: return P_OROR;
	case OP_ANDAND: return P_ANDAND;
	case OP_PIPE: return P_OR;
	case OP_CARET: return P_XOR;
	case OP_AMP: return P_AND;
	case OP_SHL: case OP_SHR: return P_SHIFT;
	case OP_DOT: return P_CAT;
	case OP_PLUS: case OP_MINUS: return P_ADD;
	case OP_STAR: case OP_SLASH: case OP_PERCENT: return P_MUL;
	default: return P_CMP;
	}
}

static int prec_of(const struct node *n)
{
	switch (n->kind) {
	case N_ASSIGN: return P_ASSIGN;
	case N_TERNARY: return P_TERNARY;
	case N_BINARY: return binop_prec(n->op);
	case N_IN: return P_IN;
	case N_UNARY: return P_UNARY;
	case N_INCDEC: return n->post ? P_POSTFIX : P_UNARY;
	default: return P_PRIMARY;
	}
}

static void expr(struct sbuf *o, const struct node *n, int min);

static void list(struct sbuf *o, const struct vec *v)
{
	for (int i = 0; i < v->len; i++) {
		if (i)
			sb_puts(o, ", ");
		expr(o, v->v[i], P_ASSIGN);
	}
}

static void string(struct sbuf *o, const char *s)
{
	sb_putc(o, '"');
	sb_puts(o, s);
	sb_putc(o, '"');
}

static void comps(struct sbuf *o, const struct node *n)
{
	for (int i = 0; i < n->comps.len; i++) {
		const struct node *c = n->comps.v[i];

		if (c->kind == N_MEMBER) {
			sb_puts(o, "->");
			sb_puts(o, c->name);
		} else {
			sb_putc(o, '[');
			expr(o, c->lhs, P_ASSIGN);
			sb_putc(o, ']');
		}
	}
	if (n->pretty)
		sb_puts(o, n->pretty == 2 ? "$$" : "$");
}

static void unary_operand(struct sbuf *o, const struct node *n)
{
	/* "- -x" must not print as "--x": parenthesize nested prefixes. */
	if ((n->kind == N_UNARY || (n->kind == N_INCDEC && !n->post)) ||
	    (n->kind == N_NUM && n->str[0] == '-'))
		expr(o, n, P_PRIMARY);
	else
		expr(o, n, P_UNARY);
}

static void expr_body(struct sbuf *o, const struct node *n)
{
	int p = prec_of(n);

	switch (n->kind) {
	case N_NUM:
		sb_puts(o, n->str);
		break;
	case N_STR:
		string(o, n->str);
		break;
	case N_EMBEDDED:
		sb_printf(o, "%%{%s%%}", n->str);
		break;
	case N_VAR:
		sb_puts(o, n->name);
		comps(o, n);
		break;
	case N_STAR:
		sb_putc(o, '*');
		break;
	case N_INDEX:
		expr(o, n->lhs, P_PRIMARY);
		sb_putc(o, '[');
		list(o, &n->args);
		sb_putc(o, ']');
		comps(o, n);
		break;
	case N_CALL:
		sb_printf(o, "%s(", n->name);
		list(o, &n->args);
		sb_putc(o, ')');
		comps(o, n);
		break;
	case N_BINARY:
		expr(o, n->lhs, p);
		sb_printf(o, " %s ", op_spelling[n->op]);
		expr(o, n->rhs, p + 1);
		break;
	case N_UNARY:
		sb_puts(o, op_spelling[n->op]);
		/* "!~x" would lex as the operator "!~": "!(~x)" */
		if (n->op == OP_NOT && n->lhs->kind == N_UNARY &&
		    n->lhs->op == OP_TILDE)
			expr(o, n->lhs, P_PRIMARY);
		else if (n->op == OP_NOT || n->op == OP_TILDE ||
		    (n->op == OP_AMP && n->lhs->kind != N_UNARY))
			expr(o, n->lhs, P_UNARY);
		else
			unary_operand(o, n->lhs);
		break;
	case N_INCDEC:
		if (n->post) {
			expr(o, n->lhs, P_POSTFIX);
			sb_puts(o, op_spelling[n->op]);
		} else {
			sb_puts(o, op_spelling[n->op]);
			unary_operand(o, n->lhs);
		}
		break;
	case N_ASSIGN:
		expr(o, n->lhs, P_UNARY);
		sb_printf(o, " %s ", op_spelling[n->op]);
		expr(o, n->rhs, P_ASSIGN);
		break;
	case N_TERNARY:
		expr(o, n->cond, P_OROR);
		sb_puts(o, " ? ");
		expr(o, n->then, P_ASSIGN);
		sb_puts(o, " : ");
		expr(o, n->els, P_TERNARY);
		break;
	case N_IN:
		if (n->args.len == 1 &&
		    ((const struct node *)n->args.v[0])->kind != N_STAR) {
			expr(o, n->args.v[0], P_CMP);
		} else {
			sb_putc(o, '[');
			list(o, &n->args);
			sb_putc(o, ']');
		}
		sb_puts(o, " in ");
		sb_puts(o, n->lhs->name);
		break;
	case N_AUTOCAST:
		if (n->addr)
			sb_putc(o, '&');
		sb_putc(o, '(');
		expr(o, n->lhs, P_ASSIGN);
		sb_putc(o, ')');
		comps(o, n);
		break;
	case N_TARGET:
		if (n->op && n->args.len) {
			/* a write pass 2 made a call of its setter: shown
			 * as the script wrote it, the value being its last
			 * argument */
			sb_puts(o, n->name);
			comps(o, n);
			sb_printf(o, " %s ", op_spelling[n->op]);
			expr(o, n->args.v[n->args.len - 1], P_ASSIGN);
			break;
		}
		if (n->addr)
			sb_putc(o, '&');
		sb_puts(o, n->name);
		comps(o, n);
		break;
	case N_AT:
		if (n->addr)
			sb_putc(o, '&');
		sb_printf(o, "%s(", n->name);
		list(o, &n->args);
		sb_putc(o, ')');
		comps(o, n);
		break;
	default:
		sb_puts(o, "<?>");
	}
}

static void expr(struct sbuf *o, const struct node *n, int min)
{
	int paren = prec_of(n) < min;

	/* "(-1)[...]"-style corner: a negative literal in a tight spot. */
	if (n->kind == N_NUM && n->str[0] == '-' && min > P_UNARY)
		paren = 1;
	if (paren)
		sb_putc(o, '(');
	expr_body(o, n);
	if (paren)
		sb_putc(o, ')');
}

void print_expr(struct sbuf *o, const struct node *n)
{
	expr(o, n, P_ASSIGN);
}

static void indent(struct sbuf *o, int ind)
{
	for (int i = 0; i < ind; i++)
		sb_putc(o, '\t');
}

static void block_body(struct sbuf *o, const struct node *b, int ind)
{
	sb_puts(o, "{\n");
	for (int i = 0; i < b->args.len; i++)
		stmt(o, b->args.v[i], ind + 1);
	indent(o, ind);
	sb_putc(o, '}');
}

/* A statement that follows "if (...)", "else", "while (...)"... */
static void sub_stmt(struct sbuf *o, const struct node *n, int ind)
{
	if (n->kind == N_BLOCK) {
		sb_putc(o, ' ');
		block_body(o, n, ind);
		sb_putc(o, '\n');
	} else {
		sb_putc(o, '\n');
		stmt(o, n, ind + 1);
	}
}

static void foreach_head(struct sbuf *o, const struct foreach *fe)
{
	static const char *const mark[] = { "-", "", "+" };

	sb_puts(o, "foreach (");
	if (fe->value)
		sb_printf(o, "%s = ", fe->value);
	if (fe->keys.len > 1 || fe->value)
		sb_putc(o, '[');
	for (int i = 0; i < fe->keys.len; i++) {
		const struct node *k = fe->keys.v[i];

		sb_printf(o, "%s%s%s", i ? ", " : "", k->name,
			  mark[fe->key_sort[i] + 1]);
	}
	if (fe->keys.len > 1 || fe->value)
		sb_putc(o, ']');
	sb_puts(o, " in ");
	expr(o, fe->array, P_PRIMARY);
	if (fe->slice.len) {
		sb_putc(o, '[');
		list(o, &fe->slice);
		sb_putc(o, ']');
	}
	if (fe->sort_agg)
		sb_printf(o, " %s", fe->sort_agg);
	sb_puts(o, mark[fe->value_sort + 1]);
	if (fe->limit) {
		sb_puts(o, " limit ");
		expr(o, fe->limit, P_ASSIGN);
	}
	sb_putc(o, ')');
}

static void stmt_body(struct sbuf *o, const struct node *n, int ind);

static void stmt(struct sbuf *o, const struct node *n, int ind)
{
	indent(o, ind);
	stmt_body(o, n, ind);
}

static void stmt_body(struct sbuf *o, const struct node *n, int ind)
{
	switch (n->kind) {
	case N_BLOCK:
		block_body(o, n, ind);
		sb_putc(o, '\n');
		return;
	case N_NULL:
		sb_puts(o, ";\n");
		return;
	case N_EXPRSTMT:
		expr(o, n->lhs, P_ASSIGN);
		sb_puts(o, ";\n");
		return;
	case N_IF:
		sb_puts(o, "if (");
		expr(o, n->cond, P_ASSIGN);
		sb_putc(o, ')');
		sub_stmt(o, n->then, ind);
		if (n->els) {
			indent(o, ind);
			sb_puts(o, "else");
			if (n->els->kind == N_IF) {
				/* "else if" chains stay flat */
				sb_putc(o, ' ');
				stmt_body(o, n->els, ind);
				return;
			}
			sub_stmt(o, n->els, ind);
		}
		return;
	case N_WHILE:
		sb_puts(o, "while (");
		expr(o, n->cond, P_ASSIGN);
		sb_putc(o, ')');
		sub_stmt(o, n->body, ind);
		return;
	case N_FOR:
		sb_puts(o, "for (");
		if (n->init)
			expr(o, n->init, P_ASSIGN);
		sb_puts(o, "; ");
		if (n->cond)
			expr(o, n->cond, P_ASSIGN);
		sb_puts(o, "; ");
		if (n->incr)
			expr(o, n->incr, P_ASSIGN);
		sb_putc(o, ')');
		sub_stmt(o, n->body, ind);
		return;
	case N_FOREACH:
		foreach_head(o, n->fe);
		sub_stmt(o, n->body, ind);
		return;
	case N_BREAK:
		sb_puts(o, "break;\n");
		return;
	case N_CONTINUE:
		sb_puts(o, "continue;\n");
		return;
	case N_NEXT:
		sb_puts(o, "next;\n");
		return;
	case N_RETURN:
		sb_puts(o, "return");
		if (n->lhs) {
			sb_putc(o, ' ');
			expr(o, n->lhs, P_ASSIGN);
		}
		sb_puts(o, ";\n");
		return;
	case N_DELETE:
		sb_puts(o, "delete ");
		expr(o, n->lhs, P_ASSIGN);
		sb_puts(o, ";\n");
		return;
	case N_TRY:
		sb_puts(o, "try ");
		block_body(o, n->body, ind);
		sb_puts(o, " catch ");
		if (n->name)
			sb_printf(o, "(%s) ", n->name);
		block_body(o, n->els, ind);
		sb_putc(o, '\n');
		return;
	default:
		expr(o, n, P_ASSIGN);
		sb_puts(o, ";\n");
	}
}

static void marks(struct sbuf *o, const struct probe_point *pp)
{
	if (pp->sufficient)
		sb_putc(o, '!');
	else if (pp->optional)
		sb_putc(o, '?');
}

static void chain(struct sbuf *o, const struct probe_point *pp)
{
	for (int i = 0; i < pp->ncomps; i++) {
		const struct probe_comp *c = &pp->comps[i];

		if (i)
			sb_putc(o, '.');
		if (c->alts) {
			sb_putc(o, '{');
			for (int k = 0; k < c->nalts; k++) {
				if (k)
					sb_puts(o, ", ");
				chain(o, c->alts[k]);
				marks(o, c->alts[k]);
			}
			sb_putc(o, '}');
			continue;
		}
		sb_puts(o, c->name);
		if (c->arg) {
			sb_putc(o, '(');
			expr(o, c->arg, P_ASSIGN);
			sb_putc(o, ')');
		}
	}
}

void print_stmt(struct sbuf *o, const struct node *n, int ind)
{
	stmt(o, n, ind);
}

void print_probe_point(struct sbuf *o, const struct probe_point *pp)
{
	chain(o, pp);
	marks(o, pp);
	if (pp->cond) {
		sb_puts(o, " if (");
		expr(o, pp->cond, P_ASSIGN);
		sb_putc(o, ')');
	}
}

static void points(struct sbuf *o, struct probe_point **pts, int n)
{
	for (int i = 0; i < n; i++) {
		if (i)
			sb_puts(o, ", ");
		print_probe_point(o, pts[i]);
	}
}

static void function(struct sbuf *o, const struct node *n)
{
	if (n->private_)
		sb_puts(o, "private ");
	sb_printf(o, "function %s", n->name);
	if (n->type)
		sb_printf(o, ":%s", type_name(n->type));
	sb_puts(o, " (");
	for (int i = 0; i < n->nparams; i++) {
		sb_printf(o, "%s%s", i ? ", " : "", n->params[i].name);
		if (n->params[i].type)
			sb_printf(o, ":%s", type_name(n->params[i].type));
	}
	sb_putc(o, ')');
	if (n->has_priority)
		sb_printf(o, ":%lld", (long long)n->priority);
	sb_putc(o, ' ');
	if (n->body->kind == N_EMBEDDED)
		sb_printf(o, "%%{%s%%}", n->body->str);
	else
		block_body(o, n->body, 0);
	sb_putc(o, '\n');
}

static void decl(struct sbuf *o, const struct node *n)
{
	switch (n->kind) {
	case N_PROBE:
		sb_puts(o, "probe ");
		points(o, n->points, n->npoints);
		sb_putc(o, ' ');
		block_body(o, n->body, 0);
		sb_putc(o, '\n');
		break;
	case N_ALIAS:
		sb_puts(o, "probe ");
		points(o, n->alias_names, n->nalias_names);
		sb_puts(o, n->epilogue ? " += " : " = ");
		points(o, n->points, n->npoints);
		sb_putc(o, ' ');
		block_body(o, n->body, 0);
		if (n->els) {
			sb_puts(o, ", ");
			block_body(o, n->els, 0);
		}
		sb_putc(o, '\n');
		break;
	case N_GLOBAL:
		sb_printf(o, "%sglobal %s%s", n->private_ ? "private " : "",
			  n->name, n->wrap ? "%" : "");
		if (n->is_array) {
			if (n->size)
				sb_printf(o, "[%d]", n->size);
			else
				sb_puts(o, "[]");
		}
		if (n->init_value) {
			sb_puts(o, " = ");
			if (n->init_value->kind == N_NUM)
				sb_puts(o, n->init_value->str);
			else
				string(o, n->init_value->str);
		}
		sb_putc(o, '\n');
		break;
	case N_FUNCTION:
		function(o, n);
		break;
	case N_EMBEDDED:
		sb_printf(o, "%%{%s%%}\n", n->str);
		break;
	default:
		break;
	}
}

void print_script(struct sbuf *o, const struct script *s)
{
	for (int i = 0; i < s->decls.len; i++)
		decl(o, s->decls.v[i]);
}
