// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The functions of embedded C that pass 2 makes for target values ($var,
 * $value, $argN, ...): the script's node calls one (n->ref), and pass 3
 * emits it as it emits a tapset's function of embedded C.
 */
#include "elab.h"

#include <string.h>

struct node *genfn_new(const struct loc *l, const char *name, enum type ret, const char *body)
{
	struct node *fd = node_new(N_FUNCTION, l);

	fd->name = intern(name, strlen(name));
	fd->type = ret;
	fd->params = ar_alloc(sizeof(*fd->params));
	fd->body = node_new(N_EMBEDDED, l);
	fd->body->str = ar_strdup(body);
	return fd;
}

/* n, a register-like number the runtime hands in CONTEXT->entry[slot]
 * (a system call's arguments), made a call of a function that reads it;
 * prefix names the function.  Why it cannot be, or NULL: such a value is
 * read-only and has no members, address or text. */
const char *genfn_entry_slot(struct node *n, const char *prefix, int slot, int write)
{
	static int counter;

	if (write)
		return ar_printf("'%s' cannot be written: a system call's registers are "
				 "read-only here", n->name);
	if (n->comps.len || n->addr || n->pretty)
		return ar_printf("'%s' is a number: it has no members, address or text", n->name);
	n->args.len = 0;
	n->ref = genfn_new(&n->loc, ar_printf("%s_%d", prefix, counter++), T_LONG,
			   ar_printf(" /* pure */\n\tSTAP_RETVALUE = (int64_t)((u64 *)CONTEXT->entry)[%d];\n",
				     slot));
	return NULL;
}

void genfn_param(struct node *fd, const char *name, enum type type)
{
	struct param *p = ar_alloc((size_t)(fd->nparams + 2) * sizeof(*p));

	memcpy(p, fd->params, (size_t)fd->nparams * sizeof(*p));
	p[fd->nparams].name = intern(name, strlen(name));
	p[fd->nparams].type = type;
	p[fd->nparams].loc = fd->loc;
	fd->params = p;
	fd->nparams++;
}
