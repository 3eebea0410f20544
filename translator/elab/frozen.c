// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Frozen globals: a numeric scalar global that no event-time code
 * writes.  Only begin, end and error probes (and -G, at load) do, and
 * both runtimes run those while no event probe can: the module arms
 * its event probes after the begin probes have run (runtime/session.c,
 * stp_on_start) and disarms them, waiting for hits in flight, before
 * the end or error probes run (stp_finish); the BPF runner attaches
 * after begin and detaches before end the same way.  So while an event
 * probe runs, such a global is a constant:
 *
 *   - it needs no lock in an event probe (kmod/access.c leaves it out
 *     of the lock set), which also makes "if (x > threshold)" cheap in
 *     any probe;
 *   - hoist.c may read it before the hit takes its context.
 *
 * A write is an assignment, ++/--, delete, a foreach key or value, a
 * catch's variable, in a probe's body or condition or in any function
 * called from there.
 */
#include "elab.h"
#include "walk.h"

#include <stdlib.h>

struct fz {
	struct pmap seen;	/* struct function * walked already */
};

static void thaw(struct node *v)
{
	struct symbol *s = v ? v->ref : NULL;

	if (s && s->kind == SYM_GLOBAL)
		s->frozen = 0;
}

static void visit(struct node *n, void *arg);

static void calls(struct fz *z, struct node *n)
{
	for (struct function *f = n->ref; f; f = f->next) {
		if (pmap_get(&z->seen, f) || !f->decl)
			continue;
		pmap_put(&z->seen, f, (void *)1);
		if (f->decl->body->kind != N_EMBEDDED)
			node_walk(f->decl->body, visit, z);
	}
}

static void visit(struct node *n, void *arg)
{
	struct fz *z = arg;

	switch (n->kind) {
	case N_ASSIGN: case N_INCDEC: case N_DELETE:
		thaw(n->lhs);
		break;
	case N_TRY:
		thaw(n->lhs);
		break;
	case N_FOREACH:
		for (int i = 0; i < n->fe->keys.len; i++)
			thaw(n->fe->keys.v[i]);
		if (n->fe->value_sym)
			((struct symbol *)n->fe->value_sym)->frozen = 0;
		break;
	case N_CALL: case N_TARGET: case N_AT:
		if (n->kind == N_CALL || n->ref)
			calls(z, n);
		break;
	default:
		break;
	}
}

void frozen_program(struct elab *e)
{
	struct fz z = { 0 };

	if (e->s->unoptimized)
		return;
	for (int i = 0; i < e->global_list.len; i++) {
		struct symbol *s = e->global_list.v[i];

		s->frozen = s->used && s->type == T_LONG && s->arity == 0;
	}
	for (int i = 0; i < e->probes.len; i++) {
		struct derived_probe *d = e->probes.v[i];

		if (!probe_at_event_time(d))
			continue;
		node_walk(d->body, visit, &z);
		node_walk(d->cond, visit, &z);
	}
	free(z.seen.keys);
	free(z.seen.vals);
}
