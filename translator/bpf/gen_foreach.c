// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * foreach over a global array in a kernel probe: the loop's body becomes
 * a bpf_for_each_map_elem callback (Linux 5.13), written before the
 * functions and probes; the probe's context and state reach it through
 * struct stp_cb.  The map's own order: a sorted foreach, or one with a
 * limit, needs user space (begin, end, error), and is refused here.
 * break is the callback's "return 1", continue its "return 0"; an error
 * in the body stops the walk, and the statement after the call sees it.
 */
#include "bpf.h"

#include <stdlib.h>
#include <string.h>

static int sorted(const struct foreach *fe)
{
	for (int i = 0; i < fe->keys.len; i++)
		if (fe->key_sort[i])
			return 1;
	return fe->value_sort != 0;
}

static const char *value_type(const struct symbol *s, int g)
{
	if (s->type == T_STRING)
		return ar_printf("struct v_%d", g);
	if (s->type == T_STATS)
		return s->hist ? "struct stp_bhist" : "struct stp_bstat";
	return "int64_t";
}

/* The loop's variables from the callback's key and value. */
static void bind(struct bx *x, const struct foreach *fe, const struct symbol *s)
{
	for (int i = 0; i < fe->keys.len; i++) {
		const char *var = bx_local(x, ((struct node *)fe->keys.v[i])->ref);

		if (s->keys[i] == T_STRING)
			sb_printf(&x->code, "\tstp_strcpy(%s, key->k%d);\n", var, i);
		else
			sb_printf(&x->code, "\t%s = key->k%d;\n", var, i);
	}
	if (fe->value_sym) {
		const char *var = bx_local(x, fe->value_sym);

		if (s->type == T_STRING)
			sb_printf(&x->code, "\tstp_strcpy(%s, val->s);\n", var);
		else if (s->type == T_STATS)	/* @count: the CPUs' shares added */
			sb_printf(&x->code, "\t{\n\t\tstruct stp_bstat st;\n\n"
				  "\t\tstp_stat_read(map, key, &st);\n\t\t%s = st.count;\n\t}\n", var);
		else
			sb_printf(&x->code, "\t%s = *val;\n", var);
	}
}

/*
 * A loop body as a callback (this file's, gen_sorted.c's): x->code
 * holds the callback's start, written by the caller after it saved
 * x->code in outer; the body and the end follow, the whole is hoisted
 * out of the probe, and x->code is outer again.
 */
void bx_callback_body(struct bx *x, struct node *body, struct sbuf outer)
{
	const char *outer_label = x->err_label;
	int outer_cb = x->in_cb, outer_loops = x->cb_loops;

	x->in_cb = 1;
	x->cb_loops = 0;
	x->err_label = NULL;
	bx_stmt(x, body, 1);
	sb_puts(&x->code, "\treturn 0;\n\tgoto out;\nout:\n\treturn 1;\n}\n\n");
	x->in_cb = outer_cb;
	x->cb_loops = outer_loops;
	x->err_label = outer_label;
	sb_puts(&x->hoist, x->code.s);
	free(x->code.s);
	x->code = outer;
}

static void callback(struct bx *x, struct node *n, const struct symbol *s, int g, int id)
{
	struct sbuf outer = x->code;

	memset(&x->code, 0, sizeof(x->code));
	sb_printf(&x->code, "static long cb%d(void *map, struct k_%d *key, %s *val, "
		  "struct stp_cb *cb)\n{\n\tstruct stp_ctx *c = cb->c;\n"
		  "\tstruct stp_kctx *stp_k = cb->k;\n\n", id, g, value_type(s, g));
	bind(x, n->fe, s);
	bx_callback_body(x, n->body, outer);
}

void bx_kern_foreach(struct bx *x, struct node *n, int d)
{
	static int counter;
	struct foreach *fe = n->fe;
	const struct symbol *s = fe->array->ref;
	int g = bx_global_index(x, s), id = counter++;

	(void)d;
	if (sorted(fe) || fe->limit || fe->sort_agg) {	/* gen_sorted.c */
		bx_kern_sorted_foreach(x, n);
		return;
	}
	if (g < 0 || s->arity <= 0) {
		bx_refuse(x, &n->loc, "foreach in a kernel probe walks global arrays only");
		return;
	}
	callback(x, n, s, g, id);
	sb_printf(&x->code, "{ struct stp_cb _cb = { c, stp_k }; "
		  "bpf_for_each_map_elem(%s, cb%d, &_cb, 0); }\n", bx_mapref(x, s), id);
}
