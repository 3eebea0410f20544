// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The row of kernel.function, kprobe.function and their kin (family.h).
 */
#include "kprobe_family.h"

static const char *const shapes[] = {
	"kprobe.function", "kernel.function", "module.function", "kprobe.module.function", NULL,
};
static const char *const types[] = {
	"kernel.function(string)[.{call|exported|inline|return|return.maxactive(number)}]",
	"kernel.statement({number|string})",
	"kernel.statement(number).absolute",
	"module(string).function(string)[.{call|inline|return|return.maxactive(number)}]",
	"module(string).statement(string)",
	"kprobe[.module(string)].function(string)[.{call|return|return.maxactive(number)}]",
	NULL,
};

/* a kretprobe's hits come through the runtime's own handler */
static int hoistable(const struct derived_probe *d)
{
	return !d->is_return;
}

const struct family_ops kprobe_family = {
	.name = "kprobe", .shapes = shapes, .types = types, .hoistable = hoistable,
	.kmod_entry = em_kprobe_entry, .kmod_tables = em_kprobe_tables, .kmod_hoists = 1,
	.kmod_fields = em_kprobe_fields,
	.bpf_section = bx_kfunc_section, .bpf_ctx = BX_CTX_KFUNC,
	.bpf_prologue = bx_kfunc_prologue,
};
