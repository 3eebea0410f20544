// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Hoisting: the filter at the top of a probe's handler runs before the
 * hit takes its context.  A hit's generic path (the session check,
 * interrupts off, the per-CPU context claimed, the overload countdown,
 * the globals' locks, the error check; runtime/probe.h) costs more
 * than a cheap filter, and most hits of "if (pid() != target()) next"
 * or of vitals.stp's probes end at their filter.  So for a probe whose
 * hits come through a callback a backend generates (kernel.trace,
 * perf.*, a kprobe's entry), the leading statements split in two
 * (struct hoist, elab.h):
 *
 *   the prefix  the statements the filter needs: every next and its
 *               condition, every call of an early function, and the
 *               assignments to locals these read (transitively).  They
 *               are context-free: numbers, numeric locals, operators
 *               (division only by a literal other than 0: an error
 *               needs the context), frozen globals (frozen.c), and
 *               embedded C with numeric parameters and result that
 *               cannot fail, reads nothing of the context but its
 *               entry (a tracepoint's arguments) and regs, and is
 *               either marked pure or marked early ("needs no context
 *               and no lock: may run even when the hit is then
 *               skipped", for side effects such as a lock-free count).
 *   the rest    the other statements of that leading region (pure
 *               ones: "vital = \"syscall\"", values only the rest
 *               reads), in their order, then the remaining body.
 *
 * The region is the longest run of leading statements (blocks
 * flattened) that are each context-free or pure and sinkable: a store
 * of a string literal, or of a numeric value that cannot fail, to a
 * local.  Sinking a statement past the prefix keeps its result when no
 * prefix statement after it writes what it reads or writes; otherwise
 * the region ends before it.  A region that ends at the body's last
 * statement, "if (c) s" with c context-free, is a filter too: the
 * prefix tests c, the rest is s.  A probe point's condition that is
 * context-free is the prefix's first test.  With no next, no early
 * call and no such test, nothing is hoisted and the handler is as
 * before.  Nothing hoisted can fail, so the prefix never reports.
 *
 * A prefix runs outside the context's claim, with interrupts as the
 * callback has them: another probe's prefix may interrupt it on its
 * CPU (a perf event's NMI, an interrupt's tracepoint).  Its locals are
 * the callback's own, so only the embedded C it calls must bear that:
 * pure C does; early C promises it (lock-free, as it promises no lock).
 */
#include "elab.h"
#include "walk.h"

#include <ctype.h>
#include <stdlib.h>

/* ---- embedded C a prefix may call ---- */

int fn_may_fail(const struct function *f)
{
	const char *c = f->decl->body->str;

	if (f->decl->body->kind != N_EMBEDDED)
		return 1;
	return strstr(c, "STAP_ERROR") || strstr(c, "error") || strstr(c, "stp_arg(") ||
	       strstr(c, "stp_register(");
}

static int ident(int ch)
{
	return isalnum((unsigned char)ch) || ch == '_';
}

/* Is the word w at p, standing alone? */
static int word_at(const char *text, const char *p, const char *w)
{
	size_t n = strlen(w);

	return !strncmp(p, w, n) && !ident(p[n]) && (p == text || !ident(p[-1]));
}

/* p past "->" and blanks, or NULL when p is not at an arrow. */
static const char *arrow(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	if (strncmp(p, "->", 2))
		return NULL;
	for (p += 2; *p == ' ' || *p == '\t'; p++)
		;
	return p;
}

/* Every CONTEXT is CONTEXT->entry or ->regs; no kmod context "c->",
 * no print. */
static int context_ok(const char *t)
{
	for (const char *p = t; *p; p++) {
		const char *q;

		if (word_at(t, p, "CONTEXT")) {
			q = arrow(p + 7);
			if (!q || (!word_at(t, q, "entry") && !word_at(t, q, "regs")))
				return 0;
		} else if (word_at(t, p, "c") && arrow(p + 1)) {
			return 0;
		}
	}
	return !strstr(t, "STAP_PRINTF");
}

/* f's embedded C, with numeric parameters and result, cannot fail and
 * needs of the context no more than CONTEXT->entry and CONTEXT->regs,
 * which a backend's callback supplies before the hit has one. */
static int fn_prefix_ok(const struct function *f)
{
	const struct node *d = f->decl;

	if (!d || d->body->kind != N_EMBEDDED || f->next || fn_may_fail(f))
		return 0;
	if (f->ret == T_STRING || f->ret == T_STATS)
		return 0;
	for (int i = 0; i < d->nparams; i++)
		if (f->params[i]->type != T_LONG)
			return 0;
	return context_ok(d->body->str);
}

static int marked(const struct function *f, const char *pragma)
{
	const struct node *b = f && f->decl ? f->decl->body : NULL;

	return b && b->kind == N_EMBEDDED && strstr(b->str, pragma);
}

static int is_early(const struct node *n)
{
	return (n->kind == N_CALL || n->kind == N_TARGET) && marked(n->ref, "/* early */");
}

/* ---- what can run before the context, what the rest can compute ---- */

/*
 * Values: with ctx 0, what the prefix can compute (context-free); with
 * ctx 1, what the rest can compute as well as the place it was written
 * (nothing that fails or has an effect, but it may read the context
 * and any numeric global, under the handler's locks).
 */
static int value_ok(const struct node *n, int ctx);

static int local_long(const struct node *v)
{
	const struct symbol *s = v->kind == N_VAR ? v->ref : NULL;

	return s && s->kind == SYM_LOCAL && s->type == T_LONG && !v->comps.len;
}

static int global_ok(const struct node *v, int ctx)
{
	const struct symbol *s = v->ref;

	return s && s->kind == SYM_GLOBAL && !v->comps.len &&
	       (s->frozen || (ctx && s->type == T_LONG && s->arity == 0));
}

/* A literal other than 0: division by it cannot fail. */
static int safe_divisor(const struct node *n)
{
	return n->kind == N_NUM && n->num != 0;
}

static int op_ok(int op, const struct node *rhs)
{
	switch (op) {
	case OP_ASSIGN:
	case OP_PLUS: case OP_ADD_ASSIGN: case OP_MINUS: case OP_SUB_ASSIGN:
	case OP_STAR: case OP_MUL_ASSIGN: case OP_AMP: case OP_AND_ASSIGN:
	case OP_PIPE: case OP_OR_ASSIGN: case OP_CARET: case OP_XOR_ASSIGN:
	case OP_SHL: case OP_SHL_ASSIGN: case OP_SHR: case OP_SHR_ASSIGN:
	case OP_LT: case OP_GT: case OP_LE: case OP_GE: case OP_EQ: case OP_NE:
	case OP_ANDAND: case OP_OROR:
		return 1;
	case OP_SLASH: case OP_DIV_ASSIGN: case OP_PERCENT: case OP_MOD_ASSIGN:
		return safe_divisor(rhs);
	default:
		return 0;
	}
}

/* $arg, pid(), an early call: embedded C of numbers that cannot fail. */
static int call_ok(const struct node *n, int ctx)
{
	const struct function *f = n->ref;

	if (!f || node_has_comps(n) || !f->decl || f->decl->body->kind != N_EMBEDDED ||
	    f->next || fn_may_fail(f) || f->ret == T_STRING || f->ret == T_STATS)
		return 0;
	if (ctx ? !marked(f, "/* pure */") :
	    !fn_prefix_ok(f) || (!marked(f, "/* pure */") && !marked(f, "/* early */")))
		return 0;
	for (int i = 0; i < n->args.len; i++)
		if (f->params[i]->type != T_LONG || !value_ok(n->args.v[i], ctx))
			return 0;
	return 1;
}

static int value_ok(const struct node *n, int ctx)
{
	if (!n || n->vtype == T_STRING)
		return !n;
	switch (n->kind) {
	case N_NUM:
		return 1;
	case N_VAR:
		return local_long(n) || global_ok(n, ctx);
	case N_BINARY:
		return n->lhs->vtype != T_STRING && op_ok(n->op, n->rhs) &&
		       value_ok(n->lhs, ctx) && value_ok(n->rhs, ctx);
	case N_UNARY:
		return n->op != OP_AMP && value_ok(n->lhs, ctx);
	case N_TERNARY:
		return value_ok(n->cond, ctx) && value_ok(n->then, ctx) &&
		       value_ok(n->els, ctx);
	case N_CALL: case N_TARGET:
		return call_ok(n, ctx);
	default:
		return 0;
	}
}

static int cf_expr(const struct node *n)
{
	return value_ok(n, 0);
}

/* A statement the prefix can run. */
static int cf_stmt(const struct node *n)
{
	const struct node *e;

	switch (n->kind) {
	case N_NULL: case N_NEXT:
		return 1;
	case N_BLOCK:
		for (int i = 0; i < n->args.len; i++)
			if (!cf_stmt(n->args.v[i]))
				return 0;
		return 1;
	case N_IF:
		return cf_expr(n->cond) && cf_stmt(n->then) && (!n->els || cf_stmt(n->els));
	case N_EXPRSTMT:
		e = n->lhs;
		if (e->kind == N_ASSIGN)
			return local_long(e->lhs) && op_ok(e->op, e->rhs) && cf_expr(e->rhs);
		if (e->kind == N_INCDEC)
			return local_long(e->lhs);
		return cf_expr(e);
	default:
		return 0;
	}
}

/* "vital = \"syscall\"", "label = pc & ~0xff": a store the rest
 * can make instead (a string only of a literal). */
static int sink_stmt(const struct node *n)
{
	const struct node *a = n->kind == N_EXPRSTMT ? n->lhs : NULL;
	const struct symbol *s;

	if (!a || a->kind != N_ASSIGN || a->op != OP_ASSIGN || a->lhs->kind != N_VAR ||
	    a->lhs->comps.len)
		return 0;
	s = a->lhs->ref;
	if (!s || s->kind != SYM_LOCAL)
		return 0;
	if (s->type == T_STRING)
		return a->rhs->kind == N_STR;
	return s->type == T_LONG && value_ok(a->rhs, 1);
}

/* ---- one probe ---- */

struct hz {
	struct derived_probe *d;
	struct pmap idx;	/* local -> its index in d->locals, + 1 */
	struct pmap targets;	/* N_VAR nodes "=" stores to: no read */
	struct vec st;		/* the body's statements, blocks flattened */
	int n;			/* the region: st[0..n) */
	struct node *guard;	/* st[n], the last: "if (c) s", or NULL */
	char *need;		/* per statement of the region: in the prefix */
	char *rd, *wr;		/* per local: read, written by the prefix
				 * from the statement looked at on */
	char *srd, *swr;	/* per local: one statement's reads, writes */
};

static void flatten(struct vec *out, struct node *n)
{
	if (n->kind != N_BLOCK) {
		vec_push(out, n);
		return;
	}
	for (int i = 0; i < n->args.len; i++)
		flatten(out, n->args.v[i]);
}

/* Which locals n reads and writes, into z->srd and z->swr. */
static void rw_visit(struct node *n, void *arg)
{
	struct hz *z = arg;
	struct node *t = n->kind == N_ASSIGN || n->kind == N_INCDEC ? n->lhs : NULL;
	intptr_t i;

	if (t && t->kind == N_VAR && (i = (intptr_t)pmap_get(&z->idx, t->ref)))
		z->swr[i - 1] = 1;
	if (n->kind == N_ASSIGN && n->op == OP_ASSIGN && t)
		pmap_put(&z->targets, t, (void *)1);	/* parents come first */
	if (n->kind == N_VAR && (i = (intptr_t)pmap_get(&z->idx, n->ref)) &&
	    !pmap_get(&z->targets, n))
		z->srd[i - 1] = 1;
}

static void rw(struct hz *z, struct node *n)
{
	memset(z->srd, 0, z->d->locals.len);
	memset(z->swr, 0, z->d->locals.len);
	node_walk(n, rw_visit, z);
}

/* A call whose value is dropped is made for what it does, whatever its
 * marks say ("pure" in a tapset often means "needs no context"). */
static int called_for_effect(const struct node *n)
{
	return n->kind == N_EXPRSTMT && (n->lhs->kind == N_CALL || n->lhs->kind == N_TARGET);
}

static void effect_visit(struct node *n, void *arg)
{
	*(int *)arg |= n->kind == N_NEXT || is_early(n) || called_for_effect(n);
}

/* A next, an early call or a call made for its effect: what the prefix
 * must run in its place. */
static int effect(struct node *n)
{
	int any = 0;

	node_walk(n, effect_visit, &any);
	return any;
}

static int meets(const char *a, const char *b, int n)
{
	for (int i = 0; i < n; i++)
		if (a[i] && b[i])
			return 1;
	return 0;
}

static void add(char *to, const char *from, int n)
{
	for (int i = 0; i < n; i++)
		to[i] |= from[i];
}

/*
 * Marks the region's statements the prefix needs, walking back from its
 * end: those with a next or an early call, and those that write a local
 * a needed one after them reads.  The others sink past the prefix; -1
 * when they all can, else the last that cannot (it reads or writes what
 * a needed statement after it writes, or is needed but not
 * context-free): the region must end before it.
 */
static int mark(struct hz *z)
{
	int nl = z->d->locals.len;

	memset(z->need, 0, z->n);
	memset(z->rd, 0, nl);
	memset(z->wr, 0, nl);
	if (z->guard) {
		rw(z, z->guard->cond);
		add(z->rd, z->srd, nl);
	}
	for (int i = z->n - 1; i >= 0; i--) {
		struct node *s = z->st.v[i];

		rw(z, s);
		if (effect(s) || meets(z->swr, z->rd, nl)) {
			if (!cf_stmt(s))
				return i;
			z->need[i] = 1;
			add(z->rd, z->srd, nl);
			add(z->wr, z->swr, nl);
		} else if (meets(z->srd, z->wr, nl) || meets(z->swr, z->wr, nl)) {
			return i;
		}
	}
	return -1;
}

/* The region, its trailing test, the statements the prefix needs; 1
 * when the prefix has something to do. */
static int analyze(struct hz *z)
{
	struct node *last;
	int cut;

	while (z->n < z->st.len && (cf_stmt(z->st.v[z->n]) || sink_stmt(z->st.v[z->n])))
		z->n++;
	last = z->n == z->st.len - 1 ? z->st.v[z->n] : NULL;
	if (last && last->kind == N_IF && !last->els && cf_expr(last->cond))
		z->guard = last;
	z->need = ar_alloc(z->n + 1);
	while ((cut = mark(z)) >= 0) {
		z->n = cut;
		z->guard = NULL;
	}
	if (z->guard)
		return 1;
	for (int i = 0; i < z->n; i++)
		if (z->need[i])
			return 1;
	return 0;
}

/* The comparison that holds when op's does not (of numbers). */
static int inverse(int op)
{
	switch (op) {
	case OP_EQ: return OP_NE;
	case OP_NE: return OP_EQ;
	case OP_LT: return OP_GE;
	case OP_GE: return OP_LT;
	case OP_GT: return OP_LE;
	case OP_LE: return OP_GT;
	default: return 0;
	}
}

/* "if (!(c)) next": a test that lets the hit on when c holds; "a != b"
 * for c "a == b", as one would write it. */
static struct node *test_next(struct node *c)
{
	struct node *t = node_new(N_IF, &c->loc);

	if (c->kind == N_UNARY && c->op == OP_NOT) {
		t->cond = c->lhs;
	} else if (c->kind == N_BINARY && inverse(c->op)) {
		t->cond = node_new(N_BINARY, &c->loc);
		*t->cond = *c;
		t->cond->op = inverse(c->op);
	} else {
		t->cond = node_new(N_UNARY, &c->loc);
		t->cond->op = OP_NOT;
		t->cond->lhs = c;
		t->cond->vtype = T_LONG;
	}
	t->then = node_new(N_NEXT, &c->loc);
	return t;
}

static void calls_visit(struct node *n, void *arg)
{
	struct vec *v = arg;

	if ((n->kind != N_CALL && n->kind != N_TARGET) || !n->ref)
		return;
	for (int i = 0; i < v->len; i++)
		if (v->v[i] == n->ref)
			return;
	vec_push_ar(v, n->ref);
}

/* The locals the prefix reads or writes, the functions it calls. */
static void outputs(struct hz *z, struct hoist *h)
{
	int nl = z->d->locals.len;
	char *all = ar_alloc(nl + 1);

	for (int i = 0; i < h->prefix.len; i++) {
		rw(z, h->prefix.v[i]);
		add(all, z->srd, nl);
		add(all, z->swr, nl);
		node_walk(h->prefix.v[i], calls_visit, &h->calls);
	}
	for (int i = 0; i < nl; i++)
		if (all[i])
			vec_push_ar(&h->vars, z->d->locals.v[i]);
}

static struct hoist *build(struct hz *z)
{
	struct hoist *h = ar_alloc(sizeof(*h));
	struct derived_probe *d = z->d;

	h->rest = node_new(N_BLOCK, &d->body->loc);
	if (d->cond)
		vec_push_ar(&h->prefix, test_next(d->cond));
	for (int i = 0; i < z->n; i++)
		vec_push_ar(z->need[i] ? &h->prefix : &h->rest->args, z->st.v[i]);
	if (z->guard) {
		vec_push_ar(&h->prefix, test_next(z->guard->cond));
		vec_push_ar(&h->rest->args, z->guard->then);
	}
	for (int i = z->n + !!z->guard; i < z->st.len; i++)
		vec_push_ar(&h->rest->args, z->st.v[i]);
	outputs(z, h);
	return h;
}

/* Hits that come through a callback a backend generates (the family
 * says): a kretprobe's (and a uprobe's) come through the runtime's own
 * handler. */
static int hoistable(const struct derived_probe *d)
{
	const struct family_ops *f = family_row(d->family);

	return f->hoistable && f->hoistable(d);
}

/* A probe point's condition the prefix can test: no local in it. */
static int cond_ok(struct hz *z)
{
	if (!z->d->cond)
		return 1;
	rw(z, z->d->cond);
	for (int i = 0; i < z->d->locals.len; i++)
		if (z->srd[i])
			return 0;
	return cf_expr(z->d->cond);
}

static void probe(struct derived_probe *d)
{
	struct hz z = { .d = d };
	int nl = d->locals.len;

	z.rd = ar_alloc(nl + 1);
	z.wr = ar_alloc(nl + 1);
	z.srd = ar_alloc(nl + 1);
	z.swr = ar_alloc(nl + 1);
	for (int i = 0; i < nl; i++)
		pmap_put(&z.idx, d->locals.v[i], (void *)(intptr_t)(i + 1));
	flatten(&z.st, d->body);
	if (cond_ok(&z) && (analyze(&z) || d->cond))
		d->hoist = build(&z);
	free(z.st.v);
	free(z.idx.keys);
	free(z.idx.vals);
	free(z.targets.keys);
	free(z.targets.vals);
}

void hoist_program(struct elab *e)
{
	if (e->s->unoptimized)
		return;
	for (int i = 0; i < e->probes.len; i++) {
		struct derived_probe *d = e->probes.v[i];

		if (hoistable(d) && d->body)
			probe(d);
	}
}
