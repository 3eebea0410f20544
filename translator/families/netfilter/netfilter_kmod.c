// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Pass 3 for netfilter.hook(...).pf(...): each probe's hook function,
 * and the struct nf_hook_ops table runtime/netfilter.c registers in
 * every network namespace.
 *
 * The hook keeps its arguments in a u64 array (netfilter_family.h's enum
 * nf_arg) the handler's variables read through CONTEXT->entry, and
 * returns the array's verdict slot: NF_ACCEPT unless the handler wrote
 * $verdict.  The hit goes through stp_probe_hit(), as a tracepoint's
 * does; a hit the session skips (not running, CPU busy) accepts.
 */
#include "../../kmod/emit.h"
#include "netfilter_family.h"

#include <limits.h>
#include <stdlib.h>

static void hook_function(struct emit *m, int idx, const struct derived_probe *d)
{
	sb_printf(&m->nf_hooks,
		  "/* %s */\n"
		  "static STP_HANDLER unsigned int stp_nf_hook_%d(void *priv, struct sk_buff *skb,\n"
		  "\t\t\t\t\t\tconst struct nf_hook_state *state)\n"
		  "{\n"
		  "\tu64 args[%d] = { state->hook, (unsigned long)skb, (unsigned long)state->in,\n"
		  "\t\t\t (unsigned long)state->out, (unsigned long)state->okfn, NF_ACCEPT };\n\n"
		  "\tstp_probe_hit(&stp_probe_%d, probe_%d, NULL, args);\n"
		  "\treturn (unsigned int)args[%d];\n"
		  "}\n\n",
		  d->name, idx, NF_NARGS, idx, idx, NF_ARG_VERDICT);
}

void em_netfilter_entry(struct emit *m, int idx, const struct derived_probe *d)
{
	hook_function(m, idx, d);
	/* -2147483648 in C is the negation of a long */
	sb_printf(&m->nf_ops, "\t{ .hook = stp_nf_hook_%d, .pf = %d, .hooknum = %d, "
		  ".priority = %s },\n", idx, d->nf.pf, d->nf.hook,
		  d->nf.priority == INT_MIN ? "INT_MIN" : ar_printf("%d", d->nf.priority));
	m->nnf++;
}

void em_netfilter_tables(struct emit *m, struct sbuf *o)
{
	sb_puts(o, "#include \"runtime/netfilter.h\"\n\n");
	sb_printf(o, "%s", m->nf_hooks.s ? m->nf_hooks.s : "");
	em_array(o, "nf_hook_ops", "stp_nf_ops", &m->nf_ops, "STP_NNETFILTER", m->nnf);
	free(m->nf_hooks.s);
}
