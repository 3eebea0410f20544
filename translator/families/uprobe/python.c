// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * SystemTap's Python probe points, made as probe aliases: for each
 * python3.module("M").function("P")[.call|.return] the user's script
 * names, an alias of that very name over tapsets/python.stp's
 * python3.function.entry (or .return: CPython's own SDT markers), whose
 * prologue leaves the probe unless _python_match() says that the
 * function is the one the point names.  The aliases' text is parsed
 * with the library, so the point then expands as any alias does:
 * the handler sees filename, funcname and lineno.
 *
 * SystemTap's points need its HelperSDT Python module and the Python
 * debuginfo; these need neither.  Parameters as $variables, which
 * SystemTap reads through HelperSDT, are not available.
 */
#include "python.h"

#include <stdlib.h>
#include <string.h>

static int is_str_comp(const struct probe_comp *c, const char *name)
{
	return c->name && !strcmp(c->name, name) && c->arg && c->arg->kind == N_STR;
}

/* 1 for "python2"/"python3" . module("M") . function("P") [.call|.return] */
static int python_point(const struct probe_point *pp)
{
	const struct probe_comp *c = pp->comps;

	if (pp->ncomps < 3 || pp->ncomps > 4 || !c[0].name || c[0].arg ||
	    (strcmp(c[0].name, "python2") && strcmp(c[0].name, "python3")) ||
	    !is_str_comp(&c[1], "module") || !is_str_comp(&c[2], "function"))
		return 0;
	return pp->ncomps == 3 ||
	       (c[3].name && !c[3].arg && (!strcmp(c[3].name, "call") || !strcmp(c[3].name, "return")));
}

/* A string literal's text again (the lexer keeps its escapes). */
static void put_str(struct sbuf *sb, const char *s)
{
	sb_printf(sb, "\"%s\"", s);
}

static void add_alias(struct sbuf *sb, struct pmap *done, const struct probe_point *pp)
{
	const struct probe_comp *c = pp->comps;
	int ret = pp->ncomps == 4 && !strcmp(c[3].name, "return");
	struct sbuf name = { 0 };
	const char *key;

	sb_printf(&name, "%s.module(", c[0].name);
	put_str(&name, c[1].arg->str);
	sb_puts(&name, ").function(");
	put_str(&name, c[2].arg->str);
	sb_printf(&name, ")%s", pp->ncomps == 4 ? (ret ? ".return" : ".call") : "");
	key = intern(name.s, name.len);
	free(name.s);
	if (pmap_get(done, key))
		return;
	pmap_put(done, key, (void *)key);
	sb_printf(sb, "probe %s = %s.function.%s\n{\n\tif (!_python_match(filename, funcname, lineno, ",
		  key, c[0].name, ret ? "return" : "entry");
	put_str(sb, c[1].arg->str);
	sb_puts(sb, ", ");
	put_str(sb, c[2].arg->str);
	sb_puts(sb, "))\n\t\tnext\n}\n");
}

const char *python_aliases(const struct script *user)
{
	struct sbuf sb = { 0 };
	struct pmap done = { 0 };
	const char *r;

	for (int i = 0; user && i < user->decls.len; i++) {
		const struct node *d = user->decls.v[i];

		if (d->kind != N_PROBE && d->kind != N_ALIAS)
			continue;
		for (int k = 0; k < d->npoints; k++)
			if (python_point(d->points[k]))
				add_alias(&sb, &done, d->points[k]);
	}
	r = sb.s ? ar_printf("%s", sb.s) : NULL;
	free(sb.s);
	return r;
}
