/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The access analysis, the first step of pass 3: which globals each
 * probe handler and function touches and whether it writes them (its
 * lock set), and the facts about statistics and foreach loops that the
 * globals' declarations need before any handler is emitted.  emit*.c
 * only reads what this computes.
 */
#ifndef STP_ACCESS_H
#define STP_ACCESS_H

#include "../elab/elab.h"
#include "../elab/walk.h"

/* What a handler or function does with a global. */
struct access {
	struct symbol *sym;
	int write;
};

struct access_facts {
	/* Lock sets: struct vec of struct access *, in the one order
	 * every handler takes locks in, the globals' declaration order
	 * (runtime/probe.h takes them in array order). */
	struct pmap fn_access;		/* struct function * -> struct vec * */
	struct pmap probe_access;	/* struct derived_probe * -> struct vec * */
	struct pmap entry_access;	/* the same, for a .return probe's
					 * @entry expressions */
	struct pmap stat_hist;		/* stat symbol -> its first @hist node */
	struct pmap stat_shift;		/* stat symbol -> @variance shift + 1 */
	struct pmap stat_variance;	/* stat symbols @variance reads */
	struct pmap stat_lhs;		/* lhs nodes of "<<<": shared, not locked */
	struct vec foreach_sites;	/* struct node * (N_FOREACH) */
	struct pmap fe_site;		/* N_FOREACH -> site number + 1 */
};

/* Every probe's and used function's accesses, and the facts. */
struct access_facts *access_analyze(struct elab *e);
/* A global set of accesses (as for the end-of-run display), put in
 * lock order. */
void access_note(struct vec *acc, struct symbol *s, int write);
void access_sort(const struct elab *e, struct vec *acc);


#endif
