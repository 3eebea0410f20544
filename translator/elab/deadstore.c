// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Dead stores: a tapset alias sets many locals (syscall.openat: the path
 * read from user memory, the flags' names, argstr) and a handler reads a
 * few.  A tapset's assignment "x = value" to a probe local that nothing
 * reads is dropped when the value has no side effect, as SystemTap drops
 * it: numbers, strings, locals, target variables, operators (not / and
 * %, which can fail), sprintf, calls of embedded-C functions marked
 * pure, and calls of script functions whose bodies only compute from
 * such values.  Repeated until nothing changes: dropping argstr's assignment
 * leaves the dfd_str it was made of unread.  The script's own statements
 * stay as written (prune.c warns about them), and a probe with embedded
 * C or a foreach is left alone (they can read locals in ways not counted
 * here).
 */
#include "elab.h"

struct ds {
	struct derived_probe *d;
	const struct source *user;
	int *reads;		/* per local of d, in d->locals' order */
	int opaque;		/* the body has code not walked here */
};

static int local_index(const struct ds *ds, const struct node *n)
{
	for (int i = 0; n && i < ds->d->locals.len; i++)
		if (ds->d->locals.v[i] == n->ref)
			return i;
	return -1;
}

static void count(struct ds *ds, const struct node *n);

static void count_vec(struct ds *ds, const struct vec *v)
{
	for (int i = 0; i < v->len; i++)
		count(ds, v->v[i]);
}

/* Counts the reads of d's locals under n; an assignment's target is not
 * a read (a compound one, "x += 1", is). */
static void count(struct ds *ds, const struct node *n)
{
	const struct vec *comps;
	int i;

	if (!n)
		return;
	switch (n->kind) {
	case N_EMBEDDED: case N_FOREACH:
		ds->opaque = 1;
		return;
	case N_VAR:
		i = local_index(ds, n);
		if (i >= 0)
			ds->reads[i]++;
		break;
	case N_ASSIGN:
		if (n->op == OP_ASSIGN && n->lhs && n->lhs->kind == N_VAR &&
		    !n->lhs->comps.len) {
			count(ds, n->rhs);
			return;
		}
		break;
	default:
		break;
	}
	count(ds, n->lhs);
	count(ds, n->rhs);
	count(ds, n->cond);
	count(ds, n->body);
	count_vec(ds, &n->args);
	comps = node_comps(n);
	for (i = 0; comps && i < comps->len; i++)
		count(ds, ((struct node *)comps->v[i])->lhs);
}

static int pure(const struct node *n);
static int pure_script(const struct function *f);

static int pure_call(const struct node *n)
{
	const struct function *f = n->ref;
	const struct node *body;

	for (int i = 0; i < n->args.len; i++)
		if (!pure(n->args.v[i]))
			return 0;
	if (n->kind == N_CALL && !strcmp(n->name, "sprintf"))
		return 1;
	if (!f || f->next || !f->decl)
		return 0;
	body = f->decl->body;
	if (body && body->kind != N_EMBEDDED)
		return pure_script(f);
	return body && body->kind == N_EMBEDDED && strstr(body->str, "/* pure */");
}

/* A statement of a script function that only computes: returns, ifs and
 * stores into the function's own locals, of pure values. */
static int pure_stmt(const struct node *n)
{
	const struct node *a;
	const struct symbol *sym;

	if (!n)
		return 1;
	switch (n->kind) {
	case N_NULL:
		return 1;
	case N_BLOCK:
		for (int i = 0; i < n->args.len; i++)
			if (!pure_stmt(n->args.v[i]))
				return 0;
		return 1;
	case N_RETURN:
		return pure(n->lhs);
	case N_IF:
		return pure(n->cond) && pure_stmt(n->then) && pure_stmt(n->els);
	case N_EXPRSTMT:
		a = n->lhs;
		if (a->kind != N_ASSIGN)
			return pure(a);
		sym = a->lhs->kind == N_VAR && !a->lhs->comps.len ? a->lhs->ref : NULL;
		return a->op == OP_ASSIGN && sym &&
		       (sym->kind == SYM_LOCAL || sym->kind == SYM_PARAM) && pure(a->rhs);
	default:
		return 0;
	}
}

/* return_str() and its like: a script function whose body is pure is a
 * pure call.  Calls nest a few deep at most; recursion is cut off. */
static int pure_script(const struct function *f)
{
	static int depth;
	int ok;

	if (depth >= 8)
		return 0;
	depth++;
	ok = pure_stmt(f->decl->body);
	depth--;
	return ok;
}

/* Has n no side effect and no way to fail? */
static int pure(const struct node *n)
{
	if (!n)
		return 1;
	switch (n->kind) {
	case N_NUM: case N_STR:
		return 1;
	case N_VAR:
		return !n->comps.len;
	case N_TARGET: case N_CALL:
		return !n->comps.len && pure_call(n);
	case N_BINARY:
		return n->op != OP_SLASH && n->op != OP_PERCENT &&
		       pure(n->lhs) && pure(n->rhs);
	case N_UNARY:
		return n->op != OP_AMP && pure(n->lhs);
	case N_TERNARY:
		return pure(n->cond) && pure(n->then) && pure(n->els);
	default:
		return 0;
	}
}

/* Is statement n a tapset's store into a local nothing reads, of a
 * value with no side effect? */
static int dead(struct ds *ds, const struct node *n)
{
	const struct node *a = n->lhs;
	int i;

	if (n->kind != N_EXPRSTMT || n->loc.src == ds->user)
		return 0;
	if (!a || a->kind != N_ASSIGN || a->op != OP_ASSIGN || a->lhs->kind != N_VAR ||
	    a->lhs->comps.len)
		return 0;
	i = local_index(ds, a->lhs);
	return i >= 0 && !ds->reads[i] && pure(a->rhs);
}

/* Drops the dead stores in the statements under n (a block's from its
 * list, a branch's by making it empty); 1 if it dropped any. */
static int drop(struct ds *ds, struct node *n)
{
	int changed = 0, j = 0;

	if (!n)
		return 0;
	if (n->kind == N_IF)
		return drop(ds, n->then) | drop(ds, n->els);
	if (dead(ds, n)) {
		n->kind = N_NULL;
		n->lhs = NULL;
		return 1;
	}
	if (n->kind != N_BLOCK)
		return 0;
	for (int i = 0; i < n->args.len; i++) {
		struct node *s = n->args.v[i];

		if (dead(ds, s)) {
			changed = 1;
			continue;
		}
		changed |= drop(ds, s);
		n->args.v[j++] = s;
	}
	n->args.len = j;
	return changed;
}

static void probe_stores(struct elab *e, struct derived_probe *d)
{
	const struct lib_file *user = e->files.v[0];
	struct ds ds = { .d = d, .user = user->script->src };
	int changed;

	if (!d->locals.len)
		return;
	ds.reads = ar_alloc(d->locals.len * sizeof(*ds.reads));
	do {
		memset(ds.reads, 0, d->locals.len * sizeof(*ds.reads));
		count(&ds, d->body);
		count(&ds, d->cond);
		if (ds.opaque)
			return;
		changed = drop(&ds, d->body);
	} while (changed);
	/* only what became dead: prune.c's warnings about the script's
	 * own locals count reads as resolve.c does */
	for (int i = 0; i < d->locals.len; i++)
		if (!ds.reads[i])
			((struct symbol *)d->locals.v[i])->reads = 0;
}

void deadstore_program(struct elab *e)
{
	if (e->s->unoptimized)
		return;
	for (int i = 0; i < e->probes.len; i++)
		probe_stores(e, e->probes.v[i]);
}
