// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The row of kernel.function, kprobe.function and their kin (family.h).
 */
#include "kprobe_family.h"

static const char *const shapes[] = {
	"kprobe.function", "kernel.function", "module.function", "kprobe.module.function", NULL,
};

/* a kretprobe's hits come through the runtime's own handler */
static int hoistable(const struct derived_probe *d)
{
	return !d->is_return;
}

const struct family_ops kprobe_family = {
	.name = "kprobe", .shapes = shapes, .hoistable = hoistable,
	.kmod_entry = em_kprobe_entry, .kmod_tables = em_kprobe_tables, .kmod_hoists = 1,
	.kmod_fields = em_kprobe_fields,
	.bpf_section = bx_kfunc_section, .bpf_ctx = BX_CTX_KFUNC,
	.bpf_prologue = bx_kfunc_prologue,
};
