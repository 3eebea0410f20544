/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * begin, end, error and never: the points of the session, not of an
 * event (matched in ../../elab/probes.c; runtime/session.c runs them).
 *
 *   session_points.c       the families' rows (family.h)
 *   session_kmod.c  the module's begin, end and error lists
 *
 * Under --runtime=bpf the runner runs begin and end itself
 * (../../bpf/gen_user.c); they have no kernel program.
 */
#ifndef STP_SESSION_FAMILY_H
#define STP_SESSION_FAMILY_H

#include "../../elab/elab.h"

/* session_kmod.c: probe idx on its list; the lists */
void em_session_entry(struct emit *m, int idx, const struct derived_probe *d);
void em_begin_tables(struct emit *m, struct sbuf *o);
void em_end_tables(struct emit *m, struct sbuf *o);
void em_error_tables(struct emit *m, struct sbuf *o);

#endif
