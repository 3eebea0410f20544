// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * CO-RE for kernel member chains under --runtime=bpf: the byte offset of
 * $prev->mm or $skb->dev->name is not the number the build's BTF gives
 * but a relocation libbpf fixes against the BTF of the kernel the object
 * loads on, so one object runs on kernels whose structs differ.
 *
 * A chain is cut at each pointer it goes through; each piece is one
 * relocation, __builtin_preserve_field_info(((struct T___stpc *)0)->a.b.c,
 * BPF_FIELD_BYTE_OFFSET), on a local "flavour" of T (the ___stpc suffix,
 * which libbpf drops when it matches names) declared with only the members
 * the script reads.  A whole dump of T (libbpf's btf_dump) would drag in
 * every type T reaches, whose names collide with the UAPI headers the
 * kernel side includes (struct pt_regs, the bpf_* types); the members'
 * types here are what libbpf's field check wants: integers of the size,
 * void * for pointers, anonymous enums, arrays of those, and anonymous
 * composites for embedded ones.
 *
 * Pass 2 (btf_var.c, btf_pretty.c, btf_cast.c) asks for an offset
 * through btf_core_offset(), which records the chain and writes
 * STP_CORE_OFFSET(struct, T, a.b.c, OFF): data each runtime reads its
 * way, the module as the number OFF (runtime/target.h), the BPF object
 * as the relocation (runtime/bpf/kern.h), whose flavours the BPF backend
 * declares from the chains recorded (btf_core_decls(), from bpf/gen.c).
 * Pass 2 calls nothing of the backends and asks no runtime's name.
 */
#include "btf.h"

#include <bpf/btf.h>
#include <string.h>

/* A member a chain reads, and the members of it read in turn. */
struct core_member {
	const char *name;
	uint32_t type;
	struct vec kids;	/* struct core_member * */
};

struct core_root {
	const struct btf *b;
	uint32_t id;
	const char *name;	/* "task_struct" */
	int is_union;
	struct vec kids;
};

static struct vec roots;	/* struct core_root *, in the order met */
static int nenum;		/* enumerators need names unique in the file */

static struct core_member *member_of(struct vec *kids, const char *name, uint32_t type)
{
	struct core_member *m;

	for (int i = 0; i < kids->len; i++) {
		m = kids->v[i];
		if (!strcmp(m->name, name))
			return m;
	}
	m = ar_alloc(sizeof(*m));
	memset(m, 0, sizeof(*m));
	m->name = ar_strdup(name);
	m->type = type;
	vec_push_ar(kids, m);
	return m;
}

static struct core_root *root_of(const struct btf *b, uint32_t id)
{
	const struct btf_type *t = btf_peel(b, id, &id);
	const char *name = t ? btf__name_by_offset(b, t->name_off) : NULL;
	struct core_root *r;

	if (!t || !btf_is_composite(t) || !name || !*name)
		return NULL;
	for (int i = 0; i < roots.len; i++) {
		r = roots.v[i];
		if (!strcmp(r->name, name) && r->is_union == btf_is_union(t))
			return r;
	}
	r = ar_alloc(sizeof(*r));
	memset(r, 0, sizeof(*r));
	r->b = b;
	r->id = id;
	r->name = ar_strdup(name);
	r->is_union = btf_is_union(t);
	vec_push_ar(&roots, r);
	return r;
}

/* Record path (a.b.c) under r; 0 when a member is missing. */
static int record(struct core_root *r, const char *path)
{
	struct vec *kids = &r->kids;
	uint32_t in = r->id;
	char *p = ar_strdup(path), *save = NULL;

	for (char *name = strtok_r(p, ".", &save); name; name = strtok_r(NULL, ".", &save)) {
		uint32_t type;
		int64_t off;
		int bit, bits;

		if (!btf_find_member(r->b, in, name, &type, &off, &bit, &bits) || bits)
			return 0;
		kids = &member_of(kids, name, type)->kids;
		in = type;
	}
	return 1;
}

const char *btf_core_offset(const struct btf *b, uint32_t root, const char *path, int64_t off)
{
	struct core_root *r = root_of(b, root);

	if (!r || !record(r, path))
		return ar_printf("%lld", (long long)off);
	return ar_printf("STP_CORE_OFFSET(%s, %s, %s, %lld)", r->is_union ? "union" : "struct",
			 r->name, path, (long long)off);
}

const char *btf_core_exists(const struct btf *b, uint32_t root, const char *path)
{
	struct core_root *r = root_of(b, root);

	if (!r || !record(r, path))
		return NULL;
	return ar_printf("STP_CORE_EXISTS(%s, %s, %s)", r->is_union ? "union" : "struct", r->name,
			 path);
}

static void decl_member(const struct btf *b, struct core_member *m, struct sbuf *o);

/* A member's type, as a declaration of name: what libbpf's field
 * compatibility check takes for the kernel's own type. */
static void decl_type(const struct btf *b, uint32_t id, const char *name, struct vec *kids,
		      struct sbuf *o)
{
	const struct btf_type *t = btf_peel(b, id, &id);
	long long size = btf__resolve_size(b, id);

	if (t && btf_is_composite(t)) {
		sb_printf(o, "%s {", btf_is_union(t) ? "union" : "struct");
		for (int i = 0; kids && i < kids->len; i++)
			decl_member(b, kids->v[i], o);
		if (!kids || !kids->len)
			sb_puts(o, " char stp_any;");
		sb_printf(o, " } %s", name);
	} else if (t && btf_is_array(t)) {
		decl_type(b, btf_array(t)->type, ar_printf("%s[%u]", name, btf_array(t)->nelems),
			  NULL, o);
	} else if (t && btf_is_ptr(t)) {
		sb_printf(o, "void *%s", name);
	} else if (t && btf_is_any_enum(t)) {
		sb_printf(o, "enum { stp_core_e%d } %s", nenum++, name);
	} else {
		sb_printf(o, "%s %s", size == 1 ? "u8" : size == 2 ? "u16" : size == 4 ? "u32" :
			  "u64", name);
	}
}

static void decl_member(const struct btf *b, struct core_member *m, struct sbuf *o)
{
	sb_puts(o, " ");
	decl_type(b, m->type, m->name, &m->kids, o);
	sb_puts(o, ";");
}

void btf_core_decls(struct sbuf *o)
{
	for (int i = 0; i < roots.len; i++) {
		struct core_root *r = roots.v[i];

		sb_printf(o, "%s %s___stpc {", r->is_union ? "union" : "struct", r->name);
		for (int k = 0; k < r->kids.len; k++)
			decl_member(r->b, r->kids.v[k], o);
		sb_puts(o, " } __attribute__((preserve_access_index));\n");
	}
	if (roots.len)
		sb_puts(o, "\n");
	roots.len = 0;	/* a later script (stp -i) records its own */
}
