// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Name resolution: every variable, array and call in every probe and
 * reachable function is bound to what it names.  A name is, in order,
 * a function parameter, a local already seen, a global (the file's own
 * private one, the program's, or one a tapset offers, which pulls that
 * tapset in), or else a new local.  Arrays must be globals.  Calls pick
 * the function by name and number of arguments; several of the same
 * arity form an overload chain ("next" moves along it), lowest
 * priority first, the script's own before the library's.
 *
 * Statement rules live here too: break/continue only in loops, probe
 * conditions only on globals.  (Return only in functions is checked
 * by the parser, as SystemTap does in pass 1.)
 */
#include "elab.h"
#include "../families/perf/perf_family.h"
#include "../dwarf/dw.h"
#include "../btf/btf.h"
#include "../families/uprobe/sdt.h"

#include <stdlib.h>
#include <string.h>

struct scope {
	struct elab *e;
	struct lib_file *file;
	struct vec *locals;
	struct function *fn;		/* NULL in a probe */
	struct derived_probe *probe;	/* NULL in a function */
	int loops;
	int in_cond;			/* a probe point condition */
	int in_entry;			/* inside @entry(...) */
	struct symbol *iterating[16];	/* arrays of the enclosing foreach */
	int niterating;
};

static void expr(struct scope *sc, struct node *n, int write);
static void stmt(struct scope *sc, struct node *n);

static const char *const print_builtins[] = {
	"print", "println", "printf", "printd", "printdln",
	"sprint", "sprintln", "sprintf", "sprintd", "sprintdln",
};

struct symbol *sym_new(const char *name, enum sym_kind kind,
		       const struct loc *loc)
{
	struct symbol *s = ar_alloc(sizeof(*s));

	s->name = name;
	s->kind = kind;
	s->loc = *loc;
	s->arity = kind == SYM_GLOBAL ? -1 : 0;
	return s;
}

int is_print_builtin(const char *name)
{
	for (size_t i = 0; i < sizeof(print_builtins) / sizeof(print_builtins[0]); i++)
		if (!strcmp(name, print_builtins[i]))
			return 1;
	return 0;
}

/* A target expression where no DWARF gives it a meaning. */
static void needs_dwarf(const struct node *n, const char *what)
{
	sem_error(&n->loc, "%s has no meaning here: target variables and typed values exist "
		  "only in probes found in debuginfo (kernel.function, kernel.statement, "
		  "process(\"...\").function); elsewhere use @cast(value, \"type\")", what);
}

/* ---- variables ---- */

static struct symbol *find_local(struct scope *sc, const char *name)
{
	if (sc->fn)
		for (int i = 0; i < sc->fn->decl->nparams; i++)
			if (sc->fn->params[i]->name == name)
				return sc->fn->params[i];
	for (int i = 0; i < sc->locals->len; i++) {
		struct symbol *s = sc->locals->v[i];

		if (s->name == name)
			return s;
	}
	return NULL;
}

/* What a name means here without creating anything: a parameter or
 * local seen before, else a global. */
static struct symbol *known(struct scope *sc, const char *name)
{
	struct symbol *s = find_local(sc, name);

	return s ? s : global_lookup(sc->e, name, sc->file);
}

static struct symbol *variable(struct scope *sc, struct node *n)
{
	struct symbol *s = known(sc, n->name);

	if (s)
		return s;
	if (sc->in_cond) {
		sem_error(&n->loc, "a probe point condition can only use globals; '%s' is not one",
			  n->name);
		return NULL;
	}
	s = sym_new(n->name, SYM_LOCAL, &n->loc);
	s->file = sc->file;
	vec_push(sc->locals, s);
	return s;
}

static struct symbol *array(struct scope *sc, struct node *n)
{
	struct symbol *s = known(sc, n->name);

	if (!s || s->kind != SYM_GLOBAL) {
		sem_error(&n->loc, "'%s' is used as an array, but arrays must be declared global",
			  n->name);
		return NULL;
	}
	n->ref = s;
	return s;
}

static void touch(struct scope *sc, struct symbol *s, int write)
{
	if (!s)
		return;
	if (write)
		s->writes++;
	else
		s->reads++;
	if (write && sc && sc->fn && s->kind == SYM_GLOBAL)
		vec_push(&sc->fn->writes, s);
}


/* ---- calls ---- */

struct function *function_of(struct elab *e, struct node *decl)
{
	struct function *f = pmap_get(&e->decl_function, decl);

	if (f)
		return f;
	f = ar_alloc(sizeof(*f));
	f->name = decl->name;
	f->decl = decl;
	f->file = lib_file_of(e, decl);
	f->params = ar_alloc((decl->nparams + 1) * sizeof(*f->params));
	for (int i = 0; i < decl->nparams; i++) {
		struct symbol *p = sym_new(decl->params[i].name, SYM_PARAM,
					   &decl->params[i].loc);

		p->type = decl->params[i].type;
		if (p->type)
			p->type_loc = decl->params[i].loc;
		p->file = f->file;
		f->params[i] = p;
	}
	f->ret = decl->type;
	if (f->ret)
		f->ret_loc = decl->loc;
	pmap_put(&e->decl_function, decl, f);
	return f;
}

static int64_t priority(struct elab *e, const struct node *d)
{
	if (d->has_priority)
		return d->priority;
	return lib_file_of(e, d)->is_user ? 0 : 1;
}

static int cmp_priority(const void *a, const void *b, void *ctx)
{
	struct elab *e = ctx;
	const struct node *x = *(struct node *const *)a;
	const struct node *y = *(struct node *const *)b;
	int64_t px = priority(e, x), py = priority(e, y);

	return px < py ? -1 : px > py;
}

static void use_function(struct elab *e, struct function *f)
{
	if (f->used)
		return;
	f->used = 1;
	lib_include(e, f->file);
	vec_push(&e->used_functions, f);
}

/*
 * A tapset function whose embedded C carries the guru pragma (a
 * comment "guru", or "guru: WHAT IT DOES") writes memory or
 * stops the kernel: it is always defined, so that a script without -g
 * that calls it hears why it may not rather than "unresolved", and
 * tapset code may call it on the script's behalf.
 */
static void check_guru(struct scope *sc, const struct node *call,
		       const struct function *f)
{
	const struct node *body = f->decl->body;
	const char *p, *end;

	if (sc->e->s->guru || !sc->file || !sc->file->is_user ||
	    !body || body->kind != N_EMBEDDED)
		return;
	p = strstr(body->str, "/* guru");
	if (!p)
		return;
	p += strlen("/* guru");
	if (*p != ':') {
		sem_error(&call->loc, "%s needs guru mode (-g)", f->name);
		return;
	}
	for (p++; *p == ' '; p++)
		;
	end = strstr(p, " */");
	sem_error(&call->loc, "%s %.*s and needs guru mode (-g)", f->name,
		  (int)(end ? end - p : 0), p);
}

static void call(struct scope *sc, struct node *n)
{
	struct elab *e = sc->e;
	struct vec *cands = pmap_get(&e->functions, n->name);
	struct node *chosen[64];
	int nchosen = 0, arities = 0;
	struct function *prev = NULL;

	for (int i = 0; i < n->args.len; i++)
		expr(sc, n->args.v[i], 0);
	if (is_print_builtin(n->name))
		return;
	for (int i = 0; cands && i < cands->len; i++) {
		struct node *d = cands->v[i];

		if (d->private_ && lib_file_of(e, d) != sc->file)
			continue;
		arities |= 1 << (d->nparams < 31 ? d->nparams : 31);
		if (d->nparams == n->args.len && nchosen < 64)
			chosen[nchosen++] = d;
	}
	if (!nchosen) {
		if (arities)
			sem_error(&n->loc, "no function '%s' takes %d argument%s",
				  n->name, n->args.len, n->args.len == 1 ? "" : "s");
		else
			sem_error(&n->loc, "unresolved function '%s'", n->name);
		return;
	}
	qsort_r(chosen, nchosen, sizeof(chosen[0]), cmp_priority, e);
	for (int i = nchosen - 1; i >= 0; i--) {
		struct function *f = function_of(e, chosen[i]);

		f->next = prev;
		prev = f;
		use_function(e, f);
		if (sc->fn)
			vec_push(&sc->fn->calls, f);
	}
	n->ref = prev;
	check_guru(sc, n, prev);
	for (int i = 0; i < sc->niterating; i++) {
		vec_push(&e->foreach_calls, n);
		vec_push(&e->foreach_calls, sc->iterating[i]);
	}
}

/* ---- expressions ---- */

static int mentions_target(const struct node *n)
{
	if (!n)
		return 0;
	if (n->kind == N_TARGET || n->kind == N_AUTOCAST ||
	    (n->kind == N_UNARY && n->op == OP_AMP) || node_has_comps(n) ||
	    is_cast_or_var(n))
		return 1;
	if (mentions_target(n->lhs) || mentions_target(n->rhs) ||
	    mentions_target(n->cond))
		return 1;
	for (int i = 0; i < n->args.len; i++)
		if (mentions_target(n->args.v[i]))
			return 1;
	return 0;
}

static void fold(struct node *n, int v)
{
	n->kind = N_NUM;
	n->num = v;
	n->str = v ? "1" : "0";
	n->args.len = 0;
}

static int writes_var(const struct node *n, const char *name)
{
	if (!n)
		return 0;
	if ((n->kind == N_ASSIGN || n->kind == N_INCDEC) && n->lhs &&
	    n->lhs->kind == N_VAR && n->lhs->name == name)
		return 1;
	if (n->kind == N_FOREACH) {
		if (n->fe->value == name)
			return 1;
		for (int i = 0; i < n->fe->keys.len; i++)
			if (((struct node *)n->fe->keys.v[i])->name == name)
				return 1;
		return writes_var(n->body, name);
	}
	if (writes_var(n->lhs, name) || writes_var(n->rhs, name) ||
	    writes_var(n->cond, name) || writes_var(n->body, name))
		return 1;
	for (int i = 0; i < n->args.len; i++)
		if (writes_var(n->args.v[i], name))
			return 1;
	return 0;
}

/* The value of a condition made constant by @defined folding, or -1.
 * A branch a false @defined guards may name what cannot be resolved
 * ($vars without debuginfo): it is dropped unresolved, as SystemTap
 * does. */
static int constant(const struct node *n)
{
	int l, r;

	switch (n->kind) {
	case N_NUM:
		return n->num != 0;
	case N_UNARY:
		if (n->op != OP_NOT)
			return -1;
		l = constant(n->lhs);
		return l < 0 ? -1 : !l;
	case N_BINARY:
		if (n->op != OP_ANDAND && n->op != OP_OROR)
			return -1;
		l = constant(n->lhs);
		r = constant(n->rhs);
		if (n->op == OP_ANDAND)
			return l == 0 || r == 0 ? 0 : (l < 0 || r < 0 ? -1 : 1);
		return l == 1 || r == 1 ? 1 : (l < 0 || r < 0 ? -1 : 0);
	default:
		return -1;
	}
}

static void stat_operand(struct scope *sc, struct node *n)
{
	if (n->kind == N_VAR || n->kind == N_INDEX) {
		expr(sc, n, 0);
		return;
	}
	sem_error(&n->loc, "an aggregate operator needs a statistics variable or array element");
}

/* One statistic keeps one kind of histogram, and a linear one needs
 * a sensible range: SystemTap's rules, checked where the literals are. */
static void histogram(struct node *n)
{
	struct node *arg = n->args.v[0];
	struct symbol *s = arg->kind == N_INDEX ? arg->lhs->ref : arg->ref;

	if (n->at == ATOP_HIST_LINEAR && n->args.len == 4) {
		const struct node *lo = n->args.v[1], *hi = n->args.v[2];
		const struct node *w = n->args.v[3];

		if (w->kind == N_NUM && w->num <= 0)
			sem_error(&w->loc, "the bucket width of @hist_linear must be positive");
		else if (lo->kind == N_NUM && hi->kind == N_NUM && hi->num <= lo->num)
			sem_error(&hi->loc, "@hist_linear's high bound must be above its low bound");
	}
	if (!s)
		return;
	if (!s->hist) {
		s->hist = n;
		return;
	}
	if (strcmp(s->hist->name, n->name)) {
		sem_error(&n->loc, "'%s' already has a %s histogram; one statistic keeps one kind",
			  s->name, s->hist->name);
		diag_note(&s->hist->loc, "the %s is here", s->hist->name);
	}
}

/* ---- DWARF: $vars, @cast, @var ---- */

/* The probe's family, when its $vars are its own (family.h) */
static const struct family_ops *own_vars(const struct scope *sc)
{
	const struct family_ops *f = sc->probe ? family_row(sc->probe->family) : NULL;

	return f && f->target ? f : NULL;
}

static int has_dwarf(const struct scope *sc)
{
	return sc->probe && sc->probe->dwf;
}

/* A place DWARF says how to write: $x in a DWARF probe, @cast, @var. */
static int dw_lvalue(const struct scope *sc, const struct node *n)
{
	return (n->kind == N_TARGET && (has_dwarf(sc) || (own_vars(sc) &&
							       own_vars(sc)->vars_lvalue))) ||
	       is_cast_or_var(n);
}

/* The probe as @entry sees it: at the function's entry, not returning. */
static struct derived_probe *entry_view(struct scope *sc)
{
	struct derived_probe *d = sc->probe;

	if (d && sc->in_entry && d->is_return) {
		struct derived_probe *v = ar_alloc(sizeof(*v));

		*v = *d;
		v->pc = d->entry_pc;
		v->is_return = 0;
		return v;
	}
	return d;
}

/* n, resolved by DWARF, calls the function it generated (dwarf_var.c). */
static void dw_call(struct scope *sc, struct node *n)
{
	struct node *decl = n->ref;
	struct function *f;

	pmap_put(&sc->e->node_file, decl, sc->file);
	f = function_of(sc->e, decl);
	use_function(sc->e, f);
	if (sc->fn)
		vec_push(&sc->fn->calls, f);
	n->ref = f;
	for (int i = 0; i < n->args.len; i++)
		expr(sc, n->args.v[i], 0);
}

static void target_expr(struct scope *sc, struct node *n, int write);

/* A .return probe reads parameters as they were on entry: $x there is
 * @entry($x).  0 when n needs no wrapping. */
static int entry_wrap(struct scope *sc, struct node *n)
{
	struct node *inner;

	if (!sc->probe || !sc->probe->is_return || sc->in_entry ||
	    !strcmp(n->name, "$return") || !strncmp(n->name, "$$return", 8))
		return 0;
	inner = node_new(N_TARGET, &n->loc);
	*inner = *n;
	memset(&n->args, 0, sizeof(n->args));
	n->kind = N_AT;
	n->at = ATOP_ENTRY;
	n->name = "@entry";
	n->comps.v = NULL;
	n->comps.len = n->comps.cap = 0;
	n->addr = n->pretty = 0;
	n->ref = NULL;
	vec_push_ar(&n->args, inner);
	sc->in_entry = 1;
	if (!has_dwarf(sc))
		target_expr(sc, inner, 0);	/* --runtime=bpf's, by BTF */
	else if (dw_target(sc->e, entry_view(sc), inner, 0, 0))
		dw_call(sc, inner);
	sc->in_entry = 0;
	return 1;
}

static void target(struct scope *sc, struct node *n, int write)
{
	if (own_vars(sc)) {
		if (own_vars(sc)->target(sc->e, sc->probe, n, write, 0))
			dw_call(sc, n);
		return;
	}
	if (!write && entry_wrap(sc, n))
		return;
	if (write && sc->probe && sc->probe->is_return && strcmp(n->name, "$return")) {
		sem_error(&n->loc, "'%s' cannot be written in a .return probe: it is read at entry",
			  n->name);
		return;
	}
	if (dw_target(sc->e, entry_view(sc), n, write, 0))
		dw_call(sc, n);
}

/* @defined(e) of a DWARF expression: whether it resolves. */
static int dw_defined(struct scope *sc, struct node *arg)
{
	struct node probe_copy;

	if (arg->kind == N_AT && arg->at == ATOP_ENTRY && arg->args.len == 1) {
		/* @defined(@entry($x)): whether $x is there on entry */
		int was = sc->in_entry, k;

		sc->in_entry = 1;
		k = dw_defined(sc, arg->args.v[0]);
		sc->in_entry = was;
		return k;
	}
	if (arg->kind != N_TARGET && !is_cast_or_var(arg))
		return -1;
	if (arg->kind == N_TARGET && own_vars(sc) && own_vars(sc)->defined)
		return own_vars(sc)->defined(sc->e, sc->probe, arg);
	if (arg->kind == N_TARGET && own_vars(sc)) {	/* its target, quietly */
		probe_copy = *arg;
		return own_vars(sc)->target(sc->e, sc->probe, &probe_copy, 0, 1);
	}
	if (arg->kind == N_TARGET && sc->probe && sc->probe->tp) {
		probe_copy = *arg;
		memset(&probe_copy.args, 0, sizeof(probe_copy.args));
		return btf_target(sc->e, sc->probe, &probe_copy, 0, 1);
	}
	if (arg->kind == N_TARGET && sc->probe && sc->probe->sdt) {
		probe_copy = *arg;
		memset(&probe_copy.args, 0, sizeof(probe_copy.args));
		return sdt_target(sc->probe, &probe_copy, 0, 1);
	}
	if (arg->kind == N_TARGET && !has_dwarf(sc))
		return -1;
	probe_copy = *arg;
	memset(&probe_copy.args, 0, sizeof(probe_copy.args));
	for (int i = 0; i < arg->args.len; i++)
		vec_push_ar(&probe_copy.args, arg->args.v[i]);
	return dw_target(sc->e, entry_view(sc), &probe_copy, 0, 1);
}

static void at(struct scope *sc, struct node *n)
{
	const char *s = n->name;

	if (n->at == ATOP_DEFINED) {
		int k = dw_defined(sc, n->args.v[0]);

		fold(n, k >= 0 ? k : !mentions_target(n->args.v[0]));
		return;
	}
	if (n->at == ATOP_PROBEWRITE) {
		struct node *v = n->args.v[0];

		if (v->kind != N_VAR) {
			sem_error(&v->loc, "@probewrite takes a variable name");
			return;
		}
		if (!sc->probe) {
			sem_error(&n->loc, "@probewrite is only meaningful in a probe handler");
			return;
		}
		fold(n, writes_var(sc->probe->handler, v->name));
		return;
	}
	if (is_cast_or_var(n)) {
		if (n->ref)
			return;		/* resolved already (@entry's copy) */
		if (dw_target(sc->e, entry_view(sc), n, 0, 0))
			dw_call(sc, n);
		return;
	}
	if (n->at == ATOP_ENTRY) {
		int was = sc->in_entry;

		if (!sc->probe || !sc->probe->is_return)
			sem_error(&n->loc, "@entry is only available in .return probes");
		sc->in_entry = 1;
		expr(sc, n->args.v[0], 0);
		sc->in_entry = was;
		return;
	}
	if (at_is_hist(n->at) || at_is_aggregate(n->at)) {
		stat_operand(sc, n->args.v[0]);
		for (int i = 1; i < n->args.len; i++)
			expr(sc, n->args.v[i], 0);
		if (at_is_hist(n->at))
			histogram(n);
		for (int i = 0; i < n->comps.len; i++) {
			struct node *c = n->comps.v[i];

			if (c->kind != N_SUBSCRIPT || i || !at_is_hist(n->at)) {
				sem_error(&c->loc, "only a histogram takes [bucket] after it");
				return;
			}
			expr(sc, c->lhs, 0);
		}
		return;
	}
	if (n->at == ATOP_PERF) {	/* a perf counter's value (perf_points.c) */
		perf_at_check(sc->e, sc->probe, n);
		return;
	}
	if (!sc->e->s->guru && (n->at == ATOP_CONST || n->at == ATOP_KDEREF ||
				n->at == ATOP_UDEREF || n->at == ATOP_KREGISTER ||
				n->at == ATOP_UREGISTER)) {
		sem_error(&n->loc, "%s needs guru mode (-g)", s);
		return;
	}
	for (int i = 0; i < n->args.len; i++)
		expr(sc, n->args.v[i], 0);
}

/* A foreach walks a snapshot of the array's keys; changing the array
 * under it is an error, as in SystemTap. */
static void iterated_check(struct scope *sc, struct node *n)
{
	struct symbol *s;

	if (n->kind != N_INDEX && n->kind != N_VAR)
		return;
	s = n->kind == N_INDEX ? n->lhs->ref : n->ref;
	for (int i = 0; s && i < sc->niterating; i++)
		if (sc->iterating[i] == s) {
			sem_error(&n->loc, "'%s' is changed inside a foreach over it",
				  s->name);
			return;
		}
}

static void lvalue_check(struct scope *sc, struct node *n)
{
	if (n->kind == N_TARGET && !sc->e->s->guru)
		sem_error(&n->loc, "writing to a target variable needs guru mode (-g)");
}

/* $var: a tracepoint's by BTF, a DWARF probe's; else a return
 * probe's $return, or an error. */
static void target_expr(struct scope *sc, struct node *n, int write)
{
	if (n->ref)
		return;
	if (own_vars(sc)) {	/* the family's own: $value, $verdict, $syscall ... */
		target(sc, n, write);
		return;
	}
	if (sc->probe && sc->probe->tp && sc->probe->family != PF_KPROBE) {	/* by BTF */
		if (btf_target(sc->e, sc->probe, n, write, 0))
			dw_call(sc, n);
		return;
	}
	if (sc->probe && sc->probe->sdt) {	/* a marker's operands */
		if (sdt_target(sc->probe, n, write, 0))
			dw_call(sc, n);
		return;
	}
	if (has_dwarf(sc)) {
		target(sc, n, write);
		return;
	}
	/* a kretprobe's or uretprobe's return value is in its registers */
	if (!strcmp(n->name, "$return") && !n->comps.len && !n->addr &&
	    !n->pretty && sc->probe && (sc->probe->family == PF_KPROBE ||
					sc->probe->family == PF_UPROBE) &&
	    sc->probe->is_return) {
		if (write)
			sem_error(&n->loc, "'$return' cannot be written without debuginfo");
		return;
	}
	if (!strcmp(n->name, "$return") && sc->probe && !sc->probe->is_return) {
		sem_error(&n->loc, "'$return' is only available in .return probes");
		return;
	}
	/* a backend that reads BTF's types (bpf): a kernel function's
	 * parameters by BTF */
	if (sc->probe && sc->probe->family == PF_KPROBE && sc->e->s->types_by_btf &&
	    (sc->probe->tp || (sc->probe->tp = btf_kfunc_info(sc->e->s, sc->probe)))) {
		if (!write && entry_wrap(sc, n))
			return;	/* a .return reads the parameter's value on entry */
		if (btf_target(sc->e, sc->probe, n, write, 0))
			dw_call(sc, n);
		return;
	}
	if (sc->probe && sc->probe->family == PF_UPROBE) {
		sem_error(&n->loc, "target variable '%s' needs debuginfo, and %s", n->name,
			  uprobes_no_debuginfo(sc->probe));
		return;
	}
	needs_dwarf(n, ar_printf("target variable '%s'", n->name));
}

/* lhs = rhs where lhs is a target variable (guru mode): the
 * assignment becomes a call of the variable's setter. */
static void target_assign(struct scope *sc, struct node *n)
{
	struct node *lhs = n->lhs, *rhs = n->rhs;

	if (!sc->e->s->guru) {
		sem_error(&n->lhs->loc, "writing to a target variable needs guru mode (-g)");
		return;
	}
	if (n->op != OP_ASSIGN) {
		sem_error(&n->loc, "a target variable is written with '=' only");
		return;
	}
	expr(sc, rhs, 0);
	if (lhs->kind == N_AT) {
		if (dw_target(sc->e, entry_view(sc), lhs, 1, 0))
			dw_call(sc, lhs);
	} else {
		target(sc, lhs, 1);
	}
	if (!lhs->ref)
		return;
	vec_push_ar(&lhs->args, rhs);
	lhs->op = n->op;	/* -p2 shows the write as written */
	*n = *lhs;
}

/* The read of x in a statement "x++;" or "x += y;": a read only to
 * write it, whose value nothing uses, which does not stop x being shown
 * at the end (sym_displayed_at_end), as in SystemTap 4.8; "if (++x ==
 * 2)" reads x. */
static void rmw_statement(const struct node *n)
{
	const struct node *v;
	struct symbol *s;

	if (n->kind != N_INCDEC &&
	    (n->kind != N_ASSIGN || n->op == OP_ASSIGN || n->op == OP_SHL_STAT))
		return;
	v = n->lhs && n->lhs->kind == N_INDEX ? n->lhs->lhs : n->lhs;
	s = v && v->kind == N_VAR ? v->ref : NULL;
	if (s)
		s->rmw_reads++;
}

/* Autocast is SystemTap's since 2.6: --compatible below it leaves it out. */
static int autocast_on(const struct scope *sc)
{
	const char *v = sc->e->s->compatible;
	int maj = 0, min = 0;

	if (!v || sscanf(v, "%d.%d", &maj, &min) < 1)
		return 1;
	return maj > 2 || (maj == 2 && min >= 6);
}

/* "x = @cast(p, T[, M])", SystemTap's autocast: x holds p and carries
 * T, so that x->member later reads as @cast(x, T[, M])->member.  0 when
 * n is not such an assignment. */
static int cast_assign(struct scope *sc, struct node *n)
{
	struct node *c = n->rhs, *copy;
	struct symbol *s;

	if (n->op != OP_ASSIGN || n->lhs->kind != N_VAR || n->lhs->comps.len ||
	    !is_cast_or_var(c) || c->at != ATOP_CAST || c->comps.len || c->addr ||
	    c->pretty || c->args.len < 2 || !autocast_on(sc))
		return 0;
	copy = ar_alloc(sizeof(*copy));
	*copy = *c;
	n->rhs = c->args.v[0];
	expr(sc, n->rhs, 0);
	expr(sc, n->lhs, 1);
	s = n->lhs->ref;
	if (s && s->kind != SYM_GLOBAL)
		s->cast = copy;
	return 1;
}

/* A @cast(_, type) for a local to carry: autocast_local reads its type
 * (and module: none, the probe's own debuginfo) from it. */
static struct node *cast_carrier(const struct loc *l, const char *type)
{
	struct node *c = node_new(N_AT, l), *t = node_new(N_STR, l);

	c->name = "@cast";
	c->at = ATOP_CAST;
	t->str = type;
	vec_push_ar(&c->args, t);	/* (the value's place: never read) */
	vec_push_ar(&c->args, t);
	return c;
}

/* The @cast every return under n gives (one T); NULL, and *other set,
 * when a return gives anything else. */
static struct node *stmt_returns_cast(const struct node *n, struct node **seen, int *other)
{
	if (!n || *other)
		return NULL;
	if (n->kind == N_RETURN) {
		const struct node *v = n->lhs;

		if (v && v->kind == N_UNARY && v->op == OP_AMP)
			v = v->lhs;
		if (!v || v->kind != N_AT || v->at != ATOP_CAST || v->args.len < 2 ||
		    (node_comps(v) && node_comps(v)->len)) {
			*other = 1;
			return NULL;
		}
		if (*seen && strcmp(((struct node *)(*seen)->args.v[1])->str,
				    ((struct node *)v->args.v[1])->str))
			*other = 1;
		else if (!*seen)
			*seen = (struct node *)v;
		return *seen;
	}
	stmt_returns_cast(n->lhs, seen, other);
	stmt_returns_cast(n->rhs, seen, other);
	stmt_returns_cast(n->body, seen, other);
	if (n->kind == N_BLOCK || n->kind == N_TRY)
		for (int i = 0; i < n->args.len; i++)
			stmt_returns_cast(n->args.v[i], seen, other);
	return *other ? NULL : *seen;
}

/*
 * The type a call's value points to, as SystemTap's autocast has it: a
 * function whose every return is @cast(p, T[, M]) or & @cast(...) of one
 * T, or whose embedded C says "autocast: T" (task_current's
 * task_struct).  Its @cast then, else NULL.
 */
static struct node *returns_cast(const struct function *f)
{
	const struct node *body = f && f->decl ? f->decl->body : NULL;
	struct node *seen = NULL;
	int other = 0;
	const char *mark;

	if (!body)
		return NULL;
	if (body->kind == N_EMBEDDED) {
		char type[128];

		mark = strstr(body->str, "/* autocast: ");
		if (!mark || sscanf(mark + 13, "%127[A-Za-z0-9_]", type) != 1)
			return NULL;
		return cast_carrier(&body->loc, ar_strdup(type));
	}
	return stmt_returns_cast(body, &seen, &other);
}

/* The @cast a value carries to the local it is given (autocast): a
 * target expression's type (what it points to), a call's (returns_cast),
 * a local's own; else NULL. */
static struct node *value_cast(struct scope *sc, const struct node *v)
{
	const char *to;

	if (!autocast_on(sc))
		return NULL;
	if (v->kind == N_AT && v->at == ATOP_ENTRY && v->args.len == 1)
		v = v->args.v[0];
	if ((to = pmap_get(&sc->e->autocast, v))) {
		struct node *c = cast_carrier(&v->loc, to);

		/* a @cast's own debuginfo: its module or headers */
		if (v->kind == N_AT && v->at == ATOP_CAST && v->args.len == 3)
			vec_push_ar(&c->args, v->args.v[2]);
		return c;
	}
	if (v->kind == N_CALL && !(node_comps(v) && node_comps(v)->len) && v->ref)
		return returns_cast(v->ref);
	if (v->kind == N_VAR && !v->comps.len && v->ref)
		return ((struct symbol *)v->ref)->cast;
	return NULL;
}

/* n (x->member, f()->member) becomes @cast(x, T[, M])->member with c's
 * type and module: the cast takes n's members and its '$' and '&', its
 * operand n without them. */
static void cast_through(struct node *n, const struct node *c)
{
	struct node *operand = ar_alloc(sizeof(*operand)), *at = ar_alloc(sizeof(*at));

	*operand = *n;
	operand->comps = (struct vec){ 0 };
	operand->pretty = operand->addr = 0;
	*at = *c;
	at->loc = n->loc;
	at->args = (struct vec){ 0 };
	vec_push(&at->args, operand);
	for (int i = 1; i < c->args.len; i++)
		vec_push(&at->args, c->args.v[i]);
	at->comps = n->comps;
	at->pretty = n->pretty;
	at->addr = n->addr;
	at->ref = NULL;
	*n = *at;
}

/* f()->member of a function that returns a type (returns_cast): n
 * becomes @cast(f(), T[, M])->member.  0 when f returns none. */
static int autocast_call(struct scope *sc, struct node *n)
{
	struct node *c = autocast_on(sc) ? returns_cast(n->ref) : NULL;

	if (!c)
		return 0;
	cast_through(n, c);
	return 1;
}

/* x->member of a local x that carries a type (cast_assign): n becomes
 * @cast(x, T[, M])->member.  0 when x carries none. */
static int autocast_local(struct scope *sc, struct node *n)
{
	struct symbol *s = find_local(sc, n->name);

	if (!s || !s->cast)
		return 0;
	cast_through(n, s->cast);
	return 1;
}

static void assign_expr(struct scope *sc, struct node *n)
{
	if (cast_assign(sc, n))
		return;
	if (own_vars(sc) && own_vars(sc)->assign && n->lhs->kind == N_TARGET) {
		/* $value = x: a call of its setter with x */
		expr(sc, n->rhs, 0);
		if (!own_vars(sc)->assign(sc->e, sc->probe, n))
			return;
		dw_call(sc, n->lhs);
		vec_push_ar(&n->lhs->args, n->rhs);
		n->lhs->op = n->op;	/* -p2 shows the write as written */
		*n = *n->lhs;
		return;
	}
	if (dw_lvalue(sc, n->lhs)) {
		target_assign(sc, n);
		return;
	}
	lvalue_check(sc, n->lhs);
	expr(sc, n->rhs, 0);
	if (n->op != OP_ASSIGN && n->op != OP_SHL_STAT)
		expr(sc, n->lhs, 0);
	expr(sc, n->lhs, 1);
	if (n->lhs->kind == N_VAR && n->lhs->ref) {
		struct symbol *s = n->lhs->ref;

		/* a local given a typed value carries its type; any other
		 * value ends what it carried */
		s->cast = n->op == OP_ASSIGN && !n->lhs->comps.len && s->kind != SYM_GLOBAL ?
			  value_cast(sc, n->rhs) : NULL;
	}
	iterated_check(sc, n->lhs);
}

static void incdec_expr(struct scope *sc, struct node *n)
{
	if (own_vars(sc) && own_vars(sc)->assign && n->lhs->kind == N_TARGET) {
		own_vars(sc)->target(sc->e, sc->probe, n->lhs, 1, 0);
		return;
	}
	if (dw_lvalue(sc, n->lhs)) {
		sem_error(&n->lhs->loc, sc->e->s->guru ? "a target variable is written with '=' only" :
			  "writing to a target variable needs guru mode (-g)");
		return;
	}
	lvalue_check(sc, n->lhs);
	expr(sc, n->lhs, 0);
	expr(sc, n->lhs, 1);
	iterated_check(sc, n->lhs);
}

/* cond ? a : b, folded when cond is a constant. */
static void ternary_expr(struct scope *sc, struct node *n, int write)
{
	int k;

	expr(sc, n->cond, 0);
	k = constant(n->cond);
	if (k >= 0) {
		*n = *(k ? n->then : n->els);
		expr(sc, n, write);
		return;
	}
	expr(sc, n->then, 0);
	expr(sc, n->els, 0);
}

static void expr(struct scope *sc, struct node *n, int write);

/* (c ? a : b)->f with c constant (@choose_defined($x, $y)->f once its
 * @defined folds): n becomes the branch taken with n's members added to
 * its own; 1 when it did, the branch a target, @cast or autocast. */
static int autocast_fold(struct scope *sc, struct node *n)
{
	struct node *t = n->lhs, *pick, *m;
	int k;

	if (t->kind != N_TERNARY)
		return 0;
	expr(sc, t->cond, 0);
	k = constant(t->cond);
	pick = k < 0 ? NULL : k ? t->then : t->els;
	if (!pick || !(pick->kind == N_TARGET || pick->kind == N_AUTOCAST || is_cast_or_var(pick)))
		return 0;
	m = ar_alloc(sizeof(*m));
	*m = *pick;
	m->comps = (struct vec){ 0 };
	for (int i = 0; i < pick->comps.len; i++)
		vec_push(&m->comps, pick->comps.v[i]);
	for (int i = 0; i < n->comps.len; i++)
		vec_push(&m->comps, n->comps.v[i]);
	*n = *m;
	return 1;
}

static void expr(struct scope *sc, struct node *n, int write)
{
	struct symbol *s;

	switch (n->kind) {
	case N_NUM:
	case N_STR:
	case N_EMBEDDED:
	case N_STAR:
		return;
	case N_VAR:
		if (n->comps.len && autocast_local(sc, n)) {
			expr(sc, n, write);
			return;
		}
		if (n->comps.len) {
			needs_dwarf(n, "a typed member access ('->')");
			return;
		}
		s = variable(sc, n);
		n->ref = s;
		touch(sc, s, write);
		return;
	case N_INDEX:
		s = array(sc, n->lhs);
		n->ref = s;
		touch(sc, s, write);
		for (int i = 0; i < n->args.len; i++)
			expr(sc, n->args.v[i], 0);
		if (n->comps.len)
			needs_dwarf(n, "a typed member access ('->')");
		return;
	case N_IN:
		s = array(sc, n->lhs);
		n->ref = s;
		touch(sc, s, 0);
		for (int i = 0; i < n->args.len; i++)
			expr(sc, n->args.v[i], 0);
		return;
	case N_CALL:
		call(sc, n);
		if (n->comps.len && autocast_call(sc, n)) {
			expr(sc, n, write);
			return;
		}
		if (n->comps.len)
			needs_dwarf(n, "a typed member access ('->')");
		return;
	case N_TARGET:
		target_expr(sc, n, write);
		return;
	case N_AUTOCAST:
		if (autocast_fold(sc, n)) {
			expr(sc, n, write);
			return;
		}
		needs_dwarf(n, "a typed member access ('->')");
		return;
	case N_AT:
		at(sc, n);
		return;
	case N_UNARY:
		if (n->op == OP_AMP) {
			needs_dwarf(n, "taking an address ('&')");
			return;
		}
		expr(sc, n->lhs, 0);
		return;
	case N_INCDEC:
		incdec_expr(sc, n);
		return;
	case N_ASSIGN:
		assign_expr(sc, n);
		return;
	case N_BINARY:
		expr(sc, n->lhs, 0);
		expr(sc, n->rhs, 0);
		return;
	case N_TERNARY:
		ternary_expr(sc, n, write);
		return;
	default:
		return;
	}
}

/* ---- statements ---- */

static void foreach(struct scope *sc, struct node *n)
{
	struct foreach *fe = n->fe;
	struct symbol *arr = NULL;

	if (fe->array->kind == N_VAR) {
		arr = array(sc, fe->array);
		touch(sc, arr, 0);
	} else {
		at(sc, fe->array);
	}
	for (int i = 0; i < fe->slice.len; i++)
		expr(sc, fe->slice.v[i], 0);
	for (int i = 0; i < fe->keys.len; i++) {
		struct node *k = fe->keys.v[i];

		expr(sc, k, 1);
		if (k->ref)
			((struct symbol *)k->ref)->quiet = 1;
	}
	if (fe->value) {
		struct node v = { .kind = N_VAR, .name = fe->value, .loc = n->loc };
		struct symbol *s = variable(sc, &v);

		touch(sc, s, 1);
		if (s)
			s->quiet = 1;
		fe->value_sym = s;
	}
	if (fe->limit)
		expr(sc, fe->limit, 0);
	sc->loops++;
	if (arr && sc->niterating < 16)
		sc->iterating[sc->niterating++] = arr;
	stmt(sc, n->body);
	if (arr && sc->niterating && sc->iterating[sc->niterating - 1] == arr)
		sc->niterating--;
	sc->loops--;
}

/* if (cond) ..., the dead branch dropped when cond is a constant. */
static void if_stmt(struct scope *sc, struct node *n)
{
	int k;
	struct node *live;

	expr(sc, n->cond, 0);
	k = constant(n->cond);
	if (k < 0) {
		stmt(sc, n->then);
		stmt(sc, n->els);
		return;
	}
	live = k ? n->then : n->els;
	if (live)
		*n = *live;
	else
		n->kind = N_NULL;
	stmt(sc, n);
}

/* delete x, delete a[k], delete a */
static void delete_stmt(struct scope *sc, struct node *n)
{
	struct symbol *s;

	if (n->lhs->kind != N_VAR) {
		expr(sc, n->lhs, 1);
		iterated_check(sc, n->lhs);
		return;
	}
	s = known(sc, n->lhs->name);
	if (!s) {
		sem_error(&n->lhs->loc, "'%s' is not a variable known here", n->lhs->name);
		return;
	}
	n->lhs->ref = s;
	touch(sc, s, 1);
	iterated_check(sc, n->lhs);
}

static void stmt(struct scope *sc, struct node *n)
{
	if (!n)
		return;
	switch (n->kind) {
	case N_BLOCK:
		for (int i = 0; i < n->args.len; i++)
			stmt(sc, n->args.v[i]);
		return;
	case N_EXPRSTMT:
		expr(sc, n->lhs, 0);
		rmw_statement(n->lhs);
		return;
	case N_IF:
		if_stmt(sc, n);
		return;
	case N_WHILE:
	case N_FOR:
		if (n->kind == N_FOR && n->init)
			expr(sc, n->init, 0);
		if (n->cond)
			expr(sc, n->cond, 0);
		if (n->kind == N_FOR && n->incr)
			expr(sc, n->incr, 0);
		sc->loops++;
		stmt(sc, n->body);
		sc->loops--;
		return;
	case N_FOREACH:
		foreach(sc, n);
		return;
	case N_BREAK:
	case N_CONTINUE:
		if (!sc->loops)
			sem_error(&n->loc, "'%s' outside a loop",
				  n->kind == N_BREAK ? "break" : "continue");
		return;
	case N_RETURN:
		/* Only in functions: the parser saw to it. */
		if (n->lhs)
			expr(sc, n->lhs, 0);
		return;
	case N_DELETE:
		delete_stmt(sc, n);
		return;
	case N_TRY:
		stmt(sc, n->body);
		if (n->name) {
			struct symbol *s = variable(sc, n->lhs);

			touch(sc, s, 1);
			n->ref = s;
		}
		stmt(sc, n->els);
		return;
	default:
		return;
	}
}

static void resolve_probe(struct elab *e, struct derived_probe *d)
{
	struct scope sc = { .e = e, .file = d->file, .locals = &d->locals,
			    .probe = d };

	if (d->cond) {
		sc.in_cond = 1;
		expr(&sc, d->cond, 0);
		sc.in_cond = 0;
	}
	stmt(&sc, d->body);
}

static void resolve_function(struct elab *e, struct function *f)
{
	struct scope sc = { .e = e, .file = f->file, .locals = &f->locals,
			    .fn = f };

	f->resolved = 1;
	if (f->decl->body->kind == N_BLOCK)
		stmt(&sc, f->decl->body);
}

/* Expand and resolve until nothing new is pulled in: a tapset file
 * brings probes, a probe brings calls, a call brings a file. */
static int writes_global(struct function *f, struct symbol *s, int depth)
{
	if (depth > 64)
		return 0;
	for (int i = 0; i < f->writes.len; i++)
		if (f->writes.v[i] == s)
			return 1;
	for (int i = 0; i < f->calls.len; i++)
		if (writes_global(f->calls.v[i], s, depth + 1))
			return 1;
	return 0;
}

static void check_foreach_calls(struct elab *e)
{
	for (int i = 0; i + 1 < e->foreach_calls.len; i += 2) {
		struct node *call = e->foreach_calls.v[i];
		struct symbol *arr = e->foreach_calls.v[i + 1];

		for (struct function *f = call->ref; f; f = f->next)
			if (writes_global(f, arr, 0)) {
				sem_error(&call->loc, "'%s' is changed inside a foreach over it (by '%s')",
					  arr->name, f->name);
				break;
			}
	}
}

void resolve_program(struct elab *e)
{
	int probes_done = 0, funcs_done = 0, files_done = 0;

	lib_include(e, e->files.v[0]);
	if (e->s->unoptimized) {
		struct lib_file *user = e->files.v[0];

		for (int i = 0; i < user->script->decls.len; i++) {
			struct node *d = user->script->decls.v[i];

			if (d->kind == N_FUNCTION)
				use_function(e, function_of(e, d));
		}
	}
	for (;;) {
		if (files_done < e->pending_files.len) {
			probes_expand_file(e, e->pending_files.v[files_done++]);
		} else if (probes_done < e->probes.len) {
			resolve_probe(e, e->probes.v[probes_done++]);
		} else if (funcs_done < e->used_functions.len) {
			resolve_function(e, e->used_functions.v[funcs_done++]);
		} else {
			break;
		}
		if (diag_too_many())
			return;
	}
	check_foreach_calls(e);
}
