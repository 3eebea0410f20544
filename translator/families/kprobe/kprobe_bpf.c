// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kernel.function, kprobe.function and module(M).function under
 * --runtime=bpf.  A kernel.function is a BPF trampoline program
 * (fentry, or fexit for .return) when the target kernel has them, else
 * a kprobe (kretprobe), as it is for a function the kernel's BTF lacks;
 * a kprobe.function is always a kprobe, and -D STP_BPF_KPROBES makes
 * kernel.function one too.
 *
 * Either way the probe's handler sees registers: pass 2 compiles a
 * $var to embedded C that reads CONTEXT->regs as the x86-64 calling
 * convention has them on entry (DWARF, or BTF's argument order).  A
 * kprobe's context is those registers; a trampoline program gets the
 * arguments as an array, which its prologue lays out as registers
 * (kfunc.h), the return value in ax for fexit.  So one body serves
 * both, and the kmod runtime's $var code is the BPF one too.
 */
#include "../../bpf/bpf.h"
#include "../../btf/btf.h"
#include "../../front/session.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

/* Kernel function probes in one script: each is a program of its own,
 * verified and attached one by one. */
#define MAX_KFUNC 128

/* Whether the target is the kernel stp runs on (no --sysroot, its
 * release): then /proc/kallsyms says what it has. */
static int target_is_running(const struct session *s)
{
	struct utsname u;

	return !s->sysroot && !uname(&u) && !strcmp(u.release, s->kernel_release);
}

static int kallsyms_has(const char *sym)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512], want[128];
	int found = 0;

	snprintf(want, sizeof(want), " %s\n", sym);
	while (f && !found && fgets(line, sizeof(line), f))
		found = strstr(line, want) != NULL;
	if (f)
		fclose(f);
	return found;
}

/* CONFIG_name=y in the target's config (boot/config-KREL, else the
 * build tree's .config); -1 when neither is there. */
static int config_has(const struct session *s, const char *name)
{
	const char *p = target_path(s, ar_printf("/boot/config-%s", s->kernel_release));
	char line[512];
	size_t n = strlen(name);
	int found = 0;
	FILE *f;

	if (!p)
		p = target_path(s, ar_printf("/lib/modules/%s/build/.config", s->kernel_release));
	f = p ? fopen(p, "r") : NULL;
	if (!f)
		return -1;
	while (!found && fgets(line, sizeof(line), f))
		found = !strncmp(line, name, n) && !strcmp(line + n, "=y\n");
	fclose(f);
	return found;
}

/* The target's feature: its config, else (the running kernel) a symbol
 * only a kernel with it has, or a file only it has. */
static int target_has(const struct session *s, const char *config, const char *sym)
{
	int c = config_has(s, config);

	if (c >= 0)
		return c;
	if (!target_is_running(s))
		return 0;
	return *sym == '/' ? regular_file(sym) : kallsyms_has(sym);
}

enum kf_how { KF_UNKNOWN, KF_FENTRY, KF_KPROBE, KF_NEITHER };

/* Why the target has no BPF trampolines, or NULL when it has them.  The
 * running kernel is asked (libbpf loads a probe program): a kernel can
 * be built with them and refuse them, as this build machine's does. */
static const char *no_fentry(const struct session *s)
{
	if (config_has(s, "CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS") == 0 ||
	    config_has(s, "CONFIG_DEBUG_INFO_BTF") == 0)
		return "no BPF trampolines (fentry needs CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS "
		       "and CONFIG_DEBUG_INFO_BTF)";
	if (target_is_running(s)) {
		int rc = libbpf_probe_bpf_prog_type(BPF_PROG_TYPE_TRACING, NULL);

		if (!regular_file("/sys/kernel/btf/vmlinux"))
			return "no BPF trampolines (fentry needs its BTF, /sys/kernel/btf/vmlinux)";
		if (rc == 0 || (rc < 0 && !kallsyms_has("bpf_trampoline_link_prog")))
			return "no BPF trampolines (it refuses to load an fentry program)";
		return NULL;
	}
	return config_has(s, "CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS") > 0 ? NULL :
		"no BPF trampolines (its config is not there to say: no boot/config-RELEASE)";
}

static enum kf_how kernel_how(const struct session *s, const char **why)
{
	static enum kf_how how;
	static const char *because;

	if (how == KF_UNKNOWN) {
		because = no_fentry(s);
		if (!because)
			how = KF_FENTRY;
		else if (target_has(s, "CONFIG_KPROBES", "register_kprobe"))
			how = KF_KPROBE;
		else
			how = KF_NEITHER;
	}
	if (why)
		*why = because;
	return how;
}

static int defined(const struct session *s, const char *name)
{
	for (int i = 0; i < s->defines.len; i++) {
		const char *d = s->defines.v[i];
		size_t n = strlen(name);

		if (!strncmp(d, name, n) && (!d[n] || d[n] == '='))
			return 1;
	}
	return 0;
}

/* Whether the target's BTF has function name (a trampoline program is
 * attached by its BTF id): system call wrappers, for one, are not there. */
static int in_btf(const struct session *s, const struct derived_probe *d)
{
	const char *why;
	struct kbtf *k = d->module ? kbtf_module_load(s, d->module, &why) : kbtf_load(s, &why);

	return k && btf__find_by_name_kind(k->btf, d->symbol, BTF_KIND_FUNC) > 0;
}

/* Whether probe d is a kprobe (else a trampoline program). */
int bx_kfunc_is_kprobe(struct bx *x, const struct derived_probe *d)
{
	const struct session *s = x->e->s;

	if (d->family != PF_KPROBE)
		return 0;
	/* a trampoline is at a function's entry: a statement, an inlined
	 * copy or an offset needs a kprobe */
	if (!strcmp(d->pp->comps[0].name, "kprobe") || d->inlined || d->offset ||
	    defined(s, "STP_BPF_KPROBES"))
		return 1;
	return kernel_how(s, NULL) != KF_FENTRY || !in_btf(s, d);
}

/* Why no program can be written for d; NULL when one can. */
static const char *refusal(struct bx *x, const struct derived_probe *d)
{
	const struct session *s = x->e->s;
	int kp = target_has(s, "CONFIG_KPROBES", "register_kprobe");
	const char *fentry;

	if (kernel_how(s, &fentry) == KF_NEITHER)
		return ar_printf("%s has %s, and no kprobes (CONFIG_KPROBES)",
				 target_is_running(s) ? "the running kernel" :
				 ar_printf("kernel %s", s->kernel_release), fentry);
	if (bx_kfunc_is_kprobe(x, d) && !kp)
		return ar_printf("it needs a kprobe (%s), and %s has no kprobes "
				 "(CONFIG_KPROBES)", !strcmp(d->pp->comps[0].name, "kprobe") ?
				 "kprobe.function" : defined(s, "STP_BPF_KPROBES") ?
				 "-D STP_BPF_KPROBES" : "not at a function's entry",
				 target_is_running(s) ? "the running kernel" :
				 ar_printf("kernel %s", s->kernel_release));
	return NULL;
}

/* The section of kernel function probe d (number i) and its line of the
 * runner's attach table; NULL after an error. */
const char *bx_kfunc_section(struct bx *x, struct derived_probe *d, int i, struct sbuf *att)
{
	static int count;
	const char *why = refusal(x, d), *sym = d->kp_symbol ? d->kp_symbol : d->symbol, *sec;

	if (why) {
		bx_refuse(x, &d->loc, "probe point %s cannot run under --runtime=bpf: %s", d->name,
			  why);
		return NULL;
	}
	if (++count == MAX_KFUNC + 1) {
		bx_refuse(x, &d->loc, "probe point %s is kernel function probe %d: --runtime=bpf "
			  "attaches at most %d, one BPF program each (a narrower pattern?)",
			  d->name, count, MAX_KFUNC);
		return NULL;
	}
	if (count > MAX_KFUNC)
		return NULL;
	sb_printf(att, "\t{ \"p%d\", STP_ATTACH_AUTO, 0, 0, 0, 0, \"%s\" },\n", i,
		  bx_cstr(d->name));
	/* libbpf looks for a trampoline's function in the modules' BTF
	 * too; a kprobe names the module */
	if (!bx_kfunc_is_kprobe(x, d)) {
		sec = ar_printf("%s/%s", d->is_return ? "fexit" : "fentry", sym);
	} else {
		if (d->module)
			sym = ar_printf("%s:%s", d->module, sym);
		if (d->offset && !d->is_return)
			sym = ar_printf("%s+0x%llx", sym, (unsigned long long)d->offset);
		sec = ar_printf("%s/%s", d->is_return ? "kretprobe" : "kprobe", sym);
	}
	if (d->is_return)
		bx_kentry_program(x, d, i, sec, att);
	return sec;
}

/* The registers (pass 2's DWARF $vars, the *_arg functions) and the
 * arguments as an array (BTF $vars) of a kernel function probe, kprobe
 * or trampoline program, once c is claimed. */
void bx_kfunc_context(struct bx *x, int is_return, int kprobe)
{
	if (!x->ctx.s || !strstr(x->ctx.s, "\tstruct pt_regs kregs;\n"))
		sb_puts(&x->ctx, "\tstruct pt_regs kregs;\n\tu64 kargs[8];\n");
	if (kprobe)
		sb_puts(&x->code, "\tstp_kf_args(ctx, c->kargs);\n\tk.entry = c->kargs;\n");
	else
		sb_printf(&x->code, "\tstp_kf_regs(ctx, &c->kregs, %d);\n\tk.regs = &c->kregs;\n"
			  "\tk.entry = ctx;\n", is_return);
}

/* After the probe's context is claimed: its registers, its function's
 * name (probefunc()). */
void bx_kfunc_prologue(struct bx *x, const struct derived_probe *d, int i)
{
	(void)i;
	if (!x->hoist.s || !strstr(x->hoist.s, "#include \"kfunc.h\"\n"))
		sb_puts(&x->hoist, "#include \"kfunc.h\"\n\n");
	bx_kfunc_context(x, d->is_return, bx_kfunc_is_kprobe(x, d));
	sb_printf(&x->code, "\tk.func = \"%s\";\n", bx_cstr(d->symbol ? d->symbol : ""));
	if (d->is_return)
		bx_kentry_take(x, d);
}
