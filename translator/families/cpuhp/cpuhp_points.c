// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kernel.cpu.online, kernel.cpu.offline (cpuhp_family.h): the points and $cpu.
 */
#include "cpuhp_family.h"

#include <fnmatch.h>
#include <string.h>

static const char *const events[] = { "online", "offline" };

/* kernel.cpu.EVENT, EVENT a glob: a template per event it names */
int cpuhp_match(struct elab *e, struct probe_point *pp, struct vec *out)
{
	const struct probe_comp *c = pp->comps;
	int found = 0;

	(void)e;
	if (pp->ncomps != 3 || !c[0].name || strcmp(c[0].name, "kernel") || c[0].arg ||
	    !c[1].name || strcmp(c[1].name, "cpu") || c[1].arg || !c[2].name)
		return -1;
	if (c[2].arg) {
		sem_error(&c[2].arg->loc, "kernel.cpu.%s takes no argument", c[2].name);
		return 0;
	}
	for (int i = 0; i < 2; i++) {
		struct derived_probe *t;
		struct probe_cpuhp *p;
		struct probe_point *one;

		if (fnmatch(c[2].name, events[i], 0))
			continue;
		one = ar_alloc(sizeof(*one));
		*one = *pp;
		one->comps = ar_alloc(3 * sizeof(*one->comps));
		memcpy(one->comps, pp->comps, 3 * sizeof(*one->comps));
		one->comps[2].name = events[i];
		t = ar_alloc(sizeof(*t));
		p = ar_alloc(sizeof(*p));
		p->offline = i;
		t->pp = one;
		t->family = PF_CPUHP;
		t->loc = pp->loc;
		t->data = p;
		vec_push(out, t);
		found++;
	}
	if (!found && !pp->optional) {
		sem_error(&c[2].loc, "kernel.cpu has .online and .offline, not '%s'", c[2].name);
		return 0;
	}
	return 1;
}

/* $cpu, read from the hit's entry (cpuhp_kmod.c passes the number) */
static int target(struct elab *e, struct derived_probe *d, struct node *n, int write, int quiet)
{
	const char *why = NULL;

	(void)e;
	(void)d;
	if (strcmp(n->name, "$cpu"))
		why = ar_printf("kernel.cpu probes have '$cpu' only, not '%s'", n->name);
	else if (write)
		why = "'$cpu' cannot be written";
	else
		why = genfn_entry_slot(n, "__cpuhpvar", 0, 0);
	if (why && !quiet)
		sem_error(&n->loc, "%s", why);
	return !why;
}

static const char *list_vars(struct elab *e, const struct derived_probe *d)
{
	(void)e;
	(void)d;
	return " $cpu:long";
}

/* ---- the family's row (family.h) ---- */

static const char *const shapes[] = { "kernel.cpu.online", "kernel.cpu.offline", NULL };
static const char *const types[] = { "kernel.cpu.{online|offline}", NULL };

const struct family_ops cpuhp_family = {
	.name = "kernel.cpu", .match = cpuhp_match, .shapes = shapes, .types = types,
	.target = target, .list_vars = list_vars,
	.kmod_entry = em_cpuhp_entry, .kmod_tables = em_cpuhp_tables,
	.kmod_arm = "stp_cpuhp_arm", .kmod_disarm = "stp_cpuhp_disarm",
	.bpf_why = "BPF has no CPU hotplug callback; use "
		   "kernel.trace(\"cpuhp:cpuhp_exit\")",
};
