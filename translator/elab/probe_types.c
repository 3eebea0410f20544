// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stp --dump-probe-types: every builtin probe point stp knows, one per
 * line, in SystemTap's format: components joined by '.', an argument
 * shown as its kind, "(string)" or "(number)"; sorted component by
 * component, a component without an argument before one with, so that
 * "process.begin" comes before "process(number).begin".
 *
 * Each family's row (../families/family.h) gives its types, with their
 * variants written as
 *   [x]      x or nothing
 *   {a|b|c}  one of them
 * (nested freely).
 *
 * The same types say what a point with wildcards in its components'
 * names stands for ("kerne*.funct*(\"vfs_read\")", "...function(\"f\").*",
 * an alias's suffix "maxact*(10)"): probe_types_expand().
 */
#include "elab.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Tapset aliases are not listed (SystemTap lists them with
 * --dump-probe-aliases), save oneshot, which is one in both. */
static const char *const aliases[] = { "oneshot", NULL };

/* The end of the group opening at p ('[' or '{'). */
static const char *group_end(const char *p)
{
	int depth = 0;

	for (;; p++) {
		if (*p == '[' || *p == '{')
			depth++;
		else if ((*p == ']' || *p == '}') && !--depth)
			return p;
	}
}

static void cross(struct vec *acc, const struct vec *alts)
{
	struct vec next = { 0 };

	for (int i = 0; i < acc->len; i++)
		for (int k = 0; k < alts->len; k++)
			vec_push(&next, ar_printf("%s%s", (char *)acc->v[i], (char *)alts->v[k]));
	free(acc->v);
	*acc = next;
}

static void expand(const char *s, const char *e, struct vec *out);

/* The alternatives of {a|b|c}, from s to e (the braces left out). */
static void alternatives(const char *s, const char *e, struct vec *out)
{
	const char *from = s;

	for (const char *p = s; p <= e; p++) {
		if (p < e && (*p == '[' || *p == '{')) {
			p = group_end(p);
		} else if (p == e || *p == '|') {
			expand(from, p, out);
			from = p + 1;
		}
	}
}

/* Every text the row part s..e stands for, into out. */
static void expand(const char *s, const char *e, struct vec *out)
{
	struct vec acc = { 0 };

	vec_push(&acc, (void *)"");
	while (s < e) {
		struct vec alts = { 0 };
		const char *next;

		if (*s == '[' || *s == '{') {
			next = group_end(s);
			if (*s == '[') {
				expand(s + 1, next, &alts);
				vec_push(&alts, (void *)"");
			} else {
				alternatives(s + 1, next, &alts);
			}
			next++;
		} else {
			next = s + strcspn(s, "[{");
			if (next > e)
				next = e;
			vec_push(&alts, (void *)ar_strndup(s, (size_t)(next - s)));
		}
		cross(&acc, &alts);
		free(alts.v);
		s = next;
	}
	for (int i = 0; i < acc.len; i++)
		vec_push(out, acc.v[i]);
	free(acc.v);
}

/* The length of the component at s: up to a '.' outside parentheses. */
static size_t comp_len(const char *s)
{
	size_t n = 0;

	while (s[n] && s[n] != '.') {
		if (s[n] == '(')
			n += strcspn(s + n, ")");
		if (s[n])
			n++;
	}
	return n;
}

/* Component by component: by name, then no argument, (number), (string). */
static int cmp_point(const void *pa, const void *pb)
{
	const char *a = *(char *const *)pa, *b = *(char *const *)pb;

	while (*a && *b) {
		size_t na = comp_len(a), nb = comp_len(b);
		size_t ka = strcspn(a, "(."), kb = strcspn(b, "(.");
		int r = strncmp(a, b, ka < kb ? ka : kb);

		if (!r && ka != kb)
			r = ka < kb ? -1 : 1;
		if (!r)
			r = strncmp(a + ka, b + kb, (na - ka) < (nb - kb) ? na - ka : nb - kb);
		if (!r && na - ka != nb - kb)
			r = na - ka < nb - kb ? -1 : 1;
		if (r)
			return r;
		a += na + (a[na] == '.');
		b += nb + (b[nb] == '.');
	}
	return *a ? 1 : *b ? -1 : 0;
}

static const struct vec *all_types(void);

void probe_types_dump(FILE *f)
{
	const struct vec *types = all_types();
	struct vec all = { 0 };

	for (int i = 0; i < types->len; i++)
		vec_push(&all, types->v[i]);
	for (const char *const *t = aliases; *t; t++)
		expand(*t, *t + strlen(*t), &all);
	qsort(all.v, all.len, sizeof(void *), cmp_point);
	for (int i = 0; i < all.len; i++)
		if (!i || strcmp(all.v[i], all.v[i - 1]))
			fprintf(f, "%s\n", (char *)all.v[i]);
	free(all.v);
}

/* Every type of every family, each text once (made on first use). */
static const struct vec *all_types(void)
{
	static struct vec all;

	if (!all.len)
		for (int pf = 0; pf < PF_N; pf++)
			for (const char *const *t = family_row(pf)->types; t && *t; t++)
				expand(*t, *t + strlen(*t), &all);
	return &all;
}

/* Does type t (a text of all_types) fit pp, each name of pp a pattern
 * for t's and each argument of the kind t's says?  Its names into
 * names[] then. */
static int type_fits(const char *t, const struct probe_point *pp, const char **names)
{
	int i = 0;

	for (; *t && i < pp->ncomps; i++) {
		const struct probe_comp *c = &pp->comps[i];
		size_t n = comp_len(t), k = strcspn(t, "(.");
		const char *name = ar_strndup(t, k < n ? k : n);
		int number = k < n && !strncmp(t + k, "(number)", 8);

		if (!c->name || fnmatch(c->name, name, 0) || !c->arg != !(k < n) ||
		    (c->arg && (c->arg->kind == N_NUM) != number))
			return 0;
		names[i] = name;
		t += n + (t[n] == '.');
	}
	return !*t && i == pp->ncomps;
}

int probe_types_expand(const struct probe_point *pp, struct vec *out)
{
	const struct vec *all = all_types();
	const char **names = xcalloc((size_t)pp->ncomps, sizeof(*names));
	struct vec seen = { 0 };
	int before = out->len;

	for (int i = 0; i < all->len; i++) {
		struct probe_point *q;
		const char *text;
		int dup = 0;

		if (!type_fits(all->v[i], pp, names))
			continue;
		q = pp_clone(pp, NULL);
		for (int k = 0; k < q->ncomps; k++)
			q->comps[k].name = names[k];
		text = pp_text(q);
		for (int k = 0; k < seen.len && !dup; k++)
			dup = !strcmp(seen.v[k], text);
		if (dup)
			continue;
		vec_push(&seen, (void *)text);
		vec_push(out, q);
	}
	free(seen.v);
	free(names);
	return out->len - before;
}
