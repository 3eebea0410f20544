/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Chopstix sketch sampler in a BPF program (tapsets/chopstix.stp's
 * BPF flavours): the same algorithm as runtime/sketch.c and vitals.c's
 * event path, over the same memory layout.  The sketch is one entry of
 * a mmapable array map laid out as sketch.h's struct cx_sketch (the
 * mirror below; the runner checks its size), so that the runner
 * (staprun/bpf/sketch.c) runs sketch.c itself, built for the host, on
 * the mapped memory: naming vitals from begin, cx_swap at an epoch's
 * end, cx_nsamples and cx_clear, while the probes count with atomics
 * here.  Compiled in only for scripts that use chopstix.stp (gen.c
 * defines STP_BPF_SKETCH).
 *
 * Differences from the module: a task's kernel stack is taken only for
 * the current task (BPF helpers do not take a raw tracepoint's task
 * pointer; another task's site is its user PC), the executable's path is found by the runner through
 * /proc/PID/exe (its inode and device are recorded here), and cycles are
 * estimated from nanoseconds (2 a nanosecond, the watermarks' 2 GHz).
 */
#ifndef STP_BPF_SKETCH_H
#define STP_BPF_SKETCH_H
#ifdef STP_BPF_SKETCH

#include <bpf/bpf_core_read.h>

#ifndef CX_VITALS_MAX
#define CX_VITALS_MAX 12
#endif
#ifndef CX_HCA_BYTES
#define CX_HCA_BYTES 1024
#endif
#ifndef CX_SAMPLES
#define CX_SAMPLES 40
#endif
#ifndef CX_SHIFT_INIT
#define CX_SHIFT_INIT 1
#endif
#ifndef CX_HIT_CYCLES
#define CX_HIT_CYCLES 300
#endif
#define CX_SHIFT_MIN 1
#define CX_SHIFT_MAX 30
#define CX_COUNTERS (CX_HCA_BYTES / 4)
#define CX_NAME_LEN 16
#define CX_NDATA 4
#define CX_NAMES_LEN 64
#define CX_KFRAMES 8
#define CX_UFRAMES 4
#define CX_WHY_LEN 160

/* sketch.h's structs, stp_atomic_t a long; keep the two in step */
struct cx_sample {
	u64 label, time_ns, exec, site;
	s64 weight;
	u32 uid, pid;
	u16 nk, nu;
	u32 ready, exec_dev, count;
	u64 pin;
	char comm[16];
	s64 data[CX_NDATA];
	u64 kstack[CX_KFRAMES];
	u64 ustack[CX_UFRAMES];
};

struct cx_copy {
	s64 writers, weight, events, claimed, dropped, cycles;
	u32 hca[CX_COUNTERS];
	struct cx_sample samples[CX_SAMPLES];
};

struct cx_vital {
	char name[CX_NAME_LEN];
	s64 state, shift;
	int unavailable;
	char why[CX_WHY_LEN];
	char names[CX_NAMES_LEN];
	struct cx_copy copy[2];
};

struct cx_sketch {
	s64 open;
	u64 hi_cycles, lo_cycles;
	struct cx_vital v[CX_VITALS_MAX];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, u32);
	__type(value, struct cx_sketch);
} stp_cx_map SEC(".maps");

/* What the runner sets: its own process (the collector's work is not
 * the machine's), and whether the sketch is started. */
struct stp_cx_ctl {
	u64 stprun_pid;
	u64 started;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, u32);
	__type(value, struct stp_cx_ctl);
} stp_cx_ctl_map SEC(".maps");

/* The kernel's structs, as much of them as is read: CO-RE relocates
 * the fields against the running kernel's BTF (the ___stpv flavour
 * keeps the names apart from any other definition). */
struct cred___stpv {
	struct { u32 val; } uid;	/* kuid_t */
} __attribute__((preserve_access_index));

struct super_block___stpv {
	u32 s_dev;
} __attribute__((preserve_access_index));

struct inode___stpv {
	unsigned long i_ino;
	struct super_block___stpv *i_sb;
} __attribute__((preserve_access_index));

struct file___stpv {
	struct inode___stpv *f_inode;
} __attribute__((preserve_access_index));

struct mm_struct___stpv {
	struct file___stpv *exe_file;
} __attribute__((preserve_access_index));

struct task_struct___stpv {
	int pid, tgid, prio;
	unsigned int flags;
	u64 start_time;
	struct mm_struct___stpv *mm;
	const struct cred___stpv *real_cred;
	char comm[16];
} __attribute__((preserve_access_index));

#define STP_PF_KTHREAD 0x00200000

/* BPF has no fence: its atomic operations with fetch are full barriers
 * where JITs run them (x86's lock prefix); this keeps the compiler's
 * order around them. */
#define stp_cx_mb() asm volatile("" ::: "memory")

STP_INLINE struct task_struct___stpv *stp_cx_task(int64_t t)
{
	return t ? (struct task_struct___stpv *)t
		 : (struct task_struct___stpv *)bpf_get_current_task();
}

STP_INLINE u64 stp_cx_exe_id(struct task_struct___stpv *t)
{
	if (BPF_CORE_READ(t, flags) & STP_PF_KTHREAD)
		return 0;
	return (u64)BPF_CORE_READ(t, mm, exe_file);
}

/* Who an event is about: its process, executable (the label's program
 * id: its inode number, where the module takes the file's address) and
 * user.  The current task's are plain loads through its BTF
 * pointer (no helper call each: a system call's event is the common
 * case); another task's (sched_switch's next) are read by CO-RE. */
struct stp_cx_who {
	u32 tgid, uid;
	u64 exe;
};

STP_INLINE void stp_cx_who(int64_t task, struct stp_cx_who *w)
{
	struct task_struct___stpv *t;

	if (!task || task == (int64_t)bpf_get_current_task()) {
		t = (struct task_struct___stpv *)bpf_get_current_task_btf();
		w->tgid = t->tgid;
		w->uid = t->real_cred->uid.val;
		/* the executable's inode number: a pointer, BPF would not mix */
		w->exe = (t->flags & STP_PF_KTHREAD) || !t->mm || !t->mm->exe_file ? 0 :
			 t->mm->exe_file->f_inode->i_ino;
		return;
	}
	t = (struct task_struct___stpv *)task;
	w->tgid = BPF_CORE_READ(t, tgid);
	w->uid = BPF_CORE_READ(t, real_cred, uid.val);
	w->exe = stp_cx_exe_id(t) ? BPF_CORE_READ(t, mm, exe_file, f_inode, i_ino) : 0;
}

STP_INLINE u64 stp_cx_mix(u64 a, u64 b)
{
	return a ^ (b + 0x9e3779b97f4a7c15ULL + (a << 6) + (a >> 2));
}

STP_INLINE u32 stp_cx_index(u64 label)
{
	label ^= label >> 33;
	label *= 0xff51afd7ed558ccdULL;
	label ^= label >> 33;
	label *= 0xc4ceb9fe1a85ec53ULL;
	label ^= label >> 33;
	return (u32)label & (CX_COUNTERS - 1);
}

/* floor(log2(x)) for x > 0, without branches (each would double the
 * paths the verifier walks): the bits below the top one set, then a
 * de Bruijn multiply indexes the table. */
const u8 stp_cx_debruijn[32] = {
	0, 9, 1, 10, 13, 21, 2, 29, 11, 14, 16, 18, 22, 25, 3, 30,
	8, 12, 20, 28, 15, 17, 24, 7, 19, 27, 23, 6, 26, 5, 4, 31,
};

STP_INLINE u32 stp_cx_log2(u32 x)
{
	u64 v = x;

	v |= v >> 1;
	v |= v >> 2;
	v |= v >> 4;
	v |= v >> 8;
	v |= v >> 16;
	return stp_cx_debruijn[((v * 0x07C4ACDDULL) & 0xffffffffULL) >> 27];
}

STP_INLINE int stp_cx_crosses(u32 old, u32 new, u32 shift)
{
	if (new <= old)
		return 0;
	if (old == 0)
		return 1;
	if (!shift)
		shift = 1;
	return stp_cx_log2(new) / shift > stp_cx_log2(old) / shift;
}

/* Names already found, to their index: a probe's lookup is one hash
 * lookup, and the verifier walks the naming below once, not per slot. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CX_VITALS_MAX * 2);
	__type(key, u64[2]);
	__type(value, u32);
} stp_cx_names SEC(".maps");

struct stp_cx_naming {
	struct cx_sketch *s;
	u64 k[2];
	s32 found;
};

/* One slot of sketch.c's cx_vital: 1 stops the walk (found, or named
 * now, or a slot being named: -1 then, as cx_vital would wait). */
static long stp_cx_name_slot(u32 i, struct stp_cx_naming *n)
{
	struct cx_vital *v;
	u64 *w;

	if (i >= CX_VITALS_MAX)
		return 1;
	v = &n->s->v[i];
	w = (u64 *)v->name;
	if (v->state == 0 && __sync_val_compare_and_swap(&v->state, 0, 1) == 0) {
		w[0] = n->k[0];
		w[1] = n->k[1];
		v->name[CX_NAME_LEN - 1] = 0;
		stp_cx_mb();
		v->state = 2;
		n->found = i;
		return 1;
	}
	if (v->state != 2)
		return 1;
	if (w[0] == n->k[0] && (w[1] & 0x00ffffffffffffffULL) == (n->k[1] & 0x00ffffffffffffffULL)) {
		n->found = i;
		return 1;
	}
	return 0;
}

/* The vital's index (sketch.c's cx_vital), naming a free slot; -1 when
 * the table is full. */
STP_INLINE int stp_cx_find(struct cx_sketch *s, const char *name)
{
	struct stp_cx_naming n = { .s = s, .k = { 0, 0 }, .found = -1 };
	u32 *hit;

	bpf_probe_read_kernel_str(n.k, sizeof(n.k), name);
	n.k[1] &= 0x00ffffffffffffffULL;	/* as stored: 15 characters */
	hit = bpf_map_lookup_elem(&stp_cx_names, n.k);
	if (hit)
		return *hit;
	bpf_loop(CX_VITALS_MAX, stp_cx_name_slot, &n, 0);
	if (n.found >= 0)
		bpf_map_update_elem(&stp_cx_names, n.k, &n.found, BPF_ANY);
	return n.found;
}

/* cx_count: a saturating add by compare-and-swap; the old value in
 * *old.  BPF's compare-and-swap before ISA v3 is 64 bits wide: on the
 * word that holds the counter (little-endian: an odd index is its high
 * half).  One try (a loop would multiply the verifier's paths); when
 * another CPU got between, an atomic add, which saturates no more. */
STP_INLINE u32 stp_cx_count(u32 *hca, u32 idx, u64 w, u32 *old)
{
	u64 *word = (u64 *)&hca[idx & (CX_COUNTERS - 2)];
	u64 sh = (idx & 1) * 32;
	u64 ow = *(volatile u64 *)word, nw, seen;
	u32 o = (u32)(ow >> sh), n;

	n = w >= (u64)(0xffffffffU - o) ? 0xffffffffU : o + (u32)w;
	nw = (ow & ~(0xffffffffULL << sh)) | (u64)n << sh;
	seen = __sync_val_compare_and_swap(word, ow, nw);
	if (seen != ow) {
		o = (u32)(__sync_fetch_and_add(word, (w & 0xffffffffULL) << sh) >> sh);
		n = o + (u32)w;
	}
	*old = o;
	return n;
}

STP_INLINE void stp_cx_adapt(struct cx_vital *v, s64 delta)
{
	s64 o = v->shift, n;

	n = o + delta;
	if (n > CX_SHIFT_MAX)
		n = CX_SHIFT_MAX;
	if (n < CX_SHIFT_MIN)
		n = CX_SHIFT_MIN;
	if (n != o)
		__sync_val_compare_and_swap(&v->shift, o, n);
}

/* Another task's stacks are not BPF's to take (its helpers do not take
 * a raw tracepoint's task pointer): its user PC where it entered the
 * kernel, from the registers at the top of its kernel stack (x86-64's
 * task_pt_regs, THREAD_SIZE 16 KiB as Debian builds it), as its one
 * user frame, the runner's site for the sample. */
#define STP_THREAD_SIZE 16384

struct task_struct___stpv_stack {
	void *stack;
} __attribute__((preserve_access_index));

STP_INLINE void stp_cx_task_user_pc(struct task_struct___stpv *t, struct cx_sample *smp)
{
	char *top = (char *)BPF_CORE_READ((struct task_struct___stpv_stack *)t, stack);
	struct pt_regs *r = (struct pt_regs *)(top + STP_THREAD_SIZE) - 1;
	u64 ip = 0;

	if (!top || (BPF_CORE_READ(t, flags) & STP_PF_KTHREAD))
		return;
	bpf_probe_read_kernel(&ip, sizeof(ip), &r->ip);
	if (ip && ip < 0x800000000000ULL) {
		smp->ustack[0] = ip;
		smp->nu = 1;
	}
}

/* The sample's fields, of task t (the current one when t is 0). */
STP_INLINE void stp_cx_fill(struct stp_kctx *k, struct cx_sample *smp, int64_t task,
			    u64 label, s64 weight, u64 site, const s64 *d)
{
	struct task_struct___stpv *t = stp_cx_task(task);
	struct inode___stpv *ino;
	int cur = !task || task == (int64_t)bpf_get_current_task();
	long n;

	smp->label = label;
	smp->weight = weight;
	smp->time_ns = bpf_ktime_get_boot_ns() + stp_g.stp_wall_off;
	smp->pid = BPF_CORE_READ(t, tgid);
	smp->uid = BPF_CORE_READ(t, real_cred, uid.val);
	BPF_CORE_READ_STR_INTO(&smp->comm, t, comm);
	smp->exec = smp->exec_dev = 0;
	if (stp_cx_exe_id(t)) {
		ino = BPF_CORE_READ(t, mm, exe_file, f_inode);
		smp->exec = BPF_CORE_READ(ino, i_ino);
		smp->exec_dev = BPF_CORE_READ(ino, i_sb, s_dev);
	}
	smp->site = site;
	for (int i = 0; i < CX_NDATA; i++)
		smp->data[i] = d[i];
	n = cur && k->ctx ? bpf_get_stack(k->ctx, smp->kstack, sizeof(smp->kstack), 0) : 0;
	smp->nk = n > 0 ? (u16)((u64)n / 8) : 0;
	n = cur && k->ctx ? bpf_get_stack(k->ctx, smp->ustack, sizeof(smp->ustack),
					  BPF_F_USER_STACK) : 0;
	smp->nu = n > 0 ? (u16)((u64)n / 8) : 0;
	if (!cur)
		stp_cx_task_user_pc(t, smp);
}

/* sketch.c's cx_enter: announce a writer in the open copy, recheck
 * which is open (cx_swap's protocol), and return it. */
STP_INLINE struct cx_copy *stp_cx_enter(struct cx_sketch *s, struct cx_vital *v)
{
	s64 open = s->open, now;

	__sync_fetch_and_add(&v->copy[open & 1].writers, 1);
	stp_cx_mb();
	now = s->open;
	if (now != open) {	/* closed meanwhile: into the open one */
		__sync_fetch_and_add(&v->copy[open & 1].writers, -1);
		__sync_fetch_and_add(&v->copy[now & 1].writers, 1);
		stp_cx_mb();
	}
	return &v->copy[now & 1];
}

/* sketch.c's cx_event: count, and the slot to fill when the label's
 * counter crossed a power of t and one was free (NULL otherwise). */
STP_INLINE struct cx_sample *stp_cx_count_event(struct cx_vital *v, struct cx_copy *c,
						u64 label, s64 weight)
{
	u64 w = weight < 0 ? -(u64)weight : (u64)weight;
	u32 old, new = stp_cx_count(c->hca, stp_cx_index(label), w, &old);
	s64 slot;

	__sync_fetch_and_add(&c->weight, weight);
	__sync_fetch_and_add(&c->events, 1);
	if (!stp_cx_crosses(old, new, (u32)v->shift))
		return 0;
	slot = __sync_fetch_and_add(&c->claimed, 1);
	if (slot >= CX_SAMPLES || slot < 0) {
		__sync_fetch_and_add(&c->dropped, 1);
		return 0;
	}
	c->samples[slot].count = new;
	return &c->samples[slot];
}

/* sketch.c's cx_done: the cycles spent (t doubled at each multiple of
 * the high watermark they reach), then the writer leaves. */
STP_INLINE void stp_cx_done(struct cx_sketch *s, struct cx_vital *v, struct cx_copy *c,
			    u64 t0)
{
	u64 cyc = (bpf_ktime_get_ns() - t0) * 2 + CX_HIT_CYCLES, hi = s->hi_cycles, sum;

	sum = __sync_fetch_and_add(&c->cycles, cyc) + cyc;
	if (hi && sum / hi > (sum - cyc) / hi)
		stp_cx_adapt(v, (s64)(sum / hi - (sum - cyc) / hi));
	stp_cx_mb();
	__sync_fetch_and_add(&c->writers, -1);
}

/* The vital named vital, named now if it is new; NULL when the table
 * is full. */
STP_INLINE struct cx_vital *stp_cx_vital_of(struct cx_sketch *s, const char *vital)
{
	int i = stp_cx_find(s, vital);
	u32 vi = (u32)i;

	if (i < 0)
		return 0;
	/* the bound checked on the register used (clang would check a
	 * sign-extended copy) */
	asm volatile("" : "+r"(vi));
	return vi < CX_VITALS_MAX ? &s->v[vi] : 0;
}

/* chopstix_event_task: count the event, sample it when its counter
 * crosses a power of t; 1 when sampled. */
STP_INLINE int64_t stp_cx_event(struct stp_kctx *k, const char *vital, u64 label, s64 weight,
				int64_t task, u64 site, const char *names, const s64 *d)
{
	u64 t0 = bpf_ktime_get_ns();
	u32 zero = 0;
	struct stp_cx_ctl *ctl = bpf_map_lookup_elem(&stp_cx_ctl_map, &zero);
	struct cx_sketch *s = bpf_map_lookup_elem(&stp_cx_map, &zero);
	struct stp_cx_who who;
	struct cx_sample *smp;
	struct cx_vital *v;
	struct cx_copy *c;

	if (!s || !ctl || !ctl->started || !(v = stp_cx_vital_of(s, vital)))
		return 0;
	if (names[0] && !v->names[0])
		bpf_probe_read_kernel_str(v->names, CX_NAMES_LEN, names);
	stp_cx_who(task, &who);
	if (who.tgid == ctl->stprun_pid)
		return 0;
	label = stp_cx_mix(stp_cx_mix(label, who.exe), who.uid);
	c = stp_cx_enter(s, v);
	smp = stp_cx_count_event(v, c, label, weight);
	if (smp) {
		stp_cx_fill(k, smp, task, label, weight, site, d);
		stp_cx_mb();
		smp->ready = 1;
	}
	stp_cx_done(s, v, c, t0);
	return smp != 0;
}

/* chopstix_unavailable in a kernel probe. */
STP_INLINE void stp_cx_unavail(const char *vital, const char *why)
{
	u32 zero = 0;
	struct cx_sketch *s = bpf_map_lookup_elem(&stp_cx_map, &zero);
	struct cx_vital *v = s ? stp_cx_vital_of(s, vital) : 0;

	if (!v)
		return;
	bpf_probe_read_kernel_str(v->why, CX_WHY_LEN, why);
	stp_cx_mb();
	v->unavailable = 1;
}

#endif
#endif
