/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The BPF side's support, for the code translator/bpf/ generates: the
 * ring buffer, errors, exit(), and the map operations a script's
 * arrays and statistics need.  The user side (user.h) has the same
 * names over map file descriptors, so one generator serves both.
 *
 * The generated file defines MAXSTRINGLEN, struct stp_ctx (a probe's
 * locals and temporaries, in a per-CPU map: BPF's stack is 512 bytes)
 * and struct stp_globals (scalars, in .bss, which user space maps)
 * before it includes this.
 */
#ifndef STP_BPF_KERN_H
#define STP_BPF_KERN_H

#include <linux/types.h>
#include <linux/bpf.h>
#include <linux/errno.h>
#include <bpf/bpf_helpers.h>
#include "shared.h"

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s8 s8;
typedef __s16 s16;
typedef __s32 s32;
typedef __s64 s64;
typedef unsigned long uintptr_t;

#define STP_INLINE static __always_inline
typedef void *stp_map_t;

#ifndef STP_RINGBUF_SIZE
#define STP_RINGBUF_SIZE (1 << 20)
#endif

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, STP_RINGBUF_SIZE);
} stp_rb SEC(".maps");

/* x86-64's registers, as the kernel names them (the tapsets' and pass
 * 2's embedded C read regs->di, regs->ax, ...); the uprobe programs'
 * context.  The UAPI header's names differ (rdi, rax), so it is not
 * included. */
struct pt_regs {
	unsigned long r15, r14, r13, r12, bp, bx, r11, r10, r9, r8;
	unsigned long ax, cx, dx, si, di, orig_ax, ip, cs, flags, sp, ss;
};

/* What a handler's embedded C calls CONTEXT: the raw arguments, or
 * a uprobe's registers. */
struct stp_kctx {
	u64 *entry;
	int err;
	struct pt_regs *regs;
	/* regs are a system call's user registers: its 4th argument is in
	 * r10, not cx (kernel.syscall probes) */
	int sysc;
	/* the tapsets (tapset.h): pp(), pn() and probefunc() (a kernel
	 * function probe's own, else the tapsets') */
	const char *pp, *pn, *func;
	/* stacks (stack.h): the program's own context, for bpf_get_stack */
	void *ctx;
	/* try/catch: an error goes to the catch, its site in err_id and an
	 * error()'s message in msg (a buffer of the context), not to user
	 * space, and the run goes on */
	int in_try;
	unsigned err_id;
	char *msg;
};

/* What a foreach's callback (bpf_for_each_map_elem) gets of its probe. */
struct stp_ctx;
struct stp_cb {
	struct stp_ctx *c;
	struct stp_kctx *k;
};

STP_INLINE void stp_lost(void)
{
	__sync_fetch_and_add(&stp_g.stp_lost, 1);
}

STP_INLINE void stp_record(unsigned kind, unsigned id)
{
	struct stp_rec *r = bpf_ringbuf_reserve(&stp_rb, sizeof(*r), 0);

	if (!r) {
		stp_lost();
		return;
	}
	r->kind = kind;
	r->id = id;
	bpf_ringbuf_submit(r, 0);
}

/* An error at site id: reported by user space, which then stops. */
STP_INLINE void stp_error(struct stp_kctx *k, unsigned id)
{
	if (k->in_try) {
		k->err = 1;
		k->err_id = id;
		if (k->msg)
			k->msg[0] = 0;
		return;
	}
	stp_g.stp_stopping = 1;
	stp_record(STP_REC_ERROR, id);
	k->err = 1;
}

/* error(msg): the message travels with the record. */
STP_INLINE void stp_error_msg(struct stp_kctx *k, unsigned id, const char *msg)
{
	struct {
		struct stp_rec h;
		char msg[MAXSTRINGLEN];
	} *r;

	if (k->in_try) {
		k->err = 1;
		k->err_id = id;
		if (k->msg)
			bpf_probe_read_kernel_str(k->msg, MAXSTRINGLEN, msg);
		return;
	}
	r = bpf_ringbuf_reserve(&stp_rb, sizeof(*r), 0);
	stp_g.stp_stopping = 1;
	k->err = 1;
	if (!r) {
		stp_lost();
		return;
	}
	r->h.kind = STP_REC_ERROR_MSG;
	r->h.id = id;
	bpf_probe_read_kernel_str(r->msg, MAXSTRINGLEN, msg);
	bpf_ringbuf_submit(r, 0);
}

STP_INLINE void stp_exit(void)
{
	stp_g.stp_stopping = 1;
	stp_record(STP_REC_EXIT, 0);
}

/* BPF before ISA v4 divides unsigned only: the signs by hand */
STP_INLINE int64_t stp_div(int64_t a, int64_t b)
{
	u64 q = (u64)(a < 0 ? -a : a) / (u64)(b < 0 ? -b : b);

	return (a < 0) != (b < 0) ? -(int64_t)q : (int64_t)q;
}

STP_INLINE int64_t stp_mod(int64_t a, int64_t b)
{
	u64 r = (u64)(a < 0 ? -a : a) % (u64)(b < 0 ? -b : b);

	return a < 0 ? -(int64_t)r : (int64_t)r;
}

STP_INLINE void stp_strcpy(char *dst, const char *src)
{
	bpf_probe_read_kernel_str(dst, MAXSTRINGLEN, src);
}

/* Into a key's field, which may be narrower (translator/bpf/keywidth.c). */
STP_INLINE void stp_strncpy(char *dst, const char *src, u32 n)
{
	bpf_probe_read_kernel_str(dst, n, src);
}

/* Same result as strcmp's sign, over at most MAXSTRINGLEN bytes. */
STP_INLINE int stp_strcmp(const char *a, const char *b)
{
	for (int i = 0; i < MAXSTRINGLEN; i++) {
		if (a[i] != b[i])
			return (unsigned char)a[i] < (unsigned char)b[i] ? -1 : 1;
		if (!a[i])
			break;
	}
	return 0;
}

STP_INLINE int64_t stp_get_long(stp_map_t m, const void *k)
{
	int64_t *v = bpf_map_lookup_elem(m, k);

	return v ? *v : 0;
}

STP_INLINE void stp_get_str(stp_map_t m, const void *k, char *dst)
{
	char *v = bpf_map_lookup_elem(m, k);

	if (v)
		stp_strcpy(dst, v);
	else
		dst[0] = 0;
}

STP_INLINE int stp_in(stp_map_t m, const void *k)
{
	return bpf_map_lookup_elem(m, k) != 0;
}

STP_INLINE int stp_delete(stp_map_t m, const void *k)
{
	return bpf_map_delete_elem(m, k);
}

/* a then b, cut at MAXSTRINGLEN; dst has 2 * MAXSTRINGLEN bytes, so
 * that the second copy's bounds are ones the verifier can check. */
STP_INLINE void stp_concat(char *dst, const char *a, const char *b)
{
	long n = bpf_probe_read_kernel_str(dst, MAXSTRINGLEN, a);

	n = n < 1 ? 0 : n - 1;
	n &= MAXSTRINGLEN - 1;
	bpf_probe_read_kernel_str(dst + n, MAXSTRINGLEN, b);
	dst[MAXSTRINGLEN - 1] = 0;
}

/* 0, or -E2BIG when the map is full (MAXMAPENTRIES). */
STP_INLINE int stp_put(stp_map_t m, const void *k, const void *v)
{
	return bpf_map_update_elem(m, k, v, BPF_ANY);
}

/* a[k] += d, atomically; the new value in *out; -E2BIG when full. */
STP_INLINE int stp_add_long(stp_map_t m, const void *k, int64_t d, int64_t *out)
{
	int64_t *v = bpf_map_lookup_elem(m, k);
	int rc;

	if (!v) {
		rc = bpf_map_update_elem(m, k, &d, BPF_NOEXIST);
		if (rc != -EEXIST) {
			*out = d;
			return rc;
		}
		v = bpf_map_lookup_elem(m, k);
		if (!v)
			return -E2BIG;
	}
	*out = __sync_fetch_and_add(v, d) + d;
	return 0;
}

/* s <<< v on this CPU's share; -E2BIG when the map is full. */
STP_INLINE int stp_stat_add(stp_map_t m, const void *k, int64_t v)
{
	struct stp_bstat *s = bpf_map_lookup_elem(m, k);
	struct stp_bstat n = { 1, v, v, v };

	if (!s)
		return bpf_map_update_elem(m, k, &n, BPF_NOEXIST) == -E2BIG ? -E2BIG : 0;
	/* a scalar's per-CPU array starts zeroed: count 0 is empty */
	if (!s->count || v < s->min)
		s->min = v;
	if (!s->count || v > s->max)
		s->max = v;
	s->count++;
	s->sum += v;
	return 0;
}

/* A new entry's value: too big for the stack (512 bytes), so from here. */
const struct stp_bhist stp_hzero;

/* s <<< v for a statistic with a histogram; b is v's bucket. */
STP_INLINE int stp_hstat_add(stp_map_t m, const void *k, int64_t v, int b)
{
	struct stp_bhist *s = bpf_map_lookup_elem(m, k);

	if (!s) {
		if (bpf_map_update_elem(m, k, &stp_hzero, BPF_NOEXIST) == -E2BIG)
			return -E2BIG;
		s = bpf_map_lookup_elem(m, k);
		if (!s)
			return 0;
	}
	if (!s->s.count || v < s->s.min)
		s->s.min = v;
	if (!s->s.count || v > s->s.max)
		s->s.max = v;
	s->s.count++;
	s->s.sum += v;
	/* b is in range (stp_*_bucket); the mask is for the verifier, and
	 * the empty asm keeps clang from dropping it */
	u32 i = (u32)b;

	asm volatile("" : "+r"(i));
	s->h[i & (STP_BHIST_BUCKETS - 1)]++;
	return 0;
}

/* print(@hist_*(s)) in a kernel probe: the CPUs' shares added up into r
 * (the probe's per-CPU context: too big for the stack) by bpf_loop
 * (Linux 5.17), then sent whole. */
struct stp_hsum {
	stp_map_t m;
	const void *k;
	struct stp_hist_rec *r;
};

static long stp_hsum_cpu(u32 cpu, struct stp_hsum *x)
{
	struct stp_bhist *s = bpf_map_lookup_percpu_elem(x->m, x->k, cpu);
	struct stp_bhist *b = &x->r->b;

	if (!s || !s->s.count)
		return 0;
	stp_bstat_add(&b->s, &s->s);
	for (int i = 0; i < STP_BHIST_BUCKETS; i++)
		b->h[i] += s->h[i];
	return 0;
}

STP_INLINE void stp_hist_send(stp_map_t m, const void *k, unsigned id, struct stp_hist_rec *r)
{
	struct stp_hsum x = { m, k, r };

	/* zeroed from stp_hzero: clang has no memset this big for BPF */
	bpf_probe_read_kernel(&r->b, sizeof(r->b), &stp_hzero);
	r->h.kind = STP_REC_HIST;
	r->h.id = id;
	bpf_loop(stp_g.stp_ncpus, stp_hsum_cpu, &x, 0);
	if (bpf_ringbuf_output(&stp_rb, r, sizeof(*r), 0))
		stp_lost();
}

/* A statistic's CPUs added up (bpf_map_lookup_percpu_elem: Linux 6.0),
 * a CPU a bpf_loop step: the verifier checks the step once or twice,
 * where it walked a loop over up to 256 CPUs round by round (the index
 * is a known number each round, so no two rounds' states are alike):
 * about 12,000 instructions at every read, where this takes 400 for a
 * whole probe; a sorted foreach reads once in its insertion, once more
 * in a body that prints the aggregate. */
struct stp_sread {
	stp_map_t m;
	const void *k;
	struct stp_bstat *out;
};

static long stp_sread_cpu(u32 cpu, struct stp_sread *x)
{
	struct stp_bstat *s = bpf_map_lookup_percpu_elem(x->m, x->k, cpu);

	if (s)
		stp_bstat_add(x->out, s);
	return 0;
}

STP_INLINE void stp_stat_read(stp_map_t m, const void *k, struct stp_bstat *out)
{
	struct stp_sread x = { m, k, out };

	out->count = out->sum = out->min = out->max = 0;
	bpf_loop(stp_g.stp_ncpus, stp_sread_cpu, &x, 0);
}

/* A uprobe's argument n (1-6: x86-64's registers), cut by mode (0: the
 * whole register, 1: signed 32 bits, 2: unsigned 32); 0 elsewhere. */
STP_INLINE int64_t stp_uarg(struct stp_kctx *k, int64_t n, int mode)
{
	struct pt_regs *r = k->regs;
	u64 v;

	if (!r)
		return 0;
	switch (n) {
	case 1: v = r->di; break;
	case 2: v = r->si; break;
	case 3: v = r->dx; break;
	case 4: v = k->sysc ? r->r10 : r->cx; break;
	case 5: v = r->r8; break;
	case 6: v = r->r9; break;
	default: return 0;
	}
	return mode == 1 ? (int64_t)(s32)v : mode == 2 ? (int64_t)(u32)v : (int64_t)v;
}

/* A .return's value: the return register (0 in a probe without one). */
STP_INLINE int64_t stp_returnval(struct stp_kctx *k)
{
	return k->regs ? (int64_t)k->regs->ax : 0;
}

/* What the tapsets' embedded C of $target reads calls. */
#define CONTEXT stp_k
/* A kernel member's offset in a chain pass 2 resolved by BTF
 * (translator/btf/btf_core.c): a CO-RE relocation on the local flavour
 * the object declares, which libbpf fixes against the running kernel's
 * BTF at load (off is the build's number, kept for the module's). */
#define STP_CORE_OFFSET(kind, type, path, off) \
	((unsigned long)__builtin_preserve_field_info(((kind type##___stpc *)0)->path, \
						      BPF_CORE_FIELD_BYTE_OFFSET))
#define STP_CORE_EXISTS(kind, type, path) \
	__builtin_preserve_field_info(((kind type##___stpc *)0)->path, BPF_CORE_FIELD_EXISTS)
#define stp_tv_read(dst, addr, n, user) \
	((user) ? bpf_probe_read_user((dst), (n), (const void *)(addr)) \
		: bpf_probe_read_kernel((dst), (n), (const void *)(addr)))
#define stp_strncpy_nofault(dst, src, n, user) \
	((user) ? bpf_probe_read_user_str((dst), (n), (src)) \
		: bpf_probe_read_kernel_str((dst), (n), (src)))

/*
 * What the tapsets' BPF flavours call (their embedded C marked bpf and
 * bpf-user: translator/bpf/flavour.c): one name each, this side's C
 * here and user space's in user.h, so a flavour is written once for
 * both sides.
 */
#define stp_pid() ((int64_t)(bpf_get_current_pid_tgid() >> 32))
#define stp_tid() ((int64_t)(u32)bpf_get_current_pid_tgid())
#define stp_uid() ((int64_t)(u32)bpf_get_current_uid_gid())
#define stp_gid() ((int64_t)(bpf_get_current_uid_gid() >> 32))
#define stp_cpu() ((int64_t)bpf_get_smp_processor_id())
#define stp_time_ns() ((int64_t)(bpf_ktime_get_boot_ns() + stp_g.stp_wall_off))
#define stp_ktime_ns() ((int64_t)bpf_ktime_get_ns())
#define stp_execname(dst) bpf_get_current_comm(dst, 16)
#define stp_probefunc(dst) stp_strcpy(dst, stp_k->func ? stp_k->func : "")
/* a stack or an address, marked for the runner to symbolize */
#define stp_sprint_stack(dst, stk) stp_bmark(dst, 'K', stk, 0)
#define stp_sprint_ustack(dst, stk) stp_bmark(dst, 'V', stk, bpf_get_current_pid_tgid() >> 32)
#define stp_symname(dst, addr) stp_bmark_addr(dst, 'N', addr)
#define stp_symdata(dst, addr) stp_bmark_addr(dst, 'D', addr)
#define stp_errno_known(e) (stp_errno_name(e) != 0)
/* the runner starts the epochs; the hardware counters are asked for
 * in user space */
#define stp_chopstix_start(epoch_ms, hi, lo) ((void)0)
#define stp_chopstix_unavailable(vital, why) stp_cx_unavail(vital, why)
#define stp_chopstix_declare(vital) stp_cx_declare(vital)
#define stp_hw_unavailable(dst, what) ((dst)[0] = 0)

#include "clear.h"
#include "text.h"
#include "stack.h"
#include "sketch.h"
#include "vitals.h"
#include "tapset.h"

#endif
