/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * netfilter.hook("HOOK").pf("FAMILY")[.priority(N)] probes:
 *
 *   netfilter_points.c       the points, and the family's row (family.h)
 *   netfilter_var.c   their variables
 *   netfilter_kmod.c  each one's hook function and nf_hook_ops entry
 *
 * No BPF generator: the row says why.
 *
 * ORDER: the hook function's argument array, as netfilter_kmod.c fills
 * it and netfilter_var.c reads it through CONTEXT->entry.
 */
#ifndef STP_NETFILTER_H
#define STP_NETFILTER_H

#include "../../elab/elab.h"

enum nf_arg {
	NF_ARG_HOOKNUM,		/* state->hook */
	NF_ARG_SKB,		/* struct sk_buff * */
	NF_ARG_INDEV,		/* state->in, or NULL */
	NF_ARG_OUTDEV,		/* state->out, or NULL */
	NF_ARG_OKFN,		/* state->okfn */
	NF_ARG_VERDICT,		/* what the hook returns: NF_ACCEPT unless
				 * the handler (guru mode) writes it */
	NF_NARGS
};

/* netfilter_points.c: -1 when pp is no netfilter point; 0 after an error; 1
 * when out holds the derived probe template (pp, family, nf_*). */
int netfilter_match(struct elab *e, struct probe_point *pp, struct vec *out);

/* netfilter_var.c: $hooknum, $skb, $in/$indev, $out/$outdev,
 * $indev_name, $outdev_name, $okfn, $verdict (writable), $$parms and
 * $$vars of probe d, as btf_target() does a tracepoint's. */
int netfilter_target(struct elab *e, struct derived_probe *d, struct node *n, int write,
		     int quiet);
/* -L: " $hooknum:unsigned int $skb:struct sk_buff* ..." */
const char *netfilter_list_vars(struct elab *e, const struct derived_probe *d);
/* @defined(n): whether n is one of them */
int netfilter_defined(struct elab *e, struct derived_probe *d, const struct node *n);

/* netfilter_kmod.c */
/* Probe idx's hook function and its entry in the hook table. */
void em_netfilter_entry(struct emit *m, int idx, const struct derived_probe *d);
/* stp_nf_ops[], even when empty. */
void em_netfilter_tables(struct emit *m, struct sbuf *o);

#endif
