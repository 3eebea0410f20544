// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perf.* points: the kernel's perf events, one counter per online CPU
 * (or per process with .process) whose overflow runs the handler
 * (runtime/perf.c).
 *
 *   perf.sw.NAME, perf.hw.NAME, perf.hw_cache.CACHE.OP.RESULT
 *   perf.type(T).config(C)
 *   then [.sample(N) | .hz(N)] [.process | .process("PATH")] [.counter("NAME")]
 *
 * The names and their (type, config) pairs are SystemTap's (its
 * tapset's linux/perf.stp, from the perf_event_open ABI); here they are
 * one table, so that a misspelt name is an error with the closest ones.
 * A name component may hold a glob: the pattern is matched against the
 * whole dotted name ("sw.*", "*"), so -l 'perf.*' lists them all.
 * Without .sample or .hz an event overflows every 1000000 counts, as
 * in SystemTap.
 */
#include "../../elab/elab.h"
#include "perf_family.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#define PERF_DEFAULT_PERIOD 1000000

struct perf_name {
	const char *name;	/* "sw.cpu_clock" */
	int type;		/* enum perf_type_id */
	uint64_t config;
};

/* hw_cache config: cache | op << 8 | result << 16; the ops and results
 * the kernel's perf tool allows for each cache */
#define HC(c, o, r, n) { "hw_cache." n, 3, (c) | (o) << 8 | (r) << 16 }
#define HC_RW(c, n) HC(c, 0, 0, n ".read.access"), HC(c, 0, 1, n ".read.miss"), \
	HC(c, 1, 0, n ".write.access"), HC(c, 1, 1, n ".write.miss")
#define HC_P(c, n) HC(c, 2, 0, n ".prefetch.access"), HC(c, 2, 1, n ".prefetch.miss")
#define HC_R(c, n) HC(c, 0, 0, n ".read.access"), HC(c, 0, 1, n ".read.miss")

static const struct perf_name names[] = {
	{ "hw.cpu_cycles", 0, 0 }, { "hw.instructions", 0, 1 },
	{ "hw.cache_references", 0, 2 }, { "hw.cache_misses", 0, 3 },
	{ "hw.branch_instructions", 0, 4 }, { "hw.branch_misses", 0, 5 },
	{ "hw.bus_cycles", 0, 6 }, { "hw.stalled_cycles_frontend", 0, 7 },
	{ "hw.stalled_cycles_backend", 0, 8 }, { "hw.ref_cpu_cycles", 0, 9 },
	{ "sw.cpu_clock", 1, 0 }, { "sw.task_clock", 1, 1 },
	{ "sw.page_faults", 1, 2 }, { "sw.context_switches", 1, 3 },
	{ "sw.cpu_migrations", 1, 4 }, { "sw.page_faults_min", 1, 5 },
	{ "sw.page_faults_maj", 1, 6 }, { "sw.alignment_faults", 1, 7 },
	{ "sw.emulation_faults", 1, 8 },
	HC_RW(0, "l1d"), HC_P(0, "l1d"),
	HC_R(1, "l1i"), HC_P(1, "l1i"),
	HC_RW(2, "ll"), HC_P(2, "ll"),
	HC_RW(3, "dtlb"), HC_P(3, "dtlb"),
	HC_R(4, "itlb"),
	HC_R(5, "bpu"),
	HC_RW(6, "node"),
};

#define NNAMES (sizeof(names) / sizeof(names[0]))

static int is(const struct probe_comp *c, const char *name)
{
	return c->name && !strcmp(c->name, name);
}

static int is_suffix(const struct probe_comp *c)
{
	return is(c, "sample") || is(c, "hz") || is(c, "process") || is(c, "counter");
}

static int fail(const struct loc *l, const char *text)
{
	sem_error(l, "%s", text);
	return 0;
}

/* " (did you mean 'perf.a' or 'perf.b'?)": the names within 3 edits */
static const char *did_you_mean(const char *name)
{
	const char *best[2] = { 0 };
	int bd[2] = { 4, 4 };

	for (size_t i = 0; i < NNAMES; i++) {
		int d = util_edit_distance(name, names[i].name);

		if (d < bd[0]) {
			best[1] = best[0], bd[1] = bd[0];
			best[0] = names[i].name, bd[0] = d;
		} else if (d < bd[1]) {
			best[1] = names[i].name, bd[1] = d;
		}
	}
	if (!best[0])
		return "";
	if (!best[1])
		return ar_printf(" (did you mean 'perf.%s'?)", best[0]);
	return ar_printf(" (did you mean 'perf.%s' or 'perf.%s'?)", best[0], best[1]);
}

/* The first of comps[1..end) that no name goes on from: the caret's place. */
static const struct probe_comp *first_unknown(const struct probe_point *pp, int end)
{
	struct sbuf sb = { 0 };
	const struct probe_comp *at = &pp->comps[end - 1];

	for (int k = 1; k < end; k++) {
		int any = 0;

		sb_printf(&sb, "%s%s", k > 1 ? "." : "", pp->comps[k].name);
		for (size_t i = 0; i < NNAMES && !any; i++)
			any = !strncmp(names[i].name, sb.s, sb.len) &&
			      (!names[i].name[sb.len] || names[i].name[sb.len] == '.');
		if (!any) {
			at = &pp->comps[k];
			break;
		}
	}
	free(sb.s);
	return at;
}

/* The events comps[1..end) name, into out (struct perf_name *). */
static int named_events(const struct probe_point *pp, int end, struct vec *out)
{
	struct sbuf sb = { 0 };
	const char *pat;

	for (int k = 1; k < end; k++) {
		if (pp->comps[k].arg)
			return fail(&pp->comps[k].arg->loc,
				    ar_printf("'%s' of a perf event takes no argument", pp->comps[k].name));
		sb_printf(&sb, "%s%s", k > 1 ? "." : "", pp->comps[k].name);
	}
	pat = ar_strdup(sb.s);
	free(sb.s);
	for (size_t i = 0; i < NNAMES; i++)
		if (!fnmatch(pat, names[i].name, 0))
			vec_push(out, (void *)&names[i]);
	if (out->len || pp->optional)
		return 1;
	if (strpbrk(pat, "*?["))
		return fail(&pp->comps[1].loc, ar_printf("no perf event matches 'perf.%s'", pat));
	return fail(&first_unknown(pp, end)->loc,
		    ar_printf("no perf event 'perf.%s'%s", pat, did_you_mean(pat)));
}

/* perf.type(T).config(C): one event of its own */
static int raw_event(const struct probe_point *pp, int end, struct perf_name *ev)
{
	const struct probe_comp *c = pp->comps;

	if (end != 3 || !is(&c[2], "config"))
		return fail(&c[1].loc, "perf.type(T) needs .config(C) after it, and nothing between");
	for (int k = 1; k < 3; k++)
		if (!c[k].arg || c[k].arg->kind != N_NUM || c[k].arg->num < 0)
			return fail(c[k].arg ? &c[k].arg->loc : &c[k].loc,
				    ar_printf("'%s' takes a number, at least 0, as in perf.type(1).config(0)",
					      c[k].name));
	ev->name = NULL;
	ev->type = (int)c[1].arg->num;
	ev->config = (uint64_t)c[2].arg->num;
	if (c[1].arg->num > 0xffffffffLL)
		return fail(&c[1].arg->loc, "'type' is out of range: a perf type is 32 bits");
	return 1;
}

static int want_num(const struct probe_comp *c, int64_t *v)
{
	if (!c->arg || c->arg->kind != N_NUM)
		return fail(&c->loc, ar_printf("'%s' takes a number, as in .%s(1000)", c->name, c->name));
	if (c->arg->num < 1)
		return fail(&c->arg->loc, ar_printf("'%s(%lld)' is out of range: at least 1",
						    c->name, (long long)c->arg->num));
	*v = c->arg->num;
	return 1;
}

static int want_str(const struct probe_comp *c, const char **v)
{
	if (!c->arg || c->arg->kind != N_STR)
		return fail(c->arg ? &c->arg->loc : &c->loc,
			    ar_printf("'%s' takes a string, as in .%s(\"NAME\")", c->name, c->name));
	*v = c->arg->str;
	return 1;
}

/* One suffix: where it may stand, what it takes. */
static int suffix(const struct probe_comp *c, struct derived_probe *t, int *stage)
{
	static const char *const order = "sample(N) or .hz(N), then .process, then .counter(\"NAME\")";
	int at = is(c, "sample") || is(c, "hz") ? 1 : is(c, "process") ? 2 : 3;

	if (at <= *stage)
		return fail(&c->loc, ar_printf("'.%s' is out of place: a perf event takes .%s",
					       c->name, order));
	*stage = at;
	if (at == 1) {
		t->perf.freq = is(c, "hz");
		return want_num(c, &t->perf.period);
	}
	if (at == 3)
		return want_str(c, &t->perf.counter);
	t->perf.task = PERF_TASK_TARGET;
	if (!c->arg)
		return 1;
	t->perf.task = PERF_TASK_PATH;
	return want_str(c, &t->perf.path);
}

/* " (did you mean '.sample'?)", or "" */
static const char *closest_suffix(const char *name)
{
	static const char *const all[] = { "sample", "hz", "process", "counter" };

	for (size_t i = 0; name && i < sizeof(all) / sizeof(all[0]); i++)
		if (util_edit_distance(name, all[i]) <= 2)
			return ar_printf(" (did you mean '.%s'?)", all[i]);
	return "";
}

/* comps[from..] into t: 1, 0 after an error */
static int suffixes(const struct probe_point *pp, int from, struct derived_probe *t)
{
	int stage = 0;

	t->perf.period = PERF_DEFAULT_PERIOD;
	for (int k = from; k < pp->ncomps; k++) {
		const struct probe_comp *c = &pp->comps[k];

		if (!is_suffix(c))
			return fail(&c->loc, ar_printf("'.%s' is no perf event suffix%s; they are .sample(N), "
						       ".hz(N), .process, .process(\"PATH\") and .counter(\"NAME\")",
						       c->name ? c->name : "{...}", closest_suffix(c->name)));
		if (!suffix(c, t, &stage))
			return 0;
	}
	if (t->perf.counter && !t->perf.task)
		return fail(&pp->comps[pp->ncomps - 1].loc,
			    "a perf counter counts in a process: .process or .process(\"PATH\") before .counter");
	return 1;
}

/* The concrete point: perf.NAME's components, then the user's suffixes. */
static struct probe_point *concrete(const struct probe_point *pp, int end, const struct perf_name *ev)
{
	struct probe_point *c = pp_clone(pp, NULL);
	char *parts, *save = NULL;
	int n = 1;

	if (!ev->name)
		return c;
	c->comps = ar_alloc((size_t)(pp->ncomps + 8) * sizeof(*c->comps));
	c->comps[0] = pp->comps[0];
	parts = ar_strdup(ev->name);
	for (char *p = strtok_r(parts, ".", &save); p; p = strtok_r(NULL, ".", &save)) {
		c->comps[n] = pp->comps[end - 1 < n ? end - 1 : n];
		c->comps[n++].name = p;
	}
	for (int k = end; k < pp->ncomps; k++)
		c->comps[n++] = pp->comps[k];
	c->ncomps = n;
	return c;
}

static struct derived_probe *template_of(const struct probe_point *pp, int end,
					 const struct perf_name *ev, const struct derived_probe *sfx)
{
	struct derived_probe *t = ar_alloc(sizeof(*t));

	*t = *sfx;
	t->pp = concrete(pp, end, ev);
	t->family = PF_PERF;
	t->perf.type = ev->type;
	t->perf.config = ev->config;
	return t;
}

/* .process("PATH"): an absolute path, to a program the target has. */
static int program(struct elab *e, const struct probe_point *pp, const struct derived_probe *t)
{
	const struct node *arg = NULL;

	if (!t->perf.path)
		return 1;
	for (int k = 1; k < pp->ncomps; k++)
		if (is(&pp->comps[k], "process"))
			arg = pp->comps[k].arg;
	if (t->perf.path[0] != '/')
		return fail(&arg->loc, ar_printf("process(\"%s\"): name the program by its absolute path",
						 t->perf.path));
	if (!target_path(e->s, t->perf.path))
		return fail(&arg->loc, ar_printf("no program '%s' (under --sysroot or here)", t->perf.path));
	return 1;
}

int perf_match(struct elab *e, struct probe_point *pp, struct vec *out)
{
	struct derived_probe sfx = { 0 };
	struct vec evs = { 0 };
	struct perf_name raw;
	int end = 1;

	if (!is(&pp->comps[0], "perf") || pp->comps[0].arg)
		return -1;
	/* the name: up to a suffix, or a component with an argument that
	 * is no part of perf.type(T).config(C) */
	while (end < pp->ncomps && !is_suffix(&pp->comps[end]) && pp->comps[end].name &&
	       (!pp->comps[end].arg || is(&pp->comps[end], "type") || is(&pp->comps[end], "config")))
		end++;
	if (end == 1)
		return -1;
	if (!suffixes(pp, end, &sfx) || !program(e, pp, &sfx))
		return 0;
	if (is(&pp->comps[1], "type")) {
		if (!raw_event(pp, end, &raw))
			return 0;
		vec_push(out, template_of(pp, end, &raw, &sfx));
		return 1;
	}
	if (!named_events(pp, end, &evs))
		return 0;
	for (int i = 0; i < evs.len; i++)
		vec_push(out, template_of(pp, end, evs.v[i], &sfx));
	free(evs.v);
	return 1;
}

/* The index of counter name among the program's counters (the order of
 * e->probes: perf_kmod.c's table), or -1. */
int perf_counter_index(const struct elab *e, const char *name)
{
	int k = 0;

	for (int i = 0; i < e->probes.len; i++) {
		const struct derived_probe *d = e->probes.v[i];

		if (d->family != PF_PERF || !d->perf.counter)
			continue;
		if (!strcmp(d->perf.counter, name))
			return k;
		k++;
	}
	return -1;
}

void perf_at_check(struct elab *e, const struct derived_probe *in, struct node *n)
{
	const struct node *arg = n->args.v[0];

	if (!in) {
		sem_error(&n->loc, "@perf reads a counter in a probe's handler, not in a function");
		return;
	}
	if (perf_counter_index(e, arg->str) < 0)
		sem_error(&arg->loc, "no perf counter '%s': declare one with "
			  "probe perf.sw.NAME.process.counter(\"%s\") {}", arg->str, arg->str);
}

/* ---- the family's row (family.h) ---- */

static const char *const shapes[] = {
	"perf.sw", "perf.hw", "perf.hw_cache", "perf.type.config", NULL,
};
#define PERF_SUFFIXES "[.{sample(number)|hz(number)}][.process[(string)][.counter(string)]]"
#define HW_CACHE(c, ops) "perf.hw_cache." c "." ops ".{access|miss}" PERF_SUFFIXES
static const char *const types[] = {
	"perf.sw.{cpu_clock|task_clock|page_faults|context_switches|cpu_migrations|"
		"page_faults_min|page_faults_maj|alignment_faults|emulation_faults}" PERF_SUFFIXES,
	"perf.hw.{cpu_cycles|instructions|cache_references|cache_misses|branch_instructions|"
		"branch_misses|bus_cycles|stalled_cycles_frontend|stalled_cycles_backend|"
		"ref_cpu_cycles}" PERF_SUFFIXES,
	HW_CACHE("{l1d|ll|dtlb}", "{read|write|prefetch}"),
	HW_CACHE("l1i", "{read|prefetch}"),
	HW_CACHE("{itlb|bpu}", "read"),
	HW_CACHE("node", "{read|write}"),
	"perf.type(number).config(number)" PERF_SUFFIXES,
	NULL,
};

/* a counter read with @perf has no hits of its own */
static int hoistable(const struct derived_probe *d)
{
	return !d->perf.counter;
}

const struct family_ops perf_family = {
	.name = "perf", .match = perf_match, .shapes = shapes, .types = types,
	.hoistable = hoistable,
	.kmod_entry = em_perf_entry, .kmod_tables = em_perf_tables, .kmod_hoists = 1,
	.bpf_section = bx_perf_section, .bpf_ctx = BX_CTX_VOID, .bpf_hoists = 1,
	.bpf_why = "a perf counter of one process, or read with @perf, is not attached by "
		   "the BPF runner (perf.* on every CPU is)",
};
