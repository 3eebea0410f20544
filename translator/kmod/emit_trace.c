// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Pass 3 for kernel.trace(...): each tracepoint probe's callback, and the
 * table runtime/tracepoints.c registers with the kernel's tracepoint API.
 *
 * The kernel calls a probe as (void *data, args...) with the tracepoint's
 * prototype.  Every argument a tracepoint takes is a number or a pointer
 * (tracepoints.c turns down those passing a struct by value), which the
 * x86-64 calling convention passes in a register or an 8-byte stack
 * slot: so the callback takes each as a u64 and, when a $argument reads
 * them (btf_var.c, through CONTEXT->entry), keeps them in an array.  The
 * hit goes through stp_probe_hit(), as a kprobe's does, after the
 * probe's prefix when hoist.c split one off (emit_hoist.c).
 */
#include "emit.h"
#include "../btf.h"

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

void em_trace_entry(struct emit *m, int idx, const struct derived_probe *d)
{
	/* named, not matched by a wildcard: the session cannot do without it */
	int required = !strpbrk(d->user_name, "*?[") && !d->pp->optional;

	callback(m, idx, d);
	sb_printf(&m->traces, "\t{ .probe = &stp_probe_%d, .name = %s, .cb = (void *)stp_tp_cb_%d, "
		  ".required = %d", idx, em_cstr_raw(d->tp->name), idx, required);
	if (d->tp->module)
		sb_printf(&m->traces, ", .module = %s", em_cstr_raw(d->tp->module));
	sb_puts(&m->traces, " },\n");
	m->ntraces++;
}

void em_trace_tables(struct emit *m, struct sbuf *o)
{
	sb_puts(o, "#include \"runtime/tracepoints.h\"\n\n");
	sb_printf(o, "%s", m->trace_cbs.s ? m->trace_cbs.s : "");
	em_array(o, "stp_tracepoint", "stp_tracepoints", &m->traces, "STP_NTRACEPOINTS", m->ntraces);
	free(m->trace_cbs.s);
}
