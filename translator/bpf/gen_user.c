// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The user side's C: begin, end and error probes as functions, the
 * globals' initial values, and the tables the runner (staprun/bpf/)
 * reads: attach points, formats, error sites, globals.
 */
#include "bpf.h"

#include <stdlib.h>
#include <string.h>

static void user_probe(struct bx *x, struct derived_probe *d, int i)
{
	x->pfx = ar_printf("p%d", i);
	x->pp = d->name;
	sb_printf(&x->code, "static void p%d(void)\n{\n"
		  "\tstruct stp_kctx k = { 0 }, *stp_k = &k;\n\n", i);
	bx_probe_body(x, d);
	sb_puts(&x->code, "\t;\n}\n\n");
}

static struct elab *sort_e;

static int by_order(const void *a, const void *b)
{
	const struct derived_probe *x = sort_e->probes.v[*(const int *)a];
	const struct derived_probe *y = sort_e->probes.v[*(const int *)b];

	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	return *(const int *)a - *(const int *)b;
}

/* static void NAME(void): the probes of family f, by begin(N) order. */
static void runner(struct elab *e, struct sbuf *o, const char *name, enum probe_family f)
{
	int *idx = calloc(e->probes.len + 1, sizeof(int)), n = 0;

	for (int i = 0; i < e->probes.len; i++)
		if (((struct derived_probe *)e->probes.v[i])->family == f)
			idx[n++] = i;
	sort_e = e;
	qsort(idx, n, sizeof(int), by_order);
	sb_printf(o, "static void %s(void)\n{\n", name);
	for (int i = 0; i < n; i++)
		sb_printf(o, f == PF_BEGIN ? "\tif (!stp_k_stopped()) p%d();\n" : "\tp%d();\n",
			  idx[i]);
	sb_puts(o, "}\n\n");
	free(idx);
}

static int display_wanted(const struct symbol *s)
{
	return sym_displayed_at_end(s);
}

static void globals_table(struct elab *e, struct sbuf *o)
{
	sb_puts(o, "static const struct stp_u_global globals[] = {\n");
	for (int i = 0; i < e->global_list.len; i++) {
		struct symbol *s = e->global_list.v[i];
		struct sbuf keys = { 0 };
		int map = s->arity > 0 || s->type == T_STATS;

		for (int k = 0; k < s->arity; k++)
			sb_putc(&keys, s->keys[k] != T_STRING ? 'l' : bx_key_is_comm(e, s, k) ? 'c' : 's');
		sb_printf(o, "\t{ \"%s\", %s, '%c', \"%s\", %d, %s },\n", s->name,
			  map ? ar_printf("\"m_%s\"", s->name) : "0",
			  s->type == T_STATS ? 'S' : s->type == T_STRING ? 's' : 'l',
			  keys.s ? keys.s : "", display_wanted(s),
			  map ? "0" : ar_printf("offsetof(struct stp_globals, g_%s)", s->name));
	}
	sb_puts(o, "\t{ 0 }\n};\n\n");
}

static void init_globals(struct elab *e, struct sbuf *o)
{
	sb_puts(o, "static void init(void)\n{\n");
	for (int i = 0; i < e->global_list.len; i++) {
		struct symbol *s = e->global_list.v[i];
		struct node *v = s->decl ? s->decl->init_value : NULL;

		if (!v || s->arity > 0)
			continue;
		if (v->kind == N_STR)
			sb_printf(o, "\tstp_strcpy(stp_g.g_%s, \"%s\");\n", s->name, v->str);
		else
			sb_printf(o, "\tstp_g.g_%s = %lldLL;\n", s->name, (long long)v->num);
	}
	sb_puts(o, "}\n\n");
}

/* The kernel file's "@stp FILE:LINE:COL" markers, by its line number. */
static void line_table(const char *kern, struct sbuf *o)
{
	int line = 1;

	sb_puts(o, "static const struct stp_u_line lines[] = {\n");
	for (const char *p = kern; p && *p; p++) {
		if (*p == '\n') {
			line++;
			continue;
		}
		if (p[0] == '/' && !strncmp(p, "/* @stp ", 8) && (p == kern || p[-1] == '\n' ||
								 p[-1] == '\t')) {
			size_t n = strcspn(p + 8, " \n");

			sb_printf(o, "\t{ %d, \"%.*s\" },\n", line, (int)n, p + 8);
		}
	}
	sb_puts(o, "\t{ 0 }\n};\n\n");
}

static void tables(struct bx *x, struct sbuf *o, const char *attach)
{
	struct bx_tables *t = x->t;

	sb_printf(o, "static const struct stp_u_attach attach[] = {\n%s\t{ 0 }\n};\n\n",
		  attach ? attach : "");
	sb_puts(o, "static const struct stp_u_fmt fmts[] = {\n");
	for (int i = 0; i < t->fmts.len; i++)
		sb_printf(o, "\t{ \"%s\", \"%s\" },\n", (char *)t->fmts.v[i], (char *)t->types.v[i]);
	sb_puts(o, "\t{ 0 }\n};\n\nstatic const char *const errors[] = {\n");
	for (int i = 0; i < t->errors.len; i++)
		sb_printf(o, "\t\"%s\",\n", bx_cstr(t->errors.v[i]));
	sb_puts(o, "\t0\n};\n\nstatic const char *const whats[] = {\n");
	for (int i = 0; i < t->whats.len; i++)
		sb_printf(o, "\t\"%s\",\n", bx_cstr(t->whats.v[i]));
	sb_puts(o, "\t0\n};\n\n");
	globals_table(x->e, o);
}

static int count_family(struct elab *e, enum probe_family f)
{
	int n = 0;

	for (int i = 0; i < e->probes.len; i++)
		n += ((struct derived_probe *)e->probes.v[i])->family == f;
	return n;
}

static void user_file(struct bx *x, struct sbuf *o, const char *attach, int nattach,
		      const char *kern)
{
	struct sbuf body = { 0 };

	for (int i = 0; i < x->e->probes.len; i++) {
		struct derived_probe *d = x->e->probes.v[i];

		if (bx_side_of(d) == BX_USER && d->family != PF_NEVER)
			user_probe(x, d, i);
	}
	bx_functions(x, &body);
	sb_puts(o, "/* the user side: begin, end and error probes; the runner's tables */\n"
		"#include <stdlib.h>\n#include <stddef.h>\n#include \"user.h\"\n\n");
	bx_shared_decls(x->e, o);
	bx_ctx_struct(x, o);
	sb_puts(o, "static struct stp_ctx stp_ctx_user, *c = &stp_ctx_user;\n\n");
	sb_printf(o, "%s", body.s ? body.s : "");
	runner(x->e, o, "begin", PF_BEGIN);
	runner(x->e, o, "end", PF_END);
	runner(x->e, o, "error", PF_ERROR);
	init_globals(x->e, o);
	tables(x, o, attach);
	line_table(kern, o);
	sb_printf(o, "const struct stp_u_prog stp_prog = {\n\tattach, %d, fmts, errors, globals, %d,\n"
		  "\tMAXSTRINGLEN, init, begin, end, error, %d, whats, lines,\n};\n", nattach,
		  x->e->global_list.len, count_family(x->e, PF_ERROR) > 0);
}

int bpf_translate(struct elab *e, struct sbuf *kern, struct sbuf *user)
{
	struct bx_tables t = { 0 };
	struct bx k = { .e = e, .side = BX_KERN, .t = &t };
	struct bx u = { .e = e, .side = BX_USER, .t = &t };
	int nattach = 0;

	bx_kern_file(&k, kern);
	/* a line per program to attach: a .return's @entry adds one of
	 * its own, kernel.syscall probes share two */
	for (const char *p = k.code.s; p && *p; p++)
		nattach += *p == '\n';
	user_file(&u, user, k.code.s, nattach, kern->s);
	return k.failed || u.failed;
}
