/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Chopstix sampler's decision path, once for every build of it: the
 * module (runtime/sketch.c, vitals.c), the BPF program (runtime/bpf/
 * sketch.h, compiled by clang -target bpf), and the host (-DSTP_HOST:
 * the unit tests, the benchmarks, and the BPF runner, which closes
 * epochs on the mapped sketch).  A change to the algorithm is made and
 * tested here.  What differs per build is below the layout: atomics,
 * log2, and where an event's per-CPU counts go (cx_cpu_add).
 *
 * One event costs, on its common path: a hash of its label, one atomic
 * add to its hashed counter, which returns the counter's owner tag and
 * old count, a test of both, and two per-CPU adds (events, weight).
 * Everything else (the exact power-of-t test, the first-occurrence
 * table, claiming a sample slot, the adaptive threshold) runs only when
 * that test fails: the counter crossed a power of two, or another label
 * last owned it.  Measured in a guest under -icount, where an
 * instruction is a nanosecond, that is what keeps an always-on monitor
 * within its floor (tests/bench, "guest: footprint").
 *
 * The hashed counter array (HCA): a label's hash picks a counter, which
 * goes up by the event's |weight|.  The event is selected when the
 * counter reaches or crosses a power of t = 2^shift (t^0 = 1: a label's
 * first event in an empty counter), so a label's samples grow as the log
 * of its count.  Each counter is 64 bits: the count in the low 32, in
 * the high 32 the tag of the label that last took it.  A label that
 * finds another's tag may be new this epoch although the counter is
 * busy (the paper's false negatives: a rare label hidden by a frequent
 * one); it is looked up in the first-occurrence table, a hash set of
 * 16-bit fingerprints shared by the vital signs, and a label not there
 * is selected as a first occurrence.  A table entry carries the epoch's
 * parity, so that an epoch's entries are told from the last one's and
 * cleared once it is closed.
 *
 * The sample list: CX_SAMPLES slots per vital and epoch, claimed by an
 * atomic increment.  When it is full, a label never sampled this epoch
 * (a first occurrence, or one whose first was dropped) takes the slot
 * of a repeat (a label sampled before in the epoch), which counts as
 * dropped, and a repeat of a sampled label raises the count of that
 * label's latest sample; drops are always counted.
 *
 * Epochs: two copies of each vital's HCA and samples; events go to the
 * open one (cx_sketch.open).  Closing flips it, then waits for a grace
 * period: every event that read the old index has finished (the module:
 * synchronize_rcu(), which waits for preempt-disabled code, tracepoint
 * callbacks and NMI handlers included; the BPF runner: membarrier's
 * global barrier, the same wait, BPF programs running under RCU).  No
 * writer count is kept on the common path.
 *
 * The adaptive threshold: collection's cycles are estimated per vital
 * and epoch, CX_EVENT_CYCLES an event and what sampling measured; each
 * time they reach another multiple of the high watermark, t doubles (on
 * a slow path: a busy vital's counters cross often); at an epoch's end t
 * halves when they stayed under the low one.
 */
#ifndef STP_CX_CORE_H
#define STP_CX_CORE_H

/* ---- sizes (-D CX_NAME=N) ---- */
#ifndef CX_VITALS_MAX
#define CX_VITALS_MAX 12	/* the 11 vital signs and one of the user's */
#endif
#ifndef CX_HCA_BYTES
#define CX_HCA_BYTES 1024	/* the paper's size (4-byte counts), 128 .. 4096, a power of
				 * two: CX_COUNTERS counters, each 8 bytes here (tag, count) */
#endif
#ifndef CX_SAMPLES
#define CX_SAMPLES 26		/* sample slots per vital and copy */
#endif
#ifndef CX_SEEN_SLOTS
#define CX_SEEN_SLOTS 32768	/* first-occurrence table: a power of two */
#endif
#ifndef CX_SHIFT_INIT
#define CX_SHIFT_INIT 1		/* t = 2 */
#endif
#ifndef CX_EVENT_CYCLES
#define CX_EVENT_CYCLES 120	/* an event's collection, estimated (bench) */
#endif
#define CX_SHIFT_MIN 1
#define CX_SHIFT_MAX 30
#define CX_COUNTERS (CX_HCA_BYTES / 4)
#define CX_STD_VITALS 11	/* slots 0..10: the paper's, by CX_STD_NAMES */
#define CX_NAME_LEN 16
#define CX_NDATA 4
#define CX_NAMES_LEN 64
#define CX_KFRAMES 8
#define CX_UFRAMES 4
#define CX_WHY_LEN 160
#define CX_SEEN_PROBES 16	/* table slots looked at for one label */

/*
 * The vital signs' fixed slots.  ORDER: tapsets/vitals.stp's vital_slot
 * of each alias, and the names stprun's store knows.
 */
#define CX_STD_NAMES "cpuu", "l2mi", "sched", "blck", "blio", "kmem", \
	"umem", "syscall", "sig", "sock", "lock"

/* cx_sample.ready */
#define CX_READY 1		/* filled: the reader takes it */
#define CX_FIRST 2		/* with CX_READY: a label's first this epoch */

/* cx_vital.state */
enum { CX_FREE, CX_NAMING, CX_USED };

/* One sampled event; filled by the caller of cx_count. */
struct cx_sample {
	u64 ready;		/* CX_READY | CX_FIRST, set last; 0: being filled */
	u64 label;		/* the hashed label, exec and uid mixed in */
	u64 time_ns;
	u64 exec;		/* the executable's inode number; 0: none */
	u64 site;		/* the vital's site (0: the first kstack frame) */
	s64 weight;
	u64 pin;		/* the module's reference to release (vitals.c) */
	u32 uid;
	u32 pid;
	u32 exec_dev;		/* and its file system's dev_t (kernel's) */
	u32 count;		/* the label's counter with this event */
	u16 nk;			/* kstack[] entries */
	u16 nu;			/* ustack[] entries; 0 when not resident */
	u16 first;		/* claimed for a label's first occurrence */
	u16 reserved;
	char comm[16];
	s64 data[CX_NDATA];	/* the vital's data, named by cx_vital.names */
	u64 kstack[CX_KFRAMES];
	u64 ustack[CX_UFRAMES];
};

/* One copy of a vital's state for an epoch.  events and weight are
 * counted apart while the copy is open (struct cx_cpu), and folded in
 * once it is closed. */
struct cx_copy {
	s64 weight;		/* sum of weights (signed) */
	s64 events;		/* number of events */
	s64 claimed;		/* sample slots claimed; may pass CX_SAMPLES */
	s64 dropped;		/* selected, but no slot was left */
	s64 cycles;		/* spent by collection, estimated at the close */
	s64 sample_cycles;	/* spent filling samples, measured */
	s64 adapted;		/* multiples of the high watermark t doubled for */
	s64 counted;		/* the counts of events of weights other than
				 * the constant 1 (struct cx_cpu), at the close */
	u64 hca[CX_COUNTERS];	/* tag << 32 | count */
	struct cx_sample samples[CX_SAMPLES];
};

struct cx_vital {
	char name[CX_NAME_LEN];
	s64 state;		/* CX_FREE, CX_NAMING, CX_USED */
	s64 shift;		/* t = 1 << shift */
	s32 unavailable;	/* set with cx_unavailable, never cleared */
	s32 declared;		/* has a row every epoch, events or not */
	char why[CX_WHY_LEN];
	char names[CX_NAMES_LEN];	/* "prio age_ns": data[]'s names, set once */
	struct cx_copy copy[2];
};

struct cx_sketch {
	s64 open;		/* index of the copy events go to */
	u64 hi_cycles;		/* watermarks per vital and epoch; 0: off */
	u64 lo_cycles;
	u16 seen[CX_SEEN_SLOTS];	/* parity << 15 | fingerprint; 0 free */
	struct cx_vital v[CX_VITALS_MAX];
};

/*
 * Each event's count and weight, for both copies: per CPU in the module
 * (cx_cpu_add, defined before this header: this_cpu_add), one shared
 * instance with atomic adds elsewhere.  An event whose weight is the
 * constant 1 (the compiler sees it: a system call, a fault, a timer's
 * tick) adds nothing here; its count and weight are what its counter
 * got that the others' did not: the HCA's sum less counted, at the close.
 */
struct cx_cpu {
	s64 events[2][CX_VITALS_MAX];
	s64 weight[2][CX_VITALS_MAX];
	s64 counted[2][CX_VITALS_MAX];	/* the counts these events added */
};

/* ---- per build ---- */
#if defined(__bpf__)
/* the BPF flavour's (runtime/bpf/sketch.h) */
#define CX_INLINE static __always_inline
/* a global function: the verifier checks it once, on its own, not at
 * each of a program's calls with their states (its loops would blow the
 * program past a million instructions) */
#define CX_COLD __noinline
#define CX_LIKELY(x) __builtin_expect(!!(x), 1)
#define CX_READ(x) (*(volatile typeof(x) *)&(x))
#define CX_WRITE(x, v) (*(volatile typeof(x) *)&(x) = (v))
#define cx_fetch_add64(p, v) __sync_fetch_and_add((p), (v))
#define cx_cas64(p, o, n) __sync_val_compare_and_swap((p), (o), (n))
#define cx_barrier() asm volatile("" ::: "memory")
#elif defined(STP_HOST)
#define CX_INLINE static inline __attribute__((always_inline))
#define CX_COLD static __attribute__((noinline))
#define CX_LIKELY(x) __builtin_expect(!!(x), 1)
#define CX_READ(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
#define CX_WRITE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#define cx_fetch_add64(p, v) __atomic_fetch_add((p), (v), __ATOMIC_RELAXED)
static inline u64 cx_cas64(void *p, u64 o, u64 n)
{
	__atomic_compare_exchange_n((u64 *)p, &o, n, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
	return o;
}
static inline u16 cx_cas16(u16 *p, u16 o, u16 n)
{
	__atomic_compare_exchange_n(p, &o, n, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
	return o;
}
#define cx_barrier() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#else
#define CX_INLINE static __always_inline
#define CX_COLD static noinline notrace
#define CX_LIKELY(x) likely(x)
#define CX_READ(x) READ_ONCE(x)
#define CX_WRITE(x, v) WRITE_ONCE(x, v)
#define cx_fetch_add64(p, v) ((u64)atomic64_fetch_add((s64)(v), (atomic64_t *)(p)))
#define cx_cas64(p, o, n) ((u64)cmpxchg((u64 *)(p), (u64)(o), (u64)(n)))
#define cx_cas16(p, o, n) cmpxchg((p), (o), (n))
#define cx_barrier() smp_mb()
#endif
/* A bound the BPF verifier is to see checked on the very register that
 * indexes (clang may test a sign-extended copy instead). */
#if defined(__bpf__)
#define cx_bound(x) asm volatile("" : "+r"(x))
#else
#define cx_bound(x) ((void)0)
#endif
/*
 * The open copy's HCA of vital vi: the module keeps a pointer per vital
 * (one load; vitals.h), others compute it from cx_sketch.open.
 */
#ifndef CX_OPEN_HCA
#define CX_OPEN_HCA(s, vi) ((s)->v[vi].copy[CX_READ((s)->open) & 1].hca)
#endif
#ifndef cx_cpu_add
#define cx_cpu_add(cpu, f, p, vi, v) cx_fetch_add64((u64 *)&(cpu)->f[p][vi], (u64)(v))
#endif

/* floor(log2(x)) for x > 0 */
#if defined(__bpf__)
/* no count-leading-zeros in BPF: smear the top bit down, then a de
 * Bruijn multiply indexes a table (no branch: the verifier walks each).
 * Not static: clang would put it in .rodata.cst32, which libbpf does not
 * map, and the object would load without its BTF (no bpf_loop then). */
const u8 cx_debruijn[32] = {
	0, 9, 1, 10, 13, 21, 2, 29, 11, 14, 16, 18, 22, 25, 3, 30,
	8, 12, 20, 28, 15, 17, 24, 7, 19, 27, 23, 6, 26, 5, 4, 31,
};

CX_INLINE u32 cx_log2(u32 x)
{
	u64 v = x;

	v |= v >> 1;
	v |= v >> 2;
	v |= v >> 4;
	v |= v >> 8;
	v |= v >> 16;
	return cx_debruijn[((v * 0x07C4ACDDULL) & 0xffffffffULL) >> 27];
}

#else
CX_INLINE u32 cx_log2(u32 x)
{
	return 31 - __builtin_clz(x);
}
#endif

/* Table entry i from o to n; the value it held (n was stored iff o). */
#if defined(__bpf__)
/* on its 64-bit word, BPF's narrowest compare-and-swap, found by index
 * (the verifier does no arithmetic on a pointer's bits) */
CX_INLINE u16 cx_seen_cas(u16 *seen, u32 i, u16 o, u16 n)
{
	u64 *w = &((u64 *)seen)[(i >> 2) & (CX_SEEN_SLOTS / 4 - 1)];
	u64 sh = (u64)(i & 3) * 16, ow = CX_READ(*w), seen_w;

	if ((u16)(ow >> sh) != o)
		return (u16)(ow >> sh);
	seen_w = __sync_val_compare_and_swap(w, ow, (ow & ~(0xffffULL << sh)) | (u64)n << sh);
	return seen_w == ow ? o : (u16)(seen_w >> sh);
}
#else
CX_INLINE u16 cx_seen_cas(u16 *seen, u32 i, u16 o, u16 n)
{
	return cx_cas16(&seen[i & (CX_SEEN_SLOTS - 1)], o, n);
}
#endif

/* ---- the hash ---- */

/*
 * An event's hash: its label and who it is about (the executable and
 * user, mixed once per task by the caller), times a constant of its
 * vital (so that the vitals' labels differ in the shared table).  A
 * multiplicative hash: the HCA takes the top bits, the owner tag the
 * next 32, the table the middle ones.
 */
#define CX_MUL(vi) (0x9e3779b97f4a7c15ULL + 2ULL * (u64)(vi) * 0x632be59bd9b4e019ULL)

/* Who an event is about, once per task: its executable's id (what
 * identifies the program while it runs) and its user. */
CX_INLINE u64 cx_who(u64 exe, u32 uid)
{
	return (exe ^ (u64)uid << 40 ^ uid) * 0xff51afd7ed558ccdULL;
}

CX_INLINE u64 cx_hash(int vi, u64 label, u64 who)
{
	return (label ^ who) * CX_MUL(vi);
}

/* log2 of CX_COUNTERS, a power of two from 32 to 1024 */
#define CX_HCA_BITS (CX_COUNTERS >= 1024 ? 10 : CX_COUNTERS >= 512 ? 9 : CX_COUNTERS >= 256 ? 8 : \
		     CX_COUNTERS >= 128 ? 7 : CX_COUNTERS >= 64 ? 6 : 5)
_Static_assert(CX_COUNTERS == 1 << CX_HCA_BITS, "CX_HCA_BYTES is a power of two, 128 to 4096");

/* The counter: the top bits (one shift; they are the tag's top too, and
 * the tag's other bits tell the labels of a counter apart). */
CX_INLINE u32 cx_index(u64 h)
{
	return (u32)(h >> (64 - CX_HCA_BITS));
}

CX_INLINE u64 cx_tag(u64 h)
{
	return h & 0xffffffff00000000ULL;
}

/* ---- the exact test and the slow path ---- */

/* 1 when a counter going from old to new reaches or crosses a power of
 * 2^shift (floor(log_t(x)) is floor(log2(x) / shift)). */
CX_INLINE int cx_crosses(u32 old, u32 new, u32 shift)
{
	if (new <= old)
		return 0;
	if (old == 0)
		return 1;
	if (!shift)
		shift = 1;
	return cx_log2(new) / shift > cx_log2(old) / shift;
}

/* The table's entry for h in an epoch of parity p: never 0 (free). */
/*
 * The table's bits of h: a product's low bits depend on its input's low
 * bits only (the syscall vital's labels differ above bit 16), so the
 * high half is folded in first.  The tag's and the index's bits differ.
 */
CX_INLINE u32 cx_seen_bits(u64 h)
{
	return (u32)(h ^ (h >> 32));
}

CX_INLINE u16 cx_seen_tag(u64 h, u64 p)
{
	return (u16)(((cx_seen_bits(h) >> 16) | 1) & 0x7fff) | (u16)(p << 15);
}

/*
 * Look h up in the first-occurrence table, adding it when absent: 1
 * when it was absent (a first occurrence), 0 when present, or when no
 * slot of its neighbourhood was free (the table is full: the counters
 * alone decide, as the paper's sampler did).  A slot of the other
 * parity is one the closed epoch left: free.
 */
CX_INLINE int cx_seen_add(struct cx_sketch *s, u64 h, u64 p)
{
	u16 tag = cx_seen_tag(h, p), v;
	u32 i = (cx_seen_bits(h) >> 1) & (CX_SEEN_SLOTS - 1), k;

	for (k = 0; k < CX_SEEN_PROBES; k++) {
		u32 j = (i + k) & (CX_SEEN_SLOTS - 1);
		u16 was;

		v = CX_READ(s->seen[j]);
		if (v == tag)
			return 0;
		if (v && (u64)(v >> 15) == p)
			continue;	/* another label's, this epoch */
		was = cx_seen_cas(s->seen, j, v, tag);
		if (was == v)
			return 1;
		if (was == tag)
			return 0;	/* the same label, on another CPU */
	}
	return 0;
}

/* Move v's shift by delta within [CX_SHIFT_MIN, CX_SHIFT_MAX]. */
CX_INLINE void cx_adapt(struct cx_vital *v, s64 delta)
{
	s64 o = CX_READ(v->shift), n = o + delta;

	if (n > CX_SHIFT_MAX)
		n = CX_SHIFT_MAX;
	if (n < CX_SHIFT_MIN)
		n = CX_SHIFT_MIN;
	if (n != o)
		cx_cas64(&v->shift, o, n);
}

/*
 * A label never sampled this epoch, whose count is n, when the list is
 * full: the index of a repeat's slot (a label sampled before in the
 * epoch), taken back from the reader (ready to 0) to be filled again;
 * else, for a busy one (n >= CX_BUSY), the slot of the label sampled
 * with the smallest count, when smaller (a one-off label gives way to
 * one that keeps coming: a busy process must be seen, rules 5 to 9, and
 * a label seen twice is no busier than an exit); else -1.  Slots being
 * filled (ready 0) are not taken.
 */
#define CX_BUSY 16

CX_INLINE int cx_evict(struct cx_copy *c, u32 n)
{
	int i, low = -1;
	u32 least = n >= CX_BUSY ? n : 0;
	u64 r;

	for (i = 0; i < CX_SAMPLES; i++) {
		struct cx_sample *x = &c->samples[i];

		r = CX_READ(x->ready);
		if (r == CX_READY && cx_cas64(&x->ready, CX_READY, 0) == CX_READY)
			return i;
		if (r && CX_READ(x->count) < least) {
			least = CX_READ(x->count);
			low = i;
		}
	}
	if (low < 0)
		return -1;
	r = CX_READ(c->samples[low].ready);
	return r && cx_cas64(&c->samples[low].ready, r, 0) == r ? low : -1;
}

/*
 * A repeat selected when the list is full: the label's latest sample
 * (its largest count) takes the count, so that a busy label's sample
 * still says how busy it was, whichever samples were dropped or taken
 * by first occurrences (a race with another CPU's raise may leave the
 * smaller: the count is a floor of the label's weight either way).  0
 * when the label has no sample: its first occurrence was dropped, so
 * it is a label never sampled this epoch, as a first occurrence is.
 */
CX_INLINE int cx_raise(struct cx_copy *c, u64 h, u32 n)
{
	struct cx_sample *best = 0;
	u32 most = 0;
	int i;

	for (i = 0; i < CX_SAMPLES; i++) {
		struct cx_sample *x = &c->samples[i];

		if (CX_READ(x->ready) && x->label == h && x->count >= most) {
			best = x;
			most = x->count;
		}
	}
	if (best && n > most)
		CX_WRITE(best->count, n);
	return best != 0;
}

/*
 * A sample's handle, what cx_count returns and cx_sample_at takes back:
 * never 0, and no pointer (a script holds it, and BPF cannot turn a
 * number back into one).  1 + (vital << 6 | copy << 5 | slot): fields
 * of whole bits, so that BPF's verifier sees their bounds (it knows
 * none of a quotient's), and the checks narrow them to the sizes.
 */
#define CX_H_SLOT(i) ((u32)(i) & 31)
#define CX_H_COPY(i) ((u32)((i) >> 5) & 1)
#define CX_H_VITAL(i) ((u32)((i) >> 6) & 15)
_Static_assert(CX_VITALS_MAX <= 16 && CX_SAMPLES <= 32, "a handle's fields hold the sizes");

CX_INLINE s64 cx_handle(int vi, u64 p, int slot)
{
	return 1 + ((s64)vi << 6 | (s64)p << 5 | slot);
}

/* The vital of handle h, or CX_VITALS_MAX when it names none. */
CX_INLINE u32 cx_handle_vital(s64 h)
{
	u64 i = (u64)h - 1;
	u32 vi = CX_H_VITAL(i);

	return h > 0 && i < (u64)CX_VITALS_MAX << 6 && vi < CX_VITALS_MAX &&
	       CX_H_SLOT(i) < CX_SAMPLES ? vi : CX_VITALS_MAX;
}

/* The slot of handle h, or NULL for a number that is none. */
CX_INLINE struct cx_sample *cx_sample_at(struct cx_sketch *s, s64 h)
{
	u64 i = (u64)h - 1;
	u32 vi = cx_handle_vital(h), slot = CX_H_SLOT(i), c = CX_H_COPY(i);

	if (vi >= CX_VITALS_MAX || slot >= CX_SAMPLES)
		return 0;
	/* after the check, so that clang computes the address after it */
	cx_bound(vi);
	cx_bound(slot);
	return &s->v[vi].copy[c].samples[slot];
}

/* |w| as a count, at most 2^31 - 1, so that one add never wraps past a
 * saturated counter unnoticed. */
CX_INLINE u64 cx_count_of(s64 w)
{
	u64 a = w < 0 ? -(u64)w : (u64)w;

	return a > 0x7fffffffULL ? 0x7fffffffULL : a;
}

/*
 * The slow path: the exact test against t, the first-occurrence table,
 * the counter's owner, a slot when selected: its handle, or 0.  vp is
 * the vital's slot and the copy the event counted into (vi << 1 | p:
 * BPF calls take five arguments), old the counter as the event's add
 * found it (tag and count).
 */
CX_COLD s64 cx_select(struct cx_sketch *s, u32 vp, u64 h, u64 old, s64 weight)
{
	u32 vi = vp >> 1;
	u64 p = vp & 1, w = cx_count_of(weight);
	struct cx_vital *v;
	struct cx_copy *c;
	u64 *ctr, tag = cx_tag(h), now, n64, hi = s->hi_cycles;
	int first, cross = 0;
	struct cx_sample *x;
	s64 slot;

	cx_bound(vi);
	if (!s || vi >= CX_VITALS_MAX)	/* (BPF checks a global function's pointer) */
		return 0;
	v = &s->v[vi];
	c = &v->copy[p];
	ctr = &c->hca[cx_index(h)];
	n64 = (u64)(u32)old + w;
	first = cx_seen_add(s, h, p);
	if (n64 <= 0xffffffffULL)
		cross = cx_crosses((u32)old, (u32)n64, (u32)CX_READ(v->shift));
	/* take the counter (its tag), and stop a count that wrapped: it
	 * carried into the tag, which this puts back */
	now = CX_READ(*ctr);
	if ((now & ~0xffffffffULL) != tag || n64 > 0xffffffffULL)
		cx_cas64(ctr, now, tag | (n64 > 0xffffffffULL ? 0xffffffffULL : (u32)now));
	if (CX_READ(v->state) != CX_USED)
		CX_WRITE(v->state, CX_USED);
	if (!first && !cross)
		return 0;
	/* sampling's measured cost against the high watermark, here where
	 * it grows; the counting's estimate joins it at the close */
	if (hi) {
		s64 m = (s64)((u64)CX_READ(c->sample_cycles) / hi), done = CX_READ(c->adapted);

		if (m > done && (s64)cx_cas64(&c->adapted, done, m) == done)
			cx_adapt(v, m - done);
	}
	slot = (s64)cx_fetch_add64((u64 *)&c->claimed, 1);
	if (slot < 0 || slot >= CX_SAMPLES) {
		/* full: counted as dropped, whether a first occurrence then
		 * takes a repeat's slot or not */
		cx_fetch_add64((u64 *)&c->dropped, 1);
		if (!first && cx_raise(c, h, n64 > 0xffffffffULL ? 0xffffffffU : (u32)n64))
			return 0;
		first = 1;	/* never sampled this epoch: as a first */
		slot = cx_evict(c, n64 > 0xffffffffULL ? 0xffffffffU : (u32)n64);
	}
	if (slot < 0 || slot >= CX_SAMPLES)	/* (a bound the BPF verifier sees) */
		return 0;
	x = &c->samples[slot];
	x->count = n64 > 0xffffffffULL ? 0xffffffffU : (u32)n64;
	x->first = (u16)first;
	x->label = h;
	x->weight = weight;
	return cx_handle((int)vi, p, (int)slot);
}

/* ---- the common path ---- */

/*
 * Count one event of vital vi (a slot below CX_VITALS_MAX) whose hash
 * (cx_hash) is h: the handle of the sample slot to fill when it was
 * selected, else 0.  cpu: the counts' instance (cx_cpu_add).  The caller
 * fills the slot and publishes it with cx_publish within the same grace
 * period: the same probe hit.
 */
CX_INLINE s64 cx_count(struct cx_sketch *s, struct cx_cpu *cpu, int vi, u64 h, s64 weight)
{
	u64 *hca = CX_OPEN_HCA(s, vi), w = cx_count_of(weight), old, cnt;
	u64 p = hca != s->v[vi].copy[0].hca;	/* the open copy's index */

	old = cx_fetch_add64(&hca[cx_index(h)], w);
	if (!__builtin_constant_p(weight) || weight != 1) {
		cx_cpu_add(cpu, events, p, vi, 1);
		cx_cpu_add(cpu, weight, p, vi, weight);
		cx_cpu_add(cpu, counted, p, vi, w);
	}
	cnt = (u32)old;
	/* the same owner, and the count's top bit stays (so no power of any
	 * t is crossed, and the count did not wrap): nothing more to do.  By
	 * one, the top bit moves when cnt + 1 is a power of two (or 0, when
	 * cnt is 0 or saturated): cnt & (cnt + 1) is 0 then. */
	if (CX_LIKELY(!((old ^ h) >> 32)) &&
	    CX_LIKELY(__builtin_constant_p(weight) && weight == 1 ? (u32)(cnt & (cnt + 1)) != 0 :
		      (cnt ^ (cnt + w)) <= cnt))
		return 0;
	return cx_select(s, (u32)vi << 1 | (u32)p, h, old, weight);
}

/* The filled slot goes to the reader. */
CX_INLINE void cx_publish(struct cx_sample *x)
{
	if (!x)
		return;
	cx_barrier();
	CX_WRITE(x->ready, CX_READY | (x->first ? CX_FIRST : 0));
}

#endif
