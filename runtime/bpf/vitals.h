/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tapsets/vitals.stp's BPF flavours: what its kmod C reads of the
 * kernel's structs, read here by CO-RE (the ___stpv structs of
 * sketch.h and below, relocated against the running kernel's BTF), and
 * its lock-free tables as BPF array maps.  Compiled in with the sketch
 * (STP_BPF_SKETCH).
 */
#ifndef STP_BPF_VITALS_H
#define STP_BPF_VITALS_H
#ifdef STP_BPF_SKETCH

struct block_device___stpv {
	u32 bd_dev;
} __attribute__((preserve_access_index));

struct bvec_iter___stpv {
	u64 bi_sector;
	unsigned int bi_size;
} __attribute__((preserve_access_index));

struct bio___stpv {
	struct block_device___stpv *bi_bdev;
	struct bvec_iter___stpv bi_iter;
	void *bi_end_io;
} __attribute__((preserve_access_index));

struct sigaction___stpv {
	void *sa_handler;
} __attribute__((preserve_access_index));

struct k_sigaction___stpv {
	struct sigaction___stpv sa;
} __attribute__((preserve_access_index));

/* skc_daddr, skc_dport and skc_family sit in anonymous unions and
 * structs of the kernel's struct sock_common: CO-RE finds them there */
struct sock_common___stpv {
	u32 skc_daddr;
	u16 skc_dport;
	unsigned short skc_family;
} __attribute__((preserve_access_index));

struct sock___stpv {
	struct sock_common___stpv __sk_common;
	u16 sk_protocol;
} __attribute__((preserve_access_index));

struct mutex___stpv {
	struct { s64 counter; } owner;
} __attribute__((preserve_access_index));

struct rw_semaphore___stpv {
	struct { s64 counter; } owner;
} __attribute__((preserve_access_index));

struct rt_mutex_base___stpv {
	void *owner;
} __attribute__((preserve_access_index));

/* The PC a perf event interrupted: its program's context starts with
 * the registers. */
STP_INLINE int64_t stp_vt_pc(struct stp_kctx *k)
{
	return k->ctx ? (int64_t)((struct pt_regs *)k->ctx)->ip : 0;
}

/* The user PC where the current task entered the kernel; 0 for kernel
 * threads. */
STP_INLINE int64_t stp_vt_user_pc(void)
{
	struct task_struct___stpv *t = stp_cx_task(0);
	struct pt_regs *r;
	u64 ip = 0;

	if ((BPF_CORE_READ(t, flags) & STP_PF_KTHREAD) || !BPF_CORE_READ(t, mm))
		return 0;
	r = (struct pt_regs *)bpf_task_pt_regs(bpf_get_current_task_btf());
	bpf_probe_read_kernel(&ip, sizeof(ip), &r->ip);
	return (int64_t)ip;
}

STP_INLINE int64_t stp_vt_regs(int64_t regs, int64_t which)
{
	const struct pt_regs *r = (const struct pt_regs *)regs;
	u64 v = 0;

	switch (which) {
	case 0: bpf_probe_read_kernel(&v, 8, &r->ip); break;
	case 1: bpf_probe_read_kernel(&v, 8, &r->sp); break;
	case 2: bpf_probe_read_kernel(&v, 8, &r->di); break;
	default: bpf_probe_read_kernel(&v, 8, &r->orig_ax);
	}
	return (int64_t)v;
}

STP_INLINE int64_t stp_vt_age_ns(int64_t task)
{
	return (int64_t)(bpf_ktime_get_ns() - BPF_CORE_READ(stp_cx_task(task), start_time));
}

/* Free memory in pages, as the runner last read it from /proc (at most
 * 100 ms before; BPF cannot reach the zones' counters, nor kallsyms
 * their address): ZONE_DMA32, ZONE_NORMAL, swap.  staprun/bpf/freemem.c
 * writes it. */
struct stp_vt_free {
	int64_t v[3];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, u32);
	__type(value, struct stp_vt_free);
} stp_vt_free_map SEC(".maps");

STP_INLINE int64_t stp_vt_free(int64_t which)
{
	u32 zero = 0;
	struct stp_vt_free *f = bpf_map_lookup_elem(&stp_vt_free_map, &zero);

	if (!f)
		return 0;
	return which == 0 ? f->v[0] : which == 1 ? f->v[1] : f->v[2];
}

/* vitals_switch's table: a word per thread id modulo its size,
 * tid << 42 | blocked << 41 | time in 1024 ns units (41 bits). */
#define VITALS_LEFT_SLOTS 4096
#define VITALS_TIME_MASK ((1ULL << 41) - 1)

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, VITALS_LEFT_SLOTS);
	__type(key, u32);
	__type(value, u64);
} stp_vt_left SEC(".maps");

STP_INLINE int64_t stp_vt_switch(int64_t prev, int64_t blocked, int64_t next)
{
	u64 now = (bpf_ktime_get_ns() >> 10) & VITALS_TIME_MASK, *slot;
	u64 ptid = (u32)BPF_CORE_READ((struct task_struct___stpv *)prev, pid);
	u64 ntid = (u32)BPF_CORE_READ((struct task_struct___stpv *)next, pid), v;
	u32 i;

	if (ptid) {
		i = ptid % VITALS_LEFT_SLOTS;
		slot = bpf_map_lookup_elem(&stp_vt_left, &i);
		if (slot)
			*slot = ptid << 42 | (u64)!!blocked << 41 | now;
	}
	if (!ntid)
		return -1;
	i = ntid % VITALS_LEFT_SLOTS;
	slot = bpf_map_lookup_elem(&stp_vt_left, &i);
	v = slot ? *slot : 0;
	if (!v || v >> 42 != ntid)
		return -1;
	return (int64_t)(((now - v) & VITALS_TIME_MASK) << 11 | (v >> 41 & 1));
}

STP_INLINE int64_t stp_vt_bio(int64_t bio, int64_t which)
{
	struct bio___stpv *b = (struct bio___stpv *)bio;

	switch (which) {
	case 0: return BPF_CORE_READ(b, bi_bdev, bd_dev);
	case 1: return BPF_CORE_READ(b, bi_iter.bi_sector);
	case 2: return BPF_CORE_READ(b, bi_iter.bi_size);
	default: return (int64_t)BPF_CORE_READ(b, bi_end_io);
	}
}

STP_INLINE int64_t stp_vt_sig_handler(int64_t ka)
{
	return (int64_t)BPF_CORE_READ((struct k_sigaction___stpv *)ka, sa.sa_handler);
}

STP_INLINE int64_t stp_vt_sk(int64_t sk, int64_t what)
{
	struct sock___stpv *s = (struct sock___stpv *)sk;

	if (!s)
		return 0;
	switch (what) {
	case 0:
		return BPF_CORE_READ(s, __sk_common.skc_family) == 2 /* AF_INET */ ?
			__builtin_bswap32(BPF_CORE_READ(s, __sk_common.skc_daddr)) : 0;
	case 1:
		return __builtin_bswap16(BPF_CORE_READ(s, __sk_common.skc_dport));
	default:
		return BPF_CORE_READ(s, sk_protocol);
	}
}

/* lock: the waits by thread id modulo the table, as vitals.stp's */
#define LCB_F_SPIN	(1U << 0)
#define LCB_F_READ	(1U << 1)
#define LCB_F_WRITE	(1U << 2)
#define LCB_F_RT	(1U << 3)
#define LCB_F_PERCPU	(1U << 4)
#define LCB_F_MUTEX	(1U << 5)
#define VITALS_WAIT_SLOTS 1024
#define VITALS_WAITERS_SLOTS 1024

struct stp_vt_wait {
	u64 tag, t0;
	u32 owner, flags;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, VITALS_WAIT_SLOTS);
	__type(key, u32);
	__type(value, struct stp_vt_wait);
} stp_vt_wait_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, VITALS_WAITERS_SLOTS);
	__type(key, u32);
	__type(value, s64);
} stp_vt_waiters SEC(".maps");

STP_INLINE struct stp_vt_wait *stp_vt_my_wait(void)
{
	u32 i = (u32)bpf_get_current_pid_tgid() % VITALS_WAIT_SLOTS;

	return bpf_map_lookup_elem(&stp_vt_wait_map, &i);
}

STP_INLINE s64 *stp_vt_waiters_of(u64 lock)
{
	u32 i = (u32)((lock >> 4 ^ lock >> 14) % VITALS_WAITERS_SLOTS);

	return bpf_map_lookup_elem(&stp_vt_waiters, &i);
}

STP_INLINE u32 stp_vt_owner(u64 lock, u32 flags)
{
	u64 o = 0;

	if (flags & LCB_F_PERCPU)
		return 0;
	if (flags & LCB_F_MUTEX)
		o = BPF_CORE_READ((struct mutex___stpv *)lock, owner.counter);
	else if (flags & LCB_F_RT)
		o = (u64)BPF_CORE_READ((struct rt_mutex_base___stpv *)lock, owner);
	else if (flags & (LCB_F_READ | LCB_F_WRITE))
		o = BPF_CORE_READ((struct rw_semaphore___stpv *)lock, owner.counter);
	o &= ~0x7ULL;
	return o ? (u32)BPF_CORE_READ((struct task_struct___stpv *)o, pid) : 0;
}

STP_INLINE void stp_vt_lock_begin(u64 lock, u32 flags)
{
	u64 tid = (u32)bpf_get_current_pid_tgid();
	struct stp_vt_wait *w = stp_vt_my_wait();
	s64 *n = stp_vt_waiters_of(lock);

	if (!w || ((flags & LCB_F_SPIN) && !(flags & LCB_F_MUTEX)))
		return;
	if (w->tag == (lock ^ tid))
		return;
	w->tag = 0;
	w->t0 = bpf_ktime_get_ns();
	w->owner = stp_vt_owner(lock, flags);
	w->flags = flags;
	w->tag = lock ^ tid;
	if (n)
		__sync_fetch_and_add(n, 1);
}

STP_INLINE int64_t stp_vt_lock_end(u64 lock)
{
	u64 tid = (u32)bpf_get_current_pid_tgid();
	struct stp_vt_wait *w = stp_vt_my_wait();

	if (!w || w->tag != (lock ^ tid))
		return -1;
	w->tag = 0;
	return (int64_t)(bpf_ktime_get_ns() - w->t0);
}

STP_INLINE int64_t stp_vt_lock_field(int owner)
{
	struct stp_vt_wait *w = stp_vt_my_wait();

	return w ? (owner ? w->owner : w->flags) : 0;
}

STP_INLINE int64_t stp_vt_lock_waiters(u64 lock)
{
	s64 *n = stp_vt_waiters_of(lock), v;

	if (!n)
		return 0;
	v = *n;
	if (v > 0)
		__sync_fetch_and_add(n, -1);
	return v;
}

#endif
#endif
