// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * @entry(expr) in a kernel function's .return under --runtime=bpf (and
 * $param there, which pass 2 makes @entry($param)).  A companion
 * program at the function's entry (fentry or kprobe, as the return
 * probe is fexit or kretprobe) computes the probe's @entry values into
 * a hash map keyed by the thread; the return program takes them out
 * (and does nothing for a call whose entry it did not see).  Keyed by
 * thread, a function that recurses keeps its innermost call's values.
 */
#include "../../bpf/bpf.h"
#include "../../elab/walk.h"

#include <stdlib.h>
#include <string.h>

/* Calls in flight at once, all threads together. */
#define MAX_CALLS 10240

struct kentry {
	struct derived_probe *d;
	int idx;		/* the probe's number: p%d */
	struct vec nodes;	/* struct node *: its @entry(...)s, slot order */
};

static struct vec probes;	/* struct kentry *, with @entry */

static void collect(struct node *n, void *arg)
{
	struct kentry *k = arg;

	if (n->kind == N_AT && n->at == ATOP_ENTRY && n->args.len == 1)
		vec_push(&k->nodes, n);
}

static struct kentry *of_probe(const struct derived_probe *d)
{
	for (int i = 0; i < probes.len; i++) {
		struct kentry *k = probes.v[i];

		if (k->d == d)
			return k;
	}
	return NULL;
}

/* The value struct, declared in struct stp_ctx's field (which comes
 * first in the file), and the map. */
static void decls(struct bx *x, struct kentry *k)
{
	sb_printf(&x->ctx, "\tstruct kfe_%d {\n", k->idx);
	for (int i = 0; i < k->nodes.len; i++) {
		struct node *n = k->nodes.v[i];

		sb_printf(&x->ctx, n->vtype == T_STRING ? "\t\tchar e%d[MAXSTRINGLEN];\n" :
			  "\t\tint64_t e%d;\n", i);
	}
	sb_printf(&x->ctx, "\t} kfe%d;\n", k->idx);
	sb_printf(&x->hoist, "struct {\n\t__uint(type, BPF_MAP_TYPE_HASH);\n"
		  "\t__uint(max_entries, %d);\n\t__type(key, u64);\n"
		  "\t__type(value, struct kfe_%d);\n} kfe_m%d SEC(\".maps\");\n\n",
		  MAX_CALLS, k->idx, k->idx);
}

/* The entry program: the values, then into the map. */
static void entry_program(struct bx *x, struct kentry *k, const char *sec, int kprobe)
{
	struct sbuf saved = x->code;

	memset(&x->code, 0, sizeof(x->code));
	sb_printf(&x->code, "SEC(\"%s\")\nint p%d_entry(%s *ctx)\n{\n\tu32 zero = 0;\n"
		  "\tstruct stp_ctx *c = bpf_map_lookup_elem(&stp_ctxmap, &zero);\n"
		  "\tstruct stp_kctx k = { .regs = %s }, *stp_k = &k;\n"
		  "\tu64 tid = bpf_get_current_pid_tgid();\n\n"
		  "\tif (!c || stp_g.stp_stopping || c->busy)\n\t\treturn 0;\n"
		  "\tc->busy = 1;\n", sec, k->idx, kprobe ? "struct pt_regs" : "void",
		  kprobe ? "ctx" : "0");
	bx_kfunc_context(x, 0, kprobe);
	for (int i = 0; i < k->nodes.len; i++) {
		struct node *e = ((struct node *)k->nodes.v[i])->args.v[0];

		if (e->vtype == T_STRING)
			sb_printf(&x->code, "\tstp_strcpy(c->kfe%d.e%d, %s);\n", k->idx, i,
				  bx_str(x, e));
		else
			sb_printf(&x->code, "\tc->kfe%d.e%d = %s;\n", k->idx, i, bx_long(x, e));
		sb_puts(&x->code, "\tif (k.err)\n\t\tgoto out;\n");
	}
	sb_printf(&x->code, "\tbpf_map_update_elem(&kfe_m%d, &tid, &c->kfe%d, BPF_ANY);\n"
		  "\tgoto out;\nout:\n\tc->busy = 0;\n\treturn 0;\n}\n\n", k->idx, k->idx);
	sb_puts(&x->hoist, x->code.s);
	free(x->code.s);
	x->code = saved;
}

/* For return probe d (number idx, section sec) with @entry: its
 * companion program, and its line of the attach table. */
void bx_kentry_program(struct bx *x, struct derived_probe *d, int idx, const char *sec,
		       struct sbuf *att)
{
	struct kentry *k = ar_alloc(sizeof(*k));
	int kprobe = !strncmp(sec, "kretprobe/", 10);

	k->d = d;
	k->idx = idx;
	node_walk(d->body, collect, k);
	node_walk(d->cond, collect, k);
	if (!k->nodes.len)
		return;
	vec_push(&probes, k);
	if (!x->hoist.s || !strstr(x->hoist.s, "#include \"kfunc.h\"\n"))
		sb_puts(&x->hoist, "#include \"kfunc.h\"\n\n");
	decls(x, k);
	x->pfx = ar_printf("p%d", idx);
	x->pp = d->name;
	entry_program(x, k, ar_printf("%s/%s", kprobe ? "kprobe" : "fentry",
				      strchr(sec, '/') + 1), kprobe);
	sb_printf(att, "\t{ \"p%d_entry\", STP_ATTACH_AUTO, 0, 0, 0, 0, \"%s\" },\n", idx,
		  bx_cstr(d->name));
}

/* In return probe d's program, once its context is claimed: its
 * call's values, or nothing to do. */
void bx_kentry_take(struct bx *x, const struct derived_probe *d)
{
	struct kentry *k = of_probe(d);

	if (!k)
		return;
	sb_printf(&x->code, "\t{\n\t\tu64 tid = bpf_get_current_pid_tgid();\n"
		  "\t\tstruct kfe_%d *e = bpf_map_lookup_elem(&kfe_m%d, &tid);\n\n"
		  "\t\tif (!e) {\n\t\t\tc->busy = 0;\n\t\t\treturn 0;\n\t\t}\n"
		  "\t\tbpf_probe_read_kernel(&c->kfe%d, sizeof(*e), e);\n\t\tbpf_map_delete_elem(&kfe_m%d, &tid);\n\t}\n",
		  k->idx, k->idx, k->idx, k->idx);
}

/* @entry(expr) n: its value, as the return program took it. */
/* The saved value of n, an @entry in a kernel function's .return, or
 * NULL when n is not one of those (a uprobe's: uprobe_bpf_entry.c). */
const char *bx_kentry_find(const struct node *n)
{
	for (int i = 0; i < probes.len; i++) {
		struct kentry *k = probes.v[i];

		for (int j = 0; j < k->nodes.len; j++)
			if (k->nodes.v[j] == n)
				return ar_printf("c->kfe%d.e%d", k->idx, j);
	}
	return NULL;
}
