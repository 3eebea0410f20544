// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * begin, end and error probes in the module: a list each, which the
 * runtime's session runs (runtime/session.c) at its start, its end and
 * on an error.  never probes have no part in it.
 */
#include "session_family.h"
#include "../../kmod/emit.h"

#include <stdlib.h>

static void probe_list(struct sbuf *o, const char *name, const char *count,
		       struct vec *list)
{
	sb_printf(o, "static const struct stp_probe *const %s[] = {\n", name);
	for (int i = 0; i < list->len; i++)
		sb_printf(o, "\t%s,\n", (const char *)list->v[i]);
	sb_puts(o, "\tNULL,\n};\n");
	sb_printf(o, "#define %s %d\n", count, list->len);
}

void em_session_entry(struct emit *m, int idx, const struct derived_probe *d)
{
	struct vec *v = d->family == PF_BEGIN ? &m->begin : d->family == PF_END ? &m->end : &m->err;

	vec_push(v, (void *)ar_printf("&stp_probe_%d", idx));
}

void em_begin_tables(struct emit *m, struct sbuf *o)
{
	probe_list(o, "stp_begin", "STP_NBEGIN", &m->begin);
}

void em_end_tables(struct emit *m, struct sbuf *o)
{
	probe_list(o, "stp_end", "STP_NEND", &m->end);
}

void em_error_tables(struct emit *m, struct sbuf *o)
{
	probe_list(o, "stp_errorp", "STP_NERRORP", &m->err);
}
