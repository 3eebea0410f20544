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

/* Scratch for the string functions below: 0 for stp_str_append, 1 for
 * what the others build.  Twice MAXSTRINGLEN, so that a copy to a
 * place the verifier cannot pin down stays in bounds. */
struct stp_kf_buf {
	char s[2 * MAXSTRINGLEN];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 2);
	__type(key, u32);
	__type(value, struct stp_kf_buf);
} stp_kf_scratch SEC(".maps");

STP_INLINE char *stp_kf_buf(u32 i)
{
	struct stp_kf_buf *b = bpf_map_lookup_elem(&stp_kf_scratch, &i);

	return b ? b->s : 0;
}

/*
 * What pass 2's $$parms and $var$ code calls (the kmod runtime's are in
 * runtime/str.h and runtime/target.h).  dst += s, cut at MAXSTRINGLEN:
 * helper copies, no loops (a $$parms makes many calls, and the verifier
 * would walk every loop's every turn).
 */
STP_INLINE void stp_str_append(char *dst, const char *s)
{
	char *b = stp_kf_buf(0);
	long n;

	if (!b)
		return;
	n = bpf_probe_read_kernel_str(b, MAXSTRINGLEN, dst);
	n = n < 1 ? 0 : n - 1;
	n &= MAXSTRINGLEN - 1;
	bpf_probe_read_kernel_str(b + n, MAXSTRINGLEN, s);
	b[MAXSTRINGLEN - 1] = 0;
	bpf_probe_read_kernel_str(dst, MAXSTRINGLEN, b);
}

/* v as %#llx: "0", else "0x" and its hex digits. */
STP_INLINE void stp_tv_hex(char *out, u64 v)
{
	char *h = stp_kf_buf(1);
	int digits = 0;

	if (!h)
		return;
	for (u64 w = v; w && digits < 16; w >>= 4)
		digits++;
	h[0] = '0';
	h[1] = 'x';
	for (int k = 0; k < 16 && k < digits; k++)
		h[2 + k] = "0123456789abcdef"[(v >> (4 * (digits - 1 - k))) & 15];
	h[(2 + digits) & 31] = 0;
	stp_str_append(out, v ? h : "0");
}

/* A char * member or argument, "quoted" (not escaped); "(null)", or "?"
 * when it cannot be read. */
STP_INLINE void stp_tv_quoted(char *out, unsigned long addr, long size, int user)
{
	char *b = stp_kf_buf(1);

	(void)size;
	if (!b)
		return;
	b[0] = '"';
	if (!addr || stp_strncpy_nofault(b + 1, (const void *)addr, MAXSTRINGLEN / 4, user) < 0) {
		stp_str_append(out, addr ? "?" : "(null)");
		return;
	}
	stp_str_append(out, b);
	stp_str_append(out, "\"");
}

#endif
