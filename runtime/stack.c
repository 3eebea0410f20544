// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Stack traces and symbols (stack.h): the kernel's unwinder and kallsyms,
 * through what both kernel lines export to modules: __unwind_start,
 * unwind_next_frame, unwind_get_return_address (stack_trace_save_regs is
 * not exported), sprint_symbol and sprint_symbol_no_offset (kallsyms_lookup
 * is not), copy_from_user_nofault for user frames.
 */
#include <linux/kallsyms.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/uaccess.h>
#include <asm/unwind.h>

/* Per CPU: nothing this big goes on the stack of a probe hit. */
struct stp_stack_cpu {
	unsigned long pcs[MAXBACKTRACE];
	char sym[KSYM_SYMBOL_LEN];	/* what sprint_symbol writes */
	char fmt[KSYM_SYMBOL_LEN + 16];	/* a frame's symbol, formatted */
	char item[KSYM_SYMBOL_LEN + MAXSTRINGLEN + 32];	/* a frame's line */
	char in[MAXSTRINGLEN];		/* sprint_stack's argument */
};

#define STP_SCRATCH(f) (this_cpu_ptr(stp_stack_cpus)->f)
#define STP_FMT_LEN (KSYM_SYMBOL_LEN + 16)
#define STP_ITEM_LEN (KSYM_SYMBOL_LEN + MAXSTRINGLEN + 32)

static struct stp_stack_cpu __percpu *stp_stack_cpus;

int stp_stack_alloc(void)
{
	stp_stack_cpus = alloc_percpu(struct stp_stack_cpu);
	return stp_stack_cpus ? 0 : -ENOMEM;
}

void stp_stack_free(void)
{
	free_percpu(stp_stack_cpus);
	stp_stack_cpus = NULL;
}

unsigned long *stp_stack_pcs(void)
{
	return this_cpu_ptr(stp_stack_cpus)->pcs;
}

/*
 * With registers (kprobes, timer.profile), the trace starts at the
 * interrupted address and goes on with its callers; a hit that
 * interrupted user space has no kernel stack.  Without (begin, end,
 * timer.s), it starts where the handler was called from: the frames of
 * this module at the top (the handler, the session) are left out.
 */
int stp_kstack(struct stp_ctx *c, unsigned long *pcs, int max)
{
	struct pt_regs *regs = c->regs;
	struct unwind_state st;
	unsigned long a;
	int n = 0;

	if (max <= 0)
		return 0;
	if (regs) {
		if (user_mode(regs))
			return 0;
		pcs[n++] = regs->ip;
	}
	for (unwind_start(&st, current, regs, NULL); n < max && !unwind_done(&st);
	     unwind_next_frame(&st)) {
		a = unwind_get_return_address(&st);
		if (!a)
			break;
		if (!n && within_module(a, THIS_MODULE))
			continue;
		pcs[n++] = a;
	}
	return n;
}

/*
 * Another task's kernel stack, from where it last left the CPU: only
 * meaningful, and safe, while that task is alive and not running: the
 * next task of a sched_switch hit, held on its runqueue under the rq
 * lock (put_task_stack, which a reference would need, is not exported).
 * Not one that is runnable (sched_switch's next is): where a kretprobe's
 * trampoline stands in for a return address on its stack, the unwinder
 * may not recover it for a task that could be running, and warns
 * (rethook_find_ret_addr); such a task gets no kernel frames.
 */
int stp_task_kstack(struct task_struct *t, unsigned long *pcs, int max)
{
	struct unwind_state st;
	unsigned long a;
	int n = 0;

	if (max <= 0 || (t != current && task_is_running(t)))
		return 0;
	for (unwind_start(&st, t, NULL, NULL); n < max && !unwind_done(&st);
	     unwind_next_frame(&st)) {
		a = unwind_get_return_address(&st);
		if (!a)
			break;
		pcs[n++] = a;
	}
	return n;
}

/*
 * The registers the task entered the kernel with (or the interrupted
 * ones, when the hit came from user space), then the chain of saved
 * frame pointers: [fp] the caller's fp, [fp + 8] the return address.
 * Code built without frame pointers (most of a distribution) breaks the
 * chain; the walk stops at the first frame that does not go up the
 * stack or cannot be read without faulting.  An i386 program's frames
 * are 4-byte ones: stp_ustack32.
 */
/* An i386 program's (a compat task's) chain: 4-byte frames, [fp] the
 * caller's fp, [fp + 4] the return address; pcs[0] is filled. */
static int stp_ustack32(struct pt_regs *regs, unsigned long *pcs, int max)
{
	u32 fp = (u32)regs->bp, frame[2];
	int n = 1;

	while (n < max) {
		if (!fp || (fp & 3) || fp < (u32)regs->sp || fp > U32_MAX - sizeof(frame))
			break;
		if (copy_from_user_nofault(frame, (const void __user *)(unsigned long)fp,
					   sizeof(frame)))
			break;
		if (!frame[1])
			break;
		pcs[n++] = frame[1];
		if (frame[0] <= fp)
			break;
		fp = frame[0];
	}
	return n;
}

int stp_ustack(struct stp_ctx *c, unsigned long *pcs, int max)
{
	struct pt_regs *regs = c->regs;
	unsigned long fp, frame[2];
	int n = 0;

	if (max <= 0)
		return 0;
	if (!regs || !user_mode(regs)) {
		if (!current->mm || (current->flags & PF_KTHREAD))
			return 0;
		regs = task_pt_regs(current);
	}
	if (!regs->ip)
		return 0;
	pcs[n++] = regs->ip;
	if (!user_64bit_mode(regs))
		return stp_ustack32(regs, pcs, max);
	fp = regs->bp;
	while (n < max) {
		if (!fp || (fp & 7) || fp < regs->sp || fp >= TASK_SIZE_MAX - sizeof(frame))
			break;
		if (copy_from_user_nofault(frame, (const void __user *)fp, sizeof(frame)))
			break;
		if (!frame[1] || frame[1] >= TASK_SIZE_MAX)
			break;
		pcs[n++] = frame[1];
		if (frame[0] <= fp)
			break;
		fp = frame[0];
	}
	return n;
}

/*
 * sprint_symbol's "name+0xoff/0xsize [module]" (no module: vmlinux) in
 * this CPU's buffer, or NULL when addr is in no symbol.
 */
static const char *stp_sym(unsigned long addr)
{
	char *b = this_cpu_ptr(stp_stack_cpus)->sym;

	if (!addr)
		return NULL;
	sprint_symbol(b, addr);
	/* unknown: sprint_symbol writes the address, "0x..." */
	if (b[0] == '0' && b[1] == 'x')
		return NULL;
	return b;
}

static void stp_hex(char *dst, size_t n, unsigned long addr)
{
	snprintf(dst, n, "0x%016lx", addr);
}

void stp_symname(char *dst, size_t n, unsigned long addr)
{
	const char *s = stp_sym(addr);
	size_t l;

	if (!s) {
		stp_hex(dst, n, addr);
		return;
	}
	l = strcspn(s, "+ ");
	if (l >= n)
		l = n - 1;
	memcpy(dst, s, l);
	dst[l] = '\0';
}

/* "name+0xoff/0xsize [mod]" */
void stp_symdata(char *dst, size_t n, unsigned long addr)
{
	const char *s = stp_sym(addr);

	if (!s)
		stp_hex(dst, n, addr);
	else if (strchr(s, '['))
		snprintf(dst, n, "%s", s);
	else
		snprintf(dst, n, "%s [kernel]", s);
}

/* "name+0xoff [mod]", sprint_backtrace's frames */
static void stp_symsimple(char *dst, size_t n, unsigned long addr)
{
	const char *s = stp_sym(addr);
	const char *mod;
	size_t l;

	if (!s) {
		stp_hex(dst, n, addr);
		return;
	}
	l = strcspn(s, "/ ");
	mod = strchr(s, '[');
	snprintf(dst, n, "%.*s [%s", (int)l, s, mod ? mod + 1 : "kernel]");
}

/* Append item to dst (MAXSTRINGLEN) if it fits whole; 0 when not. */
static int stp_put_item(char *dst, size_t *len, const char *item)
{
	size_t l = strlen(item);

	if (*len + l >= MAXSTRINGLEN)
		return 0;
	memcpy(dst + *len, item, l + 1);
	*len += l;
	return 1;
}

void stp_stack_sprint(char *dst, const unsigned long *pcs, int n, int how)
{
	char *item = STP_SCRATCH(item), *sym = STP_SCRATCH(fmt);
	size_t len = 0;
	int i;

	dst[0] = '\0';
	for (i = 0; i < n; i++) {
		switch (how) {
		case STP_BT_HEX:
			snprintf(item, STP_ITEM_LEN, "%s0x%016lx", i ? " " : "", pcs[i]);
			break;
		case STP_BT_SIMPLE:
			stp_symsimple(sym, STP_FMT_LEN, pcs[i]);
			snprintf(item, STP_ITEM_LEN, "%s\n", sym);
			break;
		case STP_BT_FULL:
			stp_symdata(sym, STP_FMT_LEN, pcs[i]);
			snprintf(item, STP_ITEM_LEN, " 0x%016lx : %s\n", pcs[i], sym);
			break;
		default:
			snprintf(item, STP_ITEM_LEN, "0x%016lx\n", pcs[i]);
			break;
		}
		if (!stp_put_item(dst, &len, item)) {
			stp_count(STP_EV_STR_TRUNC);
			break;
		}
	}
}

static void stp_print_line(struct stp_out *o, const char *tok, size_t toklen,
			   unsigned long addr)
{
	char *sym = STP_SCRATCH(fmt);

	stp_symdata(sym, STP_FMT_LEN, addr);
	stp_out_char(o, ' ');
	stp_out_write(o, tok, toklen);
	stp_out_str(o, " : ");
	stp_out_str(o, sym);
	stp_out_char(o, '\n');
}

void stp_stack_print(struct stp_ctx *c, const unsigned long *pcs, int n)
{
	char hex[24];
	int i;

	for (i = 0; i < n; i++) {
		stp_hex(hex, sizeof(hex), pcs[i]);
		stp_print_line(c->out, hex, strlen(hex), pcs[i]);
	}
}

void stp_ustack_print(struct stp_ctx *c, const unsigned long *pcs, int n)
{
	char line[80];
	int i;

	for (i = 0; i < n; i++) {
		snprintf(line, sizeof(line), " 0x%016lx%c%d %lx%c\n", pcs[i],
			 STP_USYM_OPEN, task_tgid_nr(current), pcs[i], STP_USYM_CLOSE);
		stp_out_str(c->out, line);
	}
}

/* strtol(tok, 16) as SystemTap's: an optional 0x, the longest hex prefix, wrapping. */
static unsigned long stp_parse_hex(const char *p, size_t l)
{
	unsigned long v = 0;
	size_t i = 0;

	if (l >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		i = 2;
	for (; i < l; i++) {
		int d = hex_to_bin(p[i]);

		if (d < 0)
			break;
		v = v * 16 + d;
	}
	return v;
}

/* The next space-separated token of *s; its length, 0 at the end. */
static size_t stp_next_tok(const char **s, const char **tok)
{
	const char *p = *s;
	size_t l;

	while (*p == ' ')
		p++;
	l = strcspn(p, " ");
	*tok = p;
	*s = p + l;
	return l;
}

void stp_syms_print(struct stp_ctx *c, const char *stk)
{
	const char *tok;
	size_t l;

	while ((l = stp_next_tok(&stk, &tok)))
		stp_print_line(c->out, tok, l, stp_parse_hex(tok, l));
}

void stp_syms_sprint(char *dst, const char *stk)
{
	char *item = STP_SCRATCH(item), *sym = STP_SCRATCH(fmt);
	char *in = STP_SCRATCH(in);
	const char *tok;
	size_t l, len = 0;

	/* dst may be stk (s = sprint_stack(s)) */
	strscpy(in, stk, MAXSTRINGLEN);
	stk = in;
	dst[0] = '\0';
	while ((l = stp_next_tok(&stk, &tok))) {
		stp_symdata(sym, STP_FMT_LEN, stp_parse_hex(tok, l));
		snprintf(item, STP_ITEM_LEN, " %.*s : %s\n", (int)l, tok, sym);
		if (!stp_put_item(dst, &len, item)) {
			stp_count(STP_EV_STR_TRUNC);
			break;
		}
	}
}
