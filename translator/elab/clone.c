// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Deep copies of handler bodies.  Every derived probe gets its own copy
 * of the alias bodies and the handler it is made of, because pass 2
 * annotates nodes (types, symbols) and the same alias may serve probes
 * whose locals differ.  A copy made for an alias expansion is marked
 * with where the alias was used, so an error inside the alias names
 * both places.
 */
#include "elab.h"

#include <string.h>

/* loc, with o appended at the end of its expansion chain. */
static struct loc relocate(struct loc loc, const struct origin *o)
{
	struct origin *copy;

	if (!o)
		return loc;
	if (!loc.from) {
		loc.from = o;
		return loc;
	}
	copy = ar_alloc(sizeof(*copy));
	*copy = *loc.from;
	copy->loc = relocate(loc.from->loc, o);
	loc.from = copy;
	return loc;
}

static void clone_vec(struct vec *dst, const struct vec *src,
		      const struct origin *o)
{
	struct vec v = { 0 };

	for (int i = 0; i < src->len; i++)
		vec_push(&v, node_clone(src->v[i], o));
	*dst = v;
}

struct node *node_clone(const struct node *n, const struct origin *o)
{
	struct node *c;

	if (!n)
		return NULL;
	c = ar_alloc(sizeof(*c));
	*c = *n;
	c->loc = relocate(n->loc, o);
	c->lhs = node_clone(n->lhs, o);
	c->rhs = node_clone(n->rhs, o);
	c->cond = node_clone(n->cond, o);
	c->body = node_clone(n->body, o);
	clone_vec(&c->args, &n->args, o);
	if (node_comps(n))
		clone_vec(&c->comps, &n->comps, o);
	if (n->kind == N_FOREACH) {
		struct foreach *fe = ar_alloc(sizeof(*fe));

		*fe = *n->fe;
		clone_vec(&fe->keys, &n->fe->keys, o);
		clone_vec(&fe->slice, &n->fe->slice, o);
		fe->array = node_clone(n->fe->array, o);
		fe->limit = node_clone(n->fe->limit, o);
		c->fe = fe;
	}
	return c;
}

struct probe_point *pp_clone(const struct probe_point *pp,
			     const struct origin *o)
{
	struct probe_point *c = ar_alloc(sizeof(*c));

	*c = *pp;
	c->loc = relocate(pp->loc, o);
	c->comps = ar_alloc((pp->ncomps + 1) * sizeof(*c->comps));
	memcpy(c->comps, pp->comps, pp->ncomps * sizeof(*c->comps));
	for (int i = 0; i < pp->ncomps; i++) {
		c->comps[i].loc = relocate(pp->comps[i].loc, o);
		c->comps[i].arg = node_clone(pp->comps[i].arg, o);
		for (int k = 0; k < pp->comps[i].nalts; k++) {
			if (!k)
				c->comps[i].alts = ar_alloc(pp->comps[i].nalts *
							    sizeof(*c->comps[i].alts));
			c->comps[i].alts[k] = pp_clone(pp->comps[i].alts[k], o);
		}
	}
	c->cond = node_clone(pp->cond, o);
	return c;
}
