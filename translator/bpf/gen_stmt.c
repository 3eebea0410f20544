// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Statements.  After each one a kernel probe checks for an error and
 * stops (SystemTap ends the run at the first error).  Loops in a kernel
 * probe carry a counter the verifier can bound (MAXACTION iterations);
 * foreach runs in user space only, over keys sorted there.
 */
#include "bpf.h"

#include <string.h>

static void ind(struct bx *x, int d)
{
	for (int i = 0; i < d; i++)
		sb_putc(&x->code, '\t');
}

/* Where the C after it came from: gen_user.c turns these markers into
 * the runner's table from the kernel file's line numbers to the
 * script's (BTF line info, which the verifier's log quotes, names the
 * C file's lines; #line would give it the script's numbers with the C
 * file's name and text). */
static void line(struct bx *x, const struct node *n)
{
	const char *name, *slash;

	if (!n->loc.src || !n->loc.line)
		return;
	name = n->loc.src->name;
	slash = strrchr(name, '/');
	sb_printf(&x->code, "/* @stp %s:%d:%d */\n", bx_cstr(slash ? slash + 1 : name),
		  n->loc.line, n->loc.col);
}

static void body(struct bx *x, struct node *n, int d)
{
	sb_puts(&x->code, "{\n");
	bx_stmt(x, n, d + 1);
	ind(x, d);
	sb_puts(&x->code, "}\n");
}

/* A loop's guard: at most MAXACTION rounds (a bound the kernel's
 * verifier can see; in user space, the same limit). */
static const char *guard(struct bx *x, const struct node *n)
{
	int id;

	id = bx_error_site(x, &n->body->loc, "MAXACTION exceeded near statement");
	return ar_printf(" && ({ if (_n%d++ >= MAXACTION) stp_error(stp_k, %d); !stp_k->err; })",
			 n->loc.line * 1000 + n->loc.col, id);
}

static void loop(struct bx *x, struct node *n, int d)
{
	const char *g = guard(x, n);

	sb_printf(&x->code, "{ int _n%d = 0;\n", n->loc.line * 1000 + n->loc.col);
	ind(x, d);
	if (n->kind == N_WHILE) {
		sb_printf(&x->code, "while (%s%s) ", bx_long(x, n->cond), g);
	} else {
		sb_printf(&x->code, "for (%s; %s%s; %s) ", n->init ? bx_long(x, n->init) : "",
			  n->cond ? bx_long(x, n->cond) : "1", g,
			  n->incr ? bx_long(x, n->incr) : "");
	}
	body(x, n->body, d);
	sb_puts(&x->code, "}\n");
}

/* foreach (b in @hist_*(s)): the non-empty buckets' indexes, in order. */
static void foreach_hist(struct bx *x, struct node *n, int d)
{
	struct foreach *fe = n->fe;
	const char *key;
	const struct symbol *s = bx_hist_stat(x, fe->array, &key);

	if (!s)
		return;
	if (x->side == BX_KERN || fe->keys.len != 1 || fe->value_sym || fe->limit) {
		bx_refuse(x, &n->loc, "foreach over a histogram takes one bucket index, "
			  "in user space only, under --runtime=bpf");
		return;
	}
	sb_printf(&x->code, "for (int64_t _b = 0; _b < %d; _b++) {\n",
		  bx_hist_nbuckets(x, s));
	ind(x, d + 1);
	sb_printf(&x->code, "if (!stp_u_hist_get(%s, %s, _b, %d)) continue;\n", bx_mapref(x, s),
		  key, bx_hist_nbuckets(x, s));
	ind(x, d + 1);
	sb_printf(&x->code, "%s = _b;\n", bx_local(x, ((struct node *)fe->keys.v[0])->ref));
	ind(x, d + 1);
	body(x, n->body, d + 1);
	ind(x, d);
	sb_puts(&x->code, "}\n");
}

/* foreach ([k1, k2] in a[-] limit N) in user space. */
static void foreach(struct bx *x, struct node *n, int d)
{
	struct foreach *fe = n->fe;
	const struct symbol *s = fe->array->ref;
	int g, col = -1, dir = fe->value_sort, agg = 0;

	if (bx_is_hist(fe->array)) {
		foreach_hist(x, n, d);
		return;
	}
	g = bx_global_index(x, s);
	if (x->side == BX_KERN && fe->array->kind == N_VAR && !fe->slice.len) {
		bx_kern_foreach(x, n, d);
		return;
	}
	if (x->side == BX_KERN || fe->array->kind != N_VAR || fe->slice.len) {
		bx_refuse(x, &n->loc, "foreach in a kernel probe (or over a slice or histogram) is "
			  "not supported by --runtime=bpf yet");
		return;
	}
	for (int i = 0; i < fe->keys.len; i++)
		if (fe->key_sort[i]) {
			col = i;
			dir = fe->key_sort[i];
		}
	if (bx_agg_index(fe->sort_at) >= 0)
		agg = bx_agg_index(fe->sort_at);
	sb_printf(&x->code, "{ void *_keys; int _n = stp_sorted_keys(%d, %d, %d, %d, %s, &_keys);\n",
		  g, col, dir, agg, bx_limit(x, fe));
	ind(x, d);
	sb_printf(&x->code, "for (int _i = 0; _i < _n; _i++) {\n");
	ind(x, d + 1);
	sb_printf(&x->code, "struct k_%d *_k = (struct k_%d *)_keys + _i;\n", g, g);
	for (int i = 0; i < fe->keys.len; i++) {
		struct node *k = fe->keys.v[i];
		const char *var = bx_local(x, k->ref);

		ind(x, d + 1);
		if (s->keys[i] == T_STRING)
			sb_printf(&x->code, "stp_strcpy(%s, _k->k%d);\n", var, i);
		else
			sb_printf(&x->code, "%s = _k->k%d;\n", var, i);
	}
	if (fe->value_sym) {
		const struct symbol *v = fe->value_sym;

		ind(x, d + 1);
		if (v->type == T_STRING)
			sb_printf(&x->code, "stp_get_str(%s, _k, %s);\n", bx_mapref(x, s),
				  bx_local(x, v));
		else if (s->type == T_STATS)	/* the aggregate it sorts by */
			sb_printf(&x->code, "{ struct stp_bstat _st; stp_stat_read(%s, _k, &_st); "
				  "%s = %s; }\n", bx_mapref(x, s), bx_local(x, v),
				  (const char *[]){ "_st.count", "_st.sum", "_st.min", "_st.max",
				  "(_st.count ? _st.sum / _st.count : 0)" }[agg]);
		else
			sb_printf(&x->code, "%s = stp_get_long(%s, _k);\n", bx_local(x, v),
				  bx_mapref(x, s));
	}
	ind(x, d + 1);
	body(x, n->body, d + 1);
	ind(x, d);
	sb_puts(&x->code, "}\n");
	ind(x, d);
	sb_puts(&x->code, "free(_keys); }\n");
}

static void delete(struct bx *x, struct node *n)
{
	struct node *v = n->lhs;

	if (v->kind == N_INDEX) {
		const struct symbol *s = v->lhs->ref;

		sb_printf(&x->code, "stp_delete(%s, %s);\n", bx_mapref(x, s),
			  bx_key(x, s, &v->args));
		return;
	}
	const struct symbol *s = v->ref;

	if (s->arity <= 0 && s->type == T_STRING) {
		sb_printf(&x->code, "%s[0] = 0;\n", bx_local(x, s));
		return;
	}
	if (s->arity <= 0 && s->type == T_LONG) {
		sb_printf(&x->code, "%s = 0;\n", bx_local(x, s));
		return;
	}
	if (x->side == BX_KERN && s->arity <= 0) {	/* a scalar statistic */
		sb_printf(&x->code, "stp_clear_percpu(%s, sizeof(%s));\n", bx_mapref(x, s),
			  s->hist ? "struct stp_bhist" : "struct stp_bstat");
		return;
	}
	sb_printf(&x->code, "stp_clear(%s);\n", bx_mapref(x, s));
}

static void ret(struct bx *x, struct node *n)
{
	if (x->in_cb)
		bx_refuse(x, &n->loc, "return inside foreach in a kernel probe is not "
			  "supported by --runtime=bpf yet");
	if (!x->fn) {
		sb_puts(&x->code, "goto out;\n");
		return;
	}
	if (n->lhs && x->fn->ret == T_STRING)
		sb_printf(&x->code, "{ stp_strcpy(c->%s__ret, %s); goto out; }\n", x->pfx,
			  bx_str(x, n->lhs));
	else if (n->lhs)
		sb_printf(&x->code, "{ __ret = %s; goto out; }\n", bx_long(x, n->lhs));
	else
		sb_puts(&x->code, "goto out;\n");
}

/* The catch's variable in a kernel probe: an error()'s message, else
 * what the site's error is (stp_what(), written with the kernel file:
 * the body's sites include its functions', made later). */
static void kern_catch_msg(struct bx *x, const char *var, const char *buf, int d)
{
	x->want_what = 1;
	ind(x, d);
	sb_printf(&x->code, "stp_strcpy(%s, %s);\n", var, buf);
	ind(x, d);
	sb_printf(&x->code, "if (!%s[0])\n", buf);
	ind(x, d + 1);
	sb_printf(&x->code, "stp_what(%s, stp_k->err_id);\n", var);
}

/* try { } catch (e) { }: errors in the body jump to the catch, with
 * their message (user space: out.c's stp_error; a kernel probe: kern.h's,
 * into a buffer of the context). */
static void try_catch(struct bx *x, struct node *n, int d)
{
	static int counter;
	int u = counter++;
	const char *outer = x->err_label, *var = NULL, *buf = NULL;
	int kern = x->side == BX_KERN;

	if (n->name) {	/* a local of the probe or function, by name */
		struct symbol sym = { .name = n->name, .kind = SYM_LOCAL };

		var = bx_local(x, &sym);
	}
	if (kern && var) {
		buf = ar_printf("c->tcm%d", u);
		sb_printf(&x->ctx, "\tchar tcm%d[MAXSTRINGLEN];\n", u);
	}
	sb_printf(&x->code, "{ int _try%d = stp_k->in_try;\n", u);
	if (kern) {
		ind(x, d + 1);
		sb_printf(&x->code, "char *_trym%d = stp_k->msg;\n", u);
		ind(x, d + 1);
		sb_printf(&x->code, "stp_k->msg = %s;\n", buf ? buf : "0");
	}
	ind(x, d + 1);
	sb_puts(&x->code, "stp_k->in_try = 1;\n");
	x->err_label = ar_printf("tc%d", u);
	bx_stmt(x, n->body, d + 1);
	x->err_label = outer;
	sb_printf(&x->code, "tc%d:\n", u);
	ind(x, d + 1);
	sb_printf(&x->code, "stp_k->in_try = _try%d;\n", u);
	if (kern) {
		ind(x, d + 1);
		sb_printf(&x->code, "stp_k->msg = _trym%d;\n", u);
	}
	ind(x, d + 1);
	sb_puts(&x->code, "if (stp_k->err) {\n");
	ind(x, d + 2);
	sb_puts(&x->code, "stp_k->err = 0;\n");
	if (var && kern) {
		kern_catch_msg(x, var, buf, d + 2);
	} else if (var) {
		ind(x, d + 2);
		sb_printf(&x->code, "stp_strcpy(%s, stp_k->msg);\n", var);
	}
	if (n->els)
		bx_stmt(x, n->els, d + 2);
	ind(x, d + 1);
	sb_puts(&x->code, "}\n");
	ind(x, d);
	sb_puts(&x->code, "}\n");
}

static void expr_stmt(struct bx *x, struct node *e)
{
	if (e->vtype == T_STRING)
		sb_printf(&x->code, "(void)%s;\n", bx_str(x, e));
	else
		sb_printf(&x->code, "(void)%s;\n", bx_long(x, e));
}

void bx_stmt(struct bx *x, struct node *n, int d)
{
	if (n->kind == N_BLOCK) {
		for (int i = 0; i < n->args.len; i++)
			bx_stmt(x, n->args.v[i], d);
		return;
	}
	line(x, n);
	ind(x, d);
	switch (n->kind) {
	case N_NULL:
		sb_puts(&x->code, ";\n");
		break;
	case N_EXPRSTMT:
		expr_stmt(x, n->lhs);
		break;
	case N_IF:
		sb_printf(&x->code, "if (%s) ", bx_long(x, n->cond));
		body(x, n->then, d);
		if (n->els) {
			ind(x, d);
			sb_puts(&x->code, "else ");
			body(x, n->els, d);
		}
		break;
	case N_WHILE:
	case N_FOR:
		x->cb_loops++;
		loop(x, n, d);
		x->cb_loops--;
		break;
	case N_FOREACH:
		x->cb_loops++;
		foreach(x, n, d);
		x->cb_loops--;
		break;
	case N_BREAK:	/* a kernel foreach's own: its callback's return */
		sb_puts(&x->code, x->in_cb && !x->cb_loops ? "return 1;\n" : "break;\n");
		break;
	case N_CONTINUE:
		sb_puts(&x->code, x->in_cb && !x->cb_loops ? "return 0;\n" : "continue;\n");
		break;
	case N_NEXT:
		if (x->in_cb)
			bx_refuse(x, &n->loc, "next inside foreach in a kernel probe is not "
				  "supported by --runtime=bpf yet");
		/* in a prefix: the hit ends before it takes the context */
		sb_puts(&x->code, x->prefix ? "return 0;\n" : "goto out;\n");
		break;
	case N_RETURN:
		ret(x, n);
		break;
	case N_DELETE:
		delete(x, n);
		break;
	case N_TRY:
		try_catch(x, n, d);
		break;
	default:
		bx_refuse(x, &n->loc, "this statement is not supported by --runtime=bpf yet");
		return;
	}
	if (n->kind != N_BREAK && n->kind != N_CONTINUE && !x->prefix) {
		ind(x, d);
		sb_printf(&x->code, "if (stp_k->err) goto %s;\n",
			  x->err_label ? x->err_label : "out");
	}
}
