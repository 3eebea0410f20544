/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef STP_WALK_H
#define STP_WALK_H

#include "elab.h"

/* Call f on n and every node below it, parents first. */
typedef void (*node_visit_fn)(struct node *n, void *arg);
void node_walk(struct node *n, node_visit_fn f, void *arg);

#endif
