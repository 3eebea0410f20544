// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kernel.cpu.online/.offline in the module: one dynamic hotplug state
 * (CPUHP_AP_ONLINE_DYN) whose startup callback runs the .online probes
 * and whose teardown runs the .offline ones, in the script's order, $cpu
 * in the hit's entry.  Set up without calling the callbacks for the
 * CPUs already up: a probe sees changes, not the state at its start.
 */
#include "cpuhp_family.h"
#include "../../kmod/emit.h"

#include <stdlib.h>

/* emit.family_state[PF_CPUHP]: the probes of each event, by index */
struct cpuhp_state {
	struct vec idx[2];	/* intptr_t: online, offline */
};

void em_cpuhp_entry(struct emit *m, int idx, const struct derived_probe *d)
{
	const struct probe_cpuhp *p = d->data;
	struct cpuhp_state *st = m->family_state[PF_CPUHP];

	if (!st)
		st = m->family_state[PF_CPUHP] = ar_alloc(sizeof(*st));
	vec_push_ar(&st->idx[p->offline], (void *)(intptr_t)idx);
}

/* stp_cpuhp_NAME(cpu): each probe of the event, or NULL when none */
static const char *callback(struct sbuf *o, const struct vec *v, const char *name)
{
	if (!v->len)
		return "NULL";
	sb_printf(o, "static int stp_cpuhp_%s(unsigned int cpu)\n{\n\tu64 a[1] = { cpu };\n\n",
		  name);
	for (int i = 0; i < v->len; i++) {
		int idx = (int)(intptr_t)v->v[i];

		sb_printf(o, "\tstp_probe_hit(&stp_probe_%d, probe_%d, NULL, a);\n", idx, idx);
	}
	sb_puts(o, "\treturn 0;\n}\n\n");
	return ar_printf("stp_cpuhp_%s", name);
}

void em_cpuhp_tables(struct emit *m, struct sbuf *o)
{
	struct cpuhp_state *st = m->family_state[PF_CPUHP];
	const char *up, *down;

	if (!st)
		return;
	sb_puts(o, "\n#include <linux/cpuhotplug.h>\n\nstatic int stp_cpuhp_state;\n\n");
	up = callback(o, &st->idx[0], "online");
	down = callback(o, &st->idx[1], "offline");
	sb_printf(o, "static int stp_cpuhp_arm(void)\n{\n"
		  "\tint rc = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, \"stp:cpu\", %s, %s);\n\n"
		  "\tif (rc < 0)\n\t\treturn rc;\n\tstp_cpuhp_state = rc;\n\treturn 0;\n}\n\n"
		  "static void stp_cpuhp_disarm(void)\n{\n"
		  "\tif (stp_cpuhp_state > 0)\n\t\tcpuhp_remove_state_nocalls(stp_cpuhp_state);\n"
		  "\tstp_cpuhp_state = 0;\n}\n", up, down);
}
