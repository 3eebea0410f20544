// SPDX-License-Identifier: GPL-2.0-or-later
/* PROVISIONAL (kernel only): replaced by the host-tested sketch.c. */
#include "sketch.h"

void cx_init(struct cx_sketch *s, u64 hi, u64 lo)
{
	int i;

	s->hi_cycles = hi;
	s->lo_cycles = lo;
	for (i = 0; i < CX_VITALS_MAX; i++)
		atomic_long_set(&s->v[i].shift, CX_SHIFT_INIT);
}

int cx_vital(struct cx_sketch *s, const char *name)
{
	int i;

	for (i = 0; i < CX_VITALS_MAX; i++) {
		struct cx_vital *v = &s->v[i];
		long st = atomic_long_read(&v->state);

		if (st == 2 && !strncmp(v->name, name, CX_NAME_LEN))
			return i;
		if (st == 0 && atomic_long_cmpxchg(&v->state, 0, 1) == 0) {
			strscpy(v->name, name, CX_NAME_LEN);
			smp_wmb();
			atomic_long_set(&v->state, 2);
			return i;
		}
		while (atomic_long_read(&v->state) == 1)
			cpu_relax();
		if (!strncmp(v->name, name, CX_NAME_LEN))
			return i;
	}
	return -1;
}

void cx_unavailable(struct cx_sketch *s, int vi, const char *why)
{
	strscpy(s->v[vi].why, why, CX_WHY_LEN);
	s->v[vi].unavailable = 1;
}

u32 cx_index(u64 label)
{
	return (u32)((label * 0x9e3779b97f4a7c15ULL) >> 40) & (CX_COUNTERS - 1);
}

int cx_crosses(u32 old, u32 new, u32 shift)
{
	if (!old)
		return new > 0;
	return new > old && (u32)ilog2(new) / shift > (u32)ilog2(old) / shift;
}

void cx_event(struct cx_sketch *s, int vi, u64 label, s64 weight, struct cx_op *op)
{
	struct cx_vital *v = &s->v[vi];
	long b = atomic_long_read(&s->open);
	struct cx_copy *c = &v->copy[b];
	u32 w = weight < 0 ? -weight : weight, *ctr, old;
	long slot;

	atomic_long_inc(&c->writers);
	smp_mb();
	if (atomic_long_read(&s->open) != b) {
		atomic_long_dec(&c->writers);
		c = &v->copy[!b];
		atomic_long_inc(&c->writers);
		smp_mb();
	}
	op->v = v;
	op->c = c;
	op->smp = NULL;
	atomic_long_add(weight, &c->weight);
	atomic_long_inc(&c->events);
	ctr = &c->hca[cx_index(label)];
	old = atomic_fetch_add(w, (atomic_t *)ctr);
	if (!cx_crosses(old, old + w, atomic_long_read(&v->shift)))
		return;
	slot = atomic_long_inc_return(&c->claimed) - 1;
	if (slot >= CX_SAMPLES) {
		atomic_long_inc(&c->dropped);
		return;
	}
	op->smp = &c->samples[slot];
}

void cx_done(struct cx_sketch *s, struct cx_op *op, u64 cycles)
{
	if (op->smp) {
		smp_wmb();
		WRITE_ONCE(op->smp->ready, 1);
	}
	atomic_long_add(cycles, &op->c->cycles);
	smp_mb__before_atomic();
	atomic_long_dec(&op->c->writers);
}

int cx_swap(struct cx_sketch *s)
{
	long b = atomic_long_read(&s->open);
	int i;

	atomic_long_set(&s->open, !b);
	smp_mb();
	for (i = 0; i < CX_VITALS_MAX; i++)
		while (atomic_long_read(&s->v[i].copy[b].writers))
			cpu_relax();
	return b;
}

int cx_nsamples(const struct cx_copy *c)
{
	long n = min_t(long, atomic_long_read(&c->claimed), CX_SAMPLES), i;
	int k = 0;

	for (i = 0; i < n; i++)
		k += READ_ONCE(c->samples[i].ready) ? 1 : 0;
	return k;
}

int cx_nonzero(const struct cx_copy *c)
{
	int i, k = 0;

	for (i = 0; i < CX_COUNTERS; i++)
		k += c->hca[i] != 0;
	return k;
}

void cx_clear(struct cx_sketch *s, int copy)
{
	int i;

	for (i = 0; i < CX_VITALS_MAX; i++) {
		struct cx_copy *c = &s->v[i].copy[copy];

		atomic_long_set(&c->weight, 0);
		atomic_long_set(&c->events, 0);
		atomic_long_set(&c->claimed, 0);
		atomic_long_set(&c->dropped, 0);
		atomic_long_set(&c->cycles, 0);
		memset(c->hca, 0, sizeof(c->hca));
		memset(c->samples, 0, sizeof(c->samples));
	}
}
