/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A BPF trampoline program's (fentry, fexit) arguments laid out as the
 * registers x86-64's calling convention passes them in, so that pass
 * 2's $var code, which reads CONTEXT->regs, is the same for them as for
 * a kprobe (translator/families/kprobe/kprobe_bpf.c).  bpf_get_func_arg and
 * bpf_get_func_ret: Linux 5.17.
 */
#ifndef STP_BPF_KFUNC_H
#define STP_BPF_KFUNC_H

STP_INLINE u64 stp_kf_arg(void *ctx, u32 n)
{
	u64 v = 0;

	/* past the function's arguments, -EINVAL and v stays 0 */
	bpf_get_func_arg(ctx, n, &v);
	return v;
}

STP_INLINE void stp_kf_regs(void *ctx, struct pt_regs *r, int ret)
{
	u64 v = 0;

	r->di = stp_kf_arg(ctx, 0);
	r->si = stp_kf_arg(ctx, 1);
	r->dx = stp_kf_arg(ctx, 2);
	r->cx = stp_kf_arg(ctx, 3);
	r->r8 = stp_kf_arg(ctx, 4);
	r->r9 = stp_kf_arg(ctx, 5);
	if (ret)
		bpf_get_func_ret(ctx, &v);
	r->ax = v;
}

/* A kprobe's arguments as the array a trampoline program gets (what
 * BTF $vars read, CONTEXT->entry): six in registers, the next two on
 * the stack above the return address (at the function's entry, where
 * such a kprobe is). */
STP_INLINE void stp_kf_args(const struct pt_regs *r, u64 *a)
{
	a[0] = r->di;
	a[1] = r->si;
	a[2] = r->dx;
	a[3] = r->cx;
	a[4] = r->r8;
	a[5] = r->r9;
	if (bpf_probe_read_kernel(&a[6], 2 * sizeof(u64), (const void *)(r->sp + 8)))
		a[6] = a[7] = 0;
}

/* What pass 2's $$parms and $var$ code calls (stp_str_append,
 * stp_tv_hex, stp_tv_quoted) is text.h's, which kern.h includes. */

#endif
