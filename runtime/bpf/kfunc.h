/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A BPF trampoline program's (fentry, fexit) arguments laid out as the
 * registers x86-64's calling convention passes them in, so that pass
 * 2's $var code, which reads CONTEXT->regs, is the same for them as for
 * a kprobe (translator/bpf/gen_kfunc.c).  bpf_get_func_arg and
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

#endif
