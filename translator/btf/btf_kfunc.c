// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A kernel function's parameters from BTF, for $var in kernel.function
 * and kprobe.function probes under --runtime=bpf when there is no DWARF
 * (this build machine's kernel, a kernel without its -dbg package).  The
 * function is described as a tracepoint is (struct tracepoint_info), so
 * btf_var.c compiles $param->member... and $$parms as it does for
 * tracepoints: the arguments are an array of u64 at CONTEXT->entry,
 * which is what a BPF trampoline program gets, and what a kprobe
 * program makes of its registers (translator/families/kprobe/kprobe_bpf.c).
 */
#include "btf.h"
#include "../elab/elab.h"

#include <bpf/btf.h>
#include <string.h>

const struct tracepoint_info *btf_kfunc_info(const struct session *s, struct derived_probe *d)
{
	const char *why;
	struct kbtf *kb = d->module ? kbtf_module_load(s, d->module, &why) : kbtf_load(s, &why);
	const struct btf_type *fn, *proto;
	struct tracepoint_info *tp;
	int id, n;

	if (!kb || !d->symbol)
		return NULL;
	id = btf__find_by_name_kind(kb->btf, d->symbol, BTF_KIND_FUNC);
	fn = id > 0 ? btf__type_by_id(kb->btf, id) : NULL;
	proto = fn ? btf__type_by_id(kb->btf, fn->type) : NULL;
	if (!proto || !btf_is_func_proto(proto))
		return NULL;
	n = btf_vlen(proto);
	tp = ar_alloc(sizeof(*tp));
	tp->btf = kb->btf;
	tp->name = d->symbol;
	tp->module = d->module;
	tp->nargs = n;
	tp->arg_names = ar_alloc((size_t)(n + 1) * sizeof(*tp->arg_names));
	tp->arg_types = ar_alloc((size_t)(n + 1) * sizeof(*tp->arg_types));
	for (int i = 0; i < n; i++) {
		const char *an = btf__name_by_offset(kb->btf, btf_params(proto)[i].name_off);

		tp->arg_names[i] = an && *an ? an : ar_printf("arg%d", i + 1);
		tp->arg_types[i] = btf_params(proto)[i].type;
	}
	return tp;
}
