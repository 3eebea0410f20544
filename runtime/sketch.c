/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Chopstix sketch sampler (sketch.h).
 *
 * Everything a probe calls (cx_event, cx_done, and cx_vital for a user's
 * vital named on first use) may run in NMI, so it takes no lock and
 * never waits on another CPU: counters and sums are atomics, an HCA
 * counter is a compare-and-swap loop (lock free, and it saturates and
 * hands the old value to the selection), a sample slot is claimed with
 * an atomic increment.  Only cx_swap waits, in process context, for the
 * writers of the copy it closed; they are inside one short handler.
 *
 * A copy's writers count is never cleared: a probe that announced
 * itself in a copy just closed backs out of it by a decrement, which a
 * clear would turn into -1, and the next swap would wait forever.
 */
#include "sketch.h"

#define CX_SAT ((u32)~0u)	/* a counter stops here: never wraps */
#define CX_NAME_SPINS 100000	/* waits for a vital being named */

enum { CX_FREE, CX_NAMING, CX_USED };	/* cx_vital.state */

#ifdef STP_HOST
void (*cx_host_enter_hook)(void);
static inline void cx_enter_window(void)
{
	if (cx_host_enter_hook)
		cx_host_enter_hook();
}
#else
static inline void cx_enter_window(void) { }
#endif

static void cx_strcpy(char *dst, const char *src, size_t n)
{
	size_t i;

	for (i = 0; i + 1 < n && src[i]; i++)
		dst[i] = src[i];
	dst[i] = 0;
}

static void cx_clear_copy(struct cx_copy *c)
{
	stp_atomic_set(&c->weight, 0);
	stp_atomic_set(&c->events, 0);
	stp_atomic_set(&c->claimed, 0);
	stp_atomic_set(&c->dropped, 0);
	stp_atomic_set(&c->cycles, 0);
	memset(c->hca, 0, sizeof(c->hca));
	memset(c->samples, 0, sizeof(c->samples));
}

void cx_init(struct cx_sketch *s, u64 hi_cycles, u64 lo_cycles)
{
	int i;

	memset(s, 0, sizeof(*s));
	stp_atomic_set(&s->open, 0);
	s->hi_cycles = hi_cycles;
	s->lo_cycles = lo_cycles;
	for (i = 0; i < CX_VITALS_MAX; i++) {
		struct cx_vital *v = &s->v[i];

		stp_atomic_set(&v->state, CX_FREE);
		stp_atomic_set(&v->shift, CX_SHIFT_INIT);
		stp_atomic_set(&v->copy[0].writers, 0);
		stp_atomic_set(&v->copy[1].writers, 0);
		cx_clear_copy(&v->copy[0]);
		cx_clear_copy(&v->copy[1]);
	}
}

/*
 * The state of v once nobody is naming it: CX_NAMING only when the
 * naming did not end within the bound (an NMI interrupted it on this
 * CPU, and waiting would never end).
 */
static long cx_settled(struct cx_vital *v)
{
	long st = stp_atomic_read(&v->state);
	int n;

	for (n = 0; st == CX_NAMING && n < CX_NAME_SPINS; n++) {
		stp_cpu_relax();
		st = stp_atomic_read(&v->state);
	}
	stp_smp_mb();	/* the name, after the state that published it */
	return st;
}

/*
 * Vitals are named in slot order and never freed, so the first free
 * slot comes after every name in use: a name is either found before it
 * or is not in the table.  Names compare on their first CX_NAME_LEN-1
 * characters, as they are stored.
 */
int cx_vital(struct cx_sketch *s, const char *name)
{
	int i;

	for (i = 0; i < CX_VITALS_MAX; i++) {
		struct cx_vital *v = &s->v[i];
		long st = cx_settled(v);

		if (st == CX_FREE && stp_atomic_cmpxchg(&v->state, CX_FREE,
							CX_NAMING) == CX_FREE) {
			cx_strcpy(v->name, name, sizeof(v->name));
			stp_smp_mb();	/* the name before the state */
			stp_atomic_set(&v->state, CX_USED);
			return i;
		}
		if (st == CX_FREE)	/* another writer won the slot */
			st = cx_settled(v);
		if (st == CX_NAMING)
			return -1;
		if (!strncmp(v->name, name, CX_NAME_LEN - 1))
			return i;
	}
	return -1;
}

void cx_unavailable(struct cx_sketch *s, int vi, const char *why)
{
	struct cx_vital *v;

	if (vi < 0 || vi >= CX_VITALS_MAX)
		return;
	v = &s->v[vi];
	cx_strcpy(v->why, why, sizeof(v->why));
	stp_smp_mb();	/* the reason before the flag */
	v->unavailable = 1;
}

/* The murmur3 64-bit finalizer: every label bit moves the low bits. */
notrace u32 cx_index(u64 label)
{
	label ^= label >> 33;
	label *= 0xff51afd7ed558ccdULL;
	label ^= label >> 33;
	label *= 0xc4ceb9fe1a85ec53ULL;
	label ^= label >> 33;
	return (u32)label & (CX_COUNTERS - 1);
}

static inline u32 cx_log2(u32 x)
{
	return 31 - __builtin_clz(x);
}

/* floor(log_t(x)) is floor(log2(x) / shift) for t = 2^shift. */
notrace int cx_crosses(u32 old, u32 new, u32 shift)
{
	if (new <= old)
		return 0;
	if (old == 0)
		return 1;
	return cx_log2(new) / shift > cx_log2(old) / shift;
}

/*
 * Add w to *ctr, saturating; the value it held goes to *old.  The loop
 * retries only when another CPU or an NMI changed the counter between
 * the read and the swap, each retry after progress elsewhere.
 */
static inline u32 cx_count(u32 *ctr, u64 w, u32 *old)
{
	u32 o = stp_read_u32(ctr), n, seen;

	for (;;) {
		n = w >= (u64)(CX_SAT - o) ? CX_SAT : o + (u32)w;
		seen = stp_cmpxchg_u32(ctr, o, n);
		if (seen == o)
			break;
		o = seen;
	}
	*old = o;
	return n;
}

/*
 * Announce a writer in the open copy and return it.  The barrier pairs
 * with cx_swap's: either the swap sees this writer, or this writer sees
 * the new open index and leaves the old copy without touching it.
 */
static inline struct cx_copy *cx_enter(struct cx_sketch *s,
				       struct cx_vital *v)
{
	long o = stp_atomic_read(&s->open), now;
	struct cx_copy *c;

	for (;;) {
		c = &v->copy[o & 1];
		cx_enter_window();
		stp_atomic_inc(&c->writers);
		stp_smp_mb();
		now = stp_atomic_read(&s->open);
		if (now == o)
			return c;
		stp_atomic_dec_release(&c->writers);
		o = now;
	}
}

/* |w| without overflow, S64_MIN included. */
static inline u64 cx_abs(s64 w)
{
	return w < 0 ? -(u64)w : (u64)w;
}

notrace void cx_event(struct cx_sketch *s, int vi, u64 label, s64 weight,
		      struct cx_op *op)
{
	struct cx_copy *c;
	u32 old, new;
	long slot;

	op->v = NULL;
	op->c = NULL;
	op->smp = NULL;
	if (vi < 0 || vi >= CX_VITALS_MAX)
		return;
	op->v = &s->v[vi];
	c = op->c = cx_enter(s, op->v);
	stp_atomic_add(&c->weight, weight);
	stp_atomic_inc(&c->events);
	new = cx_count(&c->hca[cx_index(label)], cx_abs(weight), &old);
	if (!cx_crosses(old, new, (u32)stp_atomic_read(&op->v->shift)))
		return;
	slot = stp_atomic_add_return(&c->claimed, 1) - 1;
	if (slot >= CX_SAMPLES) {
		stp_atomic_inc(&c->dropped);
		return;
	}
	op->smp = &c->samples[slot];
	op->smp->count = new;
}

/* Move v's shift by delta within [CX_SHIFT_MIN, CX_SHIFT_MAX]. */
static void cx_adapt(struct cx_vital *v, long delta)
{
	long o = stp_atomic_read(&v->shift), n, seen;

	for (;;) {
		n = o + delta;
		if (n > CX_SHIFT_MAX)
			n = CX_SHIFT_MAX;
		if (n < CX_SHIFT_MIN)
			n = CX_SHIFT_MIN;
		if (n == o)
			return;
		seen = stp_atomic_cmpxchg(&v->shift, o, n);
		if (seen == o)
			return;
		o = seen;
	}
}

/* t doubles once for each multiple of hi_cycles the copy's cycles reach. */
static void cx_account(struct cx_sketch *s, struct cx_op *op, u64 cycles)
{
	u64 hi = s->hi_cycles, now, before;

	if (!cycles)
		return;
	now = (u64)stp_atomic_add_return(&op->c->cycles, (long)cycles);
	if (!hi)
		return;
	before = now - cycles;
	if (now / hi > before / hi)
		cx_adapt(op->v, (long)(now / hi - before / hi));
}

notrace void cx_done(struct cx_sketch *s, struct cx_op *op, u64 cycles)
{
	if (!op->c)
		return;
	if (op->smp)
		op->smp->ready = 1;	/* published by the release below */
	cx_account(s, op, cycles);
	stp_atomic_dec_release(&op->c->writers);
}

int cx_swap(struct cx_sketch *s)
{
	int closed = (int)(stp_atomic_read(&s->open) & 1), i;

	stp_atomic_set(&s->open, !closed);
	stp_smp_mb();	/* pairs with cx_enter's */
	for (i = 0; i < CX_VITALS_MAX; i++)
		while (stp_atomic_read(&s->v[i].copy[closed].writers))
			stp_cpu_relax();
	stp_smp_mb();	/* the closed copies read after their writers left */
	for (i = 0; i < CX_VITALS_MAX && s->lo_cycles; i++) {
		struct cx_copy *c = &s->v[i].copy[closed];

		if ((u64)stp_atomic_read(&c->cycles) < s->lo_cycles)
			cx_adapt(&s->v[i], -1);
	}
	return closed;
}

int cx_nsamples(const struct cx_copy *c)
{
	long n = stp_atomic_read(&c->claimed);
	int i, ready = 0;

	if (n > CX_SAMPLES)
		n = CX_SAMPLES;
	for (i = 0; i < n; i++)
		ready += c->samples[i].ready != 0;
	return ready;
}

int cx_nonzero(const struct cx_copy *c)
{
	int i, n = 0;

	for (i = 0; i < CX_COUNTERS; i++)
		n += c->hca[i] != 0;
	return n;
}

void cx_clear(struct cx_sketch *s, int copy)
{
	int i;

	for (i = 0; i < CX_VITALS_MAX; i++)
		cx_clear_copy(&s->v[i].copy[copy & 1]);
}
