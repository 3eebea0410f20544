/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the code generated for DWARF target variables calls
 * (translator/dwarf/dwarf_var.c): memory reads and writes that never fault,
 * and the pieces of $var$ / $$vars text.
 */
#ifndef STP_TARGET_H
#define STP_TARGET_H

#include <linux/uaccess.h>

/*
 * A kernel member's offset in a chain pass 2 resolved by BTF
 * (translator/btf/btf_core.c): the module is built for one kernel, so
 * the number the build's BTF gave; the BPF runtime relocates it
 * instead (runtime/bpf/kern.h).
 */
#define STP_CORE_OFFSET(kind, type, path, off) (off)
#define STP_CORE_EXISTS(kind, type, path) 1

/* 0, or non-zero when addr cannot be read. */
static inline int stp_tv_read(void *dst, unsigned long addr, size_t n, int user)
{
	if (user)
		return copy_from_user_nofault(dst, (const void __user *)addr, n) ? -EFAULT : 0;
	return copy_from_kernel_nofault(dst, (const void *)addr, n) ? -EFAULT : 0;
}

static inline int stp_tv_write(unsigned long addr, const void *src, size_t n, int user)
{
	if (user)
		return copy_to_user_nofault((void __user *)addr, src, n) ? -EFAULT : 0;
	return copy_to_kernel_nofault((void *)addr, src, n) ? -EFAULT : 0;
}

/*
 * A char array (size bytes, 0: unknown) as a string; one that does not
 * fit is cut and counted.
 */
static inline int stp_tv_string(char *dst, unsigned long addr, long size, int user)
{
	bool fits = size > 0 && size < MAXSTRINGLEN;
	long n = fits ? size : MAXSTRINGLEN - 1, i;

	for (i = 0; i < n; i++) {
		if (stp_tv_read(&dst[i], addr + i, 1, user)) {
			dst[0] = '\0';
			return -EFAULT;
		}
		if (!dst[i])
			return 0;
	}
	dst[i] = '\0';
	if (!fits)
		stp_count(STP_EV_STR_TRUNC);
	return 0;
}

static inline void stp_tv_hex(char *out, u64 v)
{
	char b[24];

	snprintf(b, sizeof(b), "%#llx", (unsigned long long)v);
	stp_str_append(out, b);
}

/*
 * "text", escaped as SystemTap prints strings in $$vars.  Only probe
 * handlers call it: their CPU's context, and its scratch, are theirs.
 */
static inline void stp_tv_quoted(char *out, unsigned long addr, long size, int user)
{
	struct stp_ctx *c = this_cpu_read(stp_ctx_of);
	char *raw = c->scratch[0], *esc = c->scratch[1];

	if (!addr || stp_tv_string(raw, addr, size, user)) {
		stp_str_append(out, addr ? "?" : "(null)");
		return;
	}
	stp_text_escape(esc, raw, MAXSTRINGLEN / 4, 1);
	stp_str_append(out, esc);
}

#endif
