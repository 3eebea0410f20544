// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Calls: the script's functions (inlined: BPF has no recursion), the
 * context functions whose tapset bodies are kmod C (a table gives each
 * side's C), the embedded C pass 2 makes for $target values (it reads
 * CONTEXT->entry, which kern.h maps to the raw tracepoint's
 * arguments), and the print family (a ring buffer record in the
 * kernel, formatted by id in user space).
 */
#include "bpf.h"

#include <string.h>

/* A context function's C on each side: %s is the destination for a
 * string; a long's is an expression. */
struct builtin {
	const char *name;
	const char *kern, *user;
	int is_str;
};

static const struct builtin builtins[] = {
	{ "execname", "bpf_get_current_comm(%s, 16)", "stp_execname(%s)", 1 },
	{ "pid", "((int64_t)(bpf_get_current_pid_tgid() >> 32))", "stp_pid()", 0 },
	{ "tid", "((int64_t)(u32)bpf_get_current_pid_tgid())", "stp_tid()", 0 },
	{ "uid", "((int64_t)(u32)bpf_get_current_uid_gid())", "stp_uid()", 0 },
	{ "gid", "((int64_t)(bpf_get_current_uid_gid() >> 32))", "stp_gid()", 0 },
	{ "cpu", "((int64_t)bpf_get_smp_processor_id())", "stp_cpu()", 0 },
	{ "gettimeofday_ns", "((int64_t)(bpf_ktime_get_boot_ns() + stp_g.stp_wall_off))",
	  "stp_time_ns()", 0 },
	{ "gettimeofday_us", "((int64_t)(bpf_ktime_get_boot_ns() + stp_g.stp_wall_off) / 1000)",
	  "(stp_time_ns() / 1000)", 0 },
	{ "gettimeofday_ms", "((int64_t)(bpf_ktime_get_boot_ns() + stp_g.stp_wall_off) / 1000000)",
	  "(stp_time_ns() / 1000000)", 0 },
	{ "gettimeofday_s", "((int64_t)(bpf_ktime_get_boot_ns() + stp_g.stp_wall_off) / 1000000000)",
	  "(stp_time_ns() / 1000000000)", 0 },
	{ "target", "stp_g.stp_target", "stp_g.stp_target", 0 },
	{ "exit", "({ stp_exit(); (int64_t)0; })", "({ stp_exit(); (int64_t)0; })", 0 },
	{ "probefunc", "stp_strcpy(%s, stp_k->func ? stp_k->func : \"\")", "((%s)[0] = 0)", 1 },
};

/* User-space versions of the tapsets' string functions of kmod C:
 * the C function, called with the destination (a string result) and
 * the arguments. */
static const struct builtin user_fns[] = {
	{ "strlen", NULL, "stp_u_strlen", 0 },
	{ "substr", NULL, "stp_u_substr", 1 },
	{ "isinstr", NULL, "stp_u_isinstr", 0 },
	{ "sprint_stack", NULL, "stp_u_sprint_stack", 1 },
	{ "sprint_syms", NULL, "stp_u_sprint_stack", 1 },
	{ "sprint_ustack", NULL, "stp_u_sprint_ustack", 1 },
	{ "sprint_usyms", NULL, "stp_u_sprint_ustack", 1 },
	{ "symname", NULL, "stp_u_symname", 1 },
	{ "symdata", NULL, "stp_u_symdata", 1 },
	{ "_chopstix_start", NULL, "stp_u_cx_start", 0 },
	{ "chopstix_unavailable", NULL, "stp_u_cx_unavailable", 0 },
	{ "chopstix_declare", NULL, "stp_u_cx_declare", 0 },
	{ "vitals_hw_unavailable", NULL, "stp_u_hw_unavailable", 1 },
	{ "warn", NULL, "stp_u_warn", 0 },
	/* runtime/bpf/tapset_user.h */
	{ "errno_str", NULL, "stp_u_errno_str", 1 },
	{ "errno_known", NULL, "stp_u_errno_known", 0 },
	{ "signal_str", NULL, "stp_u_signal_str", 1 },
};

static const struct builtin *user_fn_of(struct bx *x, const char *name)
{
	if (x->side != BX_USER)
		return NULL;
	for (size_t i = 0; i < sizeof(user_fns) / sizeof(user_fns[0]); i++)
		if (!strcmp(user_fns[i].name, name))
			return &user_fns[i];
	return NULL;
}

/* fn([dst, ]args...) */
static const char *user_fn_call(struct bx *x, struct node *n, const struct builtin *b,
				const char *dst)
{
	struct sbuf a = { 0 };

	sb_printf(&a, "%s(%s", b->user, dst ? dst : "");
	for (int i = 0; i < n->args.len; i++) {
		struct node *arg = n->args.v[i];

		sb_printf(&a, "%s%s", i || dst ? ", " : "",
			  arg->vtype == T_STRING ? bx_str(x, arg) : bx_long(x, arg));
	}
	sb_putc(&a, ')');
	return a.s;
}

/* Tapset functions of embedded C that kern.h's definitions compile.
 * A tapset's own BPF flavour of a function is embedded C that carries
 * the pragma bpf (a comment, as SystemTap's pure and unprivileged are),
 * kept apart from the kmod flavour by %( runtime == "bpf" %? ... %). */
static const char *const kern_passthrough[] = { "kernel_string", NULL };

/* f's row of the table: a tapset function of embedded C named there. */
static const struct builtin *builtin_of(const struct function *f)
{
	if (f->decl->body->kind != N_EMBEDDED)
		return NULL;
	for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
		if (!strcmp(builtins[i].name, f->name))
			return &builtins[i];
	return NULL;
}

int bx_fn_index(struct bx *x, struct function *f)
{
	for (int i = 0; i < x->e->used_functions.len; i++)
		if (x->e->used_functions.v[i] == f)
			return i;
	return -1;
}

static int passes_through(struct bx *x, struct function *f)
{
	if (x->side != BX_KERN)
		return 0;
	if (!strncmp(f->name, "__", 2) || strstr(f->decl->body->str, "/* bpf */"))
		return 1;
	for (int i = 0; kern_passthrough[i]; i++)
		if (!strcmp(kern_passthrough[i], f->name))
			return 1;
	return 0;
}

/* Arguments into the callee's frame, then the call. */
static const char *call_fn(struct bx *x, struct node *n, struct function *f, const char *tail)
{
	int j = bx_fn_index(x, f);
	struct sbuf b = { 0 };

	if (f->decl->body->kind == N_EMBEDDED && !passes_through(x, f)) {
		bx_refuse(x, &n->loc, "function %s is embedded C, which --runtime=bpf %s", f->name,
			  x->side == BX_KERN ? "cannot run in a kernel probe"
			  : "cannot run in user space (begin, end and error probes)");
		return "0";
	}
	if (x->prefix)		/* no context, no frame yet */
		return bx_prefix_call(x, n, f);
	sb_puts(&b, "({ ");
	for (int i = 0; i < n->args.len && i < f->decl->nparams; i++) {
		struct node *a = n->args.v[i];

		if (f->params[i]->type == T_STRING)
			sb_printf(&b, "const char *_p%d_%d = %s; ", j, i, bx_str(x, a));
		else
			sb_printf(&b, "int64_t _p%d_%d = %s; ", j, i, bx_long(x, a));
	}
	for (int i = 0; i < n->args.len && i < f->decl->nparams; i++) {
		if (f->params[i]->type == T_STRING)
			sb_printf(&b, "stp_strcpy(c->f%d_%s, _p%d_%d); ", j, f->params[i]->name, j, i);
		else
			sb_printf(&b, "c->f%d_%s = _p%d_%d; ", j, f->params[i]->name, j, i);
	}
	sb_printf(&b, "fn%d(c, stp_k)%s; })", j, tail);
	bx_want_function(x, f);
	return b.s;
}

/* error(msg): the run stops with msg and the probe's name. */
static const char *error_call(struct bx *x, struct node *n)
{
	int id;

	vec_push(&x->t->errors, ar_printf("(probe %s)", x->pp ? x->pp : "?"));
	vec_push(&x->t->whats, "");
	id = x->t->errors.len - 1;
	return ar_printf("({ stp_error_msg(stp_k, %d, %s); (int64_t)0; })", id,
			 n->args.len ? bx_str(x, n->args.v[0]) : "\"\"");
}

/* The tapsets' register functions of a uprobe (kern.h's stp_uarg):
 * the mode says how the register is cut (0 whole, 1 signed 32 bits,
 * 2 unsigned 32). */
static const struct {
	const char *name;
	int mode;
} reg_args[] = {
	{ "long_arg", 0 }, { "ulong_arg", 0 }, { "pointer_arg", 0 }, { "s64_arg", 0 },
	{ "u64_arg", 0 }, { "longlong_arg", 0 }, { "ulonglong_arg", 0 },
	{ "int_arg", 1 }, { "s32_arg", 1 }, { "uint_arg", 2 }, { "u32_arg", 2 },
};

static const char *reg_arg(struct bx *x, struct node *n, struct function *f)
{
	if (x->side != BX_KERN || f->decl->body->kind != N_EMBEDDED)
		return NULL;
	for (size_t i = 0; i < sizeof(reg_args) / sizeof(reg_args[0]); i++)
		if (!strcmp(reg_args[i].name, f->name) && n->args.len == 1)
			return ar_printf("stp_uarg(stp_k, %s, %d)", bx_long(x, n->args.v[0]),
					 reg_args[i].mode);
	if (!strcmp(f->name, "returnval"))
		return "stp_returnval(stp_k)";
	return NULL;
}

const char *bx_call_long(struct bx *x, struct node *n)
{
	const struct builtin *b;
	struct function *f = n->ref;
	const char *r;

	if (n->kind == N_CALL && is_print_builtin(n->name))
		return bx_print(x, n);
	/* $return without DWARF: the return register, as kmod reads it */
	if (!f && n->kind == N_TARGET && !strcmp(n->name, "$return") && !n->comps.len &&
	    x->side == BX_KERN)
		return "stp_returnval(stp_k)";
	if (f && (r = reg_arg(x, n, f)))
		return r;
	if (!f) {
		bx_refuse(x, &n->loc, "'%s' is not supported by --runtime=bpf yet", n->name);
		return "0";
	}
	if (f->decl->body->kind == N_EMBEDDED && !strcmp(f->name, "error"))
		return error_call(x, n);
	b = builtin_of(f);
	if (b && !b->is_str)
		return x->side == BX_KERN ? b->kern : b->user;
	b = f->decl->body->kind == N_EMBEDDED ? user_fn_of(x, f->name) : NULL;
	if (b && !b->is_str)
		return user_fn_call(x, n, b, NULL);
	return call_fn(x, n, f, "");
}

/* A statement that writes string call n straight into dst (an array
 * key's field: no temporary and no copy on the hot path), or NULL when
 * n is not a context builtin of the kernel side. */
const char *bx_str_into(struct bx *x, struct node *n, const char *dst)
{
	struct function *f = n->ref;
	const struct builtin *b;

	/* execname's 16 bytes must fit */
	if (x->side != BX_KERN || n->kind != N_CALL || !f || bx_string_len(x->e) < 16)
		return NULL;
	b = builtin_of(f);
	return b && b->is_str ? ar_printf(b->kern, dst) : NULL;
}

const char *bx_call_str(struct bx *x, struct node *n)
{
	const struct builtin *b;
	struct function *f = n->ref;
	const char *t;

	if (n->kind == N_CALL && is_print_builtin(n->name))
		return bx_print(x, n);
	if (!f) {
		bx_refuse(x, &n->loc, "'%s' is not supported by --runtime=bpf yet", n->name);
		return "\"\"";
	}
	t = bx_temp(x);
	b = builtin_of(f);
	if (b && b->is_str)
		return ar_printf("({ %s; %s; })",
				 ar_printf(x->side == BX_KERN ? b->kern : b->user, t), t);
	b = f->decl->body->kind == N_EMBEDDED ? user_fn_of(x, f->name) : NULL;
	if (b && b->is_str)
		return ar_printf("({ %s; %s; })", user_fn_call(x, n, b, t), t);
	return call_fn(x, n, f, ar_printf("; stp_strcpy(%s, c->f%d__ret); %s", t,
					  bx_fn_index(x, f), t));
}
