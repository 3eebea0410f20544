// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The width of an array's string keys.  A BPF hash map hashes and
 * compares its whole key, and each hit zeroes and fills it: a key of
 * MAXSTRINGLEN (256) bytes costs several times one of 16.  So a string
 * key is 16 bytes wide (execname()'s TASK_COMM_LEN, NUL included) when
 * no key at that position can be longer: at every index of the array,
 * in either side's code, it is execname(), a literal of at most 15
 * characters, or a foreach key variable of that array and position
 * that nothing else assigns.  Any other key keeps MAXSTRINGLEN.
 */
#include "bpf.h"
#include "../elab/walk.h"

#include <string.h>

#define COMM_LEN 16

struct widths {
	const struct elab *e;
	struct pmap foreach_key;	/* local -> (global, position), encoded */
	struct pmap wide;		/* global -> mask of positions at MAXSTRINGLEN */
	struct pmap bad_local;		/* locals assigned or keys of two loops */
};

static struct widths w;

static void *key_of(const struct symbol *g, int pos)
{
	return (void *)ar_printf("%p:%d", (const void *)g, pos);
}

static const struct symbol *array_of(const struct node *n)
{
	const struct symbol *s = n && n->kind == N_VAR ? n->ref : NULL;

	return s && s->kind == SYM_GLOBAL ? s : NULL;
}

/* First walk: foreach key variables, and locals written otherwise. */
static void find_loop_keys(struct node *n, void *arg)
{
	(void)arg;
	if (n->kind == N_FOREACH && array_of(n->fe->array)) {
		for (int i = 0; i < n->fe->keys.len; i++) {
			const struct node *k = n->fe->keys.v[i];
			const char *was = pmap_get(&w.foreach_key, k->ref);
			const char *now = key_of(array_of(n->fe->array), i);

			if (was && strcmp(was, now))
				pmap_put(&w.bad_local, k->ref, (void *)1);
			pmap_put(&w.foreach_key, k->ref, (void *)now);
		}
	}
	if ((n->kind == N_ASSIGN || n->kind == N_INCDEC) && n->lhs && n->lhs->kind == N_VAR)
		pmap_put(&w.bad_local, n->lhs->ref, (void *)1);
	if (n->kind == N_TRY && n->lhs && n->lhs->kind == N_VAR)
		pmap_put(&w.bad_local, n->lhs->ref, (void *)1);
}

static int short_key(const struct node *k, const struct symbol *g, int pos)
{
	const struct function *f = k->ref;
	const char *loop;

	switch (k->kind) {
	case N_STR:	/* as written: escapes only make it longer */
		return strlen(k->str) < COMM_LEN;
	case N_CALL:
		return f && !strcmp(k->name, "execname") && !k->args.len &&
		       f->decl->body->kind == N_EMBEDDED;
	case N_VAR:
		loop = pmap_get(&w.foreach_key, k->ref);
		return loop && !pmap_get(&w.bad_local, k->ref) && !strcmp(loop, key_of(g, pos));
	case N_STAR:
		return 1;
	default:
		return 0;
	}
}

static void check_keys(const struct symbol *g, const struct vec *keys)
{
	uintptr_t wide = (uintptr_t)pmap_get(&w.wide, g);

	for (int i = 0; i < keys->len && i < g->arity; i++)
		if (g->keys[i] == T_STRING && !short_key(keys->v[i], g, i))
			wide |= 1u << i;
	pmap_put(&w.wide, g, (void *)wide);
}

/* Second walk: every key given to each array. */
static void find_index_keys(struct node *n, void *arg)
{
	(void)arg;
	if ((n->kind == N_INDEX || n->kind == N_IN) && array_of(n->lhs))
		check_keys(array_of(n->lhs), &n->args);
	if (n->kind == N_FOREACH && array_of(n->fe->array) && n->fe->slice.len)
		check_keys(array_of(n->fe->array), &n->fe->slice);
}

static void walk_program(const struct elab *e, node_visit_fn f)
{
	for (int i = 0; i < e->probes.len; i++) {
		struct derived_probe *d = e->probes.v[i];

		node_walk(d->body, f, NULL);
		node_walk(d->cond, f, NULL);
	}
	for (int i = 0; i < e->used_functions.len; i++) {
		struct function *fn = e->used_functions.v[i];

		node_walk(fn->decl->body, f, NULL);
	}
}

static void analyse(const struct elab *e)
{
	if (w.e == e)
		return;
	memset(&w, 0, sizeof(w));	/* one program per run (stp -i: per run) */
	w.e = e;
	walk_program(e, find_loop_keys);
	walk_program(e, find_index_keys);
}

int bx_key_is_comm(const struct elab *e, const struct symbol *g, int pos)
{
	analyse(e);
	return g->keys[pos] == T_STRING && g->arity > 0 && bx_string_len(e) >= COMM_LEN &&
	       !((uintptr_t)pmap_get(&w.wide, g) & (1u << pos));
}

/* The key's bytes, and the same as C for its declaration. */
int bx_key_bytes(const struct elab *e, const struct symbol *g, int pos)
{
	return bx_key_is_comm(e, g, pos) ? COMM_LEN : bx_string_len(e);
}

const char *bx_key_width(const struct elab *e, const struct symbol *g, int pos)
{
	return bx_key_is_comm(e, g, pos) ? ar_printf("%d", COMM_LEN) : "MAXSTRINGLEN";
}
