// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A walk of a statement or expression tree, parents first: what both
 * backends' pass 3 use to find what a probe's code touches.
 */
#include "walk.h"

void node_walk(struct node *n, node_visit_fn f, void *arg)
{
	if (!n)
		return;
	f(n, arg);
	switch (n->kind) {
	case N_NUM: case N_STR: case N_EMBEDDED: case N_STAR:
	case N_BREAK: case N_CONTINUE: case N_NEXT: case N_NULL:
		return;
	case N_FOREACH:
		node_walk(n->fe->array, f, arg);
		for (int i = 0; i < n->fe->slice.len; i++)
			node_walk(n->fe->slice.v[i], f, arg);
		for (int i = 0; i < n->fe->keys.len; i++)
			node_walk(n->fe->keys.v[i], f, arg);
		node_walk(n->fe->limit, f, arg);
		node_walk(n->body, f, arg);
		return;
	default:
		break;
	}
	node_walk(n->lhs, f, arg);
	node_walk(n->rhs, f, arg);
	node_walk(n->cond, f, arg);
	node_walk(n->body, f, arg);
	for (int i = 0; i < n->args.len; i++)
		node_walk(n->args.v[i], f, arg);
	if (node_comps(n))
		for (int i = 0; i < n->comps.len; i++)
			node_walk(n->comps.v[i], f, arg);
}
