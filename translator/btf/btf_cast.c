// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * @cast(p, "type"[, "module"])->member... of a kernel type under
 * --runtime=bpf: typed by the kernel's BTF rather than its DWARF (which a
 * machine without modules rarely has), each member's offset a CO-RE
 * relocation (btf_core.c) as for a tracepoint's $arguments.  Pass 2 calls
 * it from dw_target(); the chain itself is btf_var.c's.
 *
 * "type" is "task_struct", "struct task_struct", "union u" or a typedef;
 * the module "kernel", "kernel<linux/sched.h>" (the header is SystemTap's
 * way to name where the type is declared: BTF has every type of the
 * kernel, so it is not needed) or a module's name, whose split BTF then
 * holds the type.
 */
#include "btf.h"
#include "btf_var.h"

#include <bpf/btf.h>
#include <string.h>

/* "kernel<linux/sched.h>" -> "kernel"; NULL without a module. */
static const char *module_name(const struct node *n)
{
	const char *m, *lt;

	if (n->args.len < 3)
		return NULL;
	m = ((struct node *)n->args.v[2])->str;
	lt = strchr(m, '<');
	return lt ? ar_strndup(m, (size_t)(lt - m)) : m;
}

int btf_cast_wanted(const struct elab *e, const struct derived_probe *d, const struct node *n)
{
	const char *m;

	if (!e->s->types_by_btf || n->kind != N_AT || n->at != ATOP_CAST)
		return 0;
	m = module_name(n);
	/* a process probe's @cast without a module names the program's type */
	if (!m)
		return !d || d->family != PF_UPROBE;
	return m[0] != '/' && strcmp(m, "process") && !strstr(m, ".so");
}

/* The type's id in b: a struct, union or typedef of that name. */
static int32_t find_type(const struct btf *b, const char *name)
{
	int32_t id;

	if (!strncmp(name, "struct ", 7))
		return btf__find_by_name_kind(b, name + 7, BTF_KIND_STRUCT);
	if (!strncmp(name, "union ", 6))
		return btf__find_by_name_kind(b, name + 6, BTF_KIND_UNION);
	id = btf__find_by_name_kind(b, name, BTF_KIND_STRUCT);
	if (id <= 0)
		id = btf__find_by_name_kind(b, name, BTF_KIND_UNION);
	if (id <= 0)
		id = btf__find_by_name_kind(b, name, BTF_KIND_TYPEDEF);
	return id;
}

static int fail(const struct node *at, int quiet, const char *msg)
{
	if (!quiet)
		sem_error(&at->loc, "%s", msg);
	return 0;
}

int btf_cast(struct elab *e, struct derived_probe *d, struct node *n, int write, int quiet)
{
	const char *m = module_name(n), *why = NULL;
	struct node *tn = n->args.len > 1 ? n->args.v[1] : n;
	struct kbtf *kb;
	struct bv v = { 0 };
	int32_t id;

	if (write)
		return fail(n, quiet, "@cast(...) cannot be written under --runtime=bpf: "
			    "BPF programs do not write kernel memory");
	if (n->args.len < 2 || tn->kind != N_STR)
		return fail(n, quiet, "@cast takes a pointer and a type name");
	kb = m && strcmp(m, "kernel") ? kbtf_module_load(e->s, m, &why) : kbtf_load(e->s, &why);
	if (!kb)
		return fail(n->args.len > 2 ? n->args.v[2] : tn, quiet,
			    ar_printf("@cast needs the %s's BTF: %s", m ? m : "kernel", why));
	id = find_type(kb->btf, tn->str);
	if (id <= 0)
		return fail(tn, quiet, ar_printf("no type '%s' in the %s's BTF", tn->str,
						 m ? m : "kernel"));
	v.b = kb->btf;
	v.d = d;
	v.n = n;
	v.what = ar_printf("@cast(..., \"%s\")", tn->str);
	v.mem = 1;
	v.expr = v.core_base = "(unsigned long)STAP_ARG_i0";
	v.type = (uint32_t)id;
	btf_peel(v.b, v.type, &v.core_root);
	v.nparams = 1;
	n->args.len = 1;	/* the pointer; subscripts add theirs */
	return bv_chain(&v, quiet);
}
