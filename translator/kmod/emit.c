// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Pass 3: the layout of the generated C file (see emit.h), the globals
 * and their locks, each handler's and function's frame, the probe
 * tables the runtime's session walks.
 */
#include "emit.h"
#include "build.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void em_error(const struct loc *l, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vat(l, "translation error", fmt, ap);
	va_end(ap);
}

const char *em_tmp(struct emit *m, const char *prefix)
{
	return ar_printf("_%s%d", prefix, ++m->tmp);
}

const char *em_str_tmp(struct emit *m)
{
	const char *t = ar_printf("t%d", ++m->tmp);

	sb_printf(m->frame, "\tchar %s[MAXSTRINGLEN] __aligned(8);\n", t);
	return t;
}

/* A C string literal for an error position: "operator '/' at f:1:2". */
const char *em_where(struct emit *m, const struct loc *l, const char *what)
{
	const char *file = l->src ? l->src->name : "<input>";
	struct sbuf sb = { 0 };
	const char *lit;

	(void)m;
	sb_printf(&sb, "%s at %s:%d:%d", what, file, l->line, l->col);
	lit = em_cstr_raw(sb.s);
	free(sb.s);
	return lit;
}

const char *em_sym(struct emit *m, const struct symbol *s)
{
	const char *n = pmap_get(&m->cname, s);

	return n ? n : "/* unbound */0";
}

int em_is_pmap(const struct symbol *s)
{
	return s->type == T_STATS && s->arity > 0;
}

/* Bytes as a C literal, every unusual byte as an octal escape. */
void em_embedded(struct sbuf *o, const struct node *n)
{
	const struct loc *l = &n->loc;
	char *real;

	/* a macro's expansion has no lines of its own in the file */
	if (!l->src || l->from) {
		sb_printf(o, "%s\n", n->str);
		return;
	}
	real = realpath(l->src->name, NULL);
	sb_printf(o, "#line %d %s\n%s\n" BUILD_LINE_BACK, l->line,
		  em_cstr_raw(real ? real : l->src->name), n->str);
	free(real);
}

void em_array(struct sbuf *o, const char *type, const char *name, struct sbuf *entries,
	      const char *count, int n)
{
	sb_printf(o, "static struct %s %s[] = {\n%s};\n#define %s %d\n\n", type, name,
		  entries->s ? entries->s : "\t{ 0 },\n", count, n);
	free(entries->s);
	entries->s = NULL;
	entries->len = 0;
}

const char *em_cstr_raw(const char *s)
{
	struct sbuf sb = { 0 };
	const char *r;

	sb_putc(&sb, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			sb_printf(&sb, "\\%c", *p);
		else if (*p < 32 || *p >= 127 || *p == '?')
			sb_printf(&sb, "\\%03o", *p);
		else
			sb_putc(&sb, *p);
	}
	sb_putc(&sb, '"');
	r = ar_printf("%s", sb.s);
	free(sb.s);
	return r;
}

static int hexval(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* The script's escapes (as written) decoded, then spelled for C. */
const char *em_cstr(const char *lit)
{
	struct sbuf sb = { 0 };
	const char *r;

	for (const char *p = lit; *p; p++) {
		int v;

		if (*p != '\\' || !p[1]) {
			sb_putc(&sb, *p);
			continue;
		}
		p++;
		switch (*p) {
		case 'n': sb_putc(&sb, '\n'); break;
		case 't': sb_putc(&sb, '\t'); break;
		case 'r': sb_putc(&sb, '\r'); break;
		case 'a': sb_putc(&sb, '\a'); break;
		case 'b': sb_putc(&sb, '\b'); break;
		case 'f': sb_putc(&sb, '\f'); break;
		case 'v': sb_putc(&sb, '\v'); break;
		case 'x':
			v = 0;
			while (hexval(p[1]) >= 0) {
				v = v * 16 + hexval(p[1]);
				p++;
			}
			sb_putc(&sb, (char)v);
			break;
		default:
			if (*p >= '0' && *p <= '7') {
				v = 0;
				for (int i = 0; i < 3 && *p >= '0' && *p <= '7'; i++, p++)
					v = v * 8 + (*p - '0');
				p--;
				sb_putc(&sb, (char)v);
			} else {
				sb_putc(&sb, *p);	/* \\ \" \' and others */
			}
		}
	}
	if (!sb.s)
		return "\"\"";
	r = em_cstr_raw(sb.s);
	free(sb.s);
	return r;
}

/* ---- names ---- */

static void name_globals(struct emit *m)
{
	struct pmap seen = { 0 };

	for (int i = 0; i < m->e->global_list.len; i++) {
		struct symbol *s = m->e->global_list.v[i];
		const char *n = ar_printf("g_%s", s->name);

		if (pmap_get(&seen, s->name))
			n = ar_printf("g_%s_%d", s->name, i);
		pmap_put(&seen, s->name, (void *)1);
		pmap_put(&m->cname, s, (void *)n);
	}
	for (int i = 0; i < m->e->used_functions.len; i++) {
		struct function *f = m->e->used_functions.v[i];

		pmap_put(&m->cname, f, (void *)ar_printf("f_%s_%d", f->name, i));
	}
}

static const char *ctype(enum type t, const char *name)
{
	/* aligned: maps compare their string keys a word at a time */
	if (t == T_STRING)
		return ar_printf("char %s[MAXSTRINGLEN] __aligned(8)", name);
	return ar_printf("int64_t %s", name);
}

static void frame_fields(struct sbuf *o, struct vec *locals, const char *ptr,
			 struct emit *m)
{
	for (int i = 0; i < locals->len; i++) {
		struct symbol *s = locals->v[i];

		if (s->kind == SYM_PARAM)
			continue;
		sb_printf(o, "\t%s;\n", ctype(s->type, ar_printf("l_%s", s->name)));
		pmap_put(&m->cname, s, (void *)ar_printf("%s->l_%s", ptr, s->name));
	}
}

static void init_locals(struct sbuf *o, struct vec *locals, const char *ptr)
{
	for (int i = 0; i < locals->len; i++) {
		struct symbol *s = locals->v[i];

		if (s->kind == SYM_PARAM)
			continue;
		if (s->type == T_STRING)
			sb_printf(o, "\t%s->l_%s[0] = '\\0';\n", ptr, s->name);
		else
			sb_printf(o, "\t%s->l_%s = 0;\n", ptr, s->name);
	}
}

/* ---- functions ---- */

/*
 * Embedded-C functions see SystemTap's names for their arguments and
 * result: STAP_ARG_x, STAP_RETVALUE, STAP_RETURN(v), STAP_ERROR(fmt, ...),
 * CONTEXT (the runtime's struct stp_ctx), STAP_PRINTF(fmt, ...).
 */
static void function(struct emit *m, struct function *f, struct sbuf *types,
		     struct sbuf *code)
{
	const char *cn = em_sym(m, (void *)f);
	struct sbuf frame = { 0 }, body = { 0 };
	struct node *d = f->decl;

	m->fn = f;
	m->probe = NULL;
	m->frame = &frame;
	m->frame_ptr = "fr";
	m->unwind = "out";
	m->indent = 1;
	for (int i = 0; i < d->nparams; i++) {
		struct symbol *p = f->params[i];

		sb_printf(&frame, "\t%s;\n", ctype(p->type, ar_printf("a_%s", p->name)));
		pmap_put(&m->cname, p, (void *)ar_printf("fr->a_%s", p->name));
	}
	if (f->ret == T_STRING)
		sb_puts(&frame, "\tchar *ret;\t/* the caller's buffer */\n");
	else
		sb_puts(&frame, "\tint64_t ret;\n");
	frame_fields(&frame, &f->locals, "fr", m);
	m->o = &body;
	if (d->body->kind == N_EMBEDDED) {
		for (int i = 0; i < d->nparams; i++)
			sb_printf(&body, "#define STAP_ARG_%s (fr->a_%s)\n", f->params[i]->name,
				  f->params[i]->name);
		sb_puts(&body, "#define STAP_RETVALUE (fr->ret)\n");
		if (f->ret == T_STRING)
			sb_puts(&body, "#define STAP_RETURN(v) do { strscpy(fr->ret, (v), MAXSTRINGLEN); goto out; } while (0)\n");
		else
			sb_puts(&body, "#define STAP_RETURN(v) do { fr->ret = (v); goto out; } while (0)\n");
		/* errors name the script's call, not the tapset's code */
		sb_puts(&body, "#define STAP_ERROR(...) do { stp_error_fmt(&c->h, c->h.call_where, __VA_ARGS__); goto out; } while (0)\n");
		sb_puts(&body, "#define CONTEXT (&c->h)\n");
		sb_puts(&body, "#define STAP_PRINTF(...) stp_out_kprintf(c->h.out, __VA_ARGS__)\n");
		sb_puts(&body, "\t{\n");
		em_embedded(&body, d->body);
		sb_puts(&body, "\t}\n");
		for (int i = 0; i < d->nparams; i++)
			sb_printf(&body, "#undef STAP_ARG_%s\n", f->params[i]->name);
		sb_puts(&body, "#undef STAP_RETVALUE\n#undef STAP_RETURN\n#undef STAP_ERROR\n"
			"#undef CONTEXT\n#undef STAP_PRINTF\n");
	} else {
		init_locals(&body, &f->locals, "fr");
		em_stmt(m, d->body);
	}
	sb_printf(types, "struct %s_frame {\n\tchar _none;\n%s};\n", cn, frame.s ? frame.s : "");
	/* embedded C is called without counting a level (emit_expr.c) */
	sb_printf(code, "static STP_HANDLER void %s(struct stp_context *c)\n{\n"
		  "\tstruct %s_frame *fr = &c->fr[c->h.nesting%s].%s;\n\n"
		  "\t(void)fr;\n%s",
		  cn, cn, d->body->kind == N_EMBEDDED ? " + 1" : "", cn, f->ret == T_STRING ? "\tfr->ret[0] = '\\0';\n" : "\tfr->ret = 0;\n");
	sb_printf(code, "%s", body.s ? body.s : "");
	sb_puts(code, "out: __attribute__((unused));\n}\n\n");
	free(frame.s);
	free(body.s);
}

/* ---- probes ---- */

static const char *probe_kind(const struct derived_probe *d)
{
	const char *kind = family_row(d->family)->kmod_kind;

	return kind ? kind : "STP_PK_EVENT";
}

/* A handler's lock set, in the order the access pass put it in. */
static void lock_table(struct emit *m, struct sbuf *o, const char *name,
		       const struct vec *acc)
{
	sb_printf(o, "static const struct stp_lockreq %s[] = {\n", name);
	for (int j = 0; j < acc->len; j++) {
		const struct access *a = acc->v[j];

		sb_printf(o, "\t{ &%s_lock, %d },\n", em_sym(m, a->sym), a->write);
	}
	if (!acc->len)
		sb_puts(o, "\t{ NULL, 0 },\n");
	sb_puts(o, "};\n");
}

static void entry_visit(struct node *n, void *arg)
{
	struct emit *m = arg;

	if (n->kind == N_AT && n->at == ATOP_ENTRY && n->args.len == 1 &&
	    !pmap_get(&m->entry_slot, n)) {
		vec_push(&m->entries, n);
		pmap_put(&m->entry_slot, n, (void *)(intptr_t)m->entries.len);
	}
}

/*
 * A .return probe's @entry(expr)s are computed by a probe of their own
 * that runs when the function is entered, into the kretprobe's per-call
 * data (struct pN_entry); the return handler reads them from there.
 */
static void entry_probe(struct emit *m, int idx, struct derived_probe *d,
			struct sbuf *types, struct sbuf *code, struct sbuf *tables)
{
	struct sbuf frame = { 0 }, body = { 0 }, fields = { 0 };
	const struct vec *acc = pmap_get(&m->ax->entry_access, d);
	const char *pn = ar_printf("p%d_entry", idx);

	m->frame = &frame;
	m->frame_ptr = "l";
	m->unwind = "out";
	m->indent = 1;
	m->o = &body;
	for (int i = 0; i < m->entries.len; i++) {
		struct node *e = m->entries.v[i], *x = e->args.v[0];

		if (x->vtype == T_STRING) {
			sb_printf(&fields, "	char e%d[MAXSTRINGLEN];\n", i);
			sb_puts(&body, "\t{\n\t\tconst char *_v = ");
			em_expr(m, x);
			sb_printf(&body, ";\n\n\t\tstp_str_assign(ent->e%d, _v);\n\t}\n", i);
		} else {
			sb_printf(&fields, "\tint64_t e%d;\n", i);
			sb_printf(&body, "\tent->e%d = ", i);
			em_expr(m, x);
			sb_puts(&body, ";\n");
		}
	}
	/* a system call's: its registers first, where its $vars are read
	 * (genfn_entry_slot) at sys_enter and then at sys_exit
	 * (../families/syscall/syscall_kmod.c) */
	if (d->family == PF_SYSCALL)
		sb_puts(types, "#include \"runtime/sysdispatch.h\"\n");
	sb_printf(types, "struct p%d_entry {\n%s%s};\n", idx,
		  d->family == PF_SYSCALL ? "\tu64 sd[STP_SD_SLOTS];\n" : "", fields.s);
	sb_printf(types, "struct %s_locals {\n\tchar _none;\n%s};\n", pn, frame.s ? frame.s : "");
	sb_printf(code, "/* %s: what @entry saves */\nstatic STP_HANDLER void probe_%d_entry(struct stp_ctx *h)\n{\n"
		  "\tstruct stp_context *c = container_of(h, struct stp_context, h);\n"
		  "\tstruct %s_locals *l = &c->pl.%s;\n"
		  "\tstruct p%d_entry *ent = c->h.entry;\n\n\t(void)l;\n%s"
		  "out: __attribute__((unused));\n}\n\n",
		  d->name, idx, pn, pn, idx, body.s);
	lock_table(m, tables, ar_printf("%s_locks", pn), acc);
	sb_printf(tables, "static const struct stp_probe stp_probe_%d_entry = {\n"
		  "\t.kind = STP_PK_EVENT, .pp = %s, .handler = probe_%d_entry,\n"
		  "\t.locks = %s_locks, .nlocks = %d,\n};\n\n",
		  idx, em_cstr_raw(d->name), idx, pn, acc->len);
	vec_push(&m->extra_locals, (void *)pn);
	free(frame.s);
	free(body.s);
	free(fields.s);
}

/* A glob in what the script wrote: a wildcard match may be refused. */
int em_from_wildcard(const struct derived_probe *d)
{
	return strpbrk(d->user_name, "*?[") != NULL;
}

static void probe(struct emit *m, int idx, struct derived_probe *d,
		  struct sbuf *types, struct sbuf *code, struct sbuf *tables)
{
	struct sbuf frame = { 0 }, body = { 0 };
	const struct vec *acc = pmap_get(&m->ax->probe_access, d);
	int calls;
	const char *pn = ar_printf("p%d", idx);
	struct node *run, *cond;

	m->probe_idx = idx;
	m->entries.len = 0;
	node_walk(d->body, entry_visit, m);
	if (m->entries.len)
		entry_probe(m, idx, d, types, code, tables);
	m->fn = NULL;
	m->probe = d;
	m->frame = &frame;
	m->frame_ptr = "l";
	m->unwind = "out";
	m->indent = 1;
	m->o = &body;
	frame_fields(&frame, &d->locals, "l", m);
	init_locals(&body, &d->locals, "l");
	/* a prefix's probe: its locals, then the rest (emit_hoist.c) */
	run = em_handler_body(m, idx, d, types, &body);
	cond = em_hoisted(d) ? NULL : d->cond;	/* the prefix tested it */
	m->act_total = em_static_actions(run, cond, &calls);
	if (cond) {
		sb_puts(&body, "\tif (!(");
		em_expr(m, cond);
		sb_puts(&body, "))\n\t\tgoto out;\n");
	}
	em_stmt(m, run);
	sb_printf(types, "struct %s_locals {\n\tchar _none;\n%s};\n", pn, frame.s ? frame.s : "");
	sb_printf(code, "/* %s */\nstatic STP_HANDLER void probe_%d(struct stp_ctx *h)\n{\n"
		  "\tstruct stp_context *c = container_of(h, struct stp_context, h);\n"
		  "\tstruct %s_locals *l = &c->pl.%s;\n\n\t(void)l;\n%s"
		  "out: __attribute__((unused));\n}\n\n",
		  d->name, idx, pn, pn, body.s ? body.s : "");
	lock_table(m, tables, ar_printf("%s_locks", pn), acc);
	sb_printf(tables, "static const struct stp_probe stp_probe_%d = {\n"
		  "\t.kind = %s, .pp = %s, .handler = probe_%d,\n"
		  "\t.locks = %s_locks, .nlocks = %d,\n"
		  "\t.pn = %s,\n",
		  idx, probe_kind(d), em_cstr_raw(d->name), idx, pn, acc->len,
		  em_cstr_raw(d->list_name ? d->list_name : d->user_name));
	if (m->act_total >= 0)
		sb_printf(tables, "\t.act_static = %d <= MAXACTION,\n", m->act_total);
	if (!calls)
		sb_puts(tables, "\t.quiet = 1,\n");
	m->act_total = -1;
	if (family_row(d->family)->kmod_fields)
		family_row(d->family)->kmod_fields(tables, d);
	sb_puts(tables, "};\n\n");
	free(frame.s);
	free(body.s);
}

/* ---- globals ---- */

/* How many entries an array has: its declared size, else MAXMAPENTRIES. */
static const char *map_max(const struct symbol *s)
{
	return s && s->decl && s->decl->size ? ar_printf("%d", s->decl->size) :
	       "stpd_MAXMAPENTRIES";
}

static const char *stp_type(enum type t)
{
	return t == T_STRING ? "STP_T_STRING" : t == T_STATS ? "STP_T_STAT" : "STP_T_LONG";
}

/* A number as the script wrote it: 5, -5, +5. */
static int literal(const struct node *n, int64_t *v)
{
	if (n->kind == N_NUM) {
		*v = n->num;
		return 1;
	}
	if (n->kind == N_UNARY && (n->op == OP_MINUS || n->op == OP_PLUS) &&
	    literal(n->lhs, v)) {
		if (n->op == OP_MINUS)
			*v = (int64_t)(0 - (uint64_t)*v);
		return 1;
	}
	return 0;
}

static void stat_desc(struct emit *m, struct sbuf *o, struct symbol *s)
{
	struct node *h = pmap_get(&m->ax->stat_hist, s);
	intptr_t shift = (intptr_t)pmap_get(&m->ax->stat_shift, s);

	sb_printf(o, "static struct stp_stat_desc %s_desc = { ", em_sym(m, s));
	if (h && h->at == ATOP_HIST_LOG) {
		sb_puts(o, ".hist = STP_HIST_LOG, ");
	} else if (h && h->args.len == 4) {
		int64_t v[3];

		for (int i = 0; i < 3; i++)
			if (!literal(h->args.v[i + 1], &v[i])) {
				em_error(&((struct node *)h->args.v[i + 1])->loc,
					 "@hist_linear takes numbers as its bounds and width");
				v[0] = 0, v[1] = 1, v[2] = 1;
				break;
			}
		if (v[2] <= 0)
			em_error(&((struct node *)h->args.v[3])->loc,
				 "the bucket width of @hist_linear must be positive");
		else if (v[1] <= v[0])
			em_error(&((struct node *)h->args.v[2])->loc,
				 "@hist_linear's high bound must be above its low bound");
		else if ((v[1] - v[0]) / v[2] > 128)
			em_error(&h->loc, "@hist_linear(%lld, %lld, %lld) has %lld buckets; at most 128",
				 (long long)v[0], (long long)v[1], (long long)v[2],
				 (long long)((v[1] - v[0]) / v[2]));
		sb_printf(o, ".hist = STP_HIST_LINEAR, .start = %lldLL, .stop = %lldLL, .interval = %lldLL, ",
			  (long long)v[0], (long long)v[1], (long long)v[2]);
	}
	if (shift)
		sb_printf(o, ".bit_shift = %d, ", (int)(shift - 1));
	if (!pmap_get(&m->ax->stat_variance, s))
		sb_puts(o, ".no_variance = 1, ");
	sb_puts(o, "};\n");
}

static void globals(struct emit *m, struct sbuf *o, struct sbuf *alloc, struct sbuf *fre)
{
	for (int i = 0; i < m->e->global_list.len; i++) {
		struct symbol *s = m->e->global_list.v[i];
		const char *g = em_sym(m, s);
		struct node *d = s->decl;
		int declared = d && d->size;
		int wrap = d && d->wrap;

		if (!s->used)
			continue;
		sb_printf(o, "static struct stp_lock %s_lock = STP_LOCK_INIT;\n", g);
		if (s->type == T_STATS)
			stat_desc(m, o, s);
		if (s->arity > 0) {
			const char *kt = ar_printf("%s_keys", g);

			sb_printf(o, "static const enum stp_type %s[] = { ", kt);
			for (int k = 0; k < s->arity && k < 9; k++)
				sb_printf(o, "%s, ", stp_type(s->keys[k] ? s->keys[k] : T_LONG));
			sb_puts(o, "};\n");
			if (em_is_pmap(s)) {
				sb_printf(o, "static struct stp_pmap *%s;\n", g);
				sb_printf(alloc, "\t%s = stp_pmap_new(%d, %s, &%s_desc, %s, %d);\n"
					  "\tif (!%s)\n\t\treturn -ENOMEM;\n", g, s->arity, kt, g,
					  map_max(s), wrap, g);
				if (declared)
					sb_printf(alloc, "\tstp_pmap_declared_size(%s);\n", g);
				sb_printf(fre, "\tif (%s)\n\t\tstp_pmap_free(%s);\n", g, g);
			} else {
				sb_printf(o, "static struct stp_map *%s;\n", g);
				sb_printf(alloc, "\t%s = stp_map_new(%d, %s, %s, NULL, %s, %d);\n"
					  "\tif (!%s)\n\t\treturn -ENOMEM;\n", g, s->arity, kt,
					  stp_type(s->type), map_max(s), wrap, g);
				if (declared)
					sb_printf(alloc, "\tstp_map_declared_size(%s);\n", g);
				sb_printf(fre, "\tif (%s)\n\t\tstp_map_free(%s);\n", g, g);
			}
			continue;
		}
		if (s->type == T_STATS) {
			sb_printf(o, "static struct stp_pstat *%s;\n", g);
			sb_printf(alloc, "\t%s = stp_pstat_new(&%s_desc);\n\tif (!%s)\n\t\treturn -ENOMEM;\n",
				  g, g, g);
			sb_printf(fre, "\tif (%s)\n\t\tstp_pstat_free(%s);\n", g, g);
			continue;
		}
		if (s->type == T_STRING) {
			sb_printf(o, "static char %s[MAXSTRINGLEN] __aligned(8) = %s;\n", g,
				  d && d->init_value && d->init_value->kind == N_STR ?
				  em_cstr(d->init_value->str) : "\"\"");
			sb_printf(o, "module_param_string(%s, %s, MAXSTRINGLEN, 0);\n", s->name, g);
		} else {
			sb_printf(o, "static long %s = %lldLL;\n", g,
				  d && d->init_value && d->init_value->kind == N_NUM ?
				  (long long)d->init_value->num : 0LL);
			sb_printf(o, "module_param_named(%s, %s, long, 0);\n", s->name, g);
		}
	}
}

/*
 * Globals the script writes and never reads are shown at the end, as
 * SystemTap 4.8 does: "x=5", "a[\"k\",1]=2" (arrays by value, largest
 * first), "s=\"str\"", statistics as their aggregates.
 */
static int display_wanted(const struct symbol *s)
{
	return sym_displayed_at_end(s);
}

/* What follows the name: "=5", "=\"s\"" or " @count=...", a newline. */
static void display_value(struct sbuf *b, const char *ind, const struct symbol *s,
			  const char *g, const char *stat, const char *str, const char *lng)
{
	if (s->type == T_STATS)
		sb_printf(b, "%sstp_display_stat(c->h.out, %s, &%s_desc, 1);\n", ind, stat, g);
	else if (s->type == T_STRING)
		sb_printf(b, "%sstp_out_char(c->h.out, '=');\n%sstp_display_str(c->h.out, %s);\n",
			  ind, ind, str);
	else
		sb_printf(b, "%sstp_display_long(c->h.out, %s);\n", ind, lng);
	sb_printf(b, "%sstp_out_char(c->h.out, '\\n');\n", ind);
}

static void display_probe(struct emit *m, struct sbuf *code, struct sbuf *tables,
			  struct vec *end_list)
{
	struct sbuf body = { 0 };
	struct vec acc = { 0 };

	for (int i = 0; i < m->e->global_list.len; i++) {
		struct symbol *s = m->e->global_list.v[i];
		const char *g = em_sym(m, s);

		if (!display_wanted(s))
			continue;
		access_note(&acc, s, s->type == T_STATS || s->arity > 0);
		if (s->arity > 0) {
			/* by value, largest first (statistics by @count) */
			sb_printf(&body, "\t{\n\t\tstruct stp_map *m = %s;\n\t\tstruct stp_map_entry *e;\n"
				  "\t\tint i, n = stp_map_sorted(m, 0, -1, STP_AGG_COUNT, NULL, NULL, 0, %s_disp);\n\n"
				  "\t\tfor (i = 0; i < n; i++) {\n\t\t\te = %s_disp[i];\n"
				  "\t\t\tstp_out_str(c->h.out, \"%s[\");\n",
				  em_map(m, s), g, g, s->name);
			vec_push(&m->display_arrays, s);
			for (int k = 0; k < s->arity && k < 9; k++) {
				if (k)
					sb_puts(&body, "\t\t\tstp_out_char(c->h.out, ',');\n");
				if (s->keys[k] == T_STRING)
					sb_printf(&body, "\t\t\tstp_display_str(c->h.out, stp_entry_key(m, e, %d).s);\n", k);
				else
					sb_printf(&body, "\t\t\tstp_out_long(c->h.out, stp_entry_key(m, e, %d).l);\n", k);
			}
			sb_puts(&body, "\t\t\tstp_out_char(c->h.out, ']');\n");
			display_value(&body, "\t\t\t", s, g, "stp_entry_stat(m, e)",
				      "stp_entry_str(m, e)", "*stp_entry_long(m, e)");
			sb_puts(&body, "\t\t}\n\t}\n");
			continue;
		}
		sb_printf(&body, "\tstp_out_str(c->h.out, \"%s\");\n", s->name);
		display_value(&body, "\t", s, g, ar_printf("stp_pstat_agg(%s)", g), g, g);
	}
	if (!body.s)
		return;
	sb_printf(code, "/* the globals written and never read */\n"
		  "static void probe_display(struct stp_ctx *h)\n{\n"
		  "\tstruct stp_context *c = container_of(h, struct stp_context, h);\n\n%s}\n\n",
		  body.s);
	access_sort(m->e, &acc);
	lock_table(m, tables, "display_locks", &acc);
	sb_printf(tables, "static const struct stp_probe stp_probe_display = {\n"
		  "\t.kind = STP_PK_END, .pp = \"end\", .handler = probe_display,\n"
		  "\t.locks = display_locks, .nlocks = %d,\n};\n\n", acc.len);
	vec_push(end_list, "&stp_probe_display");
	free(body.s);
}

/* ---- the file ---- */

/* A probe and its place in elaboration order, to sort by (order, place):
 * the addresses of probes say nothing of their order (arena chunks are
 * mapped anywhere). */
struct placed {
	struct derived_probe *d;
	int place;
};

static int cmp_order(const void *a, const void *b)
{
	const struct placed *x = a, *y = b;

	if (x->d->order != y->d->order)
		return x->d->order < y->d->order ? -1 : 1;
	return x->place - y->place;	/* stable: elaboration order */
}

static void defines(struct emit *m, struct sbuf *o)
{
	for (int i = 0; i < m->s->defines.len; i++) {
		const char *d = m->s->defines.v[i];
		const char *eq = strchr(d, '=');

		if (eq)
			sb_printf(o, "#define %.*s %s\n", (int)(eq - d), d, eq + 1);
		else
			sb_printf(o, "#define %s 1\n", d);
	}
}

static void top_embedded(struct emit *m, struct sbuf *o)
{
	for (int i = 0; i < m->e->files.len; i++) {
		struct lib_file *f = m->e->files.v[i];

		if (!f->included)
			continue;
		for (int j = 0; j < f->script->decls.len; j++) {
			struct node *d = f->script->decls.v[j];

			if (d->kind == N_EMBEDDED) {
				sb_printf(o, "/* %s */\n", d->loc.src ? d->loc.src->name : "");
				em_embedded(o, d);
			}
		}
	}
}

/* The parts of the file, made before it is laid out. */
struct parts {
	struct sbuf types, code, tables, gl, alloc, fre;
	struct vec sorted;		/* the probes in table order */
};

/* e's probes into sorted: by begin(N)/end(N)/error(N) order, then as
 * elaboration made them. */
static void sort_probes(struct elab *e, struct vec *sorted)
{
	struct placed *v = xcalloc((size_t)e->probes.len + 1, sizeof(*v));

	for (int i = 0; i < e->probes.len; i++)
		v[i] = (struct placed){ e->probes.v[i], i };
	qsort(v, (size_t)e->probes.len, sizeof(*v), cmp_order);
	for (int i = 0; i < e->probes.len; i++)
		vec_push(sorted, v[i].d);
	free(v);
}

/* After probe idx's handler: its family's part (../families/list.h). */
static void family_entry(struct emit *m, int idx, const struct derived_probe *d)
{
	const struct family_ops *f = family_row(d->family);

	m->family_probes[d->family]++;
	if (f && f->kmod_entry)
		f->kmod_entry(m, idx, d);
}

/* stp_family_arm() and _disarm() (runtime/session.c): the families with
 * probes here that arm their own, in list.h's order (disarmed in the
 * reverse); nothing when none does. */
static void family_arming(struct emit *m, struct sbuf *o)
{
	struct sbuf arm = { 0 }, disarm = { 0 };

	for (int pf = 0; pf < PF_N; pf++) {
		const struct family_ops *f = family_row(pf);

		if (!m->family_probes[pf] || !f->kmod_arm)
			continue;
		sb_printf(&arm, "\tif (!rc)\n\t\trc = %s();\n", f->kmod_arm);
	}
	for (int pf = PF_N - 1; pf >= 0; pf--)
		if (m->family_probes[pf] && family_row(pf)->kmod_disarm)
			sb_printf(&disarm, "\t%s();\n", family_row(pf)->kmod_disarm);
	if (arm.s)
		sb_printf(o, "\n#define STP_FAMILY_ARM 1\nstatic int stp_family_arm(void)\n{\n"
			  "\tint rc = 0;\n\n%s\treturn rc;\n}\n\n"
			  "static void stp_family_disarm(void)\n{\n%s}\n", arm.s,
			  disarm.s ? disarm.s : "");
	free(arm.s);
	free(disarm.s);
}

/* The hit functions behind hoisted prefixes (emit_hoist.c). */
static void prefix_hits(struct emit *m, struct sbuf *o)
{
	sb_printf(o, "%s", m->pre_hits.s ? m->pre_hits.s : "");
	free(m->pre_hits.s);
	m->pre_hits.s = NULL;
}

/* Every family's tables, in list.h's order; the prefixes' hits before
 * the first family whose callbacks may call them. */
static void family_tables(struct emit *m, struct sbuf *o)
{
	int hits = 0;

	for (int pf = 0; pf < PF_N; pf++) {
		const struct family_ops *f = family_row(pf);

		if (f->kmod_hoists && !hits++)
			prefix_hits(m, o);
		if (f->kmod_tables)
			f->kmod_tables(m, o);
	}
	if (!hits)
		prefix_hits(m, o);
	family_arming(m, o);
}

/* Every function and probe handler, and each probe's table entry. */
static void handlers(struct emit *m, struct parts *p)
{
	struct elab *e = m->e;

	for (int i = 0; i < e->used_functions.len; i++)
		sb_printf(&p->code, "static void %s(struct stp_context *c);\n",
			  em_sym(m, e->used_functions.v[i]));
	sb_puts(&p->code, "\n");
	for (int i = 0; i < e->used_functions.len; i++)
		function(m, e->used_functions.v[i], &p->types, &p->code);
	em_prefix_functions(m, &p->code);
	sort_probes(e, &p->sorted);
	for (int i = 0; i < p->sorted.len; i++) {
		struct derived_probe *d = p->sorted.v[i];

		probe(m, i, d, &p->types, &p->code, &p->tables);
		family_entry(m, i, d);
	}
	display_probe(m, &p->code, &p->tables, &m->end);
}

/* The head of the file: options, runtime, embedded C, globals. */
static void write_globals(struct emit *m, struct parts *p, struct sbuf *o)
{
	sb_printf(o, "/* Generated by stp from %s.  Do not edit. */\n",
		  m->s->script_file ? m->s->script_file : "<input>");
	defines(m, o);
	sb_puts(o, "#include \"runtime/context.h\"\n\n");
	sb_puts(o, "static int stpd_MAXMAPENTRIES = MAXMAPENTRIES;\n"
		"module_param(stpd_MAXMAPENTRIES, int, 0444);\n\n");
	top_embedded(m, o);
	sb_puts(o, "\n/* ---- globals ---- */\n");
	sb_printf(o, "%s\n", p->gl.s ? p->gl.s : "");
	for (int i = 0; i < m->ax->foreach_sites.len; i++)
		sb_printf(o, "static struct stp_map_entry **stp_fe%d;\nstatic int stp_fe%d_max;\n",
			  i, i);
	for (int i = 0; i < m->display_arrays.len; i++)
		sb_printf(o, "static struct stp_map_entry **%s_disp;\n",
			  em_sym(m, m->display_arrays.v[i]));
}

/* struct stp_context: the probes' locals and the functions' frames. */
static void write_context(struct emit *m, struct parts *p, struct sbuf *o)
{
	sb_puts(o, "\n/* ---- the context: locals of probes, frames of functions ---- */\n");
	sb_printf(o, "%s\n", p->types.s ? p->types.s : "");
	sb_puts(o, "union stp_frame {\n\tchar _none;\n");
	for (int i = 0; i < m->e->used_functions.len; i++) {
		const char *cn = em_sym(m, m->e->used_functions.v[i]);

		sb_printf(o, "\tstruct %s_frame %s;\n", cn, cn);
	}
	sb_puts(o, "};\n\nstruct stp_context {\n\tstruct stp_ctx h;\n\tunion {\n\t\tchar _none;\n");
	for (int i = 0; i < p->sorted.len; i++)
		sb_printf(o, "\t\tstruct p%d_locals p%d;\n", i, i);
	for (int i = 0; i < m->extra_locals.len; i++)
		sb_printf(o, "\t\tstruct %s_locals %s;\n", (const char *)m->extra_locals.v[i],
			  (const char *)m->extra_locals.v[i]);
	sb_puts(o, "\t} pl;\n\tunion stp_frame fr[MAXNESTING + 2];	/* +1: a leaf embedded-C call */\n};\n"
		"#define STP_CONTEXT_SIZE sizeof(struct stp_context)\n\n");
}

/* The code, then the tables the runtime's session walks. */
static void write_tables(struct emit *m, struct parts *p, struct sbuf *o)
{
	sb_puts(o, "/* ---- functions and probe handlers ---- */\n");
	sb_printf(o, "%s", p->code.s ? p->code.s : "");
	sb_puts(o, "/* ---- probe tables ---- */\n");
	sb_printf(o, "%s", p->tables.s ? p->tables.s : "");
	family_tables(m, o);
}

/* stp_gen_free() and stp_gen_alloc(): the globals and scratch. */
static void write_alloc(struct emit *m, struct parts *p, struct sbuf *o)
{
	const struct vec *fe = &m->ax->foreach_sites;

	sb_puts(o, "static void stp_gen_free(void)\n{\n");
	for (int i = 0; i < fe->len; i++)
		sb_printf(o, "\tstp_free(stp_fe%d);\n", i);
	for (int i = 0; i < m->display_arrays.len; i++)
		sb_printf(o, "\tstp_free(%s_disp);\n", em_sym(m, m->display_arrays.v[i]));
	sb_printf(o, "%s}\n\n", p->fre.s ? p->fre.s : "");
	sb_puts(o, "static int stp_gen_alloc(void)\n{\n");
	for (int i = 0; i < m->e->global_list.len; i++) {
		struct symbol *s = m->e->global_list.v[i];

		if (s->used && s->type == T_STATS)
			sb_printf(o, "\tif (stp_stat_desc_init(&%s_desc))\n\t\treturn -EINVAL;\n",
				  em_sym(m, s));
	}
	sb_printf(o, "%s", p->alloc.s ? p->alloc.s : "");
	for (int i = 0; i < fe->len; i++) {
		struct node *n = fe->v[i];

		sb_printf(o, "\tstp_fe%d_max = %s;\n"
			  "\tstp_fe%d = stp_zalloc(sizeof(*stp_fe%d) * nr_cpu_ids * stp_fe%d_max);\n"
			  "\tif (!stp_fe%d)\n\t\treturn -ENOMEM;\n", i, map_max(n->fe->array->ref),
			  i, i, i, i);
	}
	for (int i = 0; i < m->display_arrays.len; i++) {
		struct symbol *s = m->display_arrays.v[i];
		const char *g = em_sym(m, s);

		sb_printf(o, "\t%s_disp = stp_zalloc(sizeof(*%s_disp) * %s);\n"
			  "\tif (!%s_disp)\n\t\treturn -ENOMEM;\n", g, g, map_max(s), g);
	}
	sb_puts(o, "\treturn 0;\n}\n\n#include \"runtime/runtime.c\"\n");
}

int pass3_translate(struct elab *e, const struct access_facts *ax, struct sbuf *o)
{
	struct emit m = { .e = e, .s = e->s, .ax = ax, .act_total = -1 };
	struct parts p = { 0 };
	int errors = diag_errors();

	name_globals(&m);
	globals(&m, &p.gl, &p.alloc, &p.fre);
	handlers(&m, &p);
	write_globals(&m, &p, o);
	write_context(&m, &p, o);
	write_tables(&m, &p, o);
	write_alloc(&m, &p, o);
	free(p.types.s);
	free(p.code.s);
	free(p.tables.s);
	free(p.gl.s);
	free(p.alloc.s);
	free(p.fre.s);
	return diag_errors() > errors;
}
