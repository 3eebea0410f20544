// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * @entry(expr) in a uprobe's .return under --runtime=bpf.  As the kmod
 * runtime's kretprobe entry handler does, a program of its own runs at
 * the function's entry (past its prologue, pass 2's entry_offset) and
 * computes every @entry of the probe; it saves them in a hash map keyed
 * by the thread and the call's frame (the CFA, which pass 2 says how to
 * compute there: at the return the stack pointer is back at it), so that
 * recursive calls and other threads keep theirs apart.  The .return's
 * program takes its call's values out of the map into its context
 * before its body runs, and does not run when the entry was not seen
 * (a call already under way when the probes were attached).
 *
 * A kernel.syscall(NR).return (every syscall.* return) is served the
 * same way: its entry program is one of sys_enter's, on its number
 * (../syscall/syscall_bpf.c), keyed by the thread alone (a thread makes
 * one system call at a time).
 */
#include "../../bpf/bpf.h"
#include "../../elab/walk.h"
#include "../../dwarf/dw.h"
#include "../syscall/syscall_family.h"
#include "uprobe_family.h"

#include <stdlib.h>
#include <string.h>

static struct sbuf decls;	/* the value structs and maps */
static struct pmap slot;	/* @entry node -> its value's C */

struct found {
	struct vec nodes;
};

static void visit(struct node *n, void *arg)
{
	struct found *f = arg;

	if (n->kind == N_AT && n->at == ATOP_ENTRY && n->args.len == 1)
		vec_push_ar(&f->nodes, n);
}

/* The CFA at the entry program's site: what sp is at the return. */
static const char *cfa(const struct derived_probe *d)
{
	const char *r = dw_regname(d->entry_cfa_reg);

	return r ? ar_printf("(ctx->%s + %lld)", r, (long long)d->entry_cfa_off) : "(ctx->sp + 8)";
}

/* An entry program's body once its context is claimed: the @entry
 * values into the map under ek, and the context let go. */
static void save_values(struct bx *x, int i, struct vec *nodes)
{
	for (int k = 0; k < nodes->len; k++) {
		struct node *n = nodes->v[k], *e = n->args.v[0];

		if (n->vtype == T_STRING)
			sb_printf(&x->code, "\tstp_strcpy(c->e%d.v%d, %s);\n", i, k, bx_str(x, e));
		else
			sb_printf(&x->code, "\tc->e%d.v%d = %s;\n", i, k, bx_long(x, e));
	}
	sb_printf(&x->code, "\tif (!stp_k->err)\n\t\tbpf_map_update_elem(&m_entry%d, &ek, &c->e%d, "
		  "BPF_ANY);\n\tgoto out;\nout:\n\tc->busy = 0;\n", i, i);
}

/* The entry program of .return probe i, and its attach line. */
static void entry_program(struct bx *x, struct derived_probe *d, int i, struct vec *nodes,
			  struct sbuf *att)
{
	sb_printf(att, "\t{ \"p%d_e\", STP_ATTACH_UPROBE, 0, 0, 0, 0, \"%s\", \"%s\", "
		  "0x%llxULL, 0, 0 },\n", i, bx_cstr(d->name), bx_cstr(d->path),
		  (unsigned long long)d->entry_offset);
	sb_printf(&x->code, "/* %s: what @entry saves */\nSEC(\"uprobe\")\n"
		  "int p%d_e(struct pt_regs *ctx)\n{\n\tu32 zero = 0;\n"
		  "\tstruct stp_ctx *c = bpf_map_lookup_elem(&stp_ctxmap, &zero);\n"
		  "\tstruct stp_kctx k = { .entry = 0, .regs = ctx }, *stp_k = &k;\n"
		  "\tstruct stp_ekey ek = { bpf_get_current_pid_tgid(), %s };\n\n"
		  "\tif (!c || stp_g.stp_stopping || c->busy)\n\t\treturn 0;\n\tc->busy = 1;\n",
		  d->name, i, cfa(d));
	save_values(x, i, nodes);
	sb_puts(&x->code, "\treturn 0;\n}\n\n");
}

/* The entry program of kernel.syscall .return probe i: at sys_enter,
 * tail-called by the dispatch on its number, then on to the next. */
static void sd_entry_program(struct bx *x, struct derived_probe *d, int i, struct vec *nodes)
{
	sb_printf(&x->code, "/* %s: what @entry saves, at sys_enter */\nSEC(\"raw_tp\")\n"
		  "int p%d_e(struct bpf_raw_tracepoint_args *ctx)\n{\n\tu32 zero = 0;\n"
		  "\tstruct stp_ctx *c = bpf_map_lookup_elem(&stp_ctxmap, &zero);\n"
		  "\tstruct stp_kctx k = { .entry = 0, .regs = 0, .ctx = ctx }, *stp_k = &k;\n"
		  "\tstruct stp_ekey ek = { bpf_get_current_pid_tgid(), 0 };\n\n"
		  "\tif (!c || stp_g.stp_stopping || c->busy)\n\t\tgoto next;\n\tc->busy = 1;\n",
		  d->name, i);
	bx_sys_entry_prologue(x, d, i);
	save_values(x, i, nodes);
	sb_puts(&x->code, "next:\n");
	bx_sys_entry_epilogue(x, d, i);
	sb_puts(&x->code, "\treturn 0;\n}\n\n");
}

static int entry_family(const struct derived_probe *d)
{
	return d->is_return && (d->family == PF_UPROBE || d->family == PF_SYSCALL);
}

/* 1 when d is a .return whose body or condition has an @entry. */
int bx_has_entry(const struct derived_probe *d)
{
	struct found f = { 0 };

	node_walk(d->body, visit, &f);
	if (d->cond)
		node_walk(d->cond, visit, &f);
	return f.nodes.len > 0;
}

void bx_entry_probe(struct bx *x, struct derived_probe *d, int i, struct sbuf *att)
{
	struct found f = { 0 };

	if (!entry_family(d))
		return;
	node_walk(d->body, visit, &f);
	if (d->cond)
		node_walk(d->cond, visit, &f);
	if (!f.nodes.len)
		return;
	if (!decls.s)
		sb_puts(&decls, "struct stp_ekey { u64 tid; u64 cfa; };\n\n");
	sb_printf(&decls, "struct e_%d {", i);
	for (int k = 0; k < f.nodes.len; k++) {
		struct node *n = f.nodes.v[k];

		sb_printf(&decls, n->vtype == T_STRING ? " char v%d[MAXSTRINGLEN];" : " int64_t v%d;",
			  k);
		pmap_put(&slot, n, ar_printf("c->e%d.v%d", i, k));
	}
	/* LRU: a call that never returns (longjmp, exit) leaves its entry,
	 * which then makes room for new calls rather than keeping them out */
	sb_printf(&decls, " };\nstruct {\n\t__uint(type, BPF_MAP_TYPE_LRU_HASH);\n"
		  "\t__uint(max_entries, MAXMAPENTRIES);\n\t__type(key, struct stp_ekey);\n"
		  "\t__type(value, struct e_%d);\n} m_entry%d SEC(\".maps\");\n\n", i, i);
	sb_printf(&x->ctx, "\tstruct e_%d e%d;\n", i, i);
	if (d->family == PF_SYSCALL)
		sd_entry_program(x, d, i, &f.nodes);
	else
		entry_program(x, d, i, &f.nodes, att);
}

/* In the .return's program, after its prologue: the values of this
 * call, or no run at all without them. */
void bx_entry_fetch(struct bx *x, struct derived_probe *d, int i)
{
	int sys = d->family == PF_SYSCALL;

	if (!entry_family(d) || !strstr(decls.s ? decls.s : "", ar_printf("struct e_%d {", i)))
		return;
	/* no saves (the call began before the probes, or a new process's
	 * return from clone): a syscall's return goes on to the next probe
	 * on its number */
	sb_printf(&x->code, "\t{\n\t\tstruct stp_ekey ek = { bpf_get_current_pid_tgid(), %s };\n"
		  "\t\tvoid *e = bpf_map_lookup_elem(&m_entry%d, &ek);\n\n"
		  "\t\tif (!e) {\n\t\t\tc->busy = 0;\n\t\t\t%s;\n\t\t}\n"
		  "\t\tbpf_probe_read_kernel(&c->e%d, sizeof(c->e%d), e);\n"
		  "\t\tbpf_map_delete_elem(&m_entry%d, &ek);\n\t}\n", sys ? "0" : "ctx->sp", i,
		  sys ? "goto sd_next" : "return 0", i, i, i);
}

const char *bx_entry_value(struct bx *x, struct node *n)
{
	const char *v = pmap_get(&slot, n);

	if (!v || x->side != BX_KERN) {
		bx_refuse(x, &n->loc, "@entry is only available in the .return of a kernel "
			  "function, a uprobe or a system call under --runtime=bpf");
		return n->vtype == T_STRING ? "\"\"" : "0";
	}
	return v;
}

void bx_entry_decls(struct sbuf *o)
{
	if (decls.s)
		sb_puts(o, decls.s);
	/* a later script (stp -i) starts afresh; its nodes are new */
	free(decls.s);
	memset(&decls, 0, sizeof(decls));
}
