// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the tapsets' BPF functions (runtime/bpf/tapset.h) read of the
 * probe they run in: its point for pp(), the point as named for pn(),
 * and the probed function for probefunc(), set in the handler's
 * struct stp_kctx as the kmod runtime's probe descriptor has them (the
 * family's own prologue follows: its row's bpf_prologue).
 */
#include "bpf.h"

void bx_probe_prologue(struct bx *x, const struct derived_probe *d)
{
	const char *pn = d->list_name ? d->list_name : d->user_name;
	const char *func = (d->family == PF_KPROBE || d->family == PF_UPROBE) && d->symbol ?
			   d->symbol : "";

	sb_printf(&x->code, "\tk.pp = \"%s\";\n\tk.pn = \"%s\";\n\tk.func = \"%s\";\n",
		  bx_cstr(d->name), bx_cstr(pn ? pn : d->name), bx_cstr(func));
}
