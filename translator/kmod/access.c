// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The access analysis (access.h): one walk of each used function and
 * each probe handler.  Writes, reads of statistics (which aggregate the
 * CPUs' parts) and sorted iteration need the global alone; "<<<" adds
 * to this CPU's part and shares.  A call takes on what the function
 * does, found once per function; recursion stops at a function whose
 * walk has begun.  A frozen global's reads take no lock in an event
 * probe (drop_frozen).
 */
#include "access.h"

#include <stdlib.h>
#include <string.h>

void access_note(struct vec *acc, struct symbol *s, int write)
{
	struct access *a;

	if (!s || s->kind != SYM_GLOBAL)
		return;
	for (int i = 0; i < acc->len; i++) {
		a = acc->v[i];
		if (a->sym == s) {
			a->write |= write;
			return;
		}
	}
	a = ar_alloc(sizeof(*a));
	a->sym = s;
	a->write = write;
	vec_push(acc, a);
}

/* One walk's state: where accesses go; facts only on the first walk
 * of a node (an @entry expression is walked again for its own set). */
struct walker {
	struct elab *e;
	struct access_facts *ax;
	struct vec *acc;
	int facts;
};

static struct vec *function_access(struct walker *w, struct function *f);

/* @hist_log/@hist_linear and @variance of a statistic. */
static void stat_facts(struct access_facts *ax, struct node *n)
{
	struct node *a = n->args.len ? n->args.v[0] : NULL;

	if (!a)
		return;
	if (at_is_hist(n->at) &&
	    a->ref && !pmap_get(&ax->stat_hist, a->ref))
		pmap_put(&ax->stat_hist, a->ref, n);
	if (n->at == ATOP_VARIANCE && a->ref)
		pmap_put(&ax->stat_variance, a->ref, (void *)1);
	if (n->at == ATOP_VARIANCE && n->args.len == 2 && a->ref &&
	    ((struct node *)n->args.v[1])->kind == N_NUM)
		pmap_put(&ax->stat_shift, a->ref,
			 (void *)(intptr_t)(((struct node *)n->args.v[1])->num + 1));
}

static void foreach_site(struct access_facts *ax, struct node *n)
{
	if (pmap_get(&ax->fe_site, n))
		return;
	vec_push(&ax->foreach_sites, n);
	pmap_put(&ax->fe_site, n, (void *)(intptr_t)ax->foreach_sites.len);
}

static void visit(struct node *n, void *arg)
{
	struct walker *w = arg;
	struct access_facts *ax = w->ax;

	switch (n->kind) {
	case N_VAR:
	case N_INDEX:
	case N_IN:
		if (n->ref)
			access_note(w->acc, n->ref, ((struct symbol *)n->ref)->type == T_STATS &&
				    !pmap_get(&ax->stat_lhs, n));
		return;
	case N_ASSIGN:
		if (n->op == OP_SHL_STAT) {	/* its lhs shares: see N_VAR */
			pmap_put(&ax->stat_lhs, n->lhs, (void *)1);
			/* s[k] <<< v: the array (N_INDEX's lhs) too */
			if (n->lhs->kind == N_INDEX)
				pmap_put(&ax->stat_lhs, n->lhs->lhs, (void *)1);
			return;
		}
		/* fall through */
	case N_INCDEC:
	case N_DELETE:
		if (n->lhs->ref)
			access_note(w->acc, n->lhs->ref, 1);
		return;
	case N_FOREACH:
		if (n->fe->array->ref)
			access_note(w->acc, n->fe->array->ref, 1);
		if (w->facts)
			foreach_site(ax, n);
		return;
	case N_CALL:
		for (struct function *f = n->ref; f && !is_print_builtin(n->name); f = f->next) {
			struct vec *fa = function_access(w, f);

			for (int i = 0; i < fa->len; i++)
				access_note(w->acc, ((struct access *)fa->v[i])->sym,
					    ((struct access *)fa->v[i])->write);
		}
		return;
	case N_AT:
		if (w->facts)
			stat_facts(ax, n);
		return;
	default:
		return;
	}
}

static struct vec *new_vec(void)
{
	struct vec *v = ar_alloc(sizeof(*v));

	memset(v, 0, sizeof(*v));
	return v;
}

static struct vec *function_access(struct walker *w, struct function *f)
{
	struct vec *acc = pmap_get(&w->ax->fn_access, f);
	struct walker in = *w;

	if (acc)
		return acc;
	acc = new_vec();
	pmap_put(&w->ax->fn_access, f, acc);	/* recursion stops here */
	in.acc = acc;
	if (f->decl->body->kind != N_EMBEDDED)
		node_walk(f->decl->body, visit, &in);
	return acc;
}

/* Lock order: the globals' declaration order. */
void access_sort(const struct elab *e, struct vec *acc)
{
	struct vec sorted = { 0 };

	for (int i = 0; i < e->global_list.len; i++)
		for (int j = 0; j < acc->len; j++)
			if (((struct access *)acc->v[j])->sym == e->global_list.v[i])
				vec_push(&sorted, acc->v[j]);
	for (int j = 0; j < sorted.len; j++)
		acc->v[j] = sorted.v[j];
	acc->len = sorted.len;
	free(sorted.v);
}

/* The @entry expressions of a .return probe, run by a probe of their
 * own, and so with a lock set of their own. */
static void entry_visit(struct node *n, void *arg)
{
	struct walker *w = arg;

	if (n->kind == N_AT && n->at == ATOP_ENTRY && n->args.len == 1)
		node_walk(n->args.v[0], visit, w);
}

/*
 * A frozen global (frozen.c) only read is no lock of an event probe's:
 * only begin, end and error probes write it, and they never run while
 * an event probe can (runtime/session.c).  Those keep their locks.
 */
static void drop_frozen(const struct derived_probe *d, struct vec *acc)
{
	int j = 0;

	if (!probe_at_event_time(d))
		return;
	for (int i = 0; i < acc->len; i++) {
		struct access *a = acc->v[i];

		if (!a->sym->frozen || a->write)
			acc->v[j++] = a;
	}
	acc->len = j;
}

static void probe_access(struct walker *w, struct derived_probe *d)
{
	struct vec *acc = new_vec(), *entry = new_vec();
	struct walker ew = *w;

	w->acc = acc;
	node_walk(d->body, visit, w);
	node_walk(d->cond, visit, w);
	drop_frozen(d, acc);
	access_sort(w->e, acc);
	pmap_put(&w->ax->probe_access, d, acc);
	ew.acc = entry;
	ew.facts = 0;
	node_walk(d->body, entry_visit, &ew);
	drop_frozen(d, entry);
	access_sort(w->e, entry);
	pmap_put(&w->ax->entry_access, d, entry);
}

struct access_facts *access_analyze(struct elab *e)
{
	struct access_facts *ax = ar_alloc(sizeof(*ax));
	struct walker w = { .e = e, .ax = ax, .facts = 1 };

	memset(ax, 0, sizeof(*ax));
	for (int i = 0; i < e->used_functions.len; i++)
		function_access(&w, e->used_functions.v[i]);
	for (int i = 0; i < e->probes.len; i++)
		probe_access(&w, e->probes.v[i]);
	return ax;
}
