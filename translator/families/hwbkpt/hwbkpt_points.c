// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kernel.data(...) probe points, as SystemTap's stapprobes(3) has them:
 *
 *   kernel.data(ADDRESS)[.length(LEN)].write     kernel.data("SYMBOL").write
 *   kernel.data(ADDRESS)[.length(LEN)].rw        kernel.data("SYMBOL").rw
 *
 * An address is taken as the running kernel's (from /proc/kallsyms, as
 * users find one); a symbol is a data symbol of the target's System.map,
 * placed at run time relative to _printk, since KASLR moves the kernel.
 * x86 watches 1, 2, 4 or 8 bytes, aligned: another length is rounded up
 * to the next, as SystemTap rounds it, and more than 8 is an error.  x86
 * has no read-only watchpoint, so there is no .read.
 */
#include "hwbkpt_family.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is(const struct probe_comp *c, const char *name)
{
	return c->name && !strcmp(c->name, name);
}

static int fail(const struct loc *l, const char *msg)
{
	sem_error(l, "%s", msg);
	return 0;
}

/* The link-time address of data symbol name in map, and of _printk. */
static int map_lookup(const char *map, const char *name, uint64_t *addr, uint64_t *base)
{
	FILE *f = fopen(map, "r");
	char line[512], sym[256], type;
	unsigned long long a;
	int found = 0, have_base = 0;

	if (!f)
		return 0;
	while ((!found || !have_base) && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &a, &type, sym) != 3)
			continue;
		if (!strcmp(sym, "_printk")) {
			*base = a;
			have_base = 1;
		} else if (!found && !strcmp(sym, name) && strchr("dDbBrRgGsS", type)) {
			*addr = a;
			found = 1;
		}
	}
	fclose(f);
	return found && have_base;
}

static int where(struct elab *e, const struct probe_comp *c, struct derived_probe *t)
{
	const char *map;
	uint64_t base = 0;

	if (!c->arg || (c->arg->kind != N_NUM && c->arg->kind != N_STR))
		return fail(&c->loc, "kernel.data takes an address or a symbol's name, as in "
			    "kernel.data(\"jiffies\").write");
	if (c->arg->kind == N_NUM) {
		t->hw.addr = (uint64_t)c->arg->num;
		return 1;
	}
	map = ksyms_map_file(e->s);
	if (!map)
		return fail(&c->arg->loc, "kernel.data(\"SYMBOL\") needs the target kernel's "
			    "System.map, which was not found");
	if (!map_lookup(map, c->arg->str, &t->hw.addr, &base))
		return fail(&c->arg->loc, ar_printf("no kernel data symbol '%s' in the target "
						    "kernel's System.map", c->arg->str));
	t->hw.symbol = c->arg->str;
	t->hw.base = base;
	return 1;
}

static int length(const struct probe_comp *c, struct derived_probe *t)
{
	static const int fits[] = { 1, 2, 4, 8 };

	if (!c->arg || c->arg->kind != N_NUM)
		return fail(&c->loc, "'length' takes a number of bytes, as in .length(4)");
	if (t->hw.symbol)
		return fail(&c->loc, "'.length' is for an address: a symbol's watchpoint "
			    "covers its first byte");
	for (int i = 0; i < 4; i++)
		if (c->arg->num >= 1 && c->arg->num <= fits[i]) {
			t->hw.len = fits[i];
			return 1;
		}
	return fail(&c->arg->loc, ar_printf("'length(%lld)' is out of range: x86 watches "
					    "1 to 8 bytes", (long long)c->arg->num));
}

int hwbkpt_match(struct elab *e, struct probe_point *pp, struct vec *out)
{
	struct probe_comp *c = pp->comps;
	struct derived_probe *t;
	int k = 2;

	if (pp->ncomps < 2 || !is(&c[0], "kernel") || c[0].arg || !is(&c[1], "data"))
		return -1;
	t = ar_alloc(sizeof(*t));
	t->pp = pp;
	t->family = PF_HWBKPT;
	t->loc = pp->loc;
	t->hw.len = 1;
	if (!where(e, &c[1], t))
		return 0;
	if (k < pp->ncomps && is(&c[k], "length") && !length(&c[k++], t))
		return 0;
	if (k == pp->ncomps - 1 && (is(&c[k], "write") || is(&c[k], "rw")) && !c[k].arg) {
		t->hw.rw = is(&c[k], "rw");
		vec_push(out, t);
		return 1;
	}
	return fail(k < pp->ncomps ? &c[k].loc : &pp->loc,
		    "a kernel.data probe point ends in .write or .rw, as in "
		    "kernel.data(\"jiffies\").write");
}

/* ---- the family's row (family.h) ---- */

static const char *const shapes[] = {
	"kernel.data.write", "kernel.data.rw", "kernel.data.length.write",
	"kernel.data.length.rw", NULL,
};
static const char *const types[] = {
	"kernel.data(number)[.length(number)].{write|rw}", "kernel.data(string).{write|rw}", NULL,
};

const struct family_ops hwbkpt_family = {
	.name = "kernel.data", .match = hwbkpt_match, .shapes = shapes, .types = types,
	.kmod_entry = em_hwbkpt_entry, .kmod_tables = em_hwbkpt_tables,
	.bpf_why = "BPF has no hardware watchpoint hook (use the kmod runtime)",
};
