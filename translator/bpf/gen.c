// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Pass 3 of the BPF backend: the kernel side's C and the user side's C
 * from pass 2's program.  Both start with the same declarations (the
 * key structs of the arrays, struct stp_globals with the scalars); the
 * kernel side adds the maps and one program per kernel probe, the user
 * side the begin/end/error probes and the tables the runner reads.
 */
#include "bpf.h"
#include "../btf/btf.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define STRLEN_DEFAULT 256

void bx_refuse(struct bx *x, const struct loc *l, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vat(l, "error", fmt, ap);
	va_end(ap);
	x->failed = 1;
}

int bx_global_index(struct bx *x, const struct symbol *s)
{
	for (int i = 0; i < x->e->global_list.len; i++)
		if (x->e->global_list.v[i] == s)
			return i;
	return -1;
}

const char *bx_mapref(struct bx *x, const struct symbol *s)
{
	if (x->side == BX_KERN)
		return ar_printf("&m_%s", s->name);
	return ar_printf("stp_fd[%d]", bx_global_index(x, s));
}

int bx_error_site(struct bx *x, const struct loc *l, const char *what)
{
	const char *file = l->src ? l->src->name : "?", *slash = strrchr(file, '/');

	vec_push(&x->t->whats, (void *)(strstr(what, " near ") ?
		ar_printf("%.*s", (int)(strstr(what, " near ") - what), what) : what));
	vec_push(&x->t->errors, ar_printf("%s at %s:%d:%d (probe %s)", what,
					  slash ? slash + 1 : file, l->line, l->col,
					  x->pp ? x->pp : "?"));
	return x->t->errors.len - 1;
}

/* s as the contents of a C string literal. */
const char *bx_cstr(const char *s)
{
	struct sbuf b = { 0 };

	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			sb_putc(&b, '\\');
		if (*s == '\n')
			sb_puts(&b, "\\n");
		else
			sb_putc(&b, *s);
	}
	return b.s ? b.s : "";
}

int bx_side_of(const struct derived_probe *d)
{
	return family_row(d->family)->session ? BX_USER : BX_KERN;
}

static const char *c_type(enum type t)
{
	return t == T_STRING ? "char %s[MAXSTRINGLEN]" : "int64_t %s";
}

/* The declarations both sides share. */
void bx_shared_decls(struct elab *e, struct sbuf *o)
{
	sb_printf(o, "#ifndef MAXSTRINGLEN\n#define MAXSTRINGLEN %d\n#endif\n"
		  "#ifndef MAXMAPENTRIES\n#define MAXMAPENTRIES 2048\n#endif\n"
		  "#ifndef MAXACTION\n#define MAXACTION 1000\n#endif\n\n", STRLEN_DEFAULT);
	for (int i = 0; i < e->global_list.len; i++) {
		struct symbol *s = e->global_list.v[i];

		if (s->arity <= 0)
			continue;
		sb_printf(o, "struct k_%d {", i);
		for (int k = 0; k < s->arity; k++)
			if (s->keys[k] == T_STRING)
				sb_printf(o, " char k%d[%s];", k, bx_key_width(e, s, k));
			else
				sb_printf(o, " int64_t k%d;", k);
		sb_puts(o, " };\n");
	}
	sb_puts(o, "\nstruct stp_globals {\n\tlong long stp_lost;\n\tlong long stp_wall_off;\n"
		"\tint stp_stopping;\n\tunsigned stp_ncpus;\n\tlong long stp_reentered;\n"
		"\tlong long stp_target;\n");
	for (int i = 0; i < e->global_list.len; i++) {
		struct symbol *s = e->global_list.v[i];

		if (s->arity > 0 || s->type == T_STATS)
			continue;
		sb_puts(o, "\t");
		sb_printf(o, c_type(s->type), ar_printf("g_%s", s->name));
		sb_puts(o, ";\n");
	}
	sb_puts(o, "};\n\n");
}

static void kern_maps(struct elab *e, struct sbuf *o)
{
	for (int i = 0; i < e->global_list.len; i++) {
		struct symbol *s = e->global_list.v[i];
		const char *type, *val;

		if (s->arity <= 0 && s->type != T_STATS)
			continue;
		val = s->type == T_STATS ? (s->hist ? "struct stp_bhist" : "struct stp_bstat") :
			s->type == T_STRING ?
			"char[MAXSTRINGLEN]" : "int64_t";
		if (s->arity <= 0)
			type = "BPF_MAP_TYPE_PERCPU_ARRAY";
		else
			type = s->type == T_STATS ? "BPF_MAP_TYPE_PERCPU_HASH" : "BPF_MAP_TYPE_HASH";
		if (s->type == T_STRING) {	/* __type() takes a type name */
			sb_printf(o, "struct v_%d { char s[MAXSTRINGLEN]; };\n", i);
			val = ar_printf("struct v_%d", i);
		}
		sb_printf(o, "struct {\n\t__uint(type, %s);\n\t__uint(max_entries, %s);\n"
			  "\t__type(key, %s);\n\t__type(value, %s);\n} m_%s SEC(\".maps\");\n\n",
			  type, s->arity <= 0 ? "1" : "MAXMAPENTRIES",
			  s->arity <= 0 ? "u32" : ar_printf("struct k_%d", i), val, s->name);
	}
}

static void probe_locals(struct bx *x, struct derived_probe *d)
{
	for (int i = 0; i < d->locals.len; i++) {
		const struct symbol *l = d->locals.v[i];

		if (l->type == T_STRING) {
			sb_printf(&x->ctx, "\tchar %s_%s[MAXSTRINGLEN];\n", x->pfx, l->name);
			sb_printf(&x->code, "\tc->%s_%s[0] = 0;\n", x->pfx, l->name);
		} else if (l->type == T_LONG) {
			sb_printf(&x->ctx, "\tint64_t %s_%s;\n", x->pfx, l->name);
			sb_printf(&x->code, "\tc->%s_%s = 0;\n", x->pfx, l->name);
		}
	}
}

void bx_probe_body(struct bx *x, struct derived_probe *d)
{
	probe_locals(x, d);
	if (bx_hoisted(d)) {	/* the prefix tested the condition */
		bx_prefix_copy(x, d);
		bx_stmt(x, d->hoist->rest, 1);
		sb_puts(&x->code, "\tgoto out;\nout:\n");
		return;
	}
	if (d->cond)
		sb_printf(&x->code, "\tif (!%s) goto out;\n", bx_long(x, d->cond));
	bx_stmt(x, d->body, 1);
	sb_puts(&x->code, "\tgoto out;\nout:\n");
}

/*
 * How the runner attaches kernel probe i: its program's section, its row
 * in the attach table written into att; NULL, after saying why, when it
 * cannot (a family's section function may say it itself: no why).
 */
static const char *kern_section(struct bx *x, struct derived_probe *d, int i, struct sbuf *att)
{
	const struct family_ops *f = family_row(d->family);
	const char *sec = f && f->bpf_section ? f->bpf_section(x, d, i, att) : NULL;

	if (!sec && (!f || !f->bpf_section || f->bpf_why))
		bx_refuse(x, &d->loc, "probe point %s cannot run under --runtime=bpf: %s", d->name,
			  f && f->bpf_why ? f->bpf_why : "this probe type has no BPF program in stp");
	return sec;
}

static void kern_probe(struct bx *x, struct derived_probe *d, int i, struct sbuf *att)
{
	const char *sec = kern_section(x, d, i, att);
	const struct family_ops *f = family_row(d->family);
	size_t frame = bx_frame_begin(x);
	int raw, regs;
	const char *entry;

	if (!sec)
		return;
	/* a tracepoint program's context is the event's record, read by
	 * its fields' offsets (btf_record.c) */
	raw = f->bpf_ctx == BX_CTX_RAW && !d->tp_record;
	regs = f->bpf_ctx == BX_CTX_REGS || (f->bpf_ctx == BX_CTX_KFUNC && bx_kfunc_is_kprobe(x, d));
	entry = d->tp_record ? "(u64 *)ctx" : raw ? "(u64 *)ctx->args" : "0";
	x->pfx = ar_printf("p%d", i);
	x->pp = d->name;
	bx_entry_probe(x, d, i, att);
	sb_printf(&x->code, "SEC(\"%s\")\nint p%d(%s *ctx)\n{\n", sec, i,
		  raw ? "struct bpf_raw_tracepoint_args" : regs ? "struct pt_regs" : "void");
	if (bx_hoisted(d))
		bx_prefix(x, d, entry, regs ? "ctx" : "0");
	else
		sb_printf(&x->code, "\tu32 zero = 0;\n"
			  "\tstruct stp_ctx *c = bpf_map_lookup_elem(&stp_ctxmap, &zero);\n"
			  "\tstruct stp_kctx k = { .entry = %s, .regs = %s, .ctx = ctx }, *stp_k = &k;\n\n"
			  "\tif (!c || stp_g.stp_stopping)\n\t\treturn 0;\n",
			  entry, regs ? "ctx" : "0");
	sb_puts(&x->code, "\t/* a perf event's NMI can land inside another probe on this CPU:\n"
		"\t * its context is in use */\n"
		"\tif (c->busy) {\n\t\t__sync_fetch_and_add(&stp_g.stp_reentered, 1);\n"
		"\t\treturn 0;\n\t}\n\tc->busy = 1;\n");
	bx_probe_prologue(x, d);
	if (f->bpf_prologue)
		f->bpf_prologue(x, d, i);
	bx_entry_fetch(x, d, i);
	bx_probe_body(x, d);
	sb_puts(&x->code, "\tc->busy = 0;\n");
	if (f->bpf_epilogue)
		f->bpf_epilogue(x, d, i);
	sb_puts(&x->code, "\treturn 0;\n}\n\n");
	bx_frame_end(x, frame, i);
}

/* Functions called on this side, and those they call. */
void bx_functions(struct bx *x, struct sbuf *out)
{
	struct sbuf probes = x->code;

	memset(&x->code, 0, sizeof(x->code));
	for (int i = 0; i < x->wanted.len; i++)
		bx_function(x, x->wanted.v[i]);
	for (int i = 0; i < x->wanted.len; i++)
		sb_printf(out, "STP_INLINE int64_t fn%d(struct stp_ctx *c, struct stp_kctx *stp_k);\n",
			  bx_fn_index(x, x->wanted.v[i]));
	sb_puts(out, "\n");
	bx_prefix_functions(x, out);
	sb_printf(out, "%s%s%s", x->hoist.s ? x->hoist.s : "", x->code.s ? x->code.s : "",
		  probes.s ? probes.s : "");
}

void bx_ctx_struct(struct bx *x, struct sbuf *o)
{
	/* stp_pad: room the verifier wants after a text buffer (text.h) */
	sb_printf(o, "struct stp_ctx {\n\tint64_t busy;\n%s%s\tchar stp_pad[MAXSTRINGLEN];\n};\n\n",
		  x->ctx.s ? x->ctx.s : "", bx_frames(x));
}

/* What a catch (e) in a kernel probe gets of an error site's error. */
static void what_fn(struct bx *x, struct sbuf *o)
{
	if (!x->want_what)
		return;
	sb_puts(o, "static __attribute__((noinline)) void stp_what(char *dst, unsigned id)\n{\n"
		"\tswitch (id) {\n");
	for (int i = 0; i < x->t->whats.len; i++)
		if (*(const char *)x->t->whats.v[i])
			sb_printf(o, "\tcase %d: stp_strcpy(dst, \"%s\"); return;\n", i,
				  bx_cstr(x->t->whats.v[i]));
	sb_puts(o, "\t}\n\tdst[0] = 0;\n}\n\n");
}

void bx_kern_file(struct bx *x, struct sbuf *o)
{
	struct sbuf att = { 0 }, body = { 0 };

	for (int i = 0; i < x->e->probes.len; i++) {
		struct derived_probe *d = x->e->probes.v[i];

		if (bx_side_of(d) == BX_KERN)
			kern_probe(x, d, i, &att);
	}
	bx_functions(x, &body);
	sb_puts(o, "/* the kernel side: clang -target bpf */\n#include \"shared.h\"\n");
	bx_shared_decls(x->e, o);
	bx_sketch_defines(x->e, o);
	sb_puts(o, "struct stp_globals stp_g;\n\n#include \"kern.h\"\n\n");
	kern_maps(x->e, o);
	btf_core_decls(o);
	bx_entry_decls(o);
	bx_sorted_decls(o);
	bx_ctx_struct(x, o);
	sb_puts(o, "struct {\n\t__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);\n\t__uint(max_entries, 1);\n"
		"\t__type(key, u32);\n\t__type(value, struct stp_ctx);\n} stp_ctxmap SEC(\".maps\");\n\n");
	bx_sys_maps(x, o);
	what_fn(x, o);
	sb_printf(o, "%s\nchar LICENSE[] SEC(\"license\") = \"GPL\";\n", body.s ? body.s : "");
	bx_sys_dispatch(x, o, &att);
	/* the attach table goes to the user side */
	x->code = att;
}

