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
 * (argN without it).  The system is btf_load.c's.
 *
 * Only the core kernel's tracepoints are known: those of modules
 * (module("ext4").trace) are not yet.
 */
#include "btf.h"

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
 * (emit_trace.c). */
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

/* Every tracepoint of the kernel, once; 0 and *why without BTF. */
static int load_all(const struct session *s, const char **why)
{
	struct kbtf *kb = kbtf_load(s, why);
	struct pmap protos = { 0 };
	uint32_t n;

	if (!kb)
		return 0;
	if (loaded)
		return 1;
	loaded = 1;
	named_protos(kb->btf, &protos);
	n = btf__type_cnt(kb->btf);
	for (uint32_t i = 1; i < n; i++) {
		const struct btf_type *t = btf__type_by_id(kb->btf, i);
		const char *name;
		struct tracepoint_info *tp;

		if (!btf_is_typedef(t))
			continue;
		name = btf__name_by_offset(kb->btf, t->name_off);
		if (name && !strncmp(name, "btf_trace_", 10) && (tp = info_of(kb, t, name + 10, &protos)))
			vec_push(&all, tp);
	}
	free(protos.keys);
	free(protos.vals);
	if (all.len)
		qsort(all.v, all.len, sizeof(void *), cmp_name);
	if (s->verbose >= 2)
		fprintf(stderr, "%d tracepoints from %s\n", all.len, kb->source);
	return 1;
}

/* "SYSTEM:NAME" or "NAME" against tracepoint tp. */
static int tp_match(const struct tracepoint_info *tp, const char *sys, const char *name)
{
	if (fnmatch(name, tp->name, 0))
		return 0;
	return !sys || !fnmatch(sys, tp->system ? tp->system : "", 0);
}

/* " (did you mean 'a', 'b' or 'c'?)": the closest names, up to three. */
static const char *did_you_mean(const char *name)
{
	const struct tracepoint_info *best[3] = { 0 };
	int bd[3] = { 4, 4, 4 }, n = 0;
	struct sbuf sb = { 0 };
	const char *r;

	for (int i = 0; i < all.len; i++) {
		const struct tracepoint_info *tp = all.v[i];
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

int tracepoints_match(struct elab *e, struct probe_point *pp, struct vec *out)
{
	struct probe_comp *c = pp->comps;
	const char *why = NULL, *pat, *colon, *sys = NULL;
	int before = out->len;

	if (pp->ncomps != 2 || !c[0].name || strcmp(c[0].name, "kernel") || c[0].arg ||
	    !c[1].name || strcmp(c[1].name, "trace") || !c[1].arg || c[1].arg->kind != N_STR)
		return -1;
	if (!load_all(e->s, &why)) {
		if (pp->optional)
			return 1;
		sem_error(&pp->loc, "kernel.trace(\"%s\") needs the kernel's BTF: %s", c[1].arg->str, why);
		return 0;
	}
	pat = c[1].arg->str;
	if ((colon = strchr(pat, ':'))) {
		sys = ar_strndup(pat, (size_t)(colon - pat));
		pat = colon + 1;
	}
	for (int i = 0; i < all.len; i++) {
		const struct tracepoint_info *tp = all.v[i];

		if (!tp_match(tp, sys, pat))
			continue;
		if (tp->by_value && !strpbrk(c[1].arg->str, "*?[")) {
			sem_error(&c[1].arg->loc, "tracepoint '%s' takes a struct by value, which "
				  "stp cannot probe yet", tp->name);
			return 0;
		}
		if (!tp->by_value)
			vec_push(out, template_of(pp, tp));
	}
	if (out->len > before || pp->optional)
		return 1;
	sem_error(&c[1].arg->loc, "no tracepoint '%s' in the kernel%s", c[1].arg->str,
		  did_you_mean(pat));
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
