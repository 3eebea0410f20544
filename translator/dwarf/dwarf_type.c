// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Target variables: types.  What a DIE's type is, its size, sign and
 * name as -L spells it, members of structs (anonymous ones looked
 * into); then values by type: a scalar read with its own size and
 * sign, a member's bytes out of a value in memory, in a register or in
 * parts, a function's return value, and the pretty-printed text of
 * $var$ and $$vars.
 */
#include "dwarf_var.h"

#include <stdlib.h>
#include <string.h>

/* ---- types ---- */

Dwarf_Die *dw_type_of(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Attribute a;

	if (!dwarf_attr_integrate(die, DW_AT_type, &a) || !dwarf_formref_die(&a, out))
		return NULL;
	return out;
}

Dwarf_Die *dw_peel(Dwarf_Die *t, Dwarf_Die *buf)
{
	Dwarf_Die cur = *t;

	for (int i = 0; i < 32; i++) {
		int tag = dwarf_tag(&cur);

		if (tag != DW_TAG_typedef && tag != DW_TAG_const_type &&
		    tag != DW_TAG_volatile_type && tag != DW_TAG_restrict_type &&
		    tag != DW_TAG_atomic_type)
			break;
		if (!dw_type_of(&cur, &cur)) {
			*buf = cur;
			return NULL;	/* const void */
		}
	}
	*buf = cur;
	return buf;
}

static void type_name_of(Dwarf_Die *t, struct sbuf *sb, int depth);

/* "int (*)(struct file*, ...)": fn is the subroutine type. */
static void function_pointer_name(Dwarf_Die *fn, struct sbuf *sb, int depth)
{
	Dwarf_Die ret, param;
	int first = 1;

	type_name_of(dw_type_of(fn, &ret), sb, depth + 1);
	sb_puts(sb, " (*)(");
	if (dwarf_child(fn, &param) == 0) {
		do {
			Dwarf_Die pt;

			if (dwarf_tag(&param) == DW_TAG_unspecified_parameters) {
				sb_puts(sb, first ? "..." : ", ...");
				first = 0;
			}
			if (dwarf_tag(&param) != DW_TAG_formal_parameter)
				continue;
			if (!first)
				sb_puts(sb, ", ");
			first = 0;
			type_name_of(dw_type_of(&param, &pt), sb, depth + 1);
		} while (dwarf_siblingof(&param, &param) == 0);
	}
	sb_puts(sb, ")");
}

static void type_name_of(Dwarf_Die *t, struct sbuf *sb, int depth)
{
	Dwarf_Die inner;
	const char *name = t ? dwarf_diename(t) : NULL;

	if (!t || depth > 16) {
		sb_puts(sb, "void");
		return;
	}
	switch (dwarf_tag(t)) {
	case DW_TAG_pointer_type:
		if (dw_type_of(t, &inner) && dwarf_tag(&inner) == DW_TAG_subroutine_type) {
			function_pointer_name(&inner, sb, depth);
			return;
		}
		type_name_of(dw_type_of(t, &inner), sb, depth + 1);
		sb_puts(sb, "*");
		return;
	case DW_TAG_const_type:
		type_name_of(dw_type_of(t, &inner), sb, depth + 1);
		sb_puts(sb, " const");
		return;
	case DW_TAG_volatile_type:
		type_name_of(dw_type_of(t, &inner), sb, depth + 1);
		sb_puts(sb, " volatile");
		return;
	case DW_TAG_structure_type:
		sb_printf(sb, "struct %s", name ? name : "{...}");
		return;
	case DW_TAG_union_type:
		sb_printf(sb, "union %s", name ? name : "{...}");
		return;
	case DW_TAG_enumeration_type:
		sb_printf(sb, "enum %s", name ? name : "{...}");
		return;
	case DW_TAG_array_type:
		type_name_of(dw_type_of(t, &inner), sb, depth + 1);
		sb_puts(sb, "[]");
		return;
	case DW_TAG_subroutine_type:
		sb_puts(sb, "void (*)()");
		return;
	default:
		sb_puts(sb, name ? name : "void");
	}
}

const char *dw_type_text(Dwarf_Die *t)
{
	struct sbuf sb = { 0 };
	const char *s;

	type_name_of(t, &sb, 0);
	s = ar_strdup(sb.s ? sb.s : "void");
	free(sb.s);
	return s;
}

/* The number of elements of an array type (0: unknown). */
static int64_t array_count(Dwarf_Die *arr)
{
	Dwarf_Die child;
	Dwarf_Attribute a;
	int64_t count = 1;

	if (dwarf_child(arr, &child) != 0)
		return count;
	do {
		Dwarf_Word ub;

		if (dwarf_tag(&child) != DW_TAG_subrange_type)
			continue;
		if (dwarf_attr(&child, DW_AT_count, &a) && !dwarf_formudata(&a, &ub))
			count *= (int64_t)ub;
		else if (dwarf_attr(&child, DW_AT_upper_bound, &a) && !dwarf_formudata(&a, &ub))
			count *= (int64_t)ub + 1;
		else
			count = 0;
	} while (dwarf_siblingof(&child, &child) == 0);
	return count;
}

int dw_byte_size(Dwarf_Die *t)
{
	Dwarf_Die buf, *p = dw_peel(t, &buf), el;
	Dwarf_Word w;
	Dwarf_Attribute a;

	if (!p)
		return 0;
	if (dwarf_tag(p) == DW_TAG_pointer_type)
		return 8;
	if (dwarf_attr_integrate(p, DW_AT_byte_size, &a) && !dwarf_formudata(&a, &w))
		return (int)w;
	if (dwarf_tag(p) == DW_TAG_array_type)
		return dw_type_of(p, &el) ? (int)(array_count(p) * dw_byte_size(&el)) : 0;
	return 0;
}

int dw_is_signed(Dwarf_Die *p)
{
	Dwarf_Attribute a;
	Dwarf_Word enc;

	if (dwarf_tag(p) == DW_TAG_enumeration_type)
		return 1;
	if (dwarf_tag(p) != DW_TAG_base_type || !dwarf_attr(p, DW_AT_encoding, &a) ||
	    dwarf_formudata(&a, &enc))
		return 0;
	return enc == DW_ATE_signed || enc == DW_ATE_signed_char;
}

static int is_char(Dwarf_Die *t)
{
	Dwarf_Die buf, *p = t ? dw_peel(t, &buf) : NULL;
	Dwarf_Attribute a;
	Dwarf_Word enc;

	if (!p || dwarf_tag(p) != DW_TAG_base_type || dw_byte_size(p) != 1 ||
	    !dwarf_attr(p, DW_AT_encoding, &a) || dwarf_formudata(&a, &enc))
		return 0;
	return enc == DW_ATE_signed_char || enc == DW_ATE_unsigned_char;
}

static int is_aggregate(Dwarf_Die *p)
{
	return dwarf_tag(p) == DW_TAG_structure_type || dwarf_tag(p) == DW_TAG_union_type;
}

static int find_member(Dwarf_Die *agg, const char *name, Dwarf_Die *out, int64_t *off, int depth)
{
	Dwarf_Die child;

	if (depth > 8 || dwarf_child(agg, &child) != 0)
		return 0;
	do {
		Dwarf_Attribute a;
		Dwarf_Word mo = 0;
		Dwarf_Die ty, buf, *p;
		int64_t sub;
		const char *mn;

		if (dwarf_tag(&child) != DW_TAG_member)
			continue;
		if (dwarf_attr(&child, DW_AT_data_member_location, &a))
			dwarf_formudata(&a, &mo);
		mn = dwarf_diename(&child);
		if (mn && !strcmp(mn, name)) {
			*out = child;
			*off = (int64_t)mo;
			return 1;
		}
		if (!mn && dw_type_of(&child, &ty) && (p = dw_peel(&ty, &buf)) && is_aggregate(p) &&
		    find_member(p, name, out, &sub, depth + 1)) {
			*off = (int64_t)mo + sub;
			return 1;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

int dw_find_member(Dwarf_Die *agg, const char *name, Dwarf_Die *out, int64_t *off)
{
	return find_member(agg, name, out, off, 0);
}

/* Whether a type is passed in general registers (no floating point
 * in it), as x86-64 returns a struct of up to 16 bytes in rax:rdx. */
static int integer_class(Dwarf_Die *type, int depth)
{
	Dwarf_Die buf, *p = dw_peel(type, &buf), child, ct;
	Dwarf_Attribute a;
	Dwarf_Word enc;

	if (!p || depth > 8)
		return 0;
	switch (dwarf_tag(p)) {
	case DW_TAG_base_type:
		return !(dwarf_attr(p, DW_AT_encoding, &a) && !dwarf_formudata(&a, &enc) &&
			 (enc == DW_ATE_float || enc == DW_ATE_complex_float));
	case DW_TAG_array_type:
		return dw_type_of(p, &ct) && integer_class(&ct, depth + 1);
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
		if (dwarf_child(p, &child) == 0)
			do {
				if (dwarf_tag(&child) == DW_TAG_member &&
				    (!dw_type_of(&child, &ct) || !integer_class(&ct, depth + 1)))
					return 0;
			} while (dwarf_siblingof(&child, &child) == 0);
		return 1;
	default:
		return 1;
	}
}

/* ---- values by type ---- */

/* A value's expression; "0" after an error when some part of it is
 * optimized out (or it is more than a number). */
const char *tv_known(struct tv *t, const struct lval *v)
{
	if (v->expr)
		return v->expr;
	tv_fail(t, &t->n->loc, "'%s' is in parts here, %s", t->what,
		v->npieces ? "some of them optimized out or more than 8 bytes in all"
			   : "none known");
	return "0";
}

const char *tv_as_pointer(struct tv *t, struct lval *v, Dwarf_Die *p)
{
	if (dwarf_tag(p) == DW_TAG_pointer_type) {
		if (v->w == W_VALUE)
			return tv_known(t, v);
		return ar_printf("(unsigned long)%s", tv_read_mem(t, v->expr, 8, 0));
	}
	if (v->w == W_MEM)
		return v->expr;
	tv_fail(t, &t->n->loc, "'%s' is not in memory here (it is in a register)", t->what);
	return "0";
}

const char *tv_rvalue(struct tv *t, struct lval *v, Dwarf_Die *p)
{
	int size = dw_byte_size(p), sgn = dw_is_signed(p);

	if (size <= 0 || size > 8) {
		tv_fail(t, &t->n->loc, "'%s' has a type of %d bytes, which is not a number",
			t->what, size);
		return "0";
	}
	if (v->w == W_MEM)
		return tv_read_mem(t, v->expr, size, sgn);
	if (size == 8)
		return ar_printf("(int64_t)%s", tv_known(t, v));
	return ar_printf("(int64_t)(%s%d)%s", sgn ? "s" : "u", size * 8, tv_known(t, v));
}

/* In memory, at the address plus off; in a register, shifted down; in
 * parts, from the part that holds them all. */
int lval_part_of(const struct lval *v, int64_t off, int size, struct lval *out)
{
	struct lval r = { 0 };
	int k = 0;

	if (!v->npieces && v->w == W_MEM) {
		r.w = W_MEM;
		r.expr = ar_printf("(%s + %lld)", v->expr, (long long)off);
	} else if (!v->npieces) {
		if (off < 0 || off + size > 8 || !v->expr)
			return 0;
		r.w = W_VALUE;
		r.expr = off ? ar_printf("((unsigned long)%s >> %d)", v->expr, (int)(8 * off))
			     : v->expr;
	} else {
		while (k < v->npieces && !(off >= v->pieces[k].off &&
					   off + size <= v->pieces[k].off + v->pieces[k].size))
			k++;
		if (k == v->npieces || !v->pieces[k].expr)
			return 0;
		r.w = v->pieces[k].w;
		r.expr = v->pieces[k].expr;
		return lval_part_of(&r, off - v->pieces[k].off, size, out);
	}
	*out = r;
	return 1;
}

/* rax, or rax and rdx for a struct of 9 to 16 bytes. */
void tv_return_value(struct tv *t, Dwarf_Die *rt, struct lval *out)
{
	int size = dw_byte_size(rt);

	t->uses_regs = 1;
	*out = (struct lval){ W_VALUE, tv_reg(t, 0), NULL, 0 };
	if (size > 8 && size <= 16 && integer_class(rt, 0)) {
		struct piece *pc = ar_alloc(2 * sizeof(*pc));

		pc[0] = (struct piece){ W_VALUE, tv_reg(t, 0), 0, 8 };
		pc[1] = (struct piece){ W_VALUE, tv_reg(t, 1), 8, size - 8 };
		*out = (struct lval){ W_VALUE, NULL, pc, 2 };
	}
}

/* ---- pretty printing ---- */

static void pretty_members(struct tv *t, const struct lval *v, Dwarf_Die *agg, int depth,
			   int strings, const char *out)
{
	Dwarf_Die child;
	int first = 1;

	sb_printf(&t->c, "\tstp_str_append(%s, \"{\");\n", out);
	if (dwarf_child(agg, &child) == 0) {
		do {
			Dwarf_Attribute a;
			Dwarf_Word mo = 0;
			Dwarf_Die mt;
			const char *mn = dwarf_diename(&child);
			struct lval mv = { 0 };
			int size;

			if (dwarf_tag(&child) != DW_TAG_member || !dw_type_of(&child, &mt))
				continue;
			if (dwarf_hasattr(&child, DW_AT_bit_size))
				continue;
			if (dwarf_attr(&child, DW_AT_data_member_location, &a))
				dwarf_formudata(&a, &mo);
			sb_printf(&t->c, "\tstp_str_append(%s, \"%s%s%s%s\");\n", out,
				  first ? "" : ", ", mn ? "." : "", mn ? mn : "", mn ? "=" : "");
			first = 0;
			size = dw_byte_size(&mt) > 0 ? dw_byte_size(&mt) : 1;
			if (!lval_part_of(v, (int64_t)mo, size, &mv)) {
				sb_printf(&t->c, "\tstp_str_append(%s, \"?\");\n", out);
				continue;
			}
			tv_pretty(t, &mv, &mt, depth + 1, strings, out);
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	sb_printf(&t->c, "\tstp_str_append(%s, \"}\");\n", out);
}

/* $ptr$ at the top shows the struct it points to (0: p points to no
 * struct). */
static int pretty_pointed_struct(struct tv *t, struct lval *v, Dwarf_Die *p, int depth,
				 int strings, const char *out)
{
	Dwarf_Die el, ebuf, *ep;
	const char *pv;

	if (!dw_type_of(p, &el) || !(ep = dw_peel(&el, &ebuf)) || !is_aggregate(ep) ||
	    !dwarf_hasattr(ep, DW_AT_byte_size))
		return 0;
	pv = tv_tmp(t);
	sb_printf(&t->decls, "\tu64 %s;\n", pv);
	if (v->w == W_MEM)
		sb_printf(&t->c, "\tif (stp_tv_read(&%s, %s, 8, %d))\n\t\t%s = 0;\n", pv,
			  v->expr, t->user, pv);
	else
		sb_printf(&t->c, "\t%s = (u64)%s;\n", pv, v->expr);
	sb_printf(&t->c, "\tif (!%s) {\n\tstp_str_append(%s, \"NULL\");\n\t} else {\n", pv, out);
	pretty_members(t, &(struct lval){ W_MEM, ar_printf("(unsigned long)%s", pv), NULL, 0 },
		       ep, depth, strings, out);
	sb_puts(&t->c, "\t}\n");
	return 1;
}

/* A char pointer's string, quoted; val is a temporary's name. */
static void pretty_string(struct tv *t, struct lval *v, const char *val, const char *out)
{
	if (v->w == W_MEM)
		sb_printf(&t->c, "\t{ u64 %s; if (stp_tv_read(&%s, %s, 8, %d)) "
			  "stp_str_append(%s, \"?\"); "
			  "else stp_tv_quoted(%s, %s, MAXSTRINGLEN, %d); }\n",
			  val, val, v->expr, t->user, out, out, val, t->user);
	else
		sb_printf(&t->c, "\tstp_tv_quoted(%s, %s, MAXSTRINGLEN, %d);\n", out,
			  v->expr, t->user);
}

/* A number or pointer, in hex; val is a temporary's name. */
static void pretty_scalar(struct tv *t, struct lval *v, Dwarf_Die *p, const char *val,
			  const char *out)
{
	int size = dw_byte_size(p), sgn = dw_is_signed(p);

	if (size <= 0 || size > 8) {
		sb_printf(&t->c, "\tstp_str_append(%s, \"?\");\n", out);
		return;
	}
	if (v->w == W_MEM)
		sb_printf(&t->c, "\t{ u%d %s; if (stp_tv_read(&%s, %s, %d, %d)) "
			  "stp_str_append(%s, \"?\"); else stp_tv_hex(%s, %s(u64)%s%s); }\n",
			  size * 8, val, val, v->expr, size, t->user, out, out,
			  sgn ? ar_printf("(s%d)", size * 8) : "", sgn ? "(s64)" : "", val);
	else
		sb_printf(&t->c, "\tstp_tv_hex(%s, (u64)(%s%s)%s);\n", out, sgn ? "s" : "u",
			  ar_printf("%d", size * 8), v->expr);
}

/* Numbers and pointers in hex, char arrays (and char pointers when
 * strings) quoted, structs as {.m=...} down to depth levels. */
void tv_pretty(struct tv *t, struct lval *v, Dwarf_Die *type, int depth, int strings,
	       const char *out)
{
	Dwarf_Die buf, *p = dw_peel(type, &buf), el;
	int tag = p ? dwarf_tag(p) : 0;
	const char *val = tv_tmp(t);

	if (!p || (v->w == W_VALUE && !v->expr && !is_aggregate(p))) {
		sb_printf(&t->c, "\tstp_str_append(%s, \"?\");\n", out);
	} else if (is_aggregate(p)) {
		if (depth >= strings || !dwarf_hasattr(p, DW_AT_byte_size) ||
		    (v->w != W_MEM && !v->npieces && dw_byte_size(p) > 8))
			sb_printf(&t->c, "\tstp_str_append(%s, \"{...}\");\n", out);
		else
			pretty_members(t, v, p, depth, strings, out);
	} else if (tag == DW_TAG_array_type) {
		if (v->w == W_MEM && dw_type_of(p, &el) && is_char(&el))
			sb_printf(&t->c, "\tstp_tv_quoted(%s, %s, %d, %d);\n", out, v->expr,
				  dw_byte_size(p), t->user);
		else
			sb_printf(&t->c, "\tstp_str_append(%s, \"[...]\");\n", out);
	} else if (tag == DW_TAG_pointer_type && strings && depth == 0 &&
		   pretty_pointed_struct(t, v, p, depth, strings, out)) {
		return;
	} else if (tag == DW_TAG_pointer_type && strings && dw_type_of(p, &el) && is_char(&el)) {
		pretty_string(t, v, val, out);
	} else {
		pretty_scalar(t, v, p, val, out);
	}
}
