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
