// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The tapset library: every .stp file on the tapset path is parsed and
 * indexed by what it defines (probe aliases, functions, globals).  A
 * file becomes part of the program only when the script uses one of
 * its definitions, and then brings its own probes and globals along,
 * transitively (lib_include).
 */
#include "elab.h"
#include "../families/uprobe/python.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static struct lib_file *add_file(struct elab *e, struct script *s, int user)
{
	struct lib_file *f = ar_alloc(sizeof(*f));

	f->script = s;
	f->is_user = user;
	vec_push(&e->files, f);
	for (int i = 0; i < s->decls.len; i++) {
		struct node *d = s->decls.v[i];
		struct vec *v;
		struct pmap *map = NULL;

		pmap_put(&e->node_file, d, f);
		if (d->kind == N_ALIAS) {
			vec_push(&e->aliases, d);
			vec_push(&e->alias_files, f);
			continue;
		}
		if (d->kind == N_FUNCTION)
			map = &e->functions;
		else if (d->kind == N_GLOBAL && !user)
			map = &e->globals_lib;
		if (!map)
			continue;
		v = pmap_get(map, d->name);
		if (!v) {
			v = ar_alloc(sizeof(*v));
			pmap_put(map, d->name, v);
		}
		vec_push(v, d);
	}
	return f;
}

/* Parses the library files the script can need (libscan.c says which). */
void lib_load(struct elab *e)
{
	struct session *s = e->s;
	int n = s->library_files.len;
	struct source **src = ar_alloc((n + 1) * sizeof(*src));
	char *want = ar_alloc(n + 1);

	add_file(e, s->user, 1);
	for (int i = 0; i < n; i++) {
		const char *path = s->library_files.v[i];

		src[i] = src_load(path);
		if (!src[i])
			fprintf(stderr, "stp: cannot read tapset '%s': %s\n", path,
				strerror(errno));
	}
	libscan_select(s, src, n, want);
	for (int i = 0; i < n; i++)
		if (src[i] && want[i])
			add_file(e, parse_source(s->pp, src[i], &s->lib_opts), 0);
	{
		const char *py = python_aliases(s->user);	/* python.c */

		if (py)
			add_file(e, parse_source(s->pp, src_new("<python>", py, strlen(py)),
						 &s->lib_opts), 0);
	}
}

struct lib_file *lib_file_of(struct elab *e, const struct node *decl)
{
	return pmap_get(&e->node_file, decl);
}

static void declare_global(struct elab *e, struct lib_file *f, struct node *d)
{
	struct vec *v = pmap_get(&e->globals, d->name);
	struct symbol *sym;

	if (!v) {
		v = ar_alloc(sizeof(*v));
		pmap_put(&e->globals, d->name, v);
	}
	for (int i = 0; i < v->len; i++) {
		struct symbol *old = v->v[i];

		if (old->file != f && (old->decl->private_ || d->private_))
			continue;
		if (old->file != f && old->file->is_user && !f->is_user) {
			/* As SystemTap does: the script's global and the
			 * tapset's are one variable. */
			sem_warn(&old->loc, "global '%s' is also declared by tapset %s; "
				 "they are one variable", d->name, d->loc.src->name);
			return;
		}
		sem_error(&d->loc, "global '%s' is declared twice", d->name);
		diag_note(&old->loc, "the other declaration is here");
		return;
	}
	sym = sym_new(d->name, SYM_GLOBAL, &d->loc);
	sym->decl = d;
	sym->file = f;
	if (d->is_array)
		sym->arity = -1;
	else if (d->init_value)
		sym->arity = 0;
	vec_push(v, sym);
	vec_push(&e->global_list, sym);
}

/* Make f part of the program: its globals exist from now on, and its
 * plain probes are expanded by the caller's work loop. */
void lib_include(struct elab *e, struct lib_file *f)
{
	if (f->included)
		return;
	f->included = 1;
	for (int i = 0; i < f->script->decls.len; i++) {
		struct node *d = f->script->decls.v[i];

		if (d->kind == N_GLOBAL)
			declare_global(e, f, d);
	}
	vec_push(&e->pending_files, f);
}

/* The global a name means in file f: f's own private one first, then
 * the program's public one, then one a tapset file offers (which pulls
 * that file in). */
struct symbol *global_lookup(struct elab *e, const char *name,
			     struct lib_file *f)
{
	struct vec *v = pmap_get(&e->globals, name);
	struct vec *lib;

	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; v && i < v->len; i++) {
			struct symbol *sym = v->v[i];

			if (sym->decl->private_ ? sym->file == f : pass == 1)
				return sym;
		}
		if (pass == 1)
			break;
	}
	lib = pmap_get(&e->globals_lib, name);
	for (int i = 0; lib && i < lib->len; i++) {
		struct node *d = lib->v[i];
		struct lib_file *owner = lib_file_of(e, d);

		if (d->private_ && owner != f)
			continue;
		if (owner->included)
			continue;
		lib_include(e, owner);
		return global_lookup(e, name, f);
	}
	return NULL;
}
