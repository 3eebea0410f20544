// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kernel.syscall(NR) and kernel.syscall(NR).return: native x86-64
 * system call number NR, at its entry and at its exit.  No symbol is
 * looked up and no debuginfo or BTF is needed: the runtime attaches to
 * the raw_syscalls tracepoints and dispatches by number
 * (runtime/sysdispatch.c), so any number of these probes cost one
 * callback on each.
 *
 * The variables are the tracepoints' data: $id (the number), $arg1 ..
 * $arg6 (the argument registers di, si, dx, r10, r8, r9, as longs),
 * $regs (the user pt_regs' address) and, in .return, $ret.  They are
 * read from the array the runtime fills at each hit (SD_* give the
 * slots), through a function made here, as process.syscall's are.
 */
#include "syscall_family.h"

#include <string.h>

static int named(const struct probe_comp *c, const char *name)
{
	return c->name && !strcmp(c->name, name);
}

/*
 * kernel.syscall(NR)[.return[.maxactive(N)]].  maxactive bounds the
 * instances of a kretprobe in flight, and SystemTap's syscall aliases
 * are kretprobes: "syscall.open.return.maxactive(10)" hands the suffix
 * on to what the alias names.  An exit seen at its tracepoint has no
 * instances to bound, so none is missed for want of one: the number is
 * checked and kept in the point's name, and has nothing to limit.
 */
static int is_syscall_point(const struct probe_point *pp)
{
	const struct probe_comp *c = pp->comps;

	if (pp->ncomps < 2 || pp->ncomps > 4 || !named(&c[0], "kernel") || c[0].arg ||
	    !named(&c[1], "syscall"))
		return 0;
	if (pp->ncomps >= 3 && (!named(&c[2], "return") || c[2].arg))
		return 0;
	return pp->ncomps < 4 || named(&c[3], "maxactive");
}

int sysdispatch_match(struct elab *e, struct probe_point *pp, struct vec *out)
{
	const struct node *arg = pp->ncomps >= 2 ? pp->comps[1].arg : NULL;
	struct derived_probe *t;
	int64_t max;

	(void)e;
	if (!is_syscall_point(pp))
		return -1;
	if (!arg) {
		sem_error(&pp->comps[1].loc, "kernel.syscall needs a system call number: "
			  "kernel.syscall(NR)");
		return 0;
	}
	if (arg->kind != N_NUM || arg->num < 0 || arg->num >= SD_MAX_NR) {
		sem_error(&arg->loc, "kernel.syscall(...) takes a system call number "
			  "from 0 to %d", SD_MAX_NR - 1);
		return 0;
	}
	if (pp->ncomps == 4 && !pp_num_arg(&pp->comps[3], &max, 1))
		return 0;	/* as a kretprobe's maxactive is checked */
	t = ar_alloc(sizeof(*t));
	t->pp = pp_clone(pp, NULL);
	t->family = PF_SYSCALL;
	t->sc.nr = (int)arg->num;
	t->is_return = pp->ncomps >= 3;
	vec_push(out, t);
	return 1;
}

/* The slot $name is read from, or -1 when d has no such variable. */
static int slot_of(const struct derived_probe *d, const char *name)
{
	if (!strcmp(name, "$id"))
		return SD_ID;
	if (!strcmp(name, "$regs"))
		return SD_REGS;
	if (!strcmp(name, "$ret"))
		return d->is_return ? SD_RET : -1;
	if (!strncmp(name, "$arg", 4) && name[4] >= '1' && name[4] <= '6' && !name[5])
		return SD_ARG1 + name[4] - '1';
	return -1;
}

/* Why d has no variable n; NULL when it has. */
static const char *refusal(const struct derived_probe *d, const struct node *n)
{
	if (n->kind != N_TARGET)
		return ar_printf("%s needs debuginfo (DWARF), which kernel.syscall probes do "
				 "without", n->name);
	if (!strcmp(n->name, "$ret") && !d->is_return)
		return "'$ret' is only available in kernel.syscall(NR).return probes";
	if (slot_of(d, n->name) < 0)
		return ar_printf("kernel.syscall%s probes have no '%s' (they have $id, $arg1 "
				 "to $arg6, $regs%s)", d->is_return ? "(NR).return" : "(NR)",
				 n->name, d->is_return ? " and $ret" : "");
	return NULL;
}

int sysdispatch_target(struct elab *e, struct derived_probe *d, struct node *n, int write,
		       int quiet)
{
	const char *why = refusal(d, n);

	(void)e;
	if (!why)
		why = genfn_entry_slot(n, "__sysvar", slot_of(d, n->name), write);
	if (why) {
		if (!quiet)
			sem_error(&n->loc, "%s", why);
		return 0;
	}
	d->sc.args_read = 1;
	return 1;
}

const char *sysdispatch_list_vars(struct elab *e, const struct derived_probe *d)
{
	(void)e;
	return d->is_return ? " $id:long $arg1:long $arg2:long $arg3:long $arg4:long $arg5:long "
			      "$arg6:long $regs:long $ret:long"
			    : " $id:long $arg1:long $arg2:long $arg3:long $arg4:long $arg5:long "
			      "$arg6:long $regs:long";
}

/* ---- the family's row (family.h) ---- */

static const char *const shapes[] = { "kernel.syscall", "kernel.syscall.return", NULL };
static const char *const types[] = { "kernel.syscall(number)[.return[.maxactive(number)]]", NULL };

const struct family_ops syscall_family = {
	.name = "kernel.syscall", .match = sysdispatch_match, .shapes = shapes, .types = types,
	.target = sysdispatch_target,
	.list_vars = sysdispatch_list_vars,
	.kmod_entry = em_sysdispatch_entry, .kmod_tables = em_sysdispatch_tables,
	.kmod_fields = em_sysdispatch_fields,
	.bpf_section = bx_syscall_section, .bpf_ctx = BX_CTX_RAW,
	.bpf_prologue = bx_sys_prologue, .bpf_epilogue = bx_sys_epilogue,
};
