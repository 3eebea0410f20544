// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * BTF types as stp needs them: spelled as SystemTap spells DWARF types
 * in -L ("struct task_struct*", "long int", "unsigned int"), and their
 * members found by name, looking into anonymous structs and unions the
 * way C does.
 */
#include "btf.h"

#include <bpf/btf.h>
#include <stdlib.h>
#include <string.h>

const struct btf_type *btf_peel(const struct btf *b, uint32_t id, uint32_t *out_id)
{
	const struct btf_type *t = btf__type_by_id(b, id);

	while (t && id && (btf_is_mod(t) || btf_is_typedef(t) || btf_is_type_tag(t))) {
		id = t->type;
		t = btf__type_by_id(b, id);
	}
	if (out_id)
		*out_id = id;
	return id ? t : NULL;
}

static const char *name_of(const struct btf *b, const struct btf_type *t)
{
	const char *n = btf__name_by_offset(b, t->name_off);

	return n && *n ? n : NULL;
}

/* The prefix of a named aggregate or enum: "struct ", "union ", "enum ". */
static const char *tag_word(const struct btf_type *t)
{
	if (btf_is_struct(t))
		return "struct ";
	if (btf_is_union(t))
		return "union ";
	if (btf_is_any_enum(t))
		return "enum ";
	if (btf_is_fwd(t))
		return btf_kflag(t) ? "union " : "struct ";
	return "";
}

static void type_text(const struct btf *b, uint32_t id, struct sbuf *sb, int depth);

/* "int (*)(struct file*, ...)": proto is the function's prototype. */
static void function_pointer_text(const struct btf *b, const struct btf_type *proto,
				  struct sbuf *sb, int depth)
{
	const struct btf_param *p = btf_params(proto);

	type_text(b, proto->type, sb, depth + 1);
	sb_puts(sb, " (*)(");
	for (int i = 0; i < btf_vlen(proto); i++, p++) {
		if (i)
			sb_puts(sb, ", ");
		if (!p->type)	/* the last, with no type: varargs */
			sb_puts(sb, "...");
		else
			type_text(b, p->type, sb, depth + 1);
	}
	sb_puts(sb, ")");
}

/* As dwarf_type.c spells DWARF types, SystemTap's way: "char const*". */
static void type_text(const struct btf *b, uint32_t id, struct sbuf *sb, int depth)
{
	const struct btf_type *t = id ? btf__type_by_id(b, id) : NULL;
	const struct btf_type *to;
	const char *n;

	if (!t || depth > 16) {
		sb_puts(sb, "void");
		return;
	}
	n = name_of(b, t);
	if (btf_is_ptr(t)) {
		to = t->type ? btf__type_by_id(b, t->type) : NULL;
		if (to && btf_is_func_proto(to)) {
			function_pointer_text(b, to, sb, depth);
			return;
		}
		type_text(b, t->type, sb, depth + 1);
		sb_puts(sb, "*");
	} else if (btf_is_const(t) || btf_is_volatile(t)) {
		type_text(b, t->type, sb, depth + 1);
		sb_puts(sb, btf_is_const(t) ? " const" : " volatile");
	} else if (btf_is_restrict(t) || btf_is_type_tag(t)) {
		type_text(b, t->type, sb, depth + 1);
	} else if (btf_is_array(t)) {
		type_text(b, btf_array(t)->type, sb, depth + 1);
		sb_puts(sb, "[]");
	} else if (btf_is_func_proto(t)) {
		sb_puts(sb, "void (*)()");
	} else {
		sb_printf(sb, "%s%s", tag_word(t), n ? n : "{...}");
	}
}

const char *btf_type_text(const struct btf *b, uint32_t id)
{
	struct sbuf sb = { 0 };
	const char *s;

	type_text(b, id, &sb, 0);
	s = ar_strdup(sb.s ? sb.s : "void");
	free(sb.s);
	return s;
}

int btf_find_member(const struct btf *b, uint32_t agg, const char *name, uint32_t *type,
		    int64_t *off, int *bit, int *bits)
{
	const struct btf_type *t = btf_peel(b, agg, &agg);
	const struct btf_member *m;

	if (!t || !btf_is_composite(t))
		return 0;
	m = btf_members(t);
	for (int i = 0; i < btf_vlen(t); i++, m++) {
		const char *mn = btf__name_by_offset(b, m->name_off);
		uint32_t boff = btf_member_bit_offset(t, i);
		int bsz = btf_member_bitfield_size(t, i);

		if (mn && *mn) {
			if (strcmp(mn, name))
				continue;
			*type = m->type;
			*off = boff / 8;
			*bit = bsz ? (int)(boff % 8) : 0;
			*bits = bsz;
			return 1;
		}
		/* an anonymous struct or union: its members are ours */
		if (btf_find_member(b, m->type, name, type, off, bit, bits)) {
			*off += boff / 8;
			return 1;
		}
	}
	return 0;
}
