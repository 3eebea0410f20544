// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Target variables: $param, $local, @cast, @var and the pretty-printed
 * $$vars, found in DWARF at the probe's address and compiled into an
 * embedded-C function the handler calls.
 *
 * The variable is looked up in the scopes around the probe's address;
 * its location comes from dwarf_loc.c.  Then its type is walked along
 * the member chain ("->f[2].g"): pointers are followed, offsets added,
 * and the last member read with its own size and sign, or as a string
 * when it is a char array (dwarf_type.c).
 */
#include "dwarf_var.h"
#include "../btf/btf.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* ---- the member chain ---- */

struct walk {
	struct lval v;
	Dwarf_Die type;		/* as declared */
	int have_type;
	int bit_size, bit_off;	/* a bitfield */
	int reg_part;		/* a member of a value held in registers */
};

/* Through a pointer (and pointers to it) to the struct it points to:
 * into *agg, w->v then in memory; 0 after an error. */
static int deref_to_aggregate(struct tv *t, struct walk *w, struct node *c, Dwarf_Die *p,
			      Dwarf_Die *agg)
{
	Dwarf_Die pointee, pbuf, *pp;

	if (!dw_type_of(p, &pointee) || !(pp = dw_peel(&pointee, &pbuf))) {
		tv_fail(t, &c->loc, "'%s' is a void pointer: it has no member '%s' (use @cast)",
			t->what, c->name);
		return 0;
	}
	w->v = (struct lval){ W_MEM, tv_as_pointer(t, &w->v, p), NULL, 0 };
	/* a pointer to a pointer: followed as far as it goes */
	for (int k = 0; k < 4 && dwarf_tag(pp) == DW_TAG_pointer_type; k++) {
		Dwarf_Die inner;

		if (!dw_type_of(pp, &inner) || !(pp = dw_peel(&inner, &pbuf)))
			break;
		w->v.expr = ar_printf("(unsigned long)%s", tv_read_mem(t, w->v.expr, 8, 0));
	}
	if (!pp) {
		tv_fail(t, &c->loc, "'%s' is a void pointer: it has no member '%s' (use @cast)",
			t->what, c->name);
		return 0;
	}
	*agg = *pp;
	return 1;
}

/* A bitfield member: w->bit_size and bit_off, *off moved to the
 * storage unit that holds the bits; 0 after an error. */
static int bitfield(struct tv *t, struct walk *w, struct node *c, Dwarf_Die *member,
		    int size, int64_t *off)
{
	Dwarf_Attribute a;
	Dwarf_Word bs = 0, bo = 0;
	int unit = size;

	if (!dwarf_attr(member, DW_AT_bit_size, &a) || dwarf_formudata(&a, &bs))
		return 1;
	w->bit_size = (int)bs;
	if (dwarf_attr(member, DW_AT_data_bit_offset, &a) && !dwarf_formudata(&a, &bo)) {
		/* DWARF 5: bits from the start of the struct; read the
		 * storage unit that holds them */
		int64_t byte = (int64_t)(bo / 8) / unit * unit;

		if ((int64_t)bo - 8 * byte + (int64_t)bs > 8 * unit)
			byte = (int64_t)(bo / 8);	/* straddles: bytes */
		*off += byte;
		w->bit_off = (int)((int64_t)bo - 8 * byte);
	} else if (dwarf_attr(member, DW_AT_bit_offset, &a) && !dwarf_formudata(&a, &bo)) {
		w->bit_off = unit * 8 - (int)bo - (int)bs;
	}
	if (w->bit_off < 0 || w->bit_off + w->bit_size > 64) {
		tv_fail(t, &c->loc, "bitfield '%s' is laid out in a way stp does not read", c->name);
		return 0;
	}
	return 1;
}

/* A struct or union only declared where the walk met it (a pointer to
 * it in another type's CU): its definition elsewhere, by name. */
static int complete_type(struct tv *t, Dwarf_Die *agg)
{
	const char *name = dwarf_diename(agg);
	const char *kind = dwarf_tag(agg) == DW_TAG_union_type ? "union" : "struct";

	return name && dw_find_type(t->f, ar_printf("%s %s", kind, name), agg);
}

/* ->name or .name of the value walked so far (p its peeled type). */
static int walk_member(struct tv *t, struct walk *w, struct node *c, Dwarf_Die *p)
{
	Dwarf_Die agg = *p, member, mt;
	int64_t off;
	int size;

	if (dwarf_tag(p) == DW_TAG_pointer_type && !deref_to_aggregate(t, w, c, p, &agg))
		return 0;
	if (dwarf_tag(&agg) != DW_TAG_structure_type && dwarf_tag(&agg) != DW_TAG_union_type) {
		tv_fail(t, &c->loc, "'%s' is '%s', which has no member '%s'", t->what,
			dw_type_text(&w->type), c->name);
		return 0;
	}
	if (!dwarf_hasattr(&agg, DW_AT_byte_size) && !complete_type(t, &agg)) {
		tv_fail(t, &c->loc, "'%s' is an incomplete type ('%s'): its members are not known "
			"here", t->what, dw_type_text(&agg));
		return 0;
	}
	if (!dw_find_member(&agg, c->name, &member, &off)) {
		tv_fail(t, &c->loc, "'%s' has no member '%s'", dw_type_text(&agg), c->name);
		return 0;
	}
	if (!dw_type_of(&member, &mt)) {
		tv_fail(t, &c->loc, "member '%s' has no type", c->name);
		return 0;
	}
	w->type = mt;
	w->bit_size = w->bit_off = 0;
	size = dw_byte_size(&mt) > 0 ? dw_byte_size(&mt) : 1;
	if (!bitfield(t, w, c, &member, size, &off))
		return 0;
	w->reg_part |= w->v.w == W_VALUE;
	if (!lval_part_of(&w->v, off, size, &w->v)) {
		tv_fail(t, &c->loc, "'%s' is in registers here, and its member '%s' is not wholly "
			"in one of them", t->what, c->name);
		return 0;
	}
	return 1;
}

/* [index] of the value walked so far (p its peeled type). */
static int walk_index(struct tv *t, struct walk *w, struct node *c, Dwarf_Die *p)
{
	Dwarf_Die el;
	const char *idx;
	int size, tag = dwarf_tag(p);

	if (c->lhs->kind == N_NUM) {
		idx = ar_printf("%lldL", (long long)c->lhs->num);
	} else {
		if (t->nparams >= 60) {
			tv_fail(t, &c->loc, "'%s' has too many subscripts", t->what);
			return 0;
		}
		idx = ar_printf("(long)STAP_ARG_i%d", t->nparams++);
		vec_push_ar(&t->n->args, c->lhs);
	}
	/* As in SystemTap, a struct in memory indexes as an array of its
	 * type: &@cast(0, "T")[1] is T's size (@cast_module_sizeof). */
	if ((tag == DW_TAG_structure_type || tag == DW_TAG_union_type) &&
	    w->v.w == W_MEM && !w->bit_size && (size = dw_byte_size(p)) > 0) {
		w->v.expr = ar_printf("(%s + %s * %d)", w->v.expr, idx, size);
		return 1;
	}
	if (tag != DW_TAG_pointer_type && tag != DW_TAG_array_type) {
		tv_fail(t, &c->loc, "'%s' is '%s', which cannot be indexed", t->what,
			dw_type_text(&w->type));
		return 0;
	}
	if (!dw_type_of(p, &el) || !(size = dw_byte_size(&el))) {
		tv_fail(t, &c->loc, "'%s' points to elements of unknown size", t->what);
		return 0;
	}
	w->v = (struct lval){ W_MEM, ar_printf("(%s + %s * %d)", tv_as_pointer(t, &w->v, p),
					       idx, size), NULL, 0 };
	w->type = el;
	return 1;
}

static int walk_comps(struct tv *t, struct walk *w, const struct vec *comps)
{
	for (int i = 0; i < comps->len; i++) {
		struct node *c = comps->v[i];
		Dwarf_Die buf, *p = w->have_type ? dw_peel(&w->type, &buf) : NULL;

		if (!p) {
			tv_fail(t, &c->loc, "'%s' has no type here to take %s of", t->what,
				c->kind == N_MEMBER ? "a member" : "an element");
			return 0;
		}
		if (!(c->kind == N_MEMBER ? walk_member(t, w, c, p) : walk_index(t, w, c, p)) ||
		    t->err)
			return 0;
		t->what = c->kind == N_MEMBER ? ar_printf("%s->%s", t->what, c->name)
					      : ar_printf("%s[...]", t->what);
	}
	return 1;
}

/* A bitfield's value out of its storage unit, sign-extended. */
static void bitfield_value(struct tv *t, struct walk *w, Dwarf_Die *p)
{
	int size = dw_byte_size(p), sgn = dw_is_signed(p);
	const char *raw = w->v.w == W_MEM ? tv_read_mem(t, w->v.expr, size, 0) : tv_known(t, &w->v);
	const char *v = tv_tmp(t);

	sb_printf(&t->decls, "\tuint64_t %s;\n", v);
	sb_printf(&t->c, "\t%s = ((uint64_t)%s >> %d) & ((1ULL << %d) - 1);\n",
		  v, raw, w->bit_off, w->bit_size);
	if (sgn)
		sb_printf(&t->c, "\tif (%s & (1ULL << %d)) %s |= ~((1ULL << %d) - 1);\n",
			  v, w->bit_size - 1, v, w->bit_size);
	sb_printf(&t->c, "\tSTAP_RETVALUE = (int64_t)%s;\n", v);
}

/* &chain: the address the chain ends at. */
static void address_value(struct tv *t, struct walk *w)
{
	if (w->v.w != W_MEM)
		tv_fail(t, &t->n->loc, "'%s' has no address here (it is in a register)", t->what);
	else if (w->bit_size)
		tv_fail(t, &t->n->loc, "a bitfield has no address");
	else
		sb_printf(&t->c, "\tSTAP_RETVALUE = (int64_t)%s;\n", w->v.expr);
}

/* The end of the chain as the function's result: a number; an array
 * in memory gives its address (kernel_string() reads a char array, as
 * in SystemTap). */
static enum type finish_value(struct tv *t, struct walk *w, int addr_of)
{
	Dwarf_Die buf, *p = w->have_type ? dw_peel(&w->type, &buf) : NULL;
	int tag = p ? dwarf_tag(p) : 0;

	if (addr_of)
		address_value(t, w);
	else if (!p)
		tv_fail(t, &t->n->loc, "'%s' has no type (void)", t->what);
	else if (tag == DW_TAG_array_type && w->v.w == W_MEM)
		sb_printf(&t->c, "\tSTAP_RETVALUE = (int64_t)%s;\n", w->v.expr);
	else if (tag == DW_TAG_structure_type || tag == DW_TAG_union_type)
		tv_fail(t, &t->n->loc, "'%s' is a %s ('%s'): name one of its members, or print "
			"it with '%s$'", t->what, tag == DW_TAG_union_type ? "union" : "struct",
			dw_type_text(&w->type), t->what);
	else if (w->bit_size)
		bitfield_value(t, w, p);
	else
		sb_printf(&t->c, "\tSTAP_RETVALUE = %s;\n", tv_rvalue(t, &w->v, p));
	return T_LONG;
}

/* ---- finding the variable ---- */

static const char *die_name(Dwarf_Die *d)
{
	Dwarf_Attribute a;
	Dwarf_Attribute *n = dwarf_attr_integrate(d, DW_AT_name, &a);

	return n ? dwarf_formstring(n) : NULL;
}

/* The DIEs under die containing pc, outermost first, into v. */
static void inner_scopes(Dwarf_Die *die, uint64_t pc, struct vec *v, int depth)
{
	Dwarf_Die child;

	if (depth > 32 || dwarf_child(die, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);

		if ((tag == DW_TAG_lexical_block || tag == DW_TAG_inlined_subroutine) &&
		    dwarf_haspc(&child, pc) == 1) {
			Dwarf_Die *copy = ar_alloc(sizeof(*copy));

			*copy = child;
			vec_push(v, copy);
			inner_scopes(&child, pc, v, depth + 1);
			return;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
}

/* The subprogram of the CU whose code holds pc (for an inlined copy's
 * frame base). */
static int subprogram_at(Dwarf_Die *cu, uint64_t pc, Dwarf_Die *out)
{
	Dwarf_Die child;

	if (dwarf_child(cu, &child) != 0)
		return 0;
	do {
		if (dwarf_tag(&child) == DW_TAG_subprogram && dwarf_haspc(&child, pc) == 1) {
			*out = child;
			return 1;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

/*
 * The scopes to search at pc, innermost first: the blocks of the
 * probe's function around pc (not the inlined functions it calls
 * there), the function, then the CU.  Walked down from the function's
 * own DIE: dwarf_getscopes() would walk the whole CU for each probe.
 */
static int scopes_at(struct tv *t, Dwarf_Die **scopes, int *from, int *to)
{
	Dwarf_Die cu, fn;
	struct vec inner = { 0 };
	int n, k = 0;

	if (!dw_die(t->f, t->d->die, &fn) || !dwarf_diecu(&fn, &cu, NULL, NULL))
		return 0;
	inner_scopes(&fn, t->pc, &inner, 0);
	n = inner.len + 2;
	*scopes = xcalloc((size_t)n, sizeof(**scopes));
	for (int i = inner.len - 1; i >= 0; i--) {
		Dwarf_Die *d = inner.v[i];

		/* a call inlined here: its variables are not the function's */
		if (dwarf_tag(d) == DW_TAG_inlined_subroutine) {
			k = 0;
			continue;
		}
		(*scopes)[k++] = *d;
	}
	/* blocks above the last inlined call only (the loop kept them) */
	{
		int keep = 0;

		for (int i = 0; i < inner.len; i++) {
			Dwarf_Die *d = inner.v[i];

			if (dwarf_tag(d) == DW_TAG_inlined_subroutine)
				break;
			keep++;
		}
		k = 0;
		for (int i = keep - 1; i >= 0; i--)
			(*scopes)[k++] = *(Dwarf_Die *)inner.v[i];
	}
	*from = 0;
	*to = k;
	(*scopes)[k++] = fn;
	(*scopes)[k++] = cu;
	free(inner.v);
	if (dwarf_tag(&fn) == DW_TAG_subprogram) {
		t->fn_scope = fn;
		t->have_fn_scope = 1;
	} else if (subprogram_at(&cu, t->pc, &t->fn_scope)) {
		t->have_fn_scope = 1;
	}
	return k;
}

/* Parameters and locals visible at the probe, innermost first, each
 * name once: into vars (Dwarf_Die *); params_only keeps parameters. */
static void visible_vars(struct tv *t, struct vec *vars, int which)
{
	Dwarf_Die *scopes = NULL;
	int from, to, n = scopes_at(t, &scopes, &from, &to);
	struct pmap seen = { 0 };

	for (int i = to; n > 0 && i >= from; i--) {
		Dwarf_Die child;

		if (dwarf_child(&scopes[i], &child) != 0)
			continue;
		do {
			int tag = dwarf_tag(&child);
			const char *name;

			if (tag != DW_TAG_formal_parameter && tag != DW_TAG_variable)
				continue;
			if ((which == 1 && tag != DW_TAG_formal_parameter) ||
			    (which == 2 && tag != DW_TAG_variable))
				continue;
			name = die_name(&child);
			if (!name || pmap_get(&seen, intern(name, strlen(name))))
				continue;
			pmap_put(&seen, intern(name, strlen(name)), (void *)1);
			{
				Dwarf_Die *copy = ar_alloc(sizeof(*copy));

				*copy = child;
				vec_push(vars, copy);
			}
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	free(scopes);
	free(seen.keys);
	free(seen.vals);
}

static int find_var(struct tv *t, const char *name, Dwarf_Die *out)
{
	Dwarf_Die *scopes = NULL;
	int from, to, n = scopes_at(t, &scopes, &from, &to);

	for (int i = from; n > 0 && i <= n - 1; i++) {
		Dwarf_Die child;

		/* past the function: only the CU's own variables */
		if (i > to && dwarf_tag(&scopes[i]) != DW_TAG_compile_unit)
			continue;
		if (dwarf_child(&scopes[i], &child) != 0)
			continue;
		do {
			int tag = dwarf_tag(&child);
			const char *dn;

			if (tag != DW_TAG_formal_parameter && tag != DW_TAG_variable)
				continue;
			dn = die_name(&child);
			if (dn && !strcmp(dn, name)) {
				*out = child;
				free(scopes);
				return 1;
			}
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	free(scopes);
	return 0;
}

/* $$vars, $$parms, $$locals, $$return, with the trailing $s' depth. */
static enum type pretty_all(struct tv *t, const char *which, int strings)
{
	struct vec vars = { 0 };
	int kind = !strncmp(which, "$$parms", 7) ? 1 : !strncmp(which, "$$locals", 8) ? 2 : 0;

	sb_puts(&t->c, "\tSTAP_RETVALUE[0] = '\\0';\n");
	if (!strncmp(which, "$$return", 8)) {
		Dwarf_Die fn, rt;

		if (!t->d->is_return) {
			tv_fail(t, &t->n->loc, "'$$return' is only available in .return probes");
			return T_STRING;
		}
		if (dw_die(t->f, t->d->die, &fn) && dw_type_of(&fn, &rt)) {
			struct lval v = { 0 };

			tv_return_value(t, &rt, &v);
			sb_puts(&t->c, "\tstp_str_append(STAP_RETVALUE, \"return=\");\n");
			tv_pretty(t, &v, &rt, 0, strings, "STAP_RETVALUE");
		}
		return T_STRING;
	}
	visible_vars(t, &vars, kind);
	for (int i = 0; i < vars.len; i++) {
		Dwarf_Die *var = vars.v[i], ty;
		const char *name = die_name(var);
		struct lval v = { 0 };
		const char *saved = t->err;
		struct sbuf keep = t->c;
		struct sbuf body = { 0 };

		/* one variable's code apart: if it has no location here, "=?" */
		t->c = body;
		sb_printf(&t->c, "\tstp_str_append(STAP_RETVALUE, \"%s%s=\");\n", i ? " " : "", name);
		if (dw_type_of(var, &ty) && tv_var_location(t, var, name, &v) && !t->err) {
			tv_pretty(t, &v, &ty, 0, strings, "STAP_RETVALUE");
		} else {
			t->err = saved;
			t->c.len = 0;
			sb_printf(&t->c, "\tstp_str_append(STAP_RETVALUE, \"%s%s=?\");\n", i ? " " : "", name);
		}
		body = t->c;
		t->c = keep;
		sb_printf(&t->c, "\t{\n%s\t}\n", body.s ? body.s : "");
		free(body.s);
	}
	free(vars.v);
	return T_STRING;
}

/* ---- the generated function ---- */

static struct node *make_function(struct tv *t, const char *name, enum type ret, int setter)
{
	struct sbuf code = { 0 };
	struct node *fd;

	sb_puts(&code, setter ? "\n" : " /* pure */\n");
	if (t->uses_regs)
		sb_puts(&code, "\tstruct pt_regs *regs = CONTEXT->regs;\n");
	sb_puts(&code, t->decls.s ? t->decls.s : "");
	if (t->uses_regs)
		sb_printf(&code, "\n\tif (!regs)\n\t\tSTAP_ERROR(\"no registers to read '%s' from in this probe\");\n",
			  t->what);
	sb_puts(&code, t->c.s ? t->c.s : "");
	fd = genfn_new(&t->n->loc, name, ret, code.s);
	free(code.s);
	for (int i = 0; i < t->nparams; i++)
		genfn_param(fd, ar_printf("i%d", i), t->ptype[i] == T_STRING ? T_STRING : T_LONG);
	if (setter)
		genfn_param(fd, "value", T_LONG);
	return fd;
}

static int counter;

static int finish(struct tv *t, const char *what, enum type ret, int setter, int quiet)
{
	if (t->err) {
		if (!quiet)
			sem_error(&t->err_loc, "%s", t->err);
		free(t->c.s);
		return 0;
	}
	t->n->ref = make_function(t, ar_printf("__tvar_%s_%d", what, counter++), ret, setter);
	free(t->c.s);
	free(t->decls.s);
	return 1;
}

/*
 * What a value of type ty points to, by a name @cast finds: a named
 * struct, union or typedef (SystemTap's autocast: a local given the
 * value reads x->member as @cast(x, NAME)->member); NULL for anything
 * else.  addr: the value is &(a ty), ty the pointee itself.
 */
static const char *pointee_name(Dwarf_Die *ty, int addr)
{
	Dwarf_Die buf, cur, *p;
	int tag;

	if (addr)
		cur = *ty;
	else if (!(p = dw_peel(ty, &buf)) || dwarf_tag(p) != DW_TAG_pointer_type ||
		 !dw_type_of(p, &cur))
		return NULL;	/* no pointer, or void * */
	/* the pointee's qualifiers, not its typedef: @cast finds that name */
	for (int i = 0; i < 8; i++) {
		tag = dwarf_tag(&cur);
		if (tag != DW_TAG_const_type && tag != DW_TAG_volatile_type &&
		    tag != DW_TAG_restrict_type)
			break;
		if (!dw_type_of(&cur, &cur))
			return NULL;
	}
	tag = dwarf_tag(&cur);
	if (tag != DW_TAG_structure_type && tag != DW_TAG_union_type &&
	    tag != DW_TAG_class_type && tag != DW_TAG_typedef)
		return NULL;
	return die_name(&cur) ? ar_strdup(die_name(&cur)) : NULL;
}

/* The typed member chain after the variable's own value. */
static int value_chain(struct tv *t, struct walk *w, int write, int quiet)
{
	enum type ret;

	if (!walk_comps(t, w, &t->n->comps))
		return finish(t, "x", T_LONG, 0, quiet);
	if (!write && !t->n->pretty && w->have_type) {
		const char *to = pointee_name(&w->type, t->n->addr);

		if (to)
			pmap_put(&t->e->autocast, t->n, (void *)to);
	}
	if (t->n->pretty) {
		sb_puts(&t->c, "\tSTAP_RETVALUE[0] = '\\0';\n");
		tv_pretty(t, &w->v, &w->type, 0, t->n->pretty, "STAP_RETVALUE");
		return finish(t, "pretty", T_STRING, 0, quiet);
	}
	if (write) {
		Dwarf_Die buf, *p = dw_peel(&w->type, &buf);
		int size = p ? dw_byte_size(p) : 0;

		if (!p || size <= 0 || size > 8 || w->bit_size ||
		    (dwarf_tag(p) != DW_TAG_base_type && dwarf_tag(p) != DW_TAG_pointer_type &&
		     dwarf_tag(p) != DW_TAG_enumeration_type)) {
			tv_fail(t, &t->n->loc, "'%s' cannot be written: only numbers and pointers can",
			     t->what);
			return finish(t, "w", T_LONG, 1, quiet);
		}
		if (w->v.w != W_MEM) {
			if (!w->v.expr || w->v.npieces || w->reg_part) {
				tv_fail(t, &t->n->loc, "'%s' shares its registers with other values here "
				     "and cannot be written", t->what);
				return finish(t, "w", T_LONG, 1, quiet);
			}
			if (strncmp(w->v.expr, "(unsigned long)regs->", 21)) {
				tv_fail(t, &t->n->loc, "'%s' is a computed value here and cannot be written",
				     t->what);
				return finish(t, "w", T_LONG, 1, quiet);
			}
			sb_printf(&t->c, "\tregs->%s = (unsigned long)STAP_ARG_value;\n", w->v.expr + 21);
			t->uses_regs = 1;
		} else {
			sb_printf(&t->c, "\t{ u%d v = (u%d)STAP_ARG_value;\n\t  if (stp_tv_write(%s, &v, %d, %d))\n"
				  "\t\tSTAP_ERROR(\"%s write fault at 0x%%016lx (addr)\", (unsigned long)%s); }\n",
				  size * 8, size * 8, w->v.expr, size, t->user,
				  t->user ? "user" : "kernel", w->v.expr);
		}
		sb_puts(&t->c, "\tSTAP_RETVALUE = STAP_ARG_value;\n");
		return finish(t, "w", T_LONG, 1, quiet);
	}
	ret = finish_value(t, w, t->n->addr);
	return finish(t, "v", ret, 0, quiet);
}

static int target_var(struct tv *t, int write, int quiet)
{
	const char *name = t->what + 1;
	struct walk w = { 0 };
	Dwarf_Die var;

	if (!strncmp(t->what, "$$", 2)) {
		if (t->n->comps.len) {
			tv_fail(t, &t->n->loc, "'%s' is text: it has no members", t->what);
			return finish(t, "x", T_STRING, 0, quiet);
		}
		return finish(t, "vars", pretty_all(t, t->what, t->n->pretty ? 1 + t->n->pretty : 0),
			      0, quiet);
	}
	if (!strcmp(name, "return")) {
		Dwarf_Die fn;

		if (!t->d->is_return) {
			tv_fail(t, &t->n->loc, "'$return' is only available in .return probes");
			return finish(t, "x", T_LONG, 0, quiet);
		}
		if (!dw_die(t->f, t->d->die, &fn) || !dw_type_of(&fn, &w.type)) {
			tv_fail(t, &t->n->loc, "'%s' returns void: there is no '$return'", t->d->symbol);
			return finish(t, "x", T_LONG, 0, quiet);
		}
		w.have_type = 1;
		tv_return_value(t, &w.type, &w.v);
		return value_chain(t, &w, write, quiet);
	}
	if (!find_var(t, name, &var)) {
		struct vec vars = { 0 };
		struct sbuf have = { 0 };

		visible_vars(t, &vars, 0);
		for (int i = 0; i < vars.len && i < 12; i++)
			sb_printf(&have, "%s$%s", i ? " " : "", die_name(vars.v[i]));
		tv_fail(t, &t->n->loc, "unable to find '%s' in %s (it has: %s)", t->what,
		     t->d->symbol ? t->d->symbol : t->d->name, have.s ? have.s : "no variables");
		free(have.s);
		free(vars.v);
		return finish(t, "x", T_LONG, 0, quiet);
	}
	w.have_type = dw_type_of(&var, &w.type) != NULL;
	if (!tv_var_location(t, &var, t->what, &w.v))
		return finish(t, "x", T_LONG, 0, quiet);
	return value_chain(t, &w, write, quiet);
}

/* One module @cast or @var names ("" the default, "kernel", a module, a
 * program's path, headers): its debuginfo, or NULL (the default) with
 * *why NULL; NULL and *why when it has none. */
static struct dwarf_file *module_dwarf(struct tv *t, const char *m, const char **why)
{
	const char *path;

	*why = NULL;
	if (!*m || (!strncmp(m, "kernel", 6) && (!m[6] || m[6] == '<')))
		return NULL;
	if (*m == '<')	/* headers alone: the type as they declare it */
		return dw_header(m, why);
	if (strchr(m, '<'))
		m = ar_strndup(m, (size_t)(strchr(m, '<') - m));
	path = *m == '/' ? m : dw_find_kernel(t->e->s, m, why);
	return path ? dw_open(path, m, *m == '/', why) : NULL;
}

/* t reads f's types; headers' as the probe reads (their user side is
 * the probe's, not the compiled object's). */
static void use_module(struct tv *t, struct dwarf_file *f)
{
	t->f = f;
	if (*f->module != '<')
		t->user = f->user;
}

/* @cast(p, "T", "a:kernel:b"): the first of the modules whose debuginfo
 * has T, as stap searches them; into t->f ("" and "kernel": the
 * default's).  0 after an error. */
static int module_list(struct tv *t, struct node *n, struct node *a)
{
	const char *tname = ((struct node *)n->args.v[1])->str, *why = NULL, *last = NULL;
	char *list = ar_strdup(a->str);

	for (char *m = strtok(list, ":"); m; m = strtok(NULL, ":")) {
		struct dwarf_file *f = module_dwarf(t, m, &why);
		Dwarf_Die ty;

		if (!f && !why)
			f = t->f;	/* the default */
		if (f && dw_find_type(f, tname, &ty)) {
			use_module(t, f);
			return 1;
		}
		if (why)
			last = why;
	}
	tv_fail(t, &a->loc, "%s: no type '%s' in any of '%s'%s%s", n->name, tname, a->str,
		last ? ": " : "", last ? last : "");
	return 0;
}

/* The debuginfo @cast(p, "type", "M") and @var("v", "M") look in:
 * "kernel" (also "kernel<linux/x.h>": the header only says where the
 * type is declared), a kernel module by name, a program by path,
 * headers alone ("<sys/un.h>"), "" (the probe's own), or a list of them
 * joined by ':'. */
static int at_module(struct tv *t, struct node *n)
{
	int k = n->at == ATOP_CAST ? 2 : 1;
	const char *why = NULL;
	struct dwarf_file *f;
	struct node *a;

	if (n->args.len <= k)
		return 1;
	a = n->args.v[k];
	if (n->at == ATOP_CAST && strchr(a->str, ':') && *a->str != '/')
		return module_list(t, n, a);
	f = module_dwarf(t, a->str, &why);
	if (why) {
		tv_fail(t, &a->loc, "%s: %s", n->name, why);
		return 0;
	}
	if (f)
		use_module(t, f);
	return 1;
}

/* @cast(ptr, "type"[, "module<header>"]) and @var("name[@file]"). */
static int at_expr(struct tv *t, int write, int quiet)
{
	struct node *n = t->n;
	struct walk w = { 0 };
	const char *tname;

	/* the arguments stay (the -p2 listing shows them); the generated
	 * function takes and ignores the strings */
	for (int i = 0; i < n->args.len; i++)
		t->ptype[t->nparams++] = i == 0 && n->at == ATOP_CAST ? T_LONG : T_STRING;
	if (!at_module(t, n))
		return finish(t, "x", T_LONG, 0, quiet);
	if (n->at == ATOP_VAR) {
		struct node *a = n->args.v[0];
		const char *name = a->str, *at = strchr(name, '@');
		struct vec found = { 0 };
		Dwarf_Die var;

		if (at)
			name = ar_strndup(name, (size_t)(at - name));
		dw_match(t->f, name, at ? at + 1 : NULL, &found);
		for (int i = found.len - 1; i >= 0; i--)
			if (((struct dw_entry *)found.v[i])->kind != DWK_VAR)
				found.v[i] = found.v[--found.len];
		if (!found.len) {
			uint64_t sa;

			free(found.v);
			/* defined by the linker: the symbol's address, the type
			 * of a declaration */
			if (!at && dw_symbol(t->f, name, &sa) && dw_find_decl(t->f, name, &var)) {
				w.have_type = dw_type_of(&var, &w.type) != NULL;
				w.v.w = W_MEM;
				w.v.expr = tv_static_addr(t, sa);
				return value_chain(t, &w, write, quiet);
			}
			tv_fail(t, &a->loc, "no global variable '%s' in the %s's debuginfo", a->str,
			     t->f->user ? "program" : "kernel");
			return finish(t, "x", T_LONG, 0, quiet);
		}
		if (!dw_die(t->f, ((struct dw_entry *)found.v[0])->die, &var)) {
			free(found.v);
			tv_fail(t, &a->loc, "cannot read the DWARF of '%s'", a->str);
			return finish(t, "x", T_LONG, 0, quiet);
		}
		free(found.v);
		w.have_type = dw_type_of(&var, &w.type) != NULL;
		if (!tv_var_location(t, &var, a->str, &w.v))
			return finish(t, "x", T_LONG, 0, quiet);
		return value_chain(t, &w, write, quiet);
	}
	/* @cast: the pointer is the function's first argument */
	tname = ((struct node *)n->args.v[1])->str;
	{
		Dwarf_Die ty;

		if (!dw_find_type(t->f, tname, &ty)) {
			tv_fail(t, &((struct node *)n->args.v[1])->loc, "no type '%s' in %s", tname,
				*t->f->module == '<' ? t->f->module :
				t->f->user ? "the program's debuginfo" : "the kernel's debuginfo");
			return finish(t, "x", T_LONG, 0, quiet);
		}
		w.type = ty;
		w.have_type = 1;
		w.v.w = W_MEM;
		w.v.expr = "(unsigned long)STAP_ARG_i0";
		return value_chain(t, &w, write, quiet);
	}
}

/* @cast(p, "type") without a module in a process(...) probe looks in
 * the program first, as SystemTap's does (its probe's module), then in
 * the kernel; NULL when the program's debuginfo lacks the type. */
static struct dwarf_file *cast_program(struct derived_probe *d, struct node *n)
{
	struct dwarf_file *f;
	const char *why = NULL;
	Dwarf_Die ty;

	if (!d || d->family != PF_UPROBE || !d->path || n->kind != N_AT ||
	    n->at != ATOP_CAST || n->args.len != 2)
		return NULL;
	f = dw_open(d->path, d->path, 1, &why);
	if (!f || !dw_find_type(f, ((struct node *)n->args.v[1])->str, &ty))
		return NULL;
	return f;
}

int dw_target(struct elab *e, struct derived_probe *d, struct node *n,
		 int write, int quiet)
{
	struct tv t = { 0 };
	const char *why = NULL;

	if (btf_cast_wanted(e, d, n))	/* --runtime=bpf: BTF and CO-RE */
		return btf_cast(e, d, n, write, quiet);
	t.e = e;
	t.d = d;
	t.n = n;
	t.what = n->name;
	if (d && d->dwf) {
		t.f = d->dwf;
	} else if ((t.f = cast_program(d, n)) == NULL) {
		t.f = dw_kernel(e->s, &why);
		if (!t.f) {
			if (!quiet)
				sem_error(&n->loc, "%s needs the kernel's debuginfo: %s", n->name, why);
			return 0;
		}
	}
	t.user = t.f->user;
	t.pc = d ? d->pc : 0;
	{
		int text = n->pretty || (n->kind == N_TARGET && !strncmp(n->name, "$$", 2));

		if (write && text) {
			if (!quiet)
				sem_error(&n->loc, "'%s%s' is text made from variables: it cannot be written",
					  n->name, n->pretty == 2 ? "$$" : n->pretty ? "$" : "");
			return 0;
		}
		if (write && n->addr) {
			if (!quiet)
				sem_error(&n->loc, "an address ('&%s') cannot be written", n->name);
			return 0;
		}
		if (n->addr && text) {
			if (!quiet)
				sem_error(&n->loc, "'%s' is text: it has no address", n->name);
			return 0;
		}
	}
	{
		int ok;

		if (n->kind == N_AT) {
			/* the args are the function's: the rest come from comps */
			ok = at_expr(&t, write, quiet);
		} else {
			n->args.len = 0;
			ok = target_var(&t, write, quiet);
		}
		if (++t.f->uses % 16 == 0)	/* now and then: refaulting costs too */
			dw_release(t.f);
		return ok;
	}
}

/* ---- -L ---- */

const char *dw_list_vars(struct elab *e, struct derived_probe *d)
{
	struct tv t = { 0 };
	struct vec vars = { 0 };
	struct sbuf sb = { 0 };
	struct node fake = { 0 };
	const char *s;

	if (!d->dwf)
		return "";
	t.e = e;
	t.d = d;
	t.f = d->dwf;
	t.pc = d->pc;
	fake.name = "$$vars";
	t.n = &fake;
	t.what = fake.name;
	/* a .return probe reads parameters as on entry; locals not at all */
	if (d->is_return)
		t.pc = d->entry_pc;
	visible_vars(&t, &vars, d->is_return ? 1 : 0);
	for (int i = 0; i < vars.len; i++) {
		Dwarf_Die ty;
		struct lval v = { 0 };

		/* only what can be read here, as SystemTap lists */
		t.err = NULL;
		if (!tv_var_location(&t, vars.v[i], die_name(vars.v[i]), &v) || t.err)
			continue;

		sb_printf(&sb, " $%s:%s", die_name(vars.v[i]),
			  dw_type_of(vars.v[i], &ty) ? dw_type_text(&ty) : "void");
	}
	if (d->is_return) {
		Dwarf_Die fn, ty;

		if (dw_die(d->dwf, d->die, &fn) && dw_type_of(&fn, &ty))
			sb_printf(&sb, " $return:%s", dw_type_text(&ty));
	}
	s = ar_strdup(sb.s ? sb.s : "");
	free(sb.s);
	free(vars.v);
	free(t.c.s);
	return s;
}
