/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Interned strings (strpool.c): the readers' callbacks hand out texts
 * that live only until they return, and the rules, the diff and the
 * aggregator keep programs and sites across epochs.  One copy of each,
 * compared by pointer afterwards; all freed with the pool.
 */
#ifndef STP_VITALS_STRPOOL_H
#define STP_VITALS_STRPOOL_H

#include <stddef.h>

struct vpool;

struct vpool *vpool_new(void);
void vpool_free(struct vpool *p);
/* The pool's copy of s (NULL for NULL); aborts when memory runs out. */
const char *vpool_get(struct vpool *p, const char *s);
/* Memory the program cannot do without: abort when it runs out. */
void *vmust(void *p);

#endif
