/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The abstract syntax tree: one struct node, tagged by enum node_kind.
 * Each kind lists the fields it uses; the others stay zero.  Lists
 * (arguments, statements, index keys) are struct vec of struct node *.
 */
#ifndef STP_AST_H
#define STP_AST_H

#include "lex.h"
#include "../lib/base.h"

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
	N_AT,		/* at (enum at_op), name ("@cast", "@sum"...), args,
			 * comps, addr, pretty */
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
	N_TRY,		/* body = try block, els = catch block, name = var|NULL,
			 * lhs = N_VAR of that var (its position) */

	/* ---- top level ---- */
	N_PROBE,	/* points (struct probe_point), body */
	N_ALIAS,	/* alias_names, points, body, epilogue (for +=),
			 * els = epilogue block of "= PP { pro }, { epi }" */
	N_GLOBAL,	/* name, init_value (N_NUM/N_STR/NULL), size, wrap,
			 * is_array, private_ */
	N_FUNCTION,	/* name, type, params, priority, body (N_BLOCK or
			 * N_EMBEDDED), private */
};

enum type {
	T_UNKNOWN,
	T_LONG,
	T_STRING,
	T_STATS,
	T_HIST,		/* the value of @hist_log/@hist_linear */
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
	int alt_sufficient;	/* expanded from a group's "!" alternative:
				 * the group's later ones are not wanted
				 * when this one resolves */
	struct node *cond;	/* "if (e)" or NULL */
	struct loc loc;
};

struct param {
	const char *name;
	enum type type;		/* declared, or T_UNKNOWN */
	struct loc loc;
};

/*
 * The @ operators, an N_AT's at: which builtin of that form it is.  Its
 * name keeps the spelling for messages and the printer.
 */
enum at_op {
	ATOP_NONE,	/* not an N_AT */
	ATOP_CAST, ATOP_VAR, ATOP_ENTRY, ATOP_DEFINED, ATOP_PROBEWRITE, ATOP_CONST,
	ATOP_PERF, ATOP_KREGISTER, ATOP_UREGISTER, ATOP_KDEREF, ATOP_UDEREF,
	/* a statistic's aggregates, in this order */
	ATOP_COUNT, ATOP_SUM, ATOP_MIN, ATOP_MAX, ATOP_AVG, ATOP_VARIANCE,
	ATOP_HIST_LINEAR, ATOP_HIST_LOG,
};

/* The operator spelt name ("@sum"), ATOP_NONE when there is none. */
enum at_op at_op_named(const char *name);

static inline int at_is_aggregate(int at)
{
	return at >= ATOP_COUNT && at <= ATOP_VARIANCE;
}

static inline int at_is_hist(int at)
{
	return at == ATOP_HIST_LINEAR || at == ATOP_HIST_LOG;
}

struct foreach {
	const char *value;	/* "v = [..]" variable, or NULL */
	struct vec keys;	/* struct node N_VAR */
	int key_sort[9];	/* per key: +1, -1 or 0 */
	int value_sort;		/* sort marker on the array (by value) */
	struct node *array;	/* N_VAR, or N_AT "@hist_log(s)": buckets */
	struct vec slice;	/* "arr[k, *]" keys, or empty */
	const char *sort_agg;	/* "@sum" etc: sort by that aggregate */
	enum at_op sort_at;	/* which one (ATOP_NONE: none) */
	struct node *limit;	/* or NULL */
	void *value_sym;	/* pass 2: the value variable's symbol */
};

/*
 * Fields shared under one name by kinds that never use both: a tapset
 * library makes hundreds of thousands of nodes, and their size is most
 * of what parsing costs.  The kind says which members are valid.
 */
struct node {
	enum node_kind kind;
	int op;
	struct loc loc;
	union {
		const char *name;	/* names: N_VAR, N_CALL, N_TARGET... */
		const char *str;	/* N_NUM spelling, N_STR, N_EMBEDDED */
	};
	union {
		struct node *lhs;
		struct node *then;	/* N_IF, N_TERNARY */
		struct node *init;	/* N_FOR */
	};
	union {
		struct node *rhs;
		struct node *els;	/* N_IF, N_TERNARY, N_TRY, N_ALIAS */
		struct node *incr;	/* N_FOR */
	};
	struct node *cond;
	struct node *body;
	struct vec args;
	unsigned char post, addr, pretty;
	unsigned char vtype;	/* enum type of the value, set by pass 2 */
	unsigned char at;	/* N_AT: enum at_op */
	void *ref;		/* pass 2: the symbol or function named */

	union {
		int64_t num;			/* N_NUM */
		struct vec comps;		/* N_TARGET, N_AT, N_VAR,
						 * N_CALL, N_INDEX, N_AUTOCAST:
						 * use node_comps() */
		struct foreach *fe;		/* N_FOREACH */
		struct {			/* N_PROBE, N_ALIAS */
			struct probe_point **points;
			struct probe_point **alias_names;
			int npoints;
			int nalias_names;
			int epilogue;		/* N_ALIAS: "+=" */
		};
		struct {			/* N_GLOBAL, N_FUNCTION */
			struct node *init_value;	/* N_GLOBAL: literal */
			struct param *params;	/* N_FUNCTION */
			int64_t priority;	/* N_FUNCTION ":N" */
			int nparams;
			enum type type;		/* N_FUNCTION return type */
			int size;		/* N_GLOBAL: [N]; 0 if none */
			unsigned char private_;
			unsigned char wrap;	/* N_GLOBAL: "%" */
			unsigned char is_array;	/* N_GLOBAL: has [..] */
			unsigned char has_priority;
		};
	};
};

/* The member chain ("->f[2]") of a node that can have one, else NULL. */
static inline const struct vec *node_comps(const struct node *n)
{
	switch (n->kind) {
	case N_TARGET: case N_AT: case N_VAR: case N_CALL: case N_INDEX:
	case N_AUTOCAST:
		return &n->comps;
	default:
		return NULL;
	}
}

static inline int node_has_comps(const struct node *n)
{
	const struct vec *c = node_comps(n);

	return c && c->len;
}

/* One parsed file. */
struct script {
	const struct source *src;
	struct vec decls;	/* top-level nodes, in order */
};

struct node *node_new(enum node_kind kind, const struct loc *loc);
const char *type_name(enum type t);

#endif
