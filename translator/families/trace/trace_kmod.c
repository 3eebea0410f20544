// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Pass 3 for kernel.trace(...): each tracepoint probe's callback, and the
 * table runtime/tracepoints.c registers with the kernel's tracepoint API.
 *
 * The kernel calls a probe as (void *data, args...) with the tracepoint's
 * prototype.  Every argument a tracepoint takes is a number or a pointer
 * (trace_points.c turns down those passing a struct by value), which the
 * x86-64 calling convention passes in a register or an 8-byte stack
 * slot: so the callback takes each as a u64 and, when a $argument reads
 * them (btf_var.c, through CONTEXT->entry), keeps them in an array.  The
 * hit goes through stp_probe_hit(), as a kprobe's does, after the
 * probe's prefix when hoist.c split one off (emit_hoist.c).
 *
 * Probes on one tracepoint share one registration: a callback that calls
 * each probe's in the script's order.  The kernel calls a tracepoint's
 * only callback directly (a static call), but two or more through a loop
 * of indirect calls; under -icount a second callback on sched_switch
 * cost 45 instructions a switch, more than the floor's whole hit.
 */
#include "../../kmod/emit.h"
#include "trace_family.h"
#include "../../btf/btf.h"

#include <stdlib.h>
#include <string.h>

/* With a prefix (emit_hoist.c): the arguments are pre's first member. */
static void prefixed(struct emit *m, int idx, const struct derived_probe *d, int n)
{
	struct sbuf args = { 0 };

	for (int i = 0; i < n; i++)
		sb_printf(&args, "%sa%d", i ? ", " : "", i);
	em_prefix(m, idx, d, &m->trace_cbs, args.s, "NULL", "return;");
	sb_puts(&m->trace_cbs, "}\n\n");
	free(args.s);
}

static void callback(struct emit *m, int idx, const struct derived_probe *d)
{
	int n = d->tp->nargs;

	sb_printf(&m->trace_cbs, "/* %s */\nstatic STP_HANDLER void stp_tp_cb_%d(void *data", d->name, idx);
	for (int i = 0; i < n; i++)
		sb_printf(&m->trace_cbs, ", u64 a%d", i);
	sb_puts(&m->trace_cbs, ")\n{\n");
	if (!d->tp_args_read)
		n = 0;
	if (em_hoisted(d)) {
		prefixed(m, idx, d, n);
		return;
	}
	if (n) {
		sb_printf(&m->trace_cbs, "\tu64 args[%d] = {", n);
		for (int i = 0; i < n; i++)
			sb_printf(&m->trace_cbs, "%s a%d", i ? "," : "", i);
		sb_puts(&m->trace_cbs, " };\n\n");
	}
	sb_printf(&m->trace_cbs, "\tstp_probe_hit(&stp_probe_%d, probe_%d, NULL, %s);\n}\n\n",
		  idx, idx, n ? "args" : "NULL");
}

struct em_trace_pt {
	int idx;
	const struct derived_probe *d;
	int done;			/* in an earlier probe's registration */
};

void em_trace_entry(struct emit *m, int idx, const struct derived_probe *d)
{
	struct em_trace_pt *t = calloc(1, sizeof(*t));

	if (!t)
		abort();
	callback(m, idx, d);
	t->idx = idx;
	t->d = d;
	vec_push(&m->trace_pts, t);
}

/* named, not matched by a wildcard: the session cannot do without it */
static int required(const struct derived_probe *d)
{
	return !strpbrk(d->user_name, "*?[") && !d->pp->optional;
}

static int same_point(const struct derived_probe *a, const struct derived_probe *b)
{
	const char *ma = a->tp->module ? a->tp->module : "", *mb = b->tp->module ? b->tp->module : "";

	return !strcmp(a->tp->name, b->tp->name) && !strcmp(ma, mb);
}

/* The registration of probe i's tracepoint, with every later probe on
 * the same point: one callback, or a shared one calling each. */
static void registration(struct emit *m, struct sbuf *shared, int i)
{
	struct em_trace_pt *t = m->trace_pts.v[i];
	const struct derived_probe *d = t->d;
	int n = d->tp->nargs, req = required(d), more = 0;
	struct sbuf also = { 0 }, args = { 0 }, calls = { 0 }, idxs = { 0 };

	for (int k = 0; k < n; k++)
		sb_printf(&args, ", a%d", k);
	for (int j = i; j < m->trace_pts.len; j++) {
		struct em_trace_pt *u = m->trace_pts.v[j];

		if (j > i && (u->done || !same_point(d, u->d)))
			continue;
		sb_printf(&calls, "\tstp_tp_cb_%d(data%s);\n", u->idx, args.s ? args.s : "");
		sb_printf(&idxs, "%s%d", j > i ? ", " : "", u->idx);
		if (j > i) {
			sb_printf(&also, " stp_probe_%d", u->idx);
			req |= required(u->d);
			u->done = 1;
			more = 1;
		}
	}
	if (more) {
		sb_printf(shared, "/* %s: probes %s */\nstatic STP_HANDLER void stp_tp_shared_%d(void *data",
			  d->tp->name, idxs.s, t->idx);
		for (int k = 0; k < n; k++)
			sb_printf(shared, ", u64 a%d", k);
		sb_printf(shared, ")\n{\n%s}\n\n", calls.s);
	}
	sb_printf(&m->traces, "\t{ .probe = &stp_probe_%d, .name = %s, .cb = (void *)stp_tp_%s_%d, "
		  ".required = %d", t->idx, em_cstr_raw(d->tp->name), more ? "shared" : "cb",
		  t->idx, req);
	if (d->tp->module)
		sb_printf(&m->traces, ", .module = %s", em_cstr_raw(d->tp->module));
	sb_printf(&m->traces, " },%s%s%s\n", more ? " /* and" : "", more ? also.s : "", more ? " */" : "");
	m->ntraces++;
	free(also.s);
	free(args.s);
	free(calls.s);
	free(idxs.s);
}

void em_trace_tables(struct emit *m, struct sbuf *o)
{
	struct sbuf shared = { 0 };

	for (int i = 0; i < m->trace_pts.len; i++) {
		struct em_trace_pt *t = m->trace_pts.v[i];

		if (!t->done)
			registration(m, &shared, i);
	}
	for (int i = 0; i < m->trace_pts.len; i++)
		free(m->trace_pts.v[i]);
	free(m->trace_pts.v);
	m->trace_pts = (struct vec){ 0 };
	sb_puts(o, "#include \"runtime/tracepoints.h\"\n\n");
	sb_printf(o, "%s", m->trace_cbs.s ? m->trace_cbs.s : "");
	sb_printf(o, "%s", shared.s ? shared.s : "");
	free(shared.s);
	em_array(o, "stp_tracepoint", "stp_tracepoints", &m->traces, "STP_NTRACEPOINTS", m->ntraces);
	free(m->trace_cbs.s);
}
