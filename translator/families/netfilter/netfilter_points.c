// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * netfilter.hook("HOOK").pf("FAMILY") and netfilter.pf(...).hook(...),
 * each with an optional .priority(N) last: a netfilter hook function,
 * as SystemTap has them.  Names are the kernel's (its uapi headers:
 * NF_INET_*, NF_IP_*, NF_IP6_*, NF_ARP_*, NF_BR_*, NFPROTO_*, and
 * NF_IP_PRI_* / NF_IP6_PRI_* for priorities); a number, or a string
 * holding one, is taken as the value itself.  Nothing here needs the
 * kernel's BTF: only the variables do (netfilter_var.c).
 *
 * For -l, glob components (netfilter.*, netfilter.**) list every hook
 * of every family.
 */
#include "netfilter_family.h"

#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

struct nf_name {
	const char *name;
	int value;
};

/* Hooks of IPv4 and IPv6: NF_INET_* and the family's own old names. */
#define INET_HOOKS(P)							\
	{ "NF_INET_PRE_ROUTING", 0 }, { "NF_INET_LOCAL_IN", 1 },	\
	{ "NF_INET_FORWARD", 2 }, { "NF_INET_LOCAL_OUT", 3 },		\
	{ "NF_INET_POST_ROUTING", 4 },					\
	{ P "_PRE_ROUTING", 0 }, { P "_LOCAL_IN", 1 }, { P "_FORWARD", 2 }, \
	{ P "_LOCAL_OUT", 3 }, { P "_POST_ROUTING", 4 }, { NULL, 0 }

/* linux/netfilter_ipv4.h's and netfilter_ipv6.h's priorities */
#define INET_PRIORITIES(P)						\
	{ P "_PRI_FIRST", INT_MIN }, { P "_PRI_CONNTRACK_DEFRAG", -400 }, \
	{ P "_PRI_RAW", -300 }, { P "_PRI_SELINUX_FIRST", -225 },	\
	{ P "_PRI_CONNTRACK", -200 }, { P "_PRI_MANGLE", -150 },	\
	{ P "_PRI_NAT_DST", -100 }, { P "_PRI_FILTER", 0 },		\
	{ P "_PRI_SECURITY", 50 }, { P "_PRI_NAT_SRC", 100 },		\
	{ P "_PRI_SELINUX_LAST", 225 }, { P "_PRI_CONNTRACK_HELPER", 300 }, \
	{ P "_PRI_CONNTRACK_CONFIRM", INT_MAX }, { P "_PRI_LAST", INT_MAX }, \
	{ NULL, 0 }

static const struct nf_name ipv4_hooks[] = { INET_HOOKS("NF_IP") };
static const struct nf_name ipv6_hooks[] = { INET_HOOKS("NF_IP6") };
static const struct nf_name arp_hooks[] = {
	{ "NF_ARP_IN", 0 }, { "NF_ARP_OUT", 1 }, { "NF_ARP_FORWARD", 2 }, { NULL, 0 }
};
static const struct nf_name bridge_hooks[] = {
	{ "NF_BR_PRE_ROUTING", 0 }, { "NF_BR_LOCAL_IN", 1 }, { "NF_BR_FORWARD", 2 },
	{ "NF_BR_LOCAL_OUT", 3 }, { "NF_BR_POST_ROUTING", 4 }, { NULL, 0 }
};
static const struct nf_name ipv4_priorities[] = { INET_PRIORITIES("NF_IP") };
static const struct nf_name ipv6_priorities[] = { INET_PRIORITIES("NF_IP6") };
static const struct nf_name no_priorities[] = { { NULL, 0 } };

static const struct nf_family {
	const char *name;
	int value;			/* NFPROTO_* */
	int nhooks;			/* hooks are 0 .. nhooks - 1 */
	const struct nf_name *hooks, *priorities;
} families[] = {
	{ "NFPROTO_IPV4", 2, 5, ipv4_hooks, ipv4_priorities },
	{ "NFPROTO_ARP", 3, 3, arp_hooks, no_priorities },
	{ "NFPROTO_BRIDGE", 7, 5, bridge_hooks, no_priorities },
	{ "NFPROTO_IPV6", 10, 5, ipv6_hooks, ipv6_priorities },
};
#define NFAMILIES ((int)(sizeof(families) / sizeof(families[0])))

/* The point's three arguments, where the script wrote them. */
struct nf_spec {
	struct node *hook, *pf, *priority;
};

/* A number written as one: 5, "5", "-100". */
static int as_number(const struct node *a, long long *out)
{
	char *end;

	if (a->kind == N_NUM) {
		*out = a->num;
		return 1;
	}
	errno = 0;
	*out = strtoll(a->str, &end, 0);
	return *a->str && !*end && !errno;
}

/* " (did you mean 'X'?)" for the closest of names, or "". */
static const char *closest(const char *have, const struct nf_name *names)
{
	const char *best = NULL;
	int bd = 4;

	for (; names->name; names++) {
		int d = util_edit_distance(have, names->name);

		if (d < bd) {
			bd = d;
			best = names->name;
		}
	}
	return best ? ar_printf(" (did you mean '%s'?)", best) : "";
}

static const char *arg_text(const struct node *a)
{
	return a->kind == N_NUM ? ar_printf("%lld", (long long)a->num) : a->str;
}

static const struct nf_family *family_of(const struct node *a)
{
	struct nf_name names[NFAMILIES + 1] = { { NULL, 0 } };
	long long v;
	int i;

	for (i = 0; i < NFAMILIES; i++) {
		if (as_number(a, &v) ? v == families[i].value : !strcmp(a->str, families[i].name))
			return &families[i];
		names[i].name = families[i].name;
	}
	sem_error(&a->loc, "unknown netfilter protocol family '%s'%s", arg_text(a),
		  a->kind == N_STR ? closest(a->str, names) : "");
	return NULL;
}

/* The value a hook or priority argument names; 0 after an error. */
static int value_of(const struct node *a, const struct nf_family *f, const char *what,
		    const struct nf_name *names, long long lo, long long hi, int *out)
{
	long long v;

	if (as_number(a, &v)) {
		if (v >= lo && v <= hi) {
			*out = (int)v;
			return 1;
		}
		sem_error(&a->loc, "netfilter %s %lld is out of range for %s (%lld to %lld)", what,
			  v, f->name, lo, hi);
		return 0;
	}
	for (const struct nf_name *n = names; n->name; n++)
		if (!strcmp(a->str, n->name)) {
			*out = n->value;
			return 1;
		}
	sem_error(&a->loc, "unknown netfilter %s '%s' for %s%s", what, a->str, f->name,
		  closest(a->str, names));
	return 0;
}

/* A component's argument, once: 0 after an error. */
static int spec_arg(struct probe_comp *c, struct node **slot)
{
	if (*slot) {
		sem_error(&c->loc, "netfilter point names .%s() twice", c->name);
		return 0;
	}
	if (!c->arg) {
		sem_error(&c->loc, "netfilter point's .%s needs an argument: .%s(\"...\")", c->name,
			  c->name);
		return 0;
	}
	*slot = c->arg;
	return 1;
}

/* hook and pf in either order, then priority: 0 after an error. */
static int spec_of(struct probe_point *pp, struct nf_spec *sp)
{
	memset(sp, 0, sizeof(*sp));
	for (int i = 1; i < pp->ncomps; i++) {
		struct probe_comp *c = &pp->comps[i];
		struct node **slot = !strcmp(c->name, "hook") ? &sp->hook :
				     !strcmp(c->name, "pf") ? &sp->pf :
				     !strcmp(c->name, "priority") ? &sp->priority : NULL;

		if (!slot || (sp->priority && slot != &sp->priority)) {
			sem_error(&c->loc, slot ? "netfilter point's .priority() comes last" :
				  "netfilter point has no '.%s': it takes .hook(), .pf() and "
				  ".priority()", c->name);
			return 0;
		}
		if (!spec_arg(c, slot))
			return 0;
	}
	if (!sp->hook || !sp->pf) {
		sem_error(&pp->loc, "netfilter point needs %s: netfilter.hook(\"HOOK\").pf(\"FAMILY\")",
			  !sp->hook ? "a hook" : "a protocol family");
		return 0;
	}
	return 1;
}

static struct derived_probe *template_of(struct probe_point *pp, int pf, int hook, int prio)
{
	struct derived_probe *t = ar_alloc(sizeof(*t));

	t->pp = pp;
	t->family = PF_NETFILTER;
	t->nf.pf = pf;
	t->nf.hook = hook;
	t->nf.priority = prio;
	return t;
}

/* netfilter.hook("H").pf("F"), from a name and a pattern point. */
static struct probe_point *point_of(const struct probe_point *pp, const char *hook,
				    const char *pf)
{
	struct probe_point *c = pp_clone(pp, NULL);
	const char *names[] = { "netfilter", "hook", "pf" };
	const char *args[] = { NULL, hook, pf };

	c->comps = ar_alloc(3 * sizeof(*c->comps));
	c->ncomps = 3;
	for (int i = 0; i < 3; i++) {
		c->comps[i].name = names[i];
		c->comps[i].loc = pp->comps[0].loc;
		if (!args[i])
			continue;
		c->comps[i].arg = node_new(N_STR, &pp->comps[0].loc);
		c->comps[i].arg->str = args[i];
	}
	return c;
}

/* -l netfilter.*: every hook of every family, by its first name. */
static int list_all(struct probe_point *pp, struct vec *out)
{
	for (int i = 0; i < NFAMILIES; i++)
		for (int h = 0; h < families[i].nhooks; h++)
			vec_push(out, template_of(point_of(pp, families[i].hooks[h].name,
							   families[i].name),
						  families[i].value, h, 0));
	return 1;
}

static int globbed(const struct probe_point *pp)
{
	for (int i = 1; i < pp->ncomps; i++)
		if (!pp->comps[i].name || strpbrk(pp->comps[i].name, "*?["))
			return 1;
	return 0;
}

int netfilter_match(struct elab *e, struct probe_point *pp, struct vec *out)
{
	const struct nf_family *f;
	struct nf_spec sp;
	int hook, prio = 0;

	if (pp->ncomps < 1 || !pp->comps[0].name || strcmp(pp->comps[0].name, "netfilter"))
		return -1;
	if (pp->comps[0].arg) {
		sem_error(&pp->comps[0].loc, "'netfilter' takes no argument");
		return 0;
	}
	if (globbed(pp))
		return e->s->list_probe && !fnmatch(pp->comps[1].name ? pp->comps[1].name : "",
						    "hook", 0) ? list_all(pp, out) : -1;
	if (!spec_of(pp, &sp) || !(f = family_of(sp.pf)) ||
	    !value_of(sp.hook, f, "hook", f->hooks, 0, f->nhooks - 1, &hook) ||
	    (sp.priority && !value_of(sp.priority, f, "priority", f->priorities, INT_MIN,
				      INT_MAX, &prio)))
		return 0;
	vec_push(out, template_of(pp_clone(pp, NULL), f->value, hook, prio));
	return 1;
}


/* ---- the family's row (family.h) ---- */

static const char *const shapes[] = { "netfilter.hook.pf", "netfilter.pf.hook", NULL };
static const char *const types[] = {
	"netfilter.{hook(string).pf(string)|pf(string).hook(string)}[.priority({number|string})]",
	NULL,
};

const struct family_ops netfilter_family = {
	.name = "netfilter", .match = netfilter_match, .shapes = shapes, .types = types,
	.target = netfilter_target, .defined = netfilter_defined,
	.list_vars = netfilter_list_vars, .vars_lvalue = 1,
	.kmod_entry = em_netfilter_entry, .kmod_tables = em_netfilter_tables,
	.bpf_why = "netfilter hooks as BPF programs (BPF_PROG_TYPE_NETFILTER) need Linux 6.4 "
		   "and cannot change a packet's verdict as the kmod runtime's do "
		   "(use the kmod runtime)",
};
