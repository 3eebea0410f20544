/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The abstract syntax tree: one struct node, tagged by enum node_kind.
 * Each kind lists the fields it uses; the others stay zero.  Lists
 * (arguments, statements, index keys) are struct vec of struct node *.
 */
#ifndef STP_AST_H
#define STP_AST_H

#include "lex.h"
#include "util.h"

enum node_kind {
	/* ---- expressions ---- */
	N_NUM,		/* num; str = spelling as written */
	N_STR,		/* str = contents, escapes as written */
	N_EMBEDDED,	/* str = C text of %{ %} (also as statement/top level) */
	N_VAR,		/* name: a scalar or array; comps (autocast "x->f") */
	N_INDEX,	/* lhs = array (N_VAR), args = keys (N_STAR in slices) */
	N_STAR,		/* "*" as a key: every value (slices) */
	N_CALL,		/* name, args; comps (autocast "f()->m") */
	N_BINARY,	/* op, lhs, rhs: || && | ^ & == != < ... . + - * / % =~ !~ */
	N_UNARY,	/* op, lhs: prefix - + ! ~ */
	N_INCDEC,	/* op (OP_INC/OP_DEC), lhs, post = 1 for x++ */
	N_ASSIGN,	/* op (= += ... .= <<<), lhs, rhs */
	N_TERNARY,	/* cond, then, els */
	N_IN,		/* args = keys, lhs = array (N_VAR) */
	N_TARGET,	/* name ("$x", "$$vars"), comps, addr (&), pretty */
	N_AT,		/* name ("@cast", "@sum"...), args, comps, addr, pretty */
	N_AUTOCAST,	/* lhs = any expression, comps: "(e)->f", "(e)[i]" */
	N_MEMBER,	/* component: name; "->name" */
	N_SUBSCRIPT,	/* component: lhs = index expression; "[e]" */

	/* ---- statements ---- */
	N_BLOCK,	/* args = statements */
	N_NULL,		/* ";" */
	N_EXPRSTMT,	/* lhs */
	N_IF,		/* cond, then, els (may be NULL) */
	N_WHILE,	/* cond, body */
	N_FOR,		/* init, cond, incr (each may be NULL), body */
	N_FOREACH,	/* see struct foreach */
	N_BREAK,
	N_CONTINUE,
	N_NEXT,
	N_RETURN,	/* lhs (may be NULL) */
	N_DELETE,	/* lhs */
	N_TRY,		/* body = try block, els = catch block, name = var|NULL */

	/* ---- top level ---- */
	N_PROBE,	/* points (struct probe_point), body */
	N_ALIAS,	/* alias_names, points, body, epilogue (for +=),
			 * els = epilogue block of "= PP { pro }, { epi }" */
	N_GLOBAL,	/* name, init (N_NUM/N_STR/NULL), size, wrap, private */
	N_FUNCTION,	/* name, type, params, priority, body (N_BLOCK or
			 * N_EMBEDDED), private */
};

enum type {
	T_UNKNOWN,
	T_LONG,
	T_STRING,
	T_STATS,
};

struct probe_point;

struct probe_comp {
	const char *name;	/* may hold wildcards: "vfs_*", "*"; NULL
				 * for a brace group */
	struct node *arg;	/* N_NUM, N_STR or NULL */
	struct probe_point **alts;	/* brace group "{a, b.c}": each
					 * alternative is a chain of comps */
	int nalts;
	struct loc loc;
};

struct probe_point {
	struct probe_comp *comps;
	int ncomps;
	int optional;		/* "?" */
	int sufficient;		/* "!" */
	struct node *cond;	/* "if (e)" or NULL */
	struct loc loc;
};

struct param {
	const char *name;
	enum type type;		/* declared, or T_UNKNOWN */
	struct loc loc;
};

struct foreach {
	const char *value;	/* "v = [..]" variable, or NULL */
	struct vec keys;	/* struct node N_VAR */
	int key_sort[9];	/* per key: +1, -1 or 0 */
	int value_sort;		/* sort marker on the array (by value) */
	struct node *array;	/* N_VAR */
	struct vec slice;	/* "arr[k, *]" keys, or empty */
	const char *sort_agg;	/* "@sum" etc: sort by that aggregate */
	struct node *limit;	/* or NULL */
};

struct node {
	enum node_kind kind;
	int op;
	struct loc loc;
	const char *name;
	const char *str;
	int64_t num;
	struct node *lhs, *rhs, *cond, *then, *els, *init, *incr, *body;
	struct vec args;
	struct vec comps;
	unsigned char post, addr, pretty;

	/* Kind-specific parts; the kind says which one is valid. */
	union {
		struct foreach *fe;		/* N_FOREACH */
		struct {			/* N_PROBE, N_ALIAS */
			struct probe_point **points;
			struct probe_point **alias_names;
			int npoints;
			int nalias_names;
			int epilogue;		/* N_ALIAS: "+=" */
		};
		struct {			/* N_GLOBAL, N_FUNCTION */
			int private_;
			int size;		/* N_GLOBAL: [N]; 0 if none */
			unsigned char wrap;	/* N_GLOBAL: "%" */
			unsigned char is_array;	/* N_GLOBAL: has [..] */
			unsigned char has_priority;
			enum type type;		/* N_FUNCTION return type */
			int nparams;
			struct param *params;	/* N_FUNCTION */
			int64_t priority;	/* N_FUNCTION ":N" */
		};
	};
};

/* One parsed file. */
struct script {
	const struct source *src;
	struct vec decls;	/* top-level nodes, in order */
};

struct node *node_new(enum node_kind kind, const struct loc *loc);
const char *type_name(enum type t);

#endif
