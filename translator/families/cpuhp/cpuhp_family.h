/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kernel.cpu.online and kernel.cpu.offline: a CPU has come up, or is
 * about to go down (CPU hotplug); $cpu is its number.  The handler runs
 * on that CPU, in its hotplug thread.
 *
 *   cpuhp_points.c       the points, $cpu, and the family's row (family.h)
 *   cpuhp_kmod.c  a dynamic hotplug state whose callbacks run the
 *                 probes, set up when the probes are armed
 *
 * BPF has no hook of this kind: no BPF generator (the row says what to
 * use instead).
 */
#ifndef STP_CPUHP_FAMILY_H
#define STP_CPUHP_FAMILY_H

#include "../../elab/elab.h"

/* derived_probe.data of this family's probes */
struct probe_cpuhp {
	int offline;		/* .offline, else .online */
};

int cpuhp_match(struct elab *e, struct probe_point *pp, struct vec *out);

/* cpuhp_kmod.c */
void em_cpuhp_entry(struct emit *m, int idx, const struct derived_probe *d);
void em_cpuhp_tables(struct emit *m, struct sbuf *o);

#endif
