/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The tree dump: the AST as S-expressions, node kinds and grouping
 * explicit, for tests of the parser's shape (see dump.c for the forms).
 */
#ifndef STP_DUMP_H
#define STP_DUMP_H

#include "parse.h"

/* One node: a declaration, statement or expression, on one line. */
void ast_dump(struct sbuf *out, const struct node *n);
/* Each declaration of s on its own line. */
void ast_dump_script(struct sbuf *out, const struct script *s);

#endif
