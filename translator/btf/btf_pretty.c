// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Values as text, typed by BTF: $x$, $x$$, $$parms, $$parms$, as
 * dwarf_type.c's tv_pretty() shows DWARF-typed ones (SystemTap's way):
 * numbers and pointers in hex, char arrays quoted, char pointers quoted
 * when strings are asked for, structs as {.a=..., .b=...} down to as
 * many levels as trailing '$'s, and at the top a pointer to a struct
 * as the struct.  A read that faults shows "?", never an error: the
 * text is for people to read.
 */
#include "btf_var.h"
#include "btf.h"

#include <bpf/btf.h>
#include <string.h>

static int is_char(const struct btf *b, uint32_t id)
{
	const struct btf_type *t = btf_peel(b, id, &id);
	const char *n = t && btf_is_int(t) ? btf__name_by_offset(b, t->name_off) : NULL;

	return n && btf__resolve_size(b, id) == 1 && strstr(n, "char");
}

/* A temporary's name.  Each is declared in the block that uses it, so
 * that the compiler can give a struct's hundred members one stack slot. */
static const char *tmp(struct bv *v)
{
	return ar_printf("p%d", v->ntmp++);
}

/* A number or a pointer, in hex. */
static void scalar(struct bv *v, int mem, const char *expr, const struct btf_type *t, int size,
		   const char *out)
{
	int sgn = bv_is_signed(t), bits = size * 8;
	const char *x;

	if (size != 1 && size != 2 && size != 4 && size != 8) {
		sb_printf(&v->c, "\tstp_str_append(%s, \"?\");\n", out);
		return;
	}
	if (!mem) {
		sb_printf(&v->c, "\tstp_tv_hex(%s, (u64)(%s%d)(%s));\n", out, sgn ? "s" : "u",
			  bits, expr);
		return;
	}
	x = tmp(v);
	sb_printf(&v->c, "\t{ u%d %s;\n\tif (stp_tv_read(&%s, (unsigned long)(%s), %d, 0))\n"
		  "\t\tstp_str_append(%s, \"?\");\n\telse\n\t\tstp_tv_hex(%s, (u64)%s%s); }\n",
		  bits, x, x, expr, size, out, out, sgn ? ar_printf("(s64)(s%d)", bits) : "", x);
}

/* Member name (NULL: anonymous) of agg at addr, off bytes in: "?" on a
 * kernel without it (a module's kernel has it; under --runtime=bpf the
 * object may load on another: btf_core.c). */
static void member(struct bv *v, const char *addr, uint32_t agg, const char *name, unsigned off,
		   uint32_t type, int depth, int strings, const char *out)
{
	const char *exists = name ? btf_core_exists(v->b, agg, name) : NULL;

	if (!exists) {
		bv_pretty(v, 1, ar_printf("((unsigned long)%s + %u)", addr, off), type, depth + 1,
			  strings, out);
		return;
	}
	sb_printf(&v->c, "\tif (!%s) {\n\tstp_str_append(%s, \"?\");\n\t} else {\n", exists, out);
	bv_pretty(v, 1, ar_printf("((unsigned long)%s + %s)", addr,
				  btf_core_offset(v->b, agg, name, off)), type, depth + 1, strings, out);
	sb_puts(&v->c, "\t}\n");
}

/* {.a=..., .b=...} of the struct or union at address addr. */
static void members(struct bv *v, const char *addr, uint32_t agg, int depth, int strings,
		    const char *out)
{
	const struct btf_type *t = btf_peel(v->b, agg, NULL);
	const struct btf_member *m = btf_members(t);
	int first = 1;

	sb_printf(&v->c, "\tstp_str_append(%s, \"{\");\n", out);
	for (int i = 0; i < btf_vlen(t); i++, m++) {
		const char *mn = btf__name_by_offset(v->b, m->name_off);

		if (btf_member_bitfield_size(t, i))
			continue;
		if (!mn || !*mn)
			mn = NULL;
		sb_printf(&v->c, "\tstp_str_append(%s, \"%s%s%s%s\");\n", out, first ? "" : ", ",
			  mn ? "." : "", mn ? mn : "", mn ? "=" : "");
		first = 0;
		member(v, addr, agg, mn, btf_member_bit_offset(t, i) / 8, m->type, depth, strings,
		       out);
	}
	sb_printf(&v->c, "\tstp_str_append(%s, \"}\");\n", out);
}

/* The pointer's value, into a temporary ("?" and 0 on a fault), in a
 * block the caller closes. */
static const char *pointer_value(struct bv *v, int mem, const char *expr, const char *out)
{
	const char *p = tmp(v);

	sb_printf(&v->c, "\t{ u64 %s;\n", p);
	if (mem)
		sb_printf(&v->c, "\tif (stp_tv_read(&%s, (unsigned long)(%s), 8, 0)) {\n"
			  "\t\tstp_str_append(%s, \"?\");\n\t\t%s = 0;\n\t}\n", p, expr, out, p);
	else
		sb_printf(&v->c, "\t%s = (u64)(%s);\n", p, expr);
	return p;
}

/* A pointer: at the top with strings, to a struct, as the struct; to
 * chars, as a string; else its value. */
static void pointer(struct bv *v, int mem, const char *expr, const struct btf_type *t,
		    int depth, int strings, const char *out)
{
	uint32_t to;
	const struct btf_type *pt = btf_peel(v->b, t->type, &to);
	const char *p;

	if (strings && depth == 0 && pt && btf_is_composite(pt)) {
		p = pointer_value(v, mem, expr, out);
		sb_printf(&v->c, "\tif (!%s) {\n\tstp_str_append(%s, \"NULL\");\n\t} else {\n",
			  p, out);
		members(v, p, to, depth, strings, out);
		sb_puts(&v->c, "\t}\n\t}\n");
	} else if (strings && is_char(v->b, t->type)) {
		p = pointer_value(v, mem, expr, out);
		sb_printf(&v->c, "\tstp_tv_quoted(%s, %s, MAXSTRINGLEN, 0);\n\t}\n", out, p);
	} else {
		scalar(v, mem, expr, t, 8, out);
	}
}

void bv_pretty(struct bv *v, int mem, const char *expr, uint32_t id, int depth, int strings,
	       const char *out)
{
	uint32_t pid;
	const struct btf_type *t = btf_peel(v->b, id, &pid);

	if (!t) {
		sb_printf(&v->c, "\tstp_str_append(%s, \"?\");\n", out);
	} else if (btf_is_composite(t)) {
		if (depth >= strings || !mem)
			sb_printf(&v->c, "\tstp_str_append(%s, \"{...}\");\n", out);
		else
			members(v, expr, pid, depth, strings, out);
	} else if (btf_is_array(t)) {
		if (mem && is_char(v->b, btf_array(t)->type))
			sb_printf(&v->c, "\tstp_tv_quoted(%s, %s, %u, 0);\n", out, expr,
				  btf_array(t)->nelems);
		else
			sb_printf(&v->c, "\tstp_str_append(%s, \"[...]\");\n", out);
	} else if (btf_is_ptr(t)) {
		pointer(v, mem, expr, t, depth, strings, out);
	} else if (btf_is_int(t) || btf_is_any_enum(t)) {
		scalar(v, mem, expr, t, (int)btf__resolve_size(v->b, pid), out);
	} else {
		sb_printf(&v->c, "\tstp_str_append(%s, \"?\");\n", out);
	}
}
