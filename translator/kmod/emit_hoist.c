// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Pass 3 of the prefixes hoist.c splits off a probe's handler: they run
 * in the probe's callback (trace_kmod.c, perf_kmod.c, a kprobe's hit in
 * emit.c) before stp_probe_hit(), so a hit its filter turns down never
 * disables interrupts, claims the CPU's context or takes a lock.  The
 * shape:
 *
 *   struct pN_pre { u64 args[n]; int64_t l_x; ... };   (types)
 *   callback(...)
 *   {
 *           {
 *                   u64 args[] = { a0, ... };
 *                   const struct stp_pre_ctx pc = { .entry = args, .regs = ... };
 *                   int64_t l_x = 0;
 *
 *                   the prefix, its next "return;" (a kprobe's: to
 *                   its end, which puts back regs->ip)
 *                   {
 *                           struct pN_pre pre = { .args = { a0, ... }, .l_x = l_x };
 *
 *                           stp_probe_hit(&stp_probe_N, probe_N, regs, &pre);
 *                   }
 *           }
 *   }
 *
 * The prefix's locals and arguments are plain C locals nothing takes the
 * address of, so the compiler keeps them in registers and a hit turned
 * down touches no memory but the session state.  pre, made only for
 * the hit, has the arguments' array first, so the handler's
 * CONTEXT->entry reads them as before; the handler copies pre.l_x into
 * its own locals first, then runs the rest.  The prefix's calls of
 * embedded C go to a flavour of each function that takes its arguments
 * by value and sees CONTEXT as the callback's pc (hoist.c lets through
 * only C that reads CONTEXT->entry and CONTEXT->regs), inlined: a
 * tracepoint's $arg becomes the callback's own argument.  Nothing in a
 * prefix can fail, so no error is ever reported from it.
 */
#include "emit.h"
#include "../btf/btf.h"

#include <stdlib.h>

int em_hoisted(const struct derived_probe *d)
{
	return d->hoist && family_row(d->family)->kmod_hoists;
}

/* How many arguments pN_pre holds: a tracepoint's, when a $var reads them. */
static int pre_args(const struct derived_probe *d)
{
	return d->family == PF_TRACE && d->tp_args_read ? d->tp->nargs : 0;
}

struct node *em_handler_body(struct emit *m, int idx, struct derived_probe *d,
			     struct sbuf *types, struct sbuf *body)
{
	const struct hoist *h = d->hoist;
	int nargs = pre_args(d);

	if (!em_hoisted(d))
		return d->body;
	if (nargs || h->vars.len) {
		sb_printf(types, "struct p%d_pre {\n", idx);
		if (nargs)
			sb_printf(types, "\tu64 args[%d];\t/* first: what CONTEXT->entry reads */\n",
				  nargs);
		for (int i = 0; i < h->vars.len; i++)
			sb_printf(types, "\tint64_t l_%s;\n", ((struct symbol *)h->vars.v[i])->name);
		sb_puts(types, "};\n");
	}
	if (h->vars.len) {
		sb_printf(body, "\t{\n\t\tconst struct p%d_pre *pre = c->h.entry;\n\n", idx);
		for (int i = 0; i < h->vars.len; i++) {
			struct symbol *s = h->vars.v[i];

			sb_printf(body, "\t\t%s = pre->l_%s;\n", em_sym(m, s), s->name);
		}
		sb_puts(body, "\t}\n");
	}
	return h->rest;
}

/* f's prefix flavour: the names its C uses, mapped to parameters. */
static void flavour(struct emit *m, struct function *f, struct sbuf *o)
{
	const char *cn = em_sym(m, (void *)f);
	struct node *d = f->decl;

	sb_printf(o, "static __always_inline void %s_pre(const struct stp_pre_ctx *_stp_pc, "
		  "int64_t *_stp_ret", cn);
	for (int i = 0; i < d->nparams; i++)
		sb_printf(o, ", int64_t _stp_a_%s", f->params[i]->name);
	sb_puts(o, ")\n{\n");
	for (int i = 0; i < d->nparams; i++)
		sb_printf(o, "#define STAP_ARG_%s (_stp_a_%s)\n", f->params[i]->name,
			  f->params[i]->name);
	sb_puts(o, "#define STAP_RETVALUE (*_stp_ret)\n"
		"#define STAP_RETURN(v) do { *_stp_ret = (v); return; } while (0)\n"
		"#define CONTEXT _stp_pc\n\t(void)_stp_pc;\n\t{\n");
	em_embedded(o, d->body);
	sb_puts(o, "\t}\n");
	for (int i = 0; i < d->nparams; i++)
		sb_printf(o, "#undef STAP_ARG_%s\n", f->params[i]->name);
	sb_puts(o, "#undef STAP_RETVALUE\n#undef STAP_RETURN\n#undef CONTEXT\n}\n\n");
}

void em_prefix_functions(struct emit *m, struct sbuf *o)
{
	struct pmap done = { 0 };

	for (int i = 0; i < m->e->probes.len; i++) {
		const struct derived_probe *d = m->e->probes.v[i];

		for (int k = 0; em_hoisted(d) && k < d->hoist->calls.len; k++) {
			struct function *f = d->hoist->calls.v[k];

			if (pmap_get(&done, f))
				continue;
			pmap_put(&done, f, (void *)1);
			flavour(m, f, o);
		}
	}
	free(done.keys);
	free(done.vals);
}

/* The early call n's K in e_K, numbered as the prefix meets them. */
static int early_site(struct emit *m, struct node *n)
{
	intptr_t k = (intptr_t)pmap_get(&m->early_sites, n);

	if (!k) {
		k = ++m->nearly;
		pmap_put(&m->early_sites, n, (void *)k);
	}
	return (int)k - 1;
}

static int is_early_fn(const struct function *f)
{
	return f->decl->body->kind == N_EMBEDDED && strstr(f->decl->body->str, "/* early */");
}

/*
 * Arguments into temporaries first: the script's order.  An early
 * call's value is kept in its e_K, which the hit's copy of the prefix
 * (the replay) reads instead of calling again: early C has an effect
 * (a count), pure C is called again.
 */
void em_prefix_call(struct emit *m, struct node *n)
{
	struct function *f = n->ref;
	const char *r = em_tmp(m, "ret");
	struct sbuf call = { 0 };
	int early = is_early_fn(f);

	if (early && m->replay) {
		sb_printf(m->o, "e_%d", early_site(m, n));
		return;
	}
	if (early)
		sb_printf(m->o, "(e_%d = ", early_site(m, n));
	sb_puts(m->o, "({ ");
	sb_printf(&call, "%s_pre(&pc, &%s", em_sym(m, (void *)f), r);
	for (int i = 0; i < n->args.len; i++) {
		const char *x = em_tmp(m, "x");

		sb_printf(m->o, "int64_t %s = ", x);
		em_expr(m, n->args.v[i]);
		sb_puts(m->o, "; ");
		sb_printf(&call, ", %s", x);
	}
	sb_printf(m->o, "int64_t %s = 0; %s); %s; })", r, call.s, r);
	if (early)
		sb_putc(m->o, ')');
	free(call.s);
}

static void ind(struct emit *m)
{
	for (int i = 0; i < m->indent; i++)
		sb_putc(m->o, '\t');
}

/* The statements hoist.c lets into a prefix. */
static void pre_stmt(struct emit *m, struct node *n)
{
	switch (n->kind) {
	case N_BLOCK:
		for (int i = 0; i < n->args.len; i++)
			pre_stmt(m, n->args.v[i]);
		return;
	case N_NEXT:	/* the hit ends before it takes the context */
		ind(m);
		sb_printf(m->o, "%s\n", m->prefix_skip);
		return;
	case N_IF:
		ind(m);
		sb_puts(m->o, "if (");
		em_expr(m, n->cond);
		sb_puts(m->o, ") {\n");
		m->indent++;
		pre_stmt(m, n->then);
		m->indent--;
		if (n->els) {
			ind(m);
			sb_puts(m->o, "} else {\n");
			m->indent++;
			pre_stmt(m, n->els);
			m->indent--;
		}
		ind(m);
		sb_puts(m->o, "}\n");
		return;
	case N_EXPRSTMT:
		ind(m);
		sb_puts(m->o, "(void)(");
		em_expr(m, n->lhs);
		sb_puts(m->o, ");\n");
		return;
	default:
		return;
	}
}

/* The prefix's locals are pre's members while it is emitted. */
static void name_vars(struct emit *m, const struct hoist *h, const char **names)
{
	for (int i = 0; i < h->vars.len; i++) {
		struct symbol *s = h->vars.v[i];
		const char *old = em_sym(m, s);

		pmap_put(&m->cname, s, (void *)names[i]);
		names[i] = old;
	}
}

/* The prefix's frame: its arguments' array, pc, its locals. */
static void pre_frame(const struct hoist *h, struct sbuf *o, const char *args, const char *regs)
{
	if (args)
		sb_printf(o, "\t\tu64 args[] = { %s };\n", args);
	sb_printf(o, "\t\tconst struct stp_pre_ctx pc = { .entry = %s, .regs = %s };\n",
		  args ? "args" : "NULL", regs);
	for (int i = 0; i < h->vars.len; i++)
		sb_printf(o, "\t\tint64_t l_%s = 0;\n", ((struct symbol *)h->vars.v[i])->name);
	sb_puts(o, "\n\t\t(void)pc;\n");
}

/* The prefix's statements into o, its next being skip. */
static void pre_body(struct emit *m, const struct hoist *h, struct sbuf *o, const char *skip)
{
	const char **names = ar_alloc((h->vars.len + 1) * sizeof(*names));
	struct sbuf *saved = m->o;

	for (int i = 0; i < h->vars.len; i++)
		names[i] = ar_printf("l_%s", ((struct symbol *)h->vars.v[i])->name);
	name_vars(m, h, names);
	m->prefix = 1;
	m->prefix_skip = skip;
	m->o = o;
	m->indent = 2;
	for (int i = 0; i < h->prefix.len; i++)
		pre_stmt(m, h->prefix.v[i]);
	m->prefix = 0;
	m->o = saved;
	name_vars(m, h, names);
}

/*
 * The hit after a prefix, a function of its own, which runs the prefix
 * again (the replay: pure C gives the same values, an early call's is
 * passed in), makes pre and takes the context.  So the callback keeps
 * nothing but its arguments and the early calls' values for after the
 * prefix: no frame on its common path, where a turned-down hit returns
 * (tests/bench: a vital sign's event is a few dozen instructions, each
 * of which shows).
 */
static void pre_hit(struct emit *m, int idx, const struct hoist *h, int nargs, const char *args)
{
	struct sbuf *o = &m->pre_hits;

	sb_printf(o, "static noinline STP_HANDLER void stp_pre_hit_%d(", idx);
	for (int i = 0; i < nargs; i++)
		sb_printf(o, "u64 a%d, ", i);
	for (int i = 0; i < m->nearly; i++)
		sb_printf(o, "int64_t e_%d, ", i);
	sb_puts(o, "struct pt_regs *regs)\n{\n\t{\n");
	pre_frame(h, o, args, "regs");
	sb_puts(o, "\t\t/* the prefix again: the same values */\n");
	m->replay = 1;
	pre_body(m, h, o, "return;");
	m->replay = 0;
	sb_puts(o, "\t\t{\n");
	if (args || h->vars.len) {
		sb_printf(o, "\t\t\tstruct p%d_pre pre = { ", idx);
		if (args)
			sb_printf(o, ".args = { %s }%s", args, h->vars.len ? ", " : "");
		for (int i = 0; i < h->vars.len; i++) {
			const char *n = ((struct symbol *)h->vars.v[i])->name;

			sb_printf(o, "%s.l_%s = l_%s", i ? ", " : "", n, n);
		}
		sb_puts(o, " };\n\n");
	}
	sb_printf(o, "\t\t\tstp_probe_hit(&stp_probe_%d, probe_%d, regs, %s);\n\t\t}\n\t}\n}\n"
		  "NOKPROBE_SYMBOL(stp_pre_hit_%d);\n\n", idx, idx,
		  args || h->vars.len ? "&pre" : "NULL", idx);
}

/* The number of a0, a1, ... in a list "a0, a1, ...". */
static int nargs_of(const char *args)
{
	int n = 0;

	for (const char *p = args; p && *p; p++)
		n += *p == ',';
	return args && *args ? n + 1 : 0;
}

void em_prefix(struct emit *m, int idx, const struct derived_probe *d, struct sbuf *o,
	       const char *args, const char *regs, const char *skip)
{
	const struct hoist *h = d->hoist;
	struct sbuf body = { 0 };
	int nargs = nargs_of(args);

	free(m->early_sites.keys);
	free(m->early_sites.vals);
	memset(&m->early_sites, 0, sizeof(m->early_sites));
	m->nearly = 0;
	pre_body(m, h, &body, skip);
	sb_puts(o, "\t{\n");
	pre_frame(h, o, args, regs);
	for (int i = 0; i < m->nearly; i++)
		sb_printf(o, "\t\tint64_t e_%d = 0;\n", i);
	sb_printf(o, "\t\t/* before the context */\n%s", body.s ? body.s : "");
	free(body.s);
	sb_printf(o, "\t\tstp_pre_hit_%d(", idx);
	for (int i = 0; i < nargs; i++)
		sb_printf(o, "a%d, ", i);
	for (int i = 0; i < m->nearly; i++)
		sb_printf(o, "e_%d, ", i);
	sb_printf(o, "%s);\n\t}\n", regs);
	pre_hit(m, idx, h, nargs, args);
}
