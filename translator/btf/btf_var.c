// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A tracepoint's arguments as target variables, typed by BTF: $prev,
 * $prev->comm, $regs->ax, $$name, $$system, $$parms, $$vars.  As for
 * DWARF's (dwarf_var.c), each expression compiles to an embedded-C
 * function the handler calls.
 *
 * The tracepoint's callback (trace_kmod.c) keeps its arguments as u64s
 * in an array CONTEXT->entry points to while the handler runs; argument
 * i is element i, cut to its type's size and sign.  Through a pointer,
 * memory is read with the runtime's fault-safe stp_tv_read(): a bad
 * pointer is a script error, never a crash.
 */
#include "btf_var.h"
#include "btf.h"

#include <bpf/btf.h>
#include <stdlib.h>
#include <string.h>

static void fail(struct bv *v, const struct loc *l, const char *msg)
{
	if (v->err)
		return;
	v->err = msg;
	v->err_loc = *l;
}

int bv_is_signed(const struct btf_type *t)
{
	return (btf_is_int(t) && (btf_int_encoding(t) & BTF_INT_SIGNED)) ||
	       (btf_is_enum(t) && btf_kflag(t));
}

/* size bytes at addr, into a new temporary: its value as int64_t. */
static const char *read_mem(struct bv *v, const char *addr, int size, int sgn)
{
	const char *t = ar_printf("t%d", v->ntmp++);
	const char *ty = size == 1 ? "u8" : size == 2 ? "u16" : size == 4 ? "u32" : "u64";

	sb_printf(&v->decls, "\t%s %s;\n", ty, t);
	sb_printf(&v->c, "\tif (stp_tv_read(&%s, (unsigned long)(%s), sizeof(%s), 0))\n"
		  "\t\tSTAP_ERROR(\"kernel read fault at 0x%%016lx (addr)\", (unsigned long)(%s));\n",
		  t, addr, t, addr);
	return sgn ? ar_printf("(int64_t)(s%d)%s", size * 8, t) : ar_printf("(int64_t)%s", t);
}

const char *bv_scalar(struct bv *v, const struct btf_type *t, int size)
{
	int sgn = bv_is_signed(t);

	if (size != 1 && size != 2 && size != 4 && size != 8)
		size = 8;
	if (v->mem)
		return read_mem(v, v->expr, size, sgn);
	return ar_printf("(int64_t)(%s%d)(%s)", sgn ? "s" : "u", size * 8, v->expr);
}

/* The address of member name, off bytes into the value: the offset of
 * the chain since the last pointer (btf_core.c: a relocation under
 * --runtime=bpf, a number in a module). */
static void core_member(struct bv *v, const char *name, int64_t off, int bits)
{
	if (!v->core_root || bits) {
		v->core_root = 0;
		v->expr = ar_printf("((unsigned long)%s + %lld)", v->expr, (long long)off);
		return;
	}
	v->core_path = v->core_path ? ar_printf("%s.%s", v->core_path, name) : name;
	v->core_off += off;
	v->expr = ar_printf("((unsigned long)%s + %s)", v->core_base,
			    btf_core_offset(v->b, v->core_root, v->core_path, v->core_off));
}

/* ->name (or .name): through a pointer, into a struct or union. */
static int member(struct bv *v, struct node *c)
{
	uint32_t id;
	const struct btf_type *t = btf_peel(v->b, v->type, &id);
	int64_t off;
	int bit, bits;

	if (t && btf_is_ptr(t)) {
		v->expr = bv_scalar(v, t, 8);
		v->mem = 1;
		t = btf_peel(v->b, t->type, &id);
		v->core_base = v->expr;
		v->core_root = id;
		v->core_path = NULL;
		v->core_off = 0;
	}
	if (!t || !btf_is_composite(t) || !v->mem) {
		fail(v, &c->loc, ar_printf("'%s' is '%s', which has no member '%s'", v->what,
					   btf_type_text(v->b, v->type), c->name));
		return 0;
	}
	if (!btf_find_member(v->b, id, c->name, &v->type, &off, &bit, &bits)) {
		fail(v, &c->loc, ar_printf("'%s' has no member '%s'", btf_type_text(v->b, id),
					   c->name));
		return 0;
	}
	core_member(v, c->name, off, bits);
	v->bit = bit;
	v->bits = bits;
	return 1;
}

/* [index]: of an array in memory, or through a pointer. */
static int subscript(struct bv *v, struct node *c)
{
	const struct btf_type *t = btf_peel(v->b, v->type, NULL);
	const char *idx;
	uint32_t el;
	long long size;

	if (c->lhs->kind == N_NUM) {
		idx = ar_printf("%lldL", (long long)c->lhs->num);
	} else {
		idx = ar_printf("(long)STAP_ARG_i%d", v->nparams++);
		vec_push_ar(&v->n->args, c->lhs);
	}
	if (t && btf_is_ptr(t)) {
		v->expr = bv_scalar(v, t, 8);
		el = t->type;
	} else if (t && btf_is_array(t) && v->mem) {
		el = btf_array(t)->type;
	} else {
		fail(v, &c->loc, ar_printf("'%s' is '%s', which cannot be indexed", v->what,
					   btf_type_text(v->b, v->type)));
		return 0;
	}
	size = btf__resolve_size(v->b, el);
	if (size <= 0) {
		fail(v, &c->loc, ar_printf("'%s' points to elements of unknown size", v->what));
		return 0;
	}
	v->expr = ar_printf("((unsigned long)%s + %s * %lld)", v->expr, idx, size);
	v->core_root = 0;
	v->mem = 1;
	v->type = el;
	v->bit = v->bits = 0;
	return 1;
}

/* The end of the chain as the function's result. */
static void value(struct bv *v)
{
	const struct btf_type *t = btf_peel(v->b, v->type, NULL);
	long long size = btf__resolve_size(v->b, v->type);

	if (v->n->addr) {
		if (!v->mem || v->bits)
			fail(v, &v->n->loc, ar_printf("'%s' has no address", v->what));
		else
			sb_printf(&v->c, "\tSTAP_RETVALUE = (int64_t)%s;\n", v->expr);
	} else if (!t) {
		fail(v, &v->n->loc, ar_printf("'%s' has no type (void)", v->what));
	} else if (btf_is_array(t) && v->mem) {
		sb_printf(&v->c, "\tSTAP_RETVALUE = (int64_t)%s;\n", v->expr);
	} else if (btf_is_composite(t)) {
		fail(v, &v->n->loc, ar_printf("'%s' is '%s': name one of its members", v->what,
					      btf_type_text(v->b, v->type)));
	} else if (v->bits) {
		sb_printf(&v->c, "\tSTAP_RETVALUE = (int64_t)(((uint64_t)%s >> %d) & ((1ULL << %d) - 1));\n",
			  read_mem(v, v->expr, 8, 0), v->bit, v->bits);
	} else {
		sb_printf(&v->c, "\tSTAP_RETVALUE = %s;\n", bv_scalar(v, t, (int)size));
	}
}

/* $$parms, $$vars: "name=0x..." for each argument, as SystemTap shows
 * them; with '$'s after, what pointers point to too. */
static void all_args(struct bv *v, int strings)
{
	const struct tracepoint_info *tp = v->d->tp;

	sb_puts(&v->c, "\tSTAP_RETVALUE[0] = '\\0';\n");
	for (int i = 0; i < tp->nargs; i++) {
		sb_printf(&v->c, "\tstp_str_append(STAP_RETVALUE, \"%s%s=\");\n", i ? " " : "",
			  tp->arg_names[i]);
		bv_pretty(v, 0, ar_printf("((u64 *)CONTEXT->entry)[%d]", i), tp->arg_types[i], 0,
			  strings, "STAP_RETVALUE");
	}
}

static struct node *make_function(struct bv *v, enum type ret)
{
	static int counter;
	struct node *fd = genfn_new(&v->n->loc, ar_printf("__tpvar_%d", counter++), ret,
				    ar_printf(" /* pure */\n%s%s", v->decls.s ? v->decls.s : "",
					      v->c.s ? v->c.s : ""));

	for (int i = 0; i < v->nparams; i++)
		genfn_param(fd, ar_printf("i%d", i), T_LONG);
	return fd;
}

int bv_finish(struct bv *v, enum type ret, int quiet)
{
	int ok = !v->err;

	if (v->err && !quiet)
		sem_error(&v->err_loc, "%s", v->err);
	if (ok)
		v->n->ref = make_function(v, ret);
	free(v->c.s);
	free(v->decls.s);
	return ok;
}

/* $$name, $$system, $$parms, $$vars (and with trailing $s). */
static int special(struct bv *v, const char *name, int quiet)
{
	const struct tracepoint_info *tp = v->d->tp;

	if (v->n->comps.len) {
		fail(v, &v->n->loc, ar_printf("'%s' is text: it has no members", name));
	} else if (!strcmp(name, "$$name") || !strcmp(name, "$$system")) {
		const char *s = name[2] == 'n' ? tp->name : tp->system ? tp->system : "";

		sb_printf(&v->c, "\tstp_str_assign(STAP_RETVALUE, \"%s\");\n", s);
	} else if (!strncmp(name, "$$parms", 7) || !strncmp(name, "$$vars", 6)) {
		all_args(v, v->n->pretty ? 1 + v->n->pretty : 0);
	} else {
		fail(v, &v->n->loc, ar_printf("tracepoint '%s' has no '%s' ($$name, $$system, "
					      "$$parms and $$vars are there)", tp->name, name));
	}
	return bv_finish(v, T_STRING, quiet);
}

/* The argument named, with the member chain after it. */
/*
 * $field of the event's record, as SystemTap's BPF runtime reads it: at
 * its offset in the record (an array: its address, for kernel_string).
 * The probe's program then is a tracepoint program, whose context is the
 * record: the prototype's arguments are not there.  (kmod's callbacks
 * get the arguments only.)
 */
static int record_field(struct bv *v, const struct tp_field *fl, int quiet)
{
	struct derived_probe *d = v->d;
	const char *addr = ar_printf("((unsigned long)CONTEXT->entry + %d)", fl->offset);

	if (d->tp_proto)
		fail(v, &v->n->loc, ar_printf("'%s' is a field of the event's record, and this "
					      "probe reads the tracepoint's arguments: a probe "
					      "reads one or the other", v->n->name));
	else if (v->n->comps.len)
		fail(v, &v->n->loc, ar_printf("'%s' is a field of the event's record: it has no "
					      "members", v->n->name));
	else if (fl->is_data_loc)	/* its text's address */
		sb_printf(&v->c, "\tSTAP_RETVALUE = (int64_t)CONTEXT->entry + (%s & 0xffff);\n",
			  read_mem(v, addr, 4, 0));
	else if (fl->is_array || v->n->addr)
		sb_printf(&v->c, "\tSTAP_RETVALUE = (int64_t)%s;\n", addr);
	else
		sb_printf(&v->c, "\tSTAP_RETVALUE = %s;\n",
			  read_mem(v, addr, fl->size == 1 || fl->size == 2 || fl->size == 4 ? fl->size : 8,
				   fl->is_signed));
	if (!v->err)
		d->tp_record = 1;
	return bv_finish(v, T_LONG, quiet);
}

static int argument(struct bv *v, struct elab *e, int quiet)
{
	const struct tracepoint_info *tp = v->d->tp;
	struct tp_field fl;
	int i = 0;

	while (i < tp->nargs && strcmp(tp->arg_names[i], v->n->name + 1))
		i++;
	/* the record's fields: the running kernel's tracefs knows them,
	 * and --runtime=bpf runs there */
	if (i == tp->nargs && v->d->family == PF_TRACE && e->s->runtime &&
	    !strcmp(e->s->runtime, "bpf") && tp_record_field(tp, v->n->name + 1, &fl))
		return record_field(v, &fl, quiet);
	if (i < tp->nargs && v->d->tp_record) {
		fail(v, &v->n->loc, ar_printf("'%s' is an argument of the tracepoint, and this probe "
					      "reads fields of the event's record: a probe reads "
					      "one or the other", v->n->name));
		return bv_finish(v, T_LONG, quiet);
	}
	if (i == tp->nargs) {
		struct sbuf have = { 0 };

		for (int k = 0; k < tp->nargs; k++)
			sb_printf(&have, "%s$%s", k ? " " : "", tp->arg_names[k]);
		fail(v, &v->n->loc, ar_printf("%s '%s' has no argument '%s' (it has: %s)",
					      v->d->family == PF_KPROBE ? "function" : "tracepoint",
					      tp->name, v->n->name, have.s ? have.s : "none"));
		free(have.s);
		return bv_finish(v, T_LONG, quiet);
	}
	v->expr = ar_printf("((u64 *)CONTEXT->entry)[%d]", i);
	v->type = tp->arg_types[i];
	v->d->tp_proto = 1;
	return bv_chain(v, quiet);
}

int bv_chain(struct bv *v, int quiet)
{
	for (int k = 0; k < v->n->comps.len && !v->err; k++) {
		struct node *c = v->n->comps.v[k];

		if (c->kind == N_MEMBER ? member(v, c) : subscript(v, c))
			v->what = c->kind == N_MEMBER ? ar_printf("%s->%s", v->what, c->name)
						      : ar_printf("%s[...]", v->what);
	}
	if (!v->err && v->n->pretty) {
		sb_puts(&v->c, "\tSTAP_RETVALUE[0] = '\\0';\n");
		bv_pretty(v, v->mem, v->expr, v->type, 0, v->n->pretty, "STAP_RETVALUE");
		return bv_finish(v, T_STRING, quiet);
	}
	if (!v->err)
		value(v);
	return bv_finish(v, T_LONG, quiet);
}

/* What a value of BTF type id points to, by a name @cast finds: a named
 * struct, union or typedef (SystemTap's autocast); NULL for anything
 * else. */
static const char *btf_pointee_name(const struct btf *b, uint32_t id)
{
	const struct btf_type *t = btf_peel(b, id, NULL);
	const char *name;

	if (!t || !btf_is_ptr(t))
		return NULL;
	/* the pointee's qualifiers, not its typedef: @cast finds that name */
	for (t = btf__type_by_id(b, t->type); t && (btf_is_mod(t) || btf_is_type_tag(t));
	     t = btf__type_by_id(b, t->type))
		;
	if (!t || !(btf_is_composite(t) || btf_is_typedef(t)))
		return NULL;
	name = btf__name_by_offset(b, t->name_off);
	return name && *name ? ar_strdup(name) : NULL;
}

int btf_target(struct elab *e, struct derived_probe *d, struct node *n, int write, int quiet)
{
	struct bv v = { 0 };
	int ok;

	d->tp_args_read = 1;
	v.b = d->tp->btf;
	v.d = d;
	v.n = n;
	v.what = n->name;
	if (n->kind != N_TARGET) {
		if (!quiet)
			sem_error(&n->loc, "%s needs the kernel's debuginfo (DWARF), which a "
				  "tracepoint probe does without", n->name);
		return 0;
	}
	n->args.len = 0;
	if (write) {
		if (!quiet)
			sem_error(&n->loc, "'%s' cannot be written: a tracepoint's arguments are "
				  "read-only", n->name);
		return 0;
	}
	if (!strncmp(n->name, "$$", 2))
		return special(&v, n->name, quiet);
	n->args.len = 0;
	ok = argument(&v, e, quiet);
	if (ok && !n->pretty && !n->addr) {
		const char *to = btf_pointee_name(v.b, v.type);

		if (to)
			pmap_put(&e->autocast, n, (void *)to);
	}
	return ok;
}
