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
	struct bio___stpv *bi_next;
	struct block_device___stpv *bi_bdev;
	u8 bi_status;
	struct bvec_iter___stpv bi_iter;
	void *bi_end_io;
} __attribute__((preserve_access_index));

struct request___stpv {
	struct bio___stpv *bio;
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
	/* sys_exit's and a user fault's registers are the current task's
	 * own, the pointer bpf_task_pt_regs() gives typed: read by plain
	 * loads, where a fault-safe copy costs a helper call each */
	const struct pt_regs *cur =
		(const struct pt_regs *)bpf_task_pt_regs(bpf_get_current_task_btf());
	int own = (int64_t)cur == regs;
	u64 v = 0, d;

	/* opaque, the test and the loaded value: clang would otherwise load
	 * through the equal number (a scalar to the verifier), or share one
	 * load instruction between the typed pointer and the stack */
	asm volatile("" : "+r"(own));
	if (own) {
		switch (which) {
		case 0: d = cur->ip; break;
		case 1: d = cur->sp; break;
		case 2: d = cur->di; break;
		default: d = cur->orig_ax;
		}
		asm volatile("" : "+r"(d));
		return (int64_t)d;
	}
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

/*
 * blio: the bios in flight by address and the completions waiting for
 * their threads, as vitals.stp's tables (its note on blio gives the
 * design), as BPF array maps; the event at hand in a per-CPU one.
 */
#define VITALS_BIO_BITS 11
#define VITALS_BIO_SLOTS (1U << VITALS_BIO_BITS)
#define VITALS_BIO_WAYS 8
#define VITALS_BIO_STALE_NS (60ULL * 1000000000ULL)
#define VITALS_RQ_BIOS 32
#define VITALS_PEND_SLOTS 1024
#define VITALS_PEND_STALE_NS (10ULL * 1000000000ULL)
#define STP_VT_ONCE(x) (*(volatile __typeof__(x) *)&(x))

/* ORDER: vitals.stp's VB_* (vitals_blio_ev's which) */
enum { VB_DEV, VB_SECTOR, VB_BYTES, VB_END_IO, VB_DONE, VB_NS, VB_NBIOS,
       VB_SITE, VB_BIO, VB_N };

struct stp_vt_bio {
	u64 bio, t0, sector, site;
	u32 tid, bytes, failed, pad;
};

struct stp_vt_blio_ev {
	u64 v[VB_N];
};

struct stp_vt_pend {
	u64 tid, t0;
	u64 first[VB_N];
	u64 bytes, done, ns, nbios;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, VITALS_BIO_SLOTS);
	__type(key, u32);
	__type(value, struct stp_vt_bio);
} stp_vt_bios SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, VITALS_PEND_SLOTS);
	__type(key, u32);
	__type(value, struct stp_vt_pend);
} stp_vt_pend_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct stp_vt_blio_ev);
} stp_vt_blio_cur SEC(".maps");

STP_INLINE struct stp_vt_blio_ev *stp_vt_blio_now(void)
{
	u32 zero = 0;

	return bpf_map_lookup_elem(&stp_vt_blio_cur, &zero);
}

/* Slot i of bio's window (the kernel's hash_64). */
STP_INLINE struct stp_vt_bio *stp_vt_bio_slot(u64 bio, u32 i)
{
	u32 h = (u32)((bio * 0x61C8864680B583EBULL) >> (64 - VITALS_BIO_BITS));
	u32 k = (h + i) & (VITALS_BIO_SLOTS - 1);

	return bpf_map_lookup_elem(&stp_vt_bios, &k);
}

STP_INLINE struct stp_vt_bio *stp_vt_bio_find(u64 bio)
{
	struct stp_vt_bio *s;

	for (u32 i = 0; i < VITALS_BIO_WAYS; i++) {
		s = stp_vt_bio_slot(bio, i);
		if (s && STP_VT_ONCE(s->bio) == bio)
			return s;
	}
	return NULL;
}

STP_INLINE void stp_vt_pend_add(u32 tid, const struct stp_vt_blio_ev *e,
				u64 now)
{
	u32 k = tid % VITALS_PEND_SLOTS;
	struct stp_vt_pend *p = bpf_map_lookup_elem(&stp_vt_pend_map, &k);
	u64 old, ns;

	if (!p)
		return;
	old = STP_VT_ONCE(p->tid);
	if (old != tid) {
		if (old && now - STP_VT_ONCE(p->t0) < VITALS_PEND_STALE_NS)
			return;
		if (__sync_val_compare_and_swap(&p->tid, old, (u64)tid) != old)
			return;
		/* a stale owner's leftovers go */
		p->nbios = p->bytes = p->done = p->ns = 0;
		for (int i = 0; i < VB_N; i++)
			p->first[i] = e->v[i];
		p->t0 = now;
		stp_cx_mb();
	}
	__sync_fetch_and_add(&p->bytes, e->v[VB_BYTES]);
	__sync_fetch_and_add(&p->done, e->v[VB_DONE]);
	for (int i = 0; i < 4; i++) {
		ns = STP_VT_ONCE(p->ns);
		if (ns >= e->v[VB_NS] ||
		    __sync_val_compare_and_swap(&p->ns, ns, e->v[VB_NS]) == ns)
			break;
	}
	/* last: a reader that takes the count finds the rest added */
	stp_cx_mb();
	__sync_fetch_and_add(&p->nbios, e->v[VB_NBIOS]);
}

STP_INLINE int stp_vt_pend_take(u32 tid, struct stp_vt_blio_ev *e)
{
	u32 k = tid % VITALS_PEND_SLOTS;
	struct stp_vt_pend *p = bpf_map_lookup_elem(&stp_vt_pend_map, &k);
	u64 n;

	if (!tid || !p || STP_VT_ONCE(p->tid) != tid)
		return 0;
	n = __sync_lock_test_and_set(&p->nbios, 0);
	if (!n)
		return 0;
	for (int i = 0; i < VB_N; i++)
		e->v[i] = p->first[i];
	e->v[VB_NBIOS] = n;
	e->v[VB_BYTES] = __sync_lock_test_and_set(&p->bytes, 0);
	e->v[VB_DONE] = __sync_lock_test_and_set(&p->done, 0);
	e->v[VB_NS] = __sync_lock_test_and_set(&p->ns, 0);
	e->v[VB_BIO] = 0;
	__sync_val_compare_and_swap(&p->tid, (u64)tid, 0);
	return 1;
}

/* vitals.stp's vitals_bio_close: bio b (slot s) has completed. */
STP_INLINE void stp_vt_bio_close(struct stp_vt_bio *s, struct bio___stpv *b,
				 int error, u64 now, struct stp_vt_blio_ev *e)
{
	struct stp_vt_blio_ev one = { .v = {
		[VB_DEV] = BPF_CORE_READ(b, bi_bdev, bd_dev),
		[VB_SECTOR] = s->sector, [VB_BYTES] = s->bytes,
		[VB_END_IO] = (u64)BPF_CORE_READ(b, bi_end_io),
		[VB_NS] = now - s->t0, [VB_NBIOS] = 1, [VB_SITE] = s->site,
		[VB_BIO] = (u64)b } };
	u32 tid = s->tid;

	one.v[VB_DONE] = error || s->failed > s->bytes ? 0 :
			 s->bytes - s->failed;
	s->t0 = 0;
	stp_cx_mb();
	s->bio = 0;
	if (tid != (u32)bpf_get_current_pid_tgid()) {
		stp_vt_pend_add(tid, &one, now);
		return;
	}
	if (!e->v[VB_NBIOS]) {
		*e = one;
		return;
	}
	e->v[VB_BYTES] += one.v[VB_BYTES];
	e->v[VB_DONE] += one.v[VB_DONE];
	e->v[VB_NBIOS]++;
	if (one.v[VB_NS] > e->v[VB_NS])
		e->v[VB_NS] = one.v[VB_NS];
}

STP_INLINE int64_t stp_vt_bio_queue(int64_t bio, int64_t site)
{
	struct bio___stpv *b = (struct bio___stpv *)bio;
	struct stp_vt_blio_ev *e = stp_vt_blio_now();
	u64 now = bpf_ktime_get_ns(), old, t0;
	u32 tid = (u32)bpf_get_current_pid_tgid();
	struct stp_vt_bio *s, *to = NULL, *stale = NULL;
	int64_t ret = e ? stp_vt_pend_take(tid, e) : 0;

	for (u32 i = 0; i < VITALS_BIO_WAYS; i++) {
		s = stp_vt_bio_slot(bio, i);
		if (!s)
			continue;
		old = STP_VT_ONCE(s->bio);
		if (old == (u64)bio) {	/* its address again: one was missed */
			to = s;
			break;
		}
		t0 = STP_VT_ONCE(s->t0);
		if (!to && !old)
			to = s;
		else if (!stale && old && t0 && now - t0 > VITALS_BIO_STALE_NS)
			stale = s;
	}
	to = to ? to : stale;
	if (!to)
		return ret;
	old = STP_VT_ONCE(to->bio);
	if (old != (u64)bio &&
	    __sync_val_compare_and_swap(&to->bio, old, (u64)bio) != old)
		return ret;
	to->sector = BPF_CORE_READ(b, bi_iter.bi_sector);
	to->bytes = BPF_CORE_READ(b, bi_iter.bi_size);
	to->failed = 0;
	to->tid = tid;
	to->site = site;
	stp_cx_mb();
	to->t0 = now;
	return ret;
}

STP_INLINE int64_t stp_vt_bio_end(int64_t bio)
{
	struct bio___stpv *b = (struct bio___stpv *)bio;
	struct stp_vt_blio_ev *e = stp_vt_blio_now();
	struct stp_vt_bio *s;

	if (!e)
		return 0;
	e->v[VB_NBIOS] = 0;
	s = stp_vt_bio_find(bio);
	if (s)
		stp_vt_bio_close(s, b, BPF_CORE_READ(b, bi_status),
				 bpf_ktime_get_ns(), e);
	return e->v[VB_NBIOS] != 0;
}

STP_INLINE int64_t stp_vt_rq_end(int64_t rq, int64_t error, int64_t nr_bytes)
{
	struct bio___stpv *b = BPF_CORE_READ((struct request___stpv *)rq, bio);
	struct stp_vt_blio_ev *e = stp_vt_blio_now();
	u64 left = (u32)nr_bytes, now = bpf_ktime_get_ns(), n, size;
	struct stp_vt_bio *s;

	if (!e)
		return 0;
	e->v[VB_NBIOS] = 0;
	for (int i = 0; b && i < VITALS_RQ_BIOS; i++) {
		size = BPF_CORE_READ(b, bi_iter.bi_size);
		n = size < left ? size : left;
		left -= n;
		s = stp_vt_bio_find((u64)b);
		if (s && error)
			s->failed += n;
		if (s && n == size)
			stp_vt_bio_close(s, b, 0, now, e);
		if (!left)
			break;
		b = BPF_CORE_READ(b, bi_next);
	}
	return e->v[VB_NBIOS] != 0;
}

STP_INLINE int64_t stp_vt_bio_pending(int64_t task)
{
	struct stp_vt_blio_ev *e = stp_vt_blio_now();
	u32 tid = (u32)BPF_CORE_READ((struct task_struct___stpv *)task, pid);

	return e ? stp_vt_pend_take(tid, e) : 0;
}

STP_INLINE int64_t stp_vt_blio_ev(int64_t which)
{
	struct stp_vt_blio_ev *e = stp_vt_blio_now();

	if (!e || which < 0 || which >= VB_N)
		return 0;
	return (int64_t)e->v[which];
}

/* syscall's exits (sched_process_exit): what the exiting thread says of
 * its process */
struct signal_struct___stpv {
	struct { int counter; } live;
	unsigned int flags;
} __attribute__((preserve_access_index));

struct task_struct___stpv_exit {
	unsigned int flags;
	int exit_code;
	struct signal_struct___stpv *signal;
} __attribute__((preserve_access_index));

#define STP_SIGNAL_GROUP_EXIT 0x4
#define STP_NR_EXIT 60
#define STP_NR_EXIT_GROUP 231

STP_INLINE int64_t stp_vt_exit_nr(void)
{
	struct task_struct___stpv_exit *t =
		(struct task_struct___stpv_exit *)bpf_get_current_task();
	struct pt_regs *r =
		(struct pt_regs *)bpf_task_pt_regs(bpf_get_current_task_btf());
	u64 nr = 0;

	if ((BPF_CORE_READ(t, flags) & STP_PF_KTHREAD) ||
	    (BPF_CORE_READ(t, exit_code) & 0x7f) ||
	    BPF_CORE_READ(t, signal, live.counter))
		return -1;
	if (BPF_CORE_READ(t, signal, flags) & STP_SIGNAL_GROUP_EXIT)
		return STP_NR_EXIT_GROUP;
	bpf_probe_read_kernel(&nr, sizeof(nr), &r->orig_ax);
	return nr == STP_NR_EXIT ? STP_NR_EXIT : STP_NR_EXIT_GROUP;
}

STP_INLINE int64_t stp_vt_exit_status(void)
{
	return BPF_CORE_READ((struct task_struct___stpv_exit *)bpf_get_current_task(),
			     exit_code) >> 8 & 0xff;
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
