// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The print family.  Each call site becomes a format (printf's own, or
 * one made of %s/%d for print, println, printd and printdln) with an id
 * in the tables both sides share.  A kernel probe sends a ring buffer
 * record: the id and the raw arguments (longs, strings copied whole);
 * user space formats it with runtime/format.c.
 */
#include "bpf.h"

#include <string.h>

/* '%' doubled: a delimiter or separator inside a format. */
static const char *escape_pct(const char *s)
{
	struct sbuf b = { 0 };

	for (; *s; s++) {
		if (*s == '%')
			sb_putc(&b, '%');
		sb_putc(&b, *s);
	}
	return b.s ? b.s : "";
}

/* The format and the arguments it takes, from the call. */
static const char *make_format(struct bx *x, struct node *n, int *first)
{
	const char *name = n->name + (n->name[0] == 's');
	int delim = !strncmp(name, "printd", 6), ln = strstr(name, "ln") != NULL;
	struct sbuf f = { 0 };

	*first = 0;
	if (!strcmp(name, "printf")) {
		struct node *fmt = n->args.len ? n->args.v[0] : NULL;

		*first = 1;
		if (!fmt || fmt->kind != N_STR) {
			bx_refuse(x, &n->loc, "the format must be a literal string");
			return "";
		}
		return fmt->str;
	}
	if (delim) {
		struct node *d = n->args.len ? n->args.v[0] : NULL;

		*first = 1;
		if (!d || d->kind != N_STR) {
			bx_refuse(x, &n->loc, "the delimiter must be a literal string");
			return "";
		}
	}
	for (int i = *first; i < n->args.len; i++) {
		struct node *a = n->args.v[i];

		if (i > *first && delim)
			sb_puts(&f, escape_pct(((struct node *)n->args.v[0])->str));
		sb_puts(&f, a->vtype == T_STRING ? "%s" : "%d");
	}
	if (ln)
		sb_puts(&f, "\\n");
	return f.s ? f.s : "";
}

static int add_format(struct bx *x, const char *fmt, const char *types)
{
	vec_push(&x->t->fmts, (void *)fmt);
	vec_push(&x->t->types, (void *)types);
	return x->t->fmts.len - 1;
}

/* The argument kinds, and their values as C declarations. */
static const char *arg_decls(struct bx *x, struct node *n, int first, struct sbuf *types)
{
	struct sbuf b = { 0 };

	for (int i = first; i < n->args.len; i++) {
		struct node *a = n->args.v[i];

		if (a->vtype == T_STRING) {
			sb_putc(types, 's');
			sb_printf(&b, "const char *_x%d = %s; ", i, bx_str(x, a));
		} else {
			sb_putc(types, 'l');
			sb_printf(&b, "int64_t _x%d = %s; ", i, bx_long(x, a));
		}
	}
	if (!types->s)
		sb_puts(types, "");
	return b.s ? b.s : "";
}

static const char *kern_record(int id, struct node *n, int first, const char *decls)
{
	struct sbuf st = { 0 }, fill = { 0 };

	for (int i = first; i < n->args.len; i++) {
		struct node *a = n->args.v[i];

		if (a->vtype == T_STRING) {
			sb_printf(&st, " char a%d[MAXSTRINGLEN];", i);
			sb_printf(&fill, "stp_strcpy(_r->a%d, _x%d); ", i, i);
		} else {
			sb_printf(&st, " int64_t a%d;", i);
			sb_printf(&fill, "_r->a%d = _x%d; ", i, i);
		}
	}
	return ar_printf("({ %sstruct { struct stp_rec h;%s } *_r = bpf_ringbuf_reserve(&stp_rb, "
			 "sizeof(*_r), 0); if (_r && stp_k->err) { bpf_ringbuf_discard(_r, 0); } else if (_r) { _r->h.kind = STP_REC_PRINT; _r->h.id = %d; "
			 "%sbpf_ringbuf_submit(_r, 0); } else stp_lost(); (int64_t)0; })",
			 decls, st.s ? st.s : "", id, fill.s ? fill.s : "");
}

static const char *user_call(struct bx *x, int id, struct node *n, int first, const char *decls,
			     int to_string)
{
	struct sbuf l = { 0 }, s = { 0 };

	for (int i = first; i < n->args.len; i++) {
		struct node *a = n->args.v[i];

		sb_printf(a->vtype == T_STRING ? &s : &l, "_x%d, ", i);
	}
	if (to_string) {
		const char *t = bx_temp(x);

		return ar_printf("({ %sint64_t _l[] = { %s0 }; const char *_s[] = { %s0 }; "
				 "stp_sprintf(%s, %d, _l, _s); %s; })", decls, l.s ? l.s : "",
				 s.s ? s.s : "", t, id, t);
	}
	return ar_printf("({ %sint64_t _l[] = { %s0 }; const char *_s[] = { %s0 }; "
			 "if (!stp_k->err) stp_printf(%d, _l, _s); (int64_t)0; })", decls, l.s ? l.s : "",
			 s.s ? s.s : "", id);
}

/* print(@hist_*(s)) or println(...): the drawing, then the newline. */
static const char *print_hist(struct bx *x, struct node *n)
{
	int ln = !strcmp(n->name, "println");

	if ((strcmp(n->name, "print") && !ln) || n->args.len != 1) {
		bx_refuse(x, &n->loc, "a histogram is printed alone, by print or println, "
			  "under --runtime=bpf");
		return "0";
	}
	if (!ln)
		return bx_hist_print_call(x, n->args.v[0]);
	if (x->side == BX_KERN)
		return ar_printf("({ %s; %s; })", bx_hist_print_call(x, n->args.v[0]),
				 kern_record(add_format(x, "\\n", ""), n, n->args.len, ""));
	return ar_printf("({ %s; if (!stp_k->err) stp_printf(%d, (const int64_t[]){ 0 }, "
			 "(const char *const[]){ 0 }); (int64_t)0; })",
			 bx_hist_print_call(x, n->args.v[0]), add_format(x, "\\n", ""));
}

const char *bx_print(struct bx *x, struct node *n)
{
	int first, id, to_string = n->name[0] == 's';
	const char *fmt, *decls;
	struct sbuf types = { 0 };

	for (int i = 0; i < n->args.len; i++)
		if (bx_is_hist(n->args.v[i]))
			return print_hist(x, n);
	fmt = make_format(x, n, &first);

	decls = arg_decls(x, n, first, &types);
	id = add_format(x, fmt, types.s);
	if (x->side == BX_USER)
		return user_call(x, id, n, first, decls, to_string);
	if (to_string)
		return bx_kern_sprintf(x, n, fmt, first, decls);
	return kern_record(id, n, first, decls);
}
