/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Growable arrays of pointers, on the heap or in the arena (base.h). */
#include "base.h"

#include <stdlib.h>
#include <string.h>

void vec_push_ar(struct vec *vec, void *p)
{
	if (vec->len == vec->cap) {
		int cap = vec->cap ? vec->cap * 2 : 2;
		void **v = ar_alloc(cap * sizeof(*v));

		if (vec->len)
			memcpy(v, vec->v, vec->len * sizeof(*v));
		vec->v = v;
		vec->cap = cap;
	}
	vec->v[vec->len++] = p;
}

void vec_push(struct vec *vec, void *p)
{
	if (vec->len == vec->cap) {
		vec->cap = vec->cap ? vec->cap * 2 : 4;
		vec->v = xrealloc(vec->v, vec->cap * sizeof(*vec->v));
	}
	vec->v[vec->len++] = p;
}
