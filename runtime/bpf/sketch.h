/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Chopstix sketch sampler in a BPF program (tapsets/chopstix.stp's
 * BPF flavours): runtime/cx_core.h's decision path and layout, the
 * module's too.  The sketch is one entry of a mmapable array map, and
 * the events' counts another (struct cx_cpu, one instance, atomic
 * adds), so that the runner (staprun/bpf/sketch.c) runs sketch.c
 * itself, built for the host, on the mapped memory: naming vitals from
 * begin, flipping the open copy at an epoch's end, folding the counts,
 * reading and clearing the closed copy.  Compiled in only for scripts
 * that use chopstix.stp (gen.c defines STP_BPF_SKETCH).
 *
 * Differences from the module: a task's kernel stack is taken only for
 * the current task (BPF helpers do not take a raw tracepoint's task
 * pointer; another task's site is its user PC), the executable's path is
 * found by the runner through /proc/PID/exe (its inode and device are
 * recorded here, and the inode is the label's program id), and a
 * sample's cycles are estimated from nanoseconds (2 a nanosecond, the
 * watermarks' 2 GHz).
 */
#ifndef STP_BPF_SKETCH_H
#define STP_BPF_SKETCH_H
#ifdef STP_BPF_SKETCH

#include <bpf/bpf_core_read.h>

#ifndef CX_HIT_CYCLES
#define CX_HIT_CYCLES 300
#endif

#include "../cx_core.h"

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

/*
 * Who an event is about (cx_who of its executable's inode number, as in
 * the module, and its user); 0 when it is the
 * runner's own process (storing the epochs is not the machine's work).
 * The current task's are plain loads through its BTF pointer (no helper
 * call each: a system call's event is the common case); another task's
 * (sched_switch's next) are read by CO-RE.
 */
STP_INLINE int stp_cx_who(int64_t task, u64 stprun, u64 *who)
{
	struct task_struct___stpv *t;
	u64 exe;
	u32 uid, tgid;

	if (!task || task == (int64_t)bpf_get_current_task()) {
		t = (struct task_struct___stpv *)bpf_get_current_task_btf();
		tgid = t->tgid;
		uid = t->real_cred->uid.val;
		exe = (t->flags & STP_PF_KTHREAD) || !t->mm || !t->mm->exe_file ? 0 :
		      t->mm->exe_file->f_inode->i_ino;
	} else {
		t = (struct task_struct___stpv *)task;
		tgid = BPF_CORE_READ(t, tgid);
		uid = BPF_CORE_READ(t, real_cred, uid.val);
		exe = stp_cx_exe_id(t) ? BPF_CORE_READ(t, mm, exe_file, f_inode, i_ino) : 0;
	}
	if (tgid == stprun)
		return 0;
	*who = cx_who(exe, uid);
	return 1;
}

/* The events' counts (cx_core.h's struct cx_cpu): one instance, atomic
 * adds; the runner folds a closed copy's rows in and zeroes them. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, u32);
	__type(value, struct cx_cpu);
} stp_cx_cpu_map SEC(".maps");

/* Names already found, to their slot: a probe's lookup is one hash
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
 * now, or a slot being named: -1 then, as cx_vital would wait).  The
 * standard vitals' slots are named by the runner's cx_init. */
static long stp_cx_name_slot(u32 i, struct stp_cx_naming *n)
{
	struct cx_vital *v;
	u64 *w;

	if (i >= CX_VITALS_MAX)
		return 1;
	v = &n->s->v[i];
	w = (u64 *)v->name;
	if (i < CX_STD_VITALS) {
		if (w[0] != n->k[0] || w[1] != n->k[1])
			return 0;
		v->declared = 1;
		n->found = i;
		return 1;
	}
	if (v->state == CX_FREE && __sync_val_compare_and_swap(&v->state, CX_FREE, CX_NAMING) == CX_FREE) {
		w[0] = n->k[0];
		w[1] = n->k[1];
		v->name[CX_NAME_LEN - 1] = 0;
		cx_barrier();
		v->state = CX_USED;
		n->found = i;
		return 1;
	}
	if (v->state != CX_USED)
		return 1;
	if (w[0] == n->k[0] && (w[1] & 0x00ffffffffffffffULL) == (n->k[1] & 0x00ffffffffffffffULL)) {
		n->found = i;
		return 1;
	}
	return 0;
}

/* The vital's slot (sketch.c's cx_vital), naming a free one; -1 when
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

/* The sample's fields, of task t (the current one when t is 0); the
 * label, weight and count are the sampler's (cx_select). */
STP_INLINE void stp_cx_fill(struct stp_kctx *k, struct cx_sample *smp, int64_t task,
			    u64 site, const s64 *d)
{
	struct task_struct___stpv *t = stp_cx_task(task);
	struct inode___stpv *ino;
	int cur = !task || task == (int64_t)bpf_get_current_task();
	long n;

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

/* The maps of a count, once a program; 0 when one is missing. */
STP_INLINE int stp_cx_maps(struct cx_sketch **s, struct cx_cpu **cpu, struct stp_cx_ctl **ctl)
{
	u32 zero = 0;

	*s = bpf_map_lookup_elem(&stp_cx_map, &zero);
	*cpu = bpf_map_lookup_elem(&stp_cx_cpu_map, &zero);
	*ctl = bpf_map_lookup_elem(&stp_cx_ctl_map, &zero);
	return *s && *cpu && *ctl;
}

/* Count an event of slot vi for task (0: the current one): cx_count's
 * handle. */
STP_INLINE int64_t stp_cx_count_task(int64_t vi, u64 label, s64 weight, int64_t task)
{
	struct cx_sketch *s;
	struct cx_cpu *cpu;
	struct stp_cx_ctl *ctl;
	u32 v = (u32)vi;
	u64 who;

	if (!stp_cx_maps(&s, &cpu, &ctl) || !stp_cx_who(task, ctl->stprun_pid, &who))
		return 0;
	/* the bound checked on the register used (clang would check a
	 * sign-extended copy) */
	asm volatile("" : "+r"(v));
	if ((u64)vi >= CX_VITALS_MAX || v >= CX_VITALS_MAX)
		return 0;
	return cx_count(s, cpu, (int)v, cx_hash((int)v, label, who), weight);
}

/* chopstix_count */
STP_INLINE int64_t stp_cx_count(int64_t vi, u64 label, s64 weight)
{
	return stp_cx_count_task(vi, label, weight, 0);
}

/* chopstix_sample: fill the slot of handle h; 1 when filled. */
STP_INLINE int64_t stp_cx_sample(struct stp_kctx *k, int64_t h, int64_t task, u64 site,
				 const char *names, const s64 *d)
{
	u64 t0 = bpf_ktime_get_ns(), c = CX_H_COPY((u64)h - 1);
	u32 zero = 0;
	struct cx_sketch *s = bpf_map_lookup_elem(&stp_cx_map, &zero);
	struct cx_sample *x = s ? cx_sample_at(s, h) : 0;
	u32 vi = cx_handle_vital(h);
	struct cx_vital *v;

	if (!x || x->ready || vi >= CX_VITALS_MAX)
		return 0;
	cx_bound(vi);
	v = &s->v[vi];
	if (names[0] && !v->names[0])
		bpf_probe_read_kernel_str(v->names, CX_NAMES_LEN, names);
	stp_cx_fill(k, x, task, site, d);
	__sync_fetch_and_add(&v->copy[c].sample_cycles,
			     (bpf_ktime_get_ns() - t0) * 2 + CX_HIT_CYCLES);
	cx_publish(x);
	return 1;
}

/* chopstix_event_task: count the event by its vital's name, sample it
 * when selected; 1 when sampled. */
STP_INLINE int64_t stp_cx_event(struct stp_kctx *k, const char *vital, u64 label, s64 weight,
				int64_t task, u64 site, const char *names, const s64 *d)
{
	u32 zero = 0;
	struct cx_sketch *s = bpf_map_lookup_elem(&stp_cx_map, &zero);
	int vi = s ? stp_cx_find(s, vital) : -1;
	int64_t h;

	if (vi < 0)
		return 0;
	h = stp_cx_count_task(vi, label, weight, task);
	return h ? stp_cx_sample(k, h, task, site, names, d) : 0;
}

/* chopstix_declare in a kernel probe (begin's is the runner's). */
STP_INLINE int64_t stp_cx_declare(const char *vital)
{
	u32 zero = 0;
	struct cx_sketch *s = bpf_map_lookup_elem(&stp_cx_map, &zero);
	int vi = s ? stp_cx_find(s, vital) : -1;
	u32 v = (u32)vi;

	asm volatile("" : "+r"(v));
	if (vi >= 0 && v < CX_VITALS_MAX)
		s->v[v].declared = 1;
	return vi;
}

/* chopstix_unavailable in a kernel probe. */
STP_INLINE void stp_cx_unavail(const char *vital, const char *why)
{
	u32 zero = 0;
	struct cx_sketch *s = bpf_map_lookup_elem(&stp_cx_map, &zero);
	int vi = s ? stp_cx_find(s, vital) : -1;
	u32 v = (u32)vi;

	asm volatile("" : "+r"(v));
	if (vi < 0 || v >= CX_VITALS_MAX)
		return;
	bpf_probe_read_kernel_str(s->v[v].why, CX_WHY_LEN, why);
	cx_barrier();
	s->v[v].unavailable = 1;
	s->v[v].declared = 1;
}

#endif
#endif
