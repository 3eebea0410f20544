// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Pass 2 in order (see elab.h for why each step sits where it does):
 * library, probes and names (interleaved: each pulls in more), types,
 * pruning, frozen globals, hoisting.  Each step runs only if the ones before reported no error:
 * types make no sense for names that did not resolve.
 */
#include "elab.h"
#include "../dwarf/dw.h"
#include "../btf/btf.h"
#include "../families/uprobe/sdt.h"

#include <stdio.h>
#include <stdlib.h>

void sem_error(const struct loc *loc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vat(loc, "semantic error", fmt, ap);
	va_end(ap);
}

void sem_warn(const struct loc *loc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vat(loc, "warning", fmt, ap);
	va_end(ap);
}

struct elab *pass2_elaborate(struct session *s)
{
	struct elab *e = ar_alloc(sizeof(*e));

	e->s = s;
	lib_load(e);
	if (diag_errors())
		return NULL;
	resolve_program(e);
	if (diag_errors())
		return NULL;
	if (!e->probes.len && !s->list_probe) {
		struct loc at = { .src = s->user->src, .line = 1, .col = 1, .len = 1 };

		sem_error(&at, "the script has no probes");
		return NULL;
	}
	infer_program(e);
	if (diag_errors())
		return NULL;
	deadstore_program(e);
	prune_program(e);
	if (diag_errors())
		return NULL;
	/* on the final program: what prune kept, deadstore left */
	frozen_program(e);
	hoist_program(e);
	return e;
}

void pass2_print(struct elab *e)
{
	struct sbuf out = { 0 };

	dump_program(e, &out);
	if (out.len)
		fwrite(out.s, 1, out.len, stdout);
	free(out.s);
}

int elab_probe_count(const struct elab *e)
{
	return e->probes.len;
}

int elab_function_count(const struct elab *e)
{
	return e->used_functions.len;
}

int elab_global_count(const struct elab *e)
{
	int n = 0;

	for (int i = 0; i < e->global_list.len; i++)
		n += ((struct symbol *)e->global_list.v[i])->used;
	return n;
}

const char *elab_list_line(struct elab *e, int i, int with_vars)
{
	struct derived_probe *d = e->probes.v[i];
	struct sbuf sb = { 0 };
	const char *line;

	if (d->file && !d->file->is_user)	/* a tapset's own probe */
		return NULL;
	sb_puts(&sb, d->list_name);
	if (with_vars && d->dwf)
		sb_puts(&sb, dw_list_vars(e, d));
	if (with_vars && d->tp)
		sb_puts(&sb, tracepoint_list_vars(d));
	if (with_vars && d->sdt)
		sb_puts(&sb, sdt_list_vars(d));
	if (with_vars && family_row(d->family)->list_vars)
		sb_puts(&sb, family_row(d->family)->list_vars(e, d));
	for (int k = 0; with_vars && k < d->locals.len; k++) {
		struct symbol *s = d->locals.v[k];

		sb_printf(&sb, " %s:%s", s->name, s->type ? type_name(s->type) : "unknown");
	}
	line = ar_strdup(sb.s);
	free(sb.s);
	return line;
}
