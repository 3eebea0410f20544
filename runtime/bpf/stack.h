/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Stacks in a kernel probe (tapsets/stack.stp's BPF flavours): the
 * hit's kernel or user stack by bpf_get_stack (the kernel's unwinder;
 * frame pointers for user stacks, as the kmod runtime walks them), as
 * the kmod runtime's hex lists, "0x%016lx 0x%016lx ...", so that a
 * backtrace() kept as an array key is the same string.  Symbols are
 * user space's (staprun/bpf/ksym.c): a print_stack() is a marker it
 * expands, see there.
 */
#ifndef STP_BPF_STACK_H
#define STP_BPF_STACK_H

#ifndef MAXBACKTRACE
#define MAXBACKTRACE 20		/* frames of a backtrace, as SystemTap's */
#endif
/* "0x" and 16 digits, and a space before all but the first */
#define STP_BT_ITEM 19
#define STP_BT_FIT (MAXSTRINGLEN / STP_BT_ITEM)

struct stp_bframes {
	u64 pc[MAXBACKTRACE];
};

/* The frames, per CPU: 160 bytes would crowd BPF's 512-byte stack. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct stp_bframes);
} stp_bframes_map SEC(".maps");

/* The hit's stack (user: the current task's user stack) into *f; the
 * number of frames, 0 when there is none. */
STP_INLINE int stp_bstack(struct stp_kctx *k, struct stp_bframes **f, int user)
{
	u32 zero = 0;
	long n;

	*f = bpf_map_lookup_elem(&stp_bframes_map, &zero);
	if (!*f || !k->ctx)
		return 0;
	n = bpf_get_stack(k->ctx, (*f)->pc, sizeof((*f)->pc), user ? BPF_F_USER_STACK : 0);
	return n > 0 ? (int)((u64)n / 8) : 0;
}

STP_INLINE void stp_bhex(char *dst, u64 a)
{
	dst[0] = '0';
	dst[1] = 'x';
#pragma unroll
	for (int i = 0; i < 16; i++) {
		unsigned d = (a >> (60 - 4 * i)) & 15;

		dst[2 + i] = d < 10 ? '0' + d : 'a' + d - 10;
	}
}

/* backtrace(), ubacktrace(), and callers(level), ucallers(level): levels
 * 0 to level (-1: all), whole addresses only, as many as fit; -1 when
 * the stack has no such level. */
STP_INLINE int stp_bstack_hex(struct stp_kctx *k, char *dst, int user, int64_t level)
{
	struct stp_bframes *f;
	int n = stp_bstack(k, &f, user);

	dst[0] = 0;
	if (level < -1 || level >= n)
		return level == -1 ? 0 : -1;
	if (level >= 0)
		n = (int)level + 1;
	/* i < STP_BT_FIT: the offsets stay inside the string */
	for (int i = 0; i < STP_BT_FIT && i < MAXBACKTRACE; i++) {
		if (i >= n)
			break;
		if (i)
			dst[i * STP_BT_ITEM - 1] = ' ';
		stp_bhex(dst + i * STP_BT_ITEM, f->pc[i]);
		dst[i * STP_BT_ITEM + 18] = 0;
	}
	return 0;
}

/* stack(n), ustack(n): the address level n down; -1 past the end. */
STP_INLINE int stp_bstack_at(struct stp_kctx *k, int64_t level, int user, int64_t *out)
{
	struct stp_bframes *f;
	int n = stp_bstack(k, &f, user);

	u32 i = (u32)level;

	if (level < 0 || level >= n)
		return -1;
	/* the bound checked where the verifier sees it */
	asm volatile("" : "+r"(i));
	if (i >= MAXBACKTRACE)
		return -1;
	*out = (int64_t)f->pc[i];
	return 0;
}

/* sprint_stack() and sprint_ustack() in a kernel probe: the list marked
 * for the runner (kind 'K', or 'V' with the process's id as 8 hex
 * digits and a space; see staprun/bpf/ksym.c for the others),
 * symbolized when it is printed; the end marker is lost when the list
 * fills the string, which the runner allows. */
STP_INLINE void stp_bmark(char *dst, char kind, const char *stk, u32 pid)
{
	int at = 2;
	long n;

	dst[0] = '\036';
	dst[1] = kind;
	if (kind == 'V') {
#pragma unroll
		for (int i = 0; i < 8; i++) {
			unsigned d = (pid >> (28 - 4 * i)) & 15;

			dst[2 + i] = d < 10 ? '0' + d : 'a' + d - 10;
		}
		dst[10] = ' ';
		at = 11;
	}
	n = bpf_probe_read_kernel_str(dst + at, MAXSTRINGLEN - 12, stk);
	if (n < 1)
		n = 1;
	/* the NUL's place, bounded for the verifier */
	u32 end = (u32)(at + n - 1);

	asm volatile("" : "+r"(end));
	if (end < MAXSTRINGLEN - 2) {
		dst[end] = '\037';
		dst[end + 1] = 0;
	}
}

/* symname(addr), symdata(addr) in a kernel probe: kind 'N' or 'D' and
 * the address, for the runner. */
STP_INLINE void stp_bmark_addr(char *dst, char kind, u64 addr)
{
	dst[0] = '\036';
	dst[1] = kind;
	stp_bhex(dst + 2, addr);
	dst[20] = '\037';
	dst[21] = 0;
}

#endif
