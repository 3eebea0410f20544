// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Dead code: what no probe reaches is dropped (functions were only ever
 * pulled in when called), and the script's own variables get warnings
 * where something is off: a global read but never written, a local
 * assigned but never read, a local read but never assigned.  Locals
 * that only an alias's prologue sets are dropped quietly: an alias
 * offers many, a handler uses a few.  -u keeps everything.
 */
#include "elab.h"

static int from_user(const struct elab *e, const struct symbol *s)
{
	const struct lib_file *user = e->files.v[0];

	return s->file == user && !s->loc.from &&
	       s->loc.src == user->script->src;
}

static void locals(struct elab *e, struct vec *v)
{
	for (int i = 0; i < v->len; i++) {
		struct symbol *s = v->v[i];

		s->used = s->reads || e->s->unoptimized;
		if (!from_user(e, s) || s->quiet)
			continue;
		if (s->writes && !s->reads)
			sem_warn(&s->loc, "local '%s' is assigned but never read", s->name);
		else if (s->reads && !s->writes)
			sem_warn(&s->loc, "local '%s' is never assigned; it is always %s",
				 s->name, s->type == T_STRING ? "\"\"" : "0");
	}
}

/* -G VAR=VALUE writes VAR before the script starts. */
static int set_by_option(const struct elab *e, const struct symbol *s)
{
	size_t n = strlen(s->name);

	for (int i = 0; i < e->s->globals.len; i++) {
		const char *g = e->s->globals.v[i];

		if (!strncmp(g, s->name, n) && g[n] == '=')
			return 1;
	}
	return 0;
}

void prune_program(struct elab *e)
{
	for (int i = 0; i < e->global_list.len; i++) {
		struct symbol *s = e->global_list.v[i];

		s->used = s->reads || s->writes || e->s->unoptimized;
		if (!from_user(e, s))
			continue;
		if (s->reads && !s->writes && !s->decl->init_value && !set_by_option(e, s))
			sem_warn(&s->loc, "global '%s' is read but never written", s->name);
		else if (!s->reads && !s->writes)
			sem_warn(&s->loc, "global '%s' is never used", s->name);
	}
	for (int i = 0; i < e->probes.len; i++) {
		struct derived_probe *d = e->probes.v[i];

		locals(e, &d->locals);
	}
	for (int i = 0; i < e->used_functions.len; i++) {
		struct function *f = e->used_functions.v[i];

		locals(e, &f->locals);
	}
}
