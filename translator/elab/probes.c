// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe points: from what the script wrote to derived probes, each one
 * concrete point with the handler it runs.
 *
 *  1. brace groups expand: "syscall.{open,close}" is two points;
 *  2. a point naming a probe alias (wildcards allowed: "syscall.*")
 *     becomes the alias's targets, the alias's prologue and epilogue
 *     wrapping the handler; a longer point keeps its extra components
 *     as a suffix ("sendrecv.return" -> each target + ".return");
 *     aliases of aliases nest the same way;
 *  3. what is left must be a builtin point: begin, end, error, never,
 *     timer.*, kprobe.* and kernel.function by symbol.
 *
 * "?" makes a point optional, "!" stops at the first point that
 * matches, "if (e)" conditions combine with "&&" along the way.
 */
#include "elab.h"
#include "../dwarf/dw.h"
#include "../btf/btf.h"

#include <fnmatch.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#define MAX_ALIAS_DEPTH 32

/* One alias application on the way from the user's point. */
struct wrap {
	struct node *alias;		/* N_ALIAS */
	const struct origin *origin;	/* where the alias was named */
};

struct expansion {
	struct elab *e;
	struct lib_file *file;		/* file of the user's probe */
	struct node *handler;		/* the user's block */
	struct probe_point *user_pp;
	const char *user_name;
	struct wrap wraps[MAX_ALIAS_DEPTH];
	int nwraps;
	const char *list_name;		/* at the first level of expansion */
	int made;			/* derived probes made */
	int failed;			/* an error was reported */
};

const char *pp_text(const struct probe_point *pp)
{
	struct sbuf sb = { 0 };
	struct probe_point plain = *pp;
	const char *s;

	plain.cond = NULL;
	plain.optional = plain.sufficient = 0;
	print_probe_point(&sb, &plain);
	s = ar_strdup(sb.s ? sb.s : "");
	free(sb.s);
	return s;
}

/* ---- brace groups ---- */

static struct probe_point *pp_join(const struct probe_point *a, int a_from,
				   int a_to, const struct probe_point *mid,
				   const struct probe_point *b, int b_from)
{
	struct probe_point *p = ar_alloc(sizeof(*p));
	int n = (a_to - a_from) + (mid ? mid->ncomps : 0) +
		(b ? b->ncomps - b_from : 0), k = 0;

	*p = *a;
	if (mid) {		/* an alternative's own "?" or "!" */
		p->optional |= mid->optional;
		p->alt_sufficient |= mid->sufficient;
	}
	p->comps = ar_alloc((n + 1) * sizeof(*p->comps));
	for (int i = a_from; i < a_to; i++)
		p->comps[k++] = a->comps[i];
	for (int i = 0; mid && i < mid->ncomps; i++)
		p->comps[k++] = mid->comps[i];
	for (int i = b_from; b && i < b->ncomps; i++)
		p->comps[k++] = b->comps[i];
	p->ncomps = k;
	return p;
}

static void expand_braces(struct probe_point *pp, struct vec *out)
{
	for (int i = 0; i < pp->ncomps; i++) {
		struct probe_comp *c = &pp->comps[i];

		if (!c->alts)
			continue;
		for (int k = 0; k < c->nalts; k++)
			expand_braces(pp_join(pp, 0, i, c->alts[k], pp, i + 1),
				      out);
		return;
	}
	vec_push(out, pp);
}

/* ---- aliases ---- */

static int same_arg(const struct node *a, const struct node *b)
{
	if (!a || !b)
		return a == b;
	return a->kind == b->kind && !strcmp(a->str, b->str);
}

static int comp_match(const struct probe_comp *use, const struct probe_comp *def)
{
	if (!use->name || !def->name)
		return 0;
	if (fnmatch(use->name, def->name, 0))
		return 0;
	return same_arg(use->arg, def->arg);
}

/*
 * "**" in a name matches a run of components ("netfilter.**",
 * "sys**open": syscall.open): pp's components from u on against the
 * alias's from a on, to the end of both.  The run's names are matched
 * joined by dots; only its last may have an argument.
 */
static int dstar_match(const struct probe_point *pp, int u, const struct probe_point *name, int a)
{
	const struct probe_comp *c;
	struct sbuf run = { 0 }, pat = { 0 };
	int ok = 0;

	if (u == pp->ncomps || a == name->ncomps)
		return u == pp->ncomps && a == name->ncomps;
	c = &pp->comps[u];
	if (!c->name || !strstr(c->name, "**"))
		return comp_match(c, &name->comps[a]) && dstar_match(pp, u + 1, name, a + 1);
	/* "**" as "*", which fnmatch lets match dots too */
	for (const char *p = c->name; *p; p++)
		if (!(p[0] == '*' && p[1] == '*'))
			sb_putc(&pat, *p);
	/* the run a..k, one component longer each time round */
	for (int k = a; k < name->ncomps && !ok; k++) {
		if (k > a && name->comps[k - 1].arg)
			break;
		sb_printf(&run, "%s%s", k > a ? "." : "", name->comps[k].name);
		ok = !fnmatch(pat.s, run.s, 0) && same_arg(c->arg, name->comps[k].arg) &&
		     dstar_match(pp, u + 1, name, k + 1);
	}
	free(run.s);
	free(pat.s);
	return ok;
}

static int has_dstar(const struct probe_point *pp)
{
	for (int i = 0; i < pp->ncomps; i++)
		if (pp->comps[i].name && strstr(pp->comps[i].name, "**"))
			return 1;
	return 0;
}

/* 0: no; 1: the whole point; 2: a prefix, the rest is a suffix (not
 * with "**", whose run may end anywhere: whole points only) */
static int alias_match(const struct probe_point *name,
		       const struct probe_point *pp)
{
	if (has_dstar(pp))
		return dstar_match(pp, 0, name, 0);
	if (name->ncomps > pp->ncomps)
		return 0;
	for (int i = 0; i < name->ncomps; i++)
		if (!comp_match(&pp->comps[i], &name->comps[i]))
			return 0;
	return name->ncomps == pp->ncomps ? 1 : 2;
}

static void expand_point(struct expansion *x, struct probe_point *pp,
			 struct node *cond, int optional, int depth);

static struct node *and_cond(struct node *a, struct node *b)
{
	struct node *n;

	if (!a || !b)
		return a ? a : b;
	n = node_new(N_BINARY, &b->loc);
	n->op = OP_ANDAND;
	n->lhs = a;
	n->rhs = b;
	return n;
}

static void apply_alias(struct expansion *x, struct node *alias,
			struct lib_file *f, struct probe_point *pp,
			int suffix_at, struct node *cond, int optional,
			int depth)
{
	struct origin *o = ar_alloc(sizeof(*o));

	lib_include(x->e, f);
	if (!depth) {
		struct probe_point *named = pp_join(alias->alias_names[0], 0,
						    alias->alias_names[0]->ncomps,
						    NULL, pp, suffix_at);

		x->list_name = pp_text(named);
	}
	o->loc = pp->loc;
	o->what = "in expansion of probe alias '%s' used here";
	o->name = pp_text(alias->alias_names[0]);
	x->wraps[x->nwraps].alias = alias;
	x->wraps[x->nwraps].origin = o;
	x->nwraps++;
	for (int t = 0; t < alias->npoints; t++) {
		struct probe_point *target = pp_clone(alias->points[t], o);
		struct probe_point *next;
		int before = x->made;

		/* an alias of "never" (a call this arch lacks) stays one
		 * whatever suffix it is used with: it never fires */
		if (target->ncomps == 1 && target->comps[0].name &&
		    !strcmp(target->comps[0].name, "never"))
			next = target;
		else
			next = pp_join(target, 0, target->ncomps, NULL, pp, suffix_at);
		next->loc = target->loc;
		expand_point(x, next, and_cond(cond, target->cond),
			     optional || target->optional, depth + 1);
		if (target->sufficient && x->made > before)
			break;
	}
	x->nwraps--;
}

static int try_aliases(struct expansion *x, struct probe_point *pp,
		       struct node *cond, int optional, int depth)
{
	struct elab *e = x->e;
	struct vec whole = { 0 }, prefix = { 0 }, *use;
	int longest = 0, found = 0;

	/* Whole-point matches first; failing those, the aliases that
	 * match the longest prefix, the rest of the point a suffix. */
	for (int i = 0; i < e->aliases.len; i++) {
		struct probe_point *name = ((struct node *)e->aliases.v[i])->alias_names[0];
		int m = alias_match(name, pp);

		if (m == 1) {
			vec_push(&whole, (void *)(intptr_t)i);
		} else if (m == 2 && name->ncomps >= longest) {
			if (name->ncomps > longest)
				prefix.len = 0;
			longest = name->ncomps;
			vec_push(&prefix, (void *)(intptr_t)i);
		}
	}
	use = whole.len ? &whole : &prefix;
	for (int k = 0; k < use->len; k++) {
		int i = (int)(intptr_t)use->v[k];
		struct node *a = e->aliases.v[i];

		found++;
		/* a whole match has no suffix: with "**" the alias's name
		 * may be longer than the point, which is all used */
		apply_alias(x, a, e->alias_files.v[i], pp,
			    use == &whole ? pp->ncomps : a->alias_names[0]->ncomps,
			    cond, optional, depth);
	}
	free(whole.v);
	free(prefix.v);
	return found;
}

/* ---- derived probes ---- */

/* The handler, wrapped in the aliases' prologues and epilogues: the
 * alias nearest the builtin point runs first and last. */
static struct node *compose_body(struct expansion *x, struct node **handler)
{
	struct node *body;

	*handler = node_clone(x->handler, NULL);
	body = *handler;
	for (int i = 0; i < x->nwraps; i++) {
		struct node *a = x->wraps[i].alias;
		const struct origin *o = x->wraps[i].origin;
		struct node *outer = node_new(N_BLOCK, &a->loc);
		struct node *pro = a->epilogue ? NULL : a->body;
		struct node *epi = a->epilogue ? a->body : a->els;

		if (pro)
			vec_push(&outer->args, node_clone(pro, o));
		vec_push(&outer->args, body);
		if (epi)
			vec_push(&outer->args, node_clone(epi, o));
		body = outer;
	}
	return body;
}

/* d, a probe of point pp: what every probe has, and it counted. */
static struct derived_probe *fill_probe(struct expansion *x, struct derived_probe *d,
					struct probe_point *pp, struct node *cond,
					enum probe_family fam)
{
	d->pp = pp;
	d->name = pp_text(pp);
	d->user_name = x->user_name;
	d->list_name = x->list_name ? x->list_name : d->name;
	d->loc = x->user_pp->loc;
	d->body = compose_body(x, &d->handler);
	d->cond = cond ? node_clone(cond, NULL) : NULL;
	d->file = x->file;
	d->family = fam;
	vec_push(&x->e->probes, d);
	x->made++;
	return d;
}

static struct derived_probe *make_probe(struct expansion *x,
					struct probe_point *pp,
					struct node *cond, enum probe_family fam)
{
	return fill_probe(x, ar_alloc(sizeof(struct derived_probe)), pp, cond, fam);
}

/* ---- builtin probe points ---- */

static int is(const struct probe_comp *c, const char *name)
{
	return c->name && !strcmp(c->name, name);
}

int pp_num_arg(const struct probe_comp *c, int64_t *v, int64_t min)
{
	if (!c->arg || c->arg->kind != N_NUM) {
		sem_error(&c->loc, "'%s' takes a number, as in %s(%lld)",
			  c->name, c->name, (long long)(min > 0 ? min * 100 : 1));
		return 0;
	}
	*v = c->arg->num;
	if (*v < min) {
		sem_error(&c->arg->loc, "'%s(%lld)' is out of range: at least %lld",
			  c->name, (long long)*v, (long long)min);
		return 0;
	}
	return 1;
}

static int num_arg(struct expansion *x, const struct probe_comp *c,
		   int64_t *v, int64_t min)
{
	if (pp_num_arg(c, v, min))
		return 1;
	x->failed = 1;
	return 0;
}

static int no_arg(struct expansion *x, const struct probe_comp *c)
{
	if (!c->arg)
		return 1;
	sem_error(&c->arg->loc, "'%s' takes no argument", c->name);
	x->failed = 1;
	return 0;
}

static const struct {
	const char *name;
	enum probe_family fam;
} order_kinds[] = {
	{ "begin", PF_BEGIN }, { "end", PF_END },
	{ "error", PF_ERROR }, { "never", PF_NEVER },
};
#define kinds order_kinds

static int is_glob(const char *name)
{
	return name && strpbrk(name, "*?[");
}

/* A wildcard of one component ("*", "e*") matches these too, as an
 * alias's name: -l '*' lists them.  1 if one matched, else -1. */
static int order_glob(struct expansion *x, struct probe_point *pp, struct node *cond)
{
	const char *list_name = x->list_name;
	int n = 0;

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		struct probe_point *q;

		if (fnmatch(pp->comps[0].name, kinds[i].name, 0))
			continue;
		q = pp_join(pp, 0, 1, NULL, NULL, 0);
		q->comps[0].name = kinds[i].name;
		x->list_name = NULL;
		make_probe(x, q, cond, kinds[i].fam);
		n++;
	}
	x->list_name = list_name;
	return n ? 1 : -1;
}

/* begin, begin(N), end..., error..., never */
static int order_point(struct expansion *x, struct probe_point *pp,
		       struct node *cond)
{
	struct probe_comp *c = &pp->comps[0];

	if (pp->ncomps == 1 && !c->arg && is_glob(c->name))
		return order_glob(x, pp, cond);
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		struct derived_probe *d;
		int64_t order = 0;

		if (!is(c, kinds[i].name))
			continue;
		if (pp->ncomps != 1)
			return -1;
		if (c->arg && kinds[i].fam == PF_NEVER && !no_arg(x, c))
			return 0;
		if (c->arg && !num_arg(x, c, &order, INT64_MIN))
			return 0;
		d = make_probe(x, pp, cond, kinds[i].fam);
		d->order = order;
		return 1;
	}
	return -1;
}

/* timer.UNIT(N)[.randomize(M)], timer.profile[.tick] */
static int timer_point(struct expansion *x, struct probe_point *pp,
		       struct node *cond)
{
	static const struct {
		const char *unit;
		int64_t ns;	/* 0: jiffies or hz, kept as given */
	} units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
		{ "s", 1000000000 }, { "sec", 1000000000 },
		{ "msec", 1000000 }, { "usec", 1000 }, { "nsec", 1 },
		{ "jiffies", 0 }, { "hz", 0 },
	};
	struct probe_comp *c;
	struct derived_probe *d;
	int64_t n, r = 0;

	if (!is(&pp->comps[0], "timer") || pp->ncomps < 2)
		return -1;
	c = &pp->comps[1];
	if (is(c, "profile")) {
		if (pp->ncomps > 3 || (pp->ncomps == 3 && !is(&pp->comps[2], "tick")))
			return -1;
		if (!no_arg(x, c))
			return 0;
		make_probe(x, pp, cond, PF_PROFILE);
		return 1;
	}
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (!is(c, units[i].unit))
			continue;
		if (pp->ncomps > 3 || (pp->ncomps == 3 &&
				       !is(&pp->comps[2], "randomize")))
			return -1;
		if (pp->ncomps == 3 && !strcmp(units[i].unit, "hz"))
			return -1;	/* hz timers do not randomize */
		if (!num_arg(x, c, &n, units[i].ns ? (100000 + units[i].ns - 1) / units[i].ns : 1))
			return 0;
		if (!units[i].ns && n > 1000000) {
			sem_error(&c->arg->loc, "'%s(%lld)' is out of range: at most 1000000",
				  c->name, (long long)n);
			x->failed = 1;
			return 0;
		}
		if (pp->ncomps == 3 && !num_arg(x, &pp->comps[2], &r, 0))
			return 0;
		if (r && r >= n) {
			sem_error(&pp->comps[2].loc,
				  "randomize(%lld) must be less than the interval %lld",
				  (long long)r, (long long)n);
			x->failed = 1;
			return 0;
		}
		d = make_probe(x, pp, cond, PF_TIMER);
		if (!units[i].ns) {
			if (!strcmp(units[i].unit, "hz"))
				d->hz = n;
			else
				d->jiffies = n;
		} else {
			d->interval_ns = n * units[i].ns;
		}
		d->randomize_ns = r * (units[i].ns ? units[i].ns : 1);
		return 1;
	}
	return -1;
}

static int need_ksyms(struct expansion *x, const struct loc *loc)
{
	struct elab *e = x->e;
	const char *why = NULL;

	if (!e->ksyms && !e->ksyms_tried) {
		e->ksyms_tried = 1;
		e->ksyms = ksyms_load(e->s, &why);
		if (!e->ksyms) {
			sem_error(loc, "%s", why);
			x->failed = 1;
		}
	}
	return e->ksyms != NULL;
}

/* What a symbol probe point names, component by component. */
struct symbol_spec {
	const char *module;	/* or NULL: the kernel itself */
	const char *pattern;	/* function name or glob */
	int fn;			/* index of the function(...) component */
	int ret, maxactive;
};

/*
 * kprobe.function(S)[.call|.return[.maxactive(N)]]
 * kprobe.module(M).function(S)[...]
 * kernel.function(S)[...], module(M).function(S)[...]   (by symbol)
 * Returns -1 when pp is no such point, 0 after an error, 1 when sp is set.
 */
static int symbol_spec(struct expansion *x, struct probe_point *pp,
		       struct symbol_spec *sp)
{
	struct probe_comp *c = pp->comps;
	int i = 1, dwarf, call = 0;

	memset(sp, 0, sizeof(*sp));
	if (is(&c[0], "kprobe") || is(&c[0], "kernel")) {
		dwarf = is(&c[0], "kernel");
		if (!dwarf && pp->ncomps > 1 && is(&c[1], "module")) {
			if (!c[1].arg || c[1].arg->kind != N_STR)
				return -1;
			sp->module = c[1].arg->str;
			i = 2;
		}
	} else if (is(&c[0], "module") && c[0].arg && c[0].arg->kind == N_STR) {
		dwarf = 1;
		sp->module = c[0].arg->str;
	} else {
		return -1;
	}
	if (i >= pp->ncomps || !is(&c[i], "function") || !c[i].arg ||
	    c[i].arg->kind != N_STR)
		return -1;
	sp->fn = i;
	sp->pattern = c[i].arg->str;
	for (int k = i + 1; k < pp->ncomps; k++) {
		int64_t n;

		if (is(&c[k], "return") && !c[k].arg && !sp->ret && !call) {
			sp->ret = 1;
		} else if (is(&c[k], "call") && !c[k].arg && !sp->ret && !call) {
			call = 1;
		} else if (is(&c[k], "maxactive") && sp->ret && !sp->maxactive) {
			if (!num_arg(x, &c[k], &n, 1))
				return 0;
			sp->maxactive = (int)n;
		} else if (dwarf && (is(&c[k], "exported") || is(&c[k], "inline"))) {
			sem_error(&c[k].loc, "'.%s' needs the kernel's debuginfo (DWARF), "
				  "which this stp cannot read yet", c[k].name);
			x->failed = 1;
			return 0;
		} else {
			return -1;
		}
	}
	if (strpbrk(sp->pattern, "@:")) {
		sem_error(&c[i].arg->loc, "'%s' names a source file or line: that needs the "
			  "kernel's debuginfo (DWARF), which this stp cannot read yet",
			  sp->pattern);
		x->failed = 1;
		return 0;
	}
	return 1;
}

/* Why kprobes cannot take a function, for the error saying so. */
static const char *refusal_reason(enum ksym_refusal r)
{
	return r == KSYM_BOOT_ONLY ?
		"it is boot-time code (.init.text), freed once the kernel has started" :
		"kprobes refuse it (NOKPROBE_SYMBOL, or entry/noinstr code)";
}

/* The functions sp names, into names; 0 after an error. */
static int symbol_names(struct expansion *x, struct probe_point *pp,
			const struct symbol_spec *sp, struct vec *names)
{
	const struct loc *at = &pp->comps[sp->fn].arg->loc;
	int skipped = 0;

	if (sp->module) {
		const char *ko = modko_path(x->e->s, sp->module);

		if (!ko) {
			if (!pp->optional) {
				sem_error(&pp->loc, "kernel %s has no module '%s'",
					  x->e->s->kernel_release, sp->module);
				x->failed = 1;
			}
			return 0;
		}
		modsyms_match(ko, sp->pattern, names);
		return 1;
	}
	if (!need_ksyms(x, &pp->loc))
		return 0;
	ksyms_match(x->e->ksyms, sp->pattern, names, &skipped);
	if (skipped && x->e->s->verbose)
		fprintf(stderr, "note: %s: %d function%s kprobes cannot probe skipped\n",
			pp_text(pp), skipped, skipped == 1 ? "" : "s");
	if (!names->len && skipped && !strpbrk(sp->pattern, "*?[")) {
		if (!pp->optional) {
			sem_error(at, "kernel function '%s' cannot be probed: %s", sp->pattern,
				  refusal_reason(ksyms_refusal(x->e->ksyms, sp->pattern)));
			x->failed = 1;
		}
		return 0;
	}
	return 1;
}

/* One derived probe per function the point matches. */
static int symbol_point(struct expansion *x, struct probe_point *pp,
			struct node *cond)
{
	struct symbol_spec sp;
	struct vec names = { 0 };
	int r = symbol_spec(x, pp, &sp);

	if (r <= 0)
		return r;
	if (!symbol_names(x, pp, &sp, &names))
		return 0;
	for (int k = 0; k < names.len; k++) {
		struct probe_point *concrete = pp_join(pp, 0, pp->ncomps, NULL, NULL, 0);
		struct node *arg = node_new(N_STR, &pp->comps[sp.fn].arg->loc);
		struct derived_probe *d;

		concrete->comps[sp.fn].arg = arg;
		arg->str = names.v[k];
		d = make_probe(x, concrete, cond, PF_KPROBE);
		d->symbol = names.v[k];
		d->module = sp.module;
		d->is_return = sp.ret;
		d->maxactive = sp.maxactive;
	}
	free(names.v);
	return names.len ? 1 : 0;
}

/* ---- DWARF probe points ---- */

/* Why a named function gave no point, when DWARF can say better than
 * "no match"; 0 after saying it. */
static int no_points_why(struct expansion *x, struct dwarf_file *f, struct probe_point *pp,
			 const struct dw_pattern *pat, int stmt, int ret)
{
	struct vec all = { 0 };
	int funcs = 0, inlines = 0;
	const char *file = NULL;

	dw_match(f, pat->name, pat->file, &all);
	for (int i = 0; i < all.len; i++) {
		const struct dw_entry *e = all.v[i];

		funcs += e->kind == DWK_FUNC;
		inlines += e->kind == DWK_INLINE || e->kind == DWK_INSTANCE;
		if (e->kind == DWK_FUNC && !file)
			file = e->file;
	}
	free(all.v);
	if (ret && !funcs && inlines) {
		sem_error(&pp->comps[1].arg->loc, "'%s' is only ever inlined: an inlined copy has "
			  "no return to probe (.return)", pat->name);
		x->failed = 1;
		return 0;
	}
	if (stmt && funcs && pat->line_lo >= 0) {
		if (pat->line_lo == pat->line_hi)
			sem_error(&pp->comps[1].arg->loc, "no code for line %d of %s in '%s' "
				  "(-L 'kernel.statement(\"%s@%s:*\")' lists the lines that have some)",
				  pat->line_lo, file ? file : pat->file, pat->name, pat->name,
				  file ? file : pat->file);
		else
			sem_error(&pp->comps[1].arg->loc, "no code for lines %d-%d of %s in '%s'",
				  pat->line_lo, pat->line_hi, file ? file : pat->file, pat->name);
		x->failed = 1;
		return 0;
	}
	return 1;
}

/* A kernel.function/kernel.statement point, as its components say. */
struct dw_spec {
	const char *module;	/* module("m"), or NULL for the kernel */
	int stmt, ret, call, inl, exported, absolute;
	int64_t maxactive;
	int has_addr;		/* kernel.statement(ADDRESS) */
	uint64_t addr;
	struct dw_pattern pat;	/* else NAME[@FILE[:LINE...]] */
};

/* Fail the expansion with an error at l. */
static int point_error(struct expansion *x, const struct loc *l, const char *text)
{
	sem_error(l, "%s", text);
	x->failed = 1;
	return 0;
}

/* The suffixes after .function/.statement: 1, 0 after an error, -1
 * for components that make it no such point. */
static int dw_suffixes(struct expansion *x, struct probe_point *pp, struct dw_spec *sp)
{
	struct probe_comp *c = pp->comps;
	int first = !sp->ret && !sp->call && !sp->inl;

	for (int k = 2; k < pp->ncomps; k++, first = !sp->ret && !sp->call && !sp->inl) {
		if (!sp->stmt && is(&c[k], "return") && !c[k].arg && first)
			sp->ret = 1;
		else if (!sp->stmt && is(&c[k], "call") && !c[k].arg && first)
			sp->call = 1;
		else if (!sp->stmt && is(&c[k], "inline") && !c[k].arg && first)
			sp->inl = 1;
		else if (!sp->stmt && is(&c[k], "exported") && !c[k].arg && !sp->exported)
			sp->exported = 1;
		else if (sp->stmt && is(&c[k], "absolute") && !c[k].arg && !sp->absolute)
			sp->absolute = 1;
		else if (sp->ret && is(&c[k], "maxactive") && !sp->maxactive) {
			if (!num_arg(x, &c[k], &sp->maxactive, 1))
				return 0;
		} else
			return -1;
	}
	return 1;
}

/* pp as a DWARF point, into *sp: 1, 0 after an error, -1 when pp is
 * no such point. */
static int dw_spec_of(struct expansion *x, struct probe_point *pp, struct dw_spec *sp)
{
	struct probe_comp *c = pp->comps;
	int r;

	*sp = (struct dw_spec){ 0 };
	if (pp->ncomps < 2 || !c[1].arg)
		return -1;
	if (is(&c[0], "module") && c[0].arg && c[0].arg->kind == N_STR)
		sp->module = c[0].arg->str;
	else if (!is(&c[0], "kernel"))
		return -1;
	sp->stmt = is(&c[1], "statement");
	if (!sp->stmt && !is(&c[1], "function"))
		return -1;
	if ((r = dw_suffixes(x, pp, sp)) <= 0)
		return r;
	if (c[1].arg->kind == N_NUM) {
		if (!sp->stmt)
			return -1;
		sp->addr = (uint64_t)c[1].arg->num;
		sp->has_addr = 1;
	} else if (c[1].arg->kind != N_STR) {
		return -1;
	}
	if (sp->absolute && !x->e->s->guru)
		return point_error(x, &c[1].loc, "kernel.statement(...).absolute needs guru mode (-g)");
	if (!sp->has_addr && !dw_parse_pattern(c[1].arg->str, &sp->pat))
		return point_error(x, &c[1].arg->loc, ar_printf("'%s' is no function pattern: "
					"NAME[@FILE[:LINE|:N-M|:*|+N]]", c[1].arg->str));
	if (sp->stmt && !sp->has_addr && sp->pat.line_lo < 0 && !sp->pat.all_lines)
		return point_error(x, &c[1].arg->loc, ar_printf("kernel.statement(\"%s\") needs a "
					"line: \"func@file:N\"", c[1].arg->str));
	return 1;
}

/* The kernel's or the module's debuginfo, into *f: 1, 0 after an
 * error, -1 when the symbol table can do without. */
static int dw_spec_file(struct expansion *x, struct probe_point *pp, const struct dw_spec *sp,
			struct dwarf_file **f)
{
	const char *why = NULL, *path;

	if (sp->module) {
		path = dw_find_kernel(x->e->s, sp->module, &why);
		/* a module's name and symbol only: its symbol table does */
		*f = path ? dw_open(path, sp->module, 0, &why) : NULL;
		if (!*f && strpbrk(sp->module, "*?["))
			return -1;
	} else {
		*f = dw_kernel(x->e->s, &why);
	}
	if (!*f) {
		/* a plain name: the symbol table (kprobes) will do */
		if (!sp->stmt && !sp->has_addr && !sp->pat.file && !sp->inl && !sp->exported)
			return -1;
		return point_error(x, &pp->loc, ar_printf("%s needs the kernel's debuginfo: %s",
							  pp_text(pp), why));
	}
	if (!sp->module && !need_ksyms(x, &pp->loc))
		return 0;
	if (sp->module && (sp->has_addr || sp->exported))
		return point_error(x, &pp->comps[1].loc, ar_printf("%s of a module is not "
					"supported: name its functions", sp->has_addr
					? "a statement address" : "'.exported'"));
	return 1;
}

/* kernel.statement(ADDRESS): one point, in the function around it
 * (for its variables). */
static struct dw_point *address_point(struct dwarf_file *f, uint64_t addr)
{
	struct dw_point *pt = ar_alloc(sizeof(*pt));
	struct dw_entry *fe = ar_alloc(sizeof(*fe));
	Dwarf_Die cu, *scopes = NULL;
	Dwarf_Addr lo;
	const char *name;
	int n;

	fe->name = "";
	pt->fn = fe;
	pt->pc = pt->entry_pc = addr;
	if (!dwarf_addrdie(f->dw, (Dwarf_Addr)addr, &cu))
		return pt;
	n = dwarf_getscopes(&cu, (Dwarf_Addr)addr, &scopes);
	for (int i = 0; i < n; i++) {
		if (dwarf_tag(&scopes[i]) != DW_TAG_subprogram)
			continue;
		pt->die = dwarf_dieoffset(&scopes[i]);
		if (dwarf_entrypc(&scopes[i], &lo) == 0)
			pt->entry_pc = lo;
		name = dwarf_diename(&scopes[i]);
		fe->name = name ? intern(name, strlen(name)) : "";
		break;
	}
	free(scopes);
	return pt;
}

/* The points sp names in f, into pts: 1, 0 after an error, -1 when the
 * symbol table may still know the name. */
static int dw_spec_points(struct expansion *x, struct probe_point *pp, const struct dw_spec *sp,
			  struct dwarf_file *f, struct vec *pts)
{
	int flags = 0;

	if (sp->has_addr) {
		vec_push(pts, address_point(f, sp->addr));
		return 1;
	}
	if (sp->stmt)
		flags |= DWP_STATEMENT;
	if (sp->ret)
		flags |= DWP_NO_INLINE | DWP_AT_ENTRY;
	if (sp->call || sp->exported)
		flags |= DWP_NO_INLINE;
	if (sp->inl)
		flags |= DWP_NO_CALL;
	dw_points(f, &sp->pat, flags, pts);
	if (!pts->len && !pp->optional && !strpbrk(sp->pat.name, "*?[") &&
	    !no_points_why(x, f, pp, &sp->pat, sp->stmt, sp->ret))
		return 0;
	/* not in DWARF (macro-made syscall wrappers, assembly): the
	 * symbol table may still know a plain name */
	if (!pts->len && !sp->stmt && !sp->pat.file && !sp->inl && !sp->exported)
		return -1;
	return 1;
}

/* The symbol and offset a kprobe at pt takes: 1, 0 to skip the point,
 * -1 after an error (a named function that cannot be probed). */
static int point_symbol(struct expansion *x, struct probe_point *pp, const struct dw_spec *sp,
			struct dwarf_file *f, const struct dw_point *pt, int npts,
			const char **sym, unsigned long long *off)
{
	uint64_t o = 0;
	enum ksym_refusal why;

	if (sp->module) {
		/* "module:function" + offset: kprobes find the module's
		 * symbol when it is loaded */
		*sym = dw_module_symbol(f, pt->pc, &o);
		*off = o;
		return *sym != NULL;
	}
	*sym = ksyms_at(x->e->ksyms, pt->pc, off);
	why = *sym ? ksyms_refusal(x->e->ksyms, *sym) : KSYM_PROBEABLE;
	if (*sym && why == KSYM_PROBEABLE)
		return 1;
	if (sp->has_addr || strpbrk(sp->pat.name, "*?[") || pp->optional || npts != 1)
		return 0;
	sem_error(&pp->comps[1].arg->loc, "kernel function '%s' cannot be probed: %s",
		  pt->fn->name, !*sym ? "no symbol leads to it" : refusal_reason(why));
	x->failed = 1;
	return -1;
}

/* The derived probe of one point. */
static void dw_make_probe(struct expansion *x, struct probe_point *pp, struct node *cond,
			  const struct dw_spec *sp, struct dwarf_file *f,
			  const struct dw_point *pt, const char *sym, unsigned long long off)
{
	struct probe_point *concrete = pp_join(pp, 0, pp->ncomps, NULL, NULL, 0);
	struct node *arg = node_new(sp->has_addr ? N_NUM : N_STR, &pp->comps[1].arg->loc);
	struct derived_probe *d;

	if (sp->has_addr) {
		arg->num = (int64_t)sp->addr;
		arg->str = ar_printf("0x%llx", (unsigned long long)sp->addr);
	} else {
		arg->str = dw_point_text(pt, sp->stmt);
	}
	concrete->comps[1].arg = arg;
	d = make_probe(x, concrete, cond, PF_KPROBE);
	d->symbol = *pt->fn->name ? pt->fn->name : sym;
	d->kp_symbol = sym;
	d->offset = (int64_t)off;
	d->is_return = sp->ret;
	d->maxactive = (int)sp->maxactive;
	d->module = sp->module;
	d->dwf = f;
	dw_point_place(d, pt);
}

/*
 * kernel.function(P)[.call|.exported|.inline|.return[.maxactive(N)]]
 * kernel.statement(P | ADDR)[.absolute]
 * with the kernel's DWARF.  -1 when pp is no such point or there is no
 * debuginfo and the symbol table can do (kernel.function("name")).
 */
static int dw_kernel_point(struct expansion *x, struct probe_point *pp, struct node *cond)
{
	struct dw_spec sp;
	struct dwarf_file *f;
	struct vec pts = { 0 };
	int made = 0, r;

	if ((r = dw_spec_of(x, pp, &sp)) <= 0 || (r = dw_spec_file(x, pp, &sp, &f)) <= 0 ||
	    (r = dw_spec_points(x, pp, &sp, f, &pts)) <= 0)
		return r;
	for (int i = 0; i < pts.len; i++) {
		struct dw_point *pt = pts.v[i];
		unsigned long long off = 0;
		const char *sym;

		if (sp.exported && !ksyms_exported(x->e->ksyms, pt->fn->name))
			continue;
		r = point_symbol(x, pp, &sp, f, pt, pts.len, &sym, &off);
		if (r < 0) {
			free(pts.v);
			return 0;
		}
		/* a kretprobe goes on a function's first instruction */
		if (!r || (sp.ret && off))
			continue;
		dw_make_probe(x, pp, cond, &sp, f, pt, sym, off);
		made++;
	}
	dw_release(f);
	free(pts.v);
	return made ? 1 : 0;
}

/*
 * The families whose matcher (../families/NAME/) gives templates, in
 * list.h's order: each says -1 when pp is none of its points, 0 after
 * an error, 1 with out holding the templates, each the fields of its
 * family set, made a probe as it is.
 */
static int template_point(struct expansion *x, struct probe_point *pp, struct node *cond)
{
	for (int pf = 0; pf < PF_N; pf++) {
		const struct family_ops *f = family_row(pf);
		struct vec found = { 0 };
		int r = f->match ? f->match(x->e, pp, &found) : -1;

		if (r < 0)
			continue;
		if (!r)
			x->failed = 1;
		for (int i = 0; i < found.len; i++) {
			struct derived_probe *t = found.v[i], *d = ar_alloc(sizeof(*d));

			*d = *t;
			fill_probe(x, d, t->pp, cond, t->family);
		}
		free(found.v);
		return r;
	}
	return -1;
}

static int builtin_point(struct expansion *x, struct probe_point *pp,
			 struct node *cond)
{
	int (*const families[])(struct expansion *, struct probe_point *,
				struct node *) = {
		order_point, timer_point, dw_kernel_point, symbol_point, template_point,
	};

	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++) {
		int r = families[i](x, pp, cond);

		if (r >= 0)
			return r;
	}
	return -1;
}

/* ---- suggestions ---- */


/* "kernel.function" for kernel.function("x").return: names only. */
static const char *shape(const struct probe_point *pp, int ncomps)
{
	struct sbuf sb = { 0 };
	const char *r;

	for (int i = 0; i < pp->ncomps && i < ncomps; i++)
		sb_printf(&sb, "%s%s", i ? "." : "", pp->comps[i].name ? pp->comps[i].name : "{}");
	r = ar_strdup(sb.s ? sb.s : "");
	free(sb.s);
	return r;
}

static void closer(const char *have, const char *cand, const char **best,
		   int *best_d)
{
	int d = util_edit_distance(have, cand);

	if (d < *best_d) {
		*best_d = d;
		*best = cand;
	}
}

static const char *suggest(struct expansion *x, const struct probe_point *pp)
{
	const char *best = NULL;
	int best_d = 3;

	for (int i = 0; i < x->e->aliases.len; i++) {
		const struct node *a = x->e->aliases.v[i];

		closer(shape(pp, a->alias_names[0]->ncomps),
		       shape(a->alias_names[0], 99), &best, &best_d);
	}
	for (int pf = 0; pf < PF_N; pf++)
		for (const char *const *b = family_row(pf)->shapes; b && *b; b++) {
			int n = 1;	/* components: one more than the dots */

			for (const char *c = *b; *c; c++)
				n += *c == '.';
			closer(shape(pp, n), *b, &best, &best_d);
		}
	return best && best_d > 0 ? ar_printf(" (did you mean '%s'?)", best) : "";
}

/*
 * A point with wildcards in its names that no family took as it is
 * ("kerne*.funct*(\"f\")", "kernel.function(\"f\").*", a suffix
 * "maxact*(10)" an alias handed on): the builtin points the families'
 * types say it stands for, each optional, as SystemTap expands them.
 * -1 when it stands for none.
 */
static int typed_points(struct expansion *x, struct probe_point *pp,
			struct node *cond, int depth)
{
	struct vec qs = { 0 };
	int glob = 0, before = x->made;

	for (int i = 0; i < pp->ncomps && !glob; i++)
		glob = is_glob(pp->comps[i].name);
	if (!glob || !probe_types_expand(pp, &qs)) {
		free(qs.v);
		return -1;
	}
	for (int i = 0; i < qs.len; i++) {
		struct probe_point *q = qs.v[i];

		q->loc = pp->loc;
		expand_point(x, q, cond, 1, depth + 1);
	}
	free(qs.v);
	return x->made > before ? 1 : -1;
}

static void expand_point(struct expansion *x, struct probe_point *pp,
			 struct node *cond, int optional, int depth)
{
	struct vec pts = { 0 };

	if (depth > MAX_ALIAS_DEPTH || x->nwraps >= MAX_ALIAS_DEPTH - 1) {
		sem_error(&pp->loc, "probe alias '%s' expands too deeply (recursive alias?)",
			  pp_text(pp));
		x->failed = 1;
		return;
	}
	expand_braces(pp, &pts);
	for (int i = 0; i < pts.len; i++) {
		struct probe_point *p = pts.v[i];
		int before = x->made, r;

		p->optional |= optional;
		if (try_aliases(x, p, cond, p->optional, depth)) {
			if (p->ncomps == 1 && !p->comps[0].arg && is_glob(p->comps[0].name))
				order_glob(x, p, cond);
			if (x->made == before && !p->optional && !x->failed) {
				sem_error(&p->loc, "no probe point matches '%s'", pp_text(p));
				x->failed = 1;
			}
			if (p->alt_sufficient && x->made > before)
				break;
			continue;
		}
		r = builtin_point(x, p, cond);
		if (r < 0)
			r = typed_points(x, p, cond, depth);
		if (r < 0 && !p->optional) {
			sem_error(&p->loc, "no probe point matches '%s'%s", pp_text(p),
				  suggest(x, p));
			x->failed = 1;
		} else if (r == 0 && x->made == before && !p->optional &&
			   !x->failed) {
			sem_error(&p->loc, "no kernel function matches '%s'",
				  pp_text(p));
			x->failed = 1;
		}
		/* {a!, b}: b only when a resolves to nothing */
		if (p->alt_sufficient && x->made > before)
			break;
	}
	free(pts.v);
}

void probes_expand_file(struct elab *e, struct lib_file *f)
{
	for (int i = 0; i < f->script->decls.len; i++) {
		struct node *d = f->script->decls.v[i];

		if (d->kind != N_PROBE)
			continue;
		for (int k = 0; k < d->npoints; k++) {
			struct expansion x = { 0 };
			struct probe_point *pp = d->points[k];

			x.e = e;
			x.file = f;
			x.handler = d->body;
			x.user_pp = pp;
			x.user_name = pp_text(pp);
			expand_point(&x, pp, pp->cond, pp->optional, 0);
			if (pp->sufficient && x.made)
				break;
		}
	}
}
