// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kernel.trace("NAME"), kernel.trace("SYSTEM:NAME"), globs in either
 * part: the kernel's tracepoints, found in its BTF (btf_load.c), so a
 * tracepoint probe needs no debuginfo.
 *
 * Every tracepoint has a typedef btf_trace_NAME, a pointer to its probe
 * prototype (void *__data, args...) whose parameters have no names; the
 * function __traceiter_NAME (5.10 and later) has the same parameters
 * with their names.  Types come from the first, names from the second
 * (argN without it).  The system is btf_load.c's; when it could learn
 * none (no tracefs, and none may be mounted), SYSTEM:NAME matches by NAME
 * and says once that the system was not checked.
 *
 * module("M").trace(...) takes module M's (btf_module.c), and a
 * kernel.trace("NAME") the core kernel lacks is looked for in the
 * modules; wildcards in kernel.trace match the core kernel's only.
 */
#include "trace_family.h"
#include "../../btf/btf.h"

#include <bpf/btf.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct vec all;		/* struct tracepoint_info *, by name */
static int loaded;

static int cmp_name(const void *a, const void *b)
{
	return strcmp((*(struct tracepoint_info *const *)a)->name,
		      (*(struct tracepoint_info *const *)b)->name);
}

/* NAME -> the prototype of __traceiter_NAME, which has the parameters'
 * names: one pass over the types (btf__find_by_name_kind() is a search
 * of them all, each call). */
static void named_protos(const struct btf *b, struct pmap *out)
{
	uint32_t n = btf__type_cnt(b);

	for (uint32_t i = 1; i < n; i++) {
		const struct btf_type *t = btf__type_by_id(b, i);
		const char *name;

		if (!btf_is_func(t))
			continue;
		name = btf__name_by_offset(b, t->name_off);
		if (name && !strncmp(name, "__traceiter_", 12))
			pmap_put(out, intern(name + 12, strlen(name + 12)),
				 (void *)btf__type_by_id(b, t->type));
	}
}

/* A number or a pointer: what the callback can take as a u64
 * (trace_kmod.c). */
static int passed_in_register(const struct btf *b, uint32_t id)
{
	const struct btf_type *t = btf_peel(b, id, NULL);

	return t && (btf_is_int(t) || btf_is_ptr(t) || btf_is_any_enum(t)) &&
	       btf__resolve_size(b, id) <= 8;
}

static struct tracepoint_info *info_of(struct kbtf *kb, const struct btf_type *td,
				       const char *name, const struct pmap *protos)
{
	const struct btf *b = kb->btf;
	const struct btf_type *ptr = btf__type_by_id(b, td->type);
	const struct btf_type *proto = ptr && btf_is_ptr(ptr) ? btf__type_by_id(b, ptr->type) : NULL;
	const struct btf_type *named = pmap_get(protos, intern(name, strlen(name)));
	struct tracepoint_info *tp;
	int n;

	if (!proto || !btf_is_func_proto(proto) || btf_vlen(proto) < 1)
		return NULL;
	n = btf_vlen(proto) - 1;	/* the first is void *__data */
	tp = ar_alloc(sizeof(*tp));
	tp->btf = b;
	tp->name = intern(name, strlen(name));
	tp->system = pmap_get(&kb->systems, tp->name);
	tp->nargs = n;
	tp->arg_names = ar_alloc((size_t)(n + 1) * sizeof(*tp->arg_names));
	tp->arg_types = ar_alloc((size_t)(n + 1) * sizeof(*tp->arg_types));
	for (int i = 0; i < n; i++) {
		const char *an = named && btf_vlen(named) == n + 1 ?
			btf__name_by_offset(b, btf_params(named)[i + 1].name_off) : NULL;

		tp->arg_names[i] = an && *an ? an : ar_printf("arg%d", i + 1);
		tp->arg_types[i] = btf_params(proto)[i + 1].type;
		tp->by_value |= !passed_in_register(b, tp->arg_types[i]);
	}
	return tp;
}

/* The tracepoints of kb (the kernel's, or module's), by name, into out. */
static void collect(struct kbtf *kb, const char *module, struct vec *out)
{
	struct pmap protos = { 0 };
	uint32_t n = btf__type_cnt(kb->btf);
	const struct btf *base = btf__base_btf(kb->btf);

	named_protos(kb->btf, &protos);
	/* a module's own types follow its base's */
	for (uint32_t i = base ? btf__type_cnt(base) : 1; i < n; i++) {
		const struct btf_type *t = btf__type_by_id(kb->btf, i);
		const char *name;
		struct tracepoint_info *tp;

		if (!btf_is_typedef(t))
			continue;
		name = btf__name_by_offset(kb->btf, t->name_off);
		if (name && !strncmp(name, "btf_trace_", 10) && (tp = info_of(kb, t, name + 10, &protos))) {
			tp->module = module;
			vec_push(out, tp);
		}
	}
	free(protos.keys);
	free(protos.vals);
	if (out->len)
		qsort(out->v, out->len, sizeof(void *), cmp_name);
}

/* Every tracepoint of the kernel, once; 0 and *why without BTF. */
static int load_all(const struct session *s, const char **why)
{
	struct kbtf *kb = kbtf_load(s, why);

	if (!kb)
		return 0;
	if (loaded)
		return 1;
	loaded = 1;
	collect(kb, NULL, &all);
	if (s->verbose >= 2)
		fprintf(stderr, "%d tracepoints from %s\n", all.len, kb->source);
	return 1;
}

/* Module m's tracepoints, once each; NULL and *why without its BTF. */
static struct vec *module_tracepoints(const struct session *s, const char *m, const char **why)
{
	static struct pmap mods;	/* interned module -> struct vec * */
	const char *key = intern(m, strlen(m));
	struct vec *v = pmap_get(&mods, key);
	struct kbtf *kb;

	if (v)
		return v;
	if (!(kb = kbtf_module_load(s, m, why)))
		return NULL;
	v = ar_alloc(sizeof(*v));
	collect(kb, key, v);
	pmap_put(&mods, key, v);
	if (s->verbose >= 2)
		fprintf(stderr, "%d tracepoints from %s\n", v->len, kb->source);
	return v;
}

/* "SYSTEM:NAME" or "NAME" against tracepoint tp; no_systems: the
 * systems are unknown, so only the name can be checked. */
static int tp_match(const struct tracepoint_info *tp, const char *sys, const char *name,
		    int no_systems)
{
	if (fnmatch(name, tp->name, 0))
		return 0;
	return !sys || (no_systems && !tp->system) ||
	       !fnmatch(sys, tp->system ? tp->system : "", 0);
}

/* tp, named by the system the user gave where the kernel's is unknown,
 * so that the point and $$system read as they would with it. */
static const struct tracepoint_info *with_system(const struct tracepoint_info *tp, const char *sys)
{
	struct tracepoint_info *c;

	if (tp->system || !sys || strpbrk(sys, "*?["))
		return tp;
	c = ar_alloc(sizeof(*c));
	*c = *tp;
	c->system = sys;
	return c;
}

/* Once a run: SYSTEM:NAME was matched by NAME alone, and why. */
static void warn_unchecked(const struct loc *loc, const char *why)
{
	static int said;

	if (!said++)
		sem_warn(loc, "the tracepoints' systems are unknown (%s): matched by name, the "
			 "system not checked", why);
}

/* " (did you mean 'a', 'b' or 'c'?)": the closest names, up to three. */
static const char *did_you_mean(const struct vec *tps, const char *name)
{
	const struct tracepoint_info *best[3] = { 0 };
	int bd[3] = { 4, 4, 4 }, n = 0;
	struct sbuf sb = { 0 };
	const char *r;

	for (int i = 0; i < tps->len; i++) {
		const struct tracepoint_info *tp = tps->v[i];
		int d = util_edit_distance(name, tp->name), k = 3;

		while (k > 0 && d < bd[k - 1])
			k--;
		if (k == 3)
			continue;
		memmove(&best[k + 1], &best[k], (size_t)(2 - k) * sizeof(best[0]));
		memmove(&bd[k + 1], &bd[k], (size_t)(2 - k) * sizeof(bd[0]));
		best[k] = tp;
		bd[k] = d;
	}
	while (n < 3 && best[n])
		n++;
	for (int i = 0; i < n; i++)
		sb_printf(&sb, "%s'%s'", !i ? " (did you mean " : i == n - 1 ? " or " : ", ",
			  best[i]->name);
	if (!n)
		return "";
	sb_puts(&sb, "?)");
	r = ar_strdup(sb.s);
	free(sb.s);
	return r;
}

static struct derived_probe *template_of(struct probe_point *pp, const struct tracepoint_info *tp)
{
	struct derived_probe *t = ar_alloc(sizeof(*t));
	struct probe_point *c = pp_clone(pp, NULL);
	struct node *arg = node_new(N_STR, &pp->comps[1].arg->loc);

	arg->str = tp->system ? ar_printf("%s:%s", tp->system, tp->name) : tp->name;
	c->comps[1].arg = arg;
	t->pp = c;
	t->family = PF_TRACE;
	t->tp = tp;
	t->symbol = tp->name;
	return t;
}

/* The NAME of "[SYSTEM:]NAME". */
static const char *name_part(const char *pat)
{
	const char *colon = strchr(pat, ':');

	return colon ? colon + 1 : pat;
}

/* Those of tps that match "[SYSTEM:]NAME" pat, into out; 0 after an
 * error.  no_systems: why tps have no systems, or NULL. */
static int match_in(const struct vec *tps, struct probe_point *pp, const struct node *arg,
		    const char *no_systems, struct vec *out)
{
	const char *pat = name_part(arg->str);
	const char *sys = pat != arg->str ? ar_strndup(arg->str, (size_t)(pat - 1 - arg->str)) : NULL;
	int wild = strpbrk(arg->str, "*?[") != NULL;

	for (int i = 0; i < tps->len; i++) {
		const struct tracepoint_info *tp = tps->v[i];

		if (!tp_match(tp, sys, pat, no_systems != NULL))
			continue;
		if (tp->by_value && !wild) {
			sem_error(&arg->loc, "tracepoint '%s' takes a struct by value, which "
				  "stp cannot probe yet", tp->name);
			return 0;
		}
		if (tp->by_value)
			continue;
		if (sys && no_systems && !tp->system) {
			warn_unchecked(&arg->loc, no_systems);
			tp = with_system(tp, sys);
		}
		vec_push(out, template_of(pp, tp));
	}
	return 1;
}

/* kernel.trace("NAME") of a tracepoint the core kernel lacks: the
 * module that has it, if one does. */
static int in_a_module(struct elab *e, struct probe_point *pp, const struct node *arg,
		       struct vec *out)
{
	const char *pat = name_part(arg->str);
	const char *m, *why = NULL;
	struct vec *tps;

	if (strpbrk(arg->str, "*?[") || !(m = kbtf_module_of(e->s, pat)))
		return 1;
	if (!(tps = module_tracepoints(e->s, m, &why))) {
		sem_error(&arg->loc, "tracepoint '%s' is in module %s: %s", pat, m, why);
		return 0;
	}
	return match_in(tps, pp, arg, NULL, out);
}

static int is_trace_point(const struct probe_point *pp, const char **module)
{
	const struct probe_comp *c = pp->comps;

	*module = NULL;
	if (pp->ncomps != 2 || !c[0].name || !c[1].name || strcmp(c[1].name, "trace") ||
	    !c[1].arg || c[1].arg->kind != N_STR)
		return 0;
	if (!strcmp(c[0].name, "kernel") && !c[0].arg)
		return 1;
	if (strcmp(c[0].name, "module") || !c[0].arg || c[0].arg->kind != N_STR)
		return 0;
	*module = c[0].arg->str;
	return 1;
}

int tracepoints_match(struct elab *e, struct probe_point *pp, struct vec *out)
{
	const struct node *arg = pp->ncomps == 2 ? pp->comps[1].arg : NULL;
	const char *why = NULL, *module, *pat;
	const struct vec *tps = &all;
	int before = out->len;

	if (!is_trace_point(pp, &module))
		return -1;
	if (!load_all(e->s, &why) || (module && !(tps = module_tracepoints(e->s, module, &why)))) {
		if (pp->optional)
			return 1;
		sem_error(module ? &pp->comps[0].arg->loc : &pp->loc,
			  "%s.trace(\"%s\") needs %s BTF: %s", module ? "module" : "kernel",
			  arg->str, module ? "the module's" : "the kernel's", why);
		return 0;
	}
	if (!match_in(tps, pp, arg, module ? NULL : kbtf_load(e->s, &why)->no_systems, out) ||
	    (!module && out->len == before && !in_a_module(e, pp, arg, out)))
		return 0;
	if (out->len > before || pp->optional)
		return 1;
	pat = name_part(arg->str);
	if (module)
		sem_error(&arg->loc, "no tracepoint '%s' in module %s%s", arg->str, module,
			  did_you_mean(tps, pat));
	else
		sem_error(&arg->loc, "no tracepoint '%s' in the kernel%s", arg->str,
			  did_you_mean(tps, pat));
	return 0;
}

const char *tracepoint_list_vars(const struct derived_probe *d)
{
	struct sbuf sb = { 0 };
	const char *s;

	for (int i = 0; i < d->tp->nargs; i++)
		sb_printf(&sb, " $%s:%s", d->tp->arg_names[i],
			  btf_type_text(d->tp->btf, d->tp->arg_types[i]));
	s = ar_strdup(sb.s ? sb.s : "");
	free(sb.s);
	return s;
}

/* ---- the family's row (family.h) ---- */

static const char *const shapes[] = { "kernel.trace", NULL };
static const char *const types[] = { "{kernel|module(string)}.trace(string)", NULL };

static int hoistable(const struct derived_probe *d)
{
	return d->tp != NULL;
}

const struct family_ops trace_family = {
	.name = "kernel.trace", .match = tracepoints_match, .shapes = shapes, .types = types,
	.hoistable = hoistable,
	.kmod_entry = em_trace_entry, .kmod_tables = em_trace_tables, .kmod_hoists = 1,
	.bpf_section = bx_trace_section, .bpf_ctx = BX_CTX_RAW, .bpf_hoists = 1,
};
