// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stp --dump-functions and --dump-probe-aliases: the names the tapset
 * library defines for the target (its %( kernel_v %) and %( arch %)
 * choices made), one per line, sorted, as SystemTap's options of the same
 * names list them: a function as "NAME", once however many overloads
 * (private ones left out: a script cannot call them); an alias as
 * "NAME = POINT, POINT...", each name of a multi-named alias on a line of
 * its own.  tests/examples/coverage.sh compares them with SystemTap's.
 */
#include "elab.h"

#include <stdio.h>
#include <stdlib.h>

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void print_sorted(struct vec *v)
{
	if (v->len)
		qsort(v->v, v->len, sizeof(void *), cmp_str);
	for (int i = 0; i < v->len; i++)
		if (!i || strcmp(v->v[i], v->v[i - 1]))
			puts(v->v[i]);
	free(v->v);
}

static void functions(const struct elab *e, struct vec *out)
{
	for (size_t i = 0; i < e->functions.cap; i++) {
		const struct vec *decls = e->functions.vals ? e->functions.vals[i] : NULL;

		for (int k = 0; e->functions.keys[i] && decls && k < decls->len; k++)
			if (!((const struct node *)decls->v[k])->private_) {
				vec_push(out, (void *)e->functions.keys[i]);
				break;
			}
	}
}

/* "NAME = POINT, POINT?" */
static const char *alias_line(const struct node *a, int name)
{
	struct sbuf sb = { 0 };
	const char *s;

	sb_printf(&sb, "%s =", pp_text(a->alias_names[name]));
	for (int i = 0; i < a->npoints; i++)
		sb_printf(&sb, "%s %s%s", i ? "," : "", pp_text(a->points[i]),
			  a->points[i]->optional ? "?" : "");
	s = ar_strdup(sb.s);
	free(sb.s);
	return s;
}

int dump_names(struct session *s, int aliases)
{
	struct elab *e = ar_alloc(sizeof(*e));
	struct vec names = { 0 };

	e->s = s;
	lib_load(e);
	if (aliases)
		for (int i = 0; i < e->aliases.len; i++) {
			const struct node *a = e->aliases.v[i];

			for (int k = 0; k < a->nalias_names; k++)
				vec_push(&names, (void *)alias_line(a, k));
		}
	else
		functions(e, &names);
	print_sorted(&names);
	return 0;
}
