/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Chopstix sketch sampler's process-context half (sketch.h); the
 * event path is cx_core.h's.
 *
 * Naming may race with an event of a user's vital named on first use
 * (chopstix_event from any probe, NMI included): a slot is claimed by
 * compare-and-exchange and named before its state says so, and a reader
 * of the state never waits long (an NMI may have interrupted the naming
 * on its own CPU).
 */
#include "sketch.h"

#define CX_NAME_SPINS 100000	/* waits for a vital being named */

static const char *const cx_std_names[CX_STD_VITALS] = { CX_STD_NAMES };

static void cx_strcpy(char *dst, const char *src, size_t n)
{
	size_t i;

	for (i = 0; i + 1 < n && src[i]; i++)
		dst[i] = src[i];
	for (; i < n; i++)
		dst[i] = 0;
}

static void cx_clear_copy(struct cx_copy *c)
{
	memset(c, 0, sizeof(*c));
}

void cx_init(struct cx_sketch *s, u64 hi_cycles, u64 lo_cycles)
{
	int i;

	memset(s, 0, sizeof(*s));
	s->hi_cycles = hi_cycles;
	s->lo_cycles = lo_cycles;
	for (i = 0; i < CX_VITALS_MAX; i++)
		s->v[i].shift = CX_SHIFT_INIT;
	for (i = 0; i < CX_STD_VITALS && i < CX_VITALS_MAX; i++)
		cx_strcpy(s->v[i].name, cx_std_names[i], CX_NAME_LEN);
}

static int cx_std_slot(const char *name)
{
	int i;

	for (i = 0; i < CX_STD_VITALS && i < CX_VITALS_MAX; i++)
		if (!strncmp(cx_std_names[i], name, CX_NAME_LEN - 1))
			return i;
	return -1;
}

/* The state of v once nobody is naming it: CX_NAMING only when the
 * naming did not end within the bound. */
static s64 cx_settled(struct cx_vital *v)
{
	s64 st = CX_READ(v->state);
	int n;

	for (n = 0; st == CX_NAMING && n < CX_NAME_SPINS; n++) {
		stp_cpu_relax();
		st = CX_READ(v->state);
	}
	stp_smp_mb();	/* the name, after the state that published it */
	return st;
}

/* A user's vital: slots after the standard ones, named in slot order
 * and never freed, so a name is either before the first free slot or
 * not in the table. */
static int cx_user_vital(struct cx_sketch *s, const char *name)
{
	int i;

	for (i = CX_STD_VITALS; i < CX_VITALS_MAX; i++) {
		struct cx_vital *v = &s->v[i];
		s64 st = cx_settled(v);

		if (st == CX_FREE && (s64)cx_cas64(&v->state, CX_FREE, CX_NAMING) == CX_FREE) {
			cx_strcpy(v->name, name, sizeof(v->name));
			stp_smp_mb();	/* the name before the state */
			CX_WRITE(v->state, CX_USED);
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

int cx_vital(struct cx_sketch *s, const char *name)
{
	int i = cx_std_slot(name);

	if (i < 0)
		return cx_user_vital(s, name);
	CX_WRITE(s->v[i].declared, 1);
	return i;
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
	v->declared = 1;
}

int cx_has_row(const struct cx_sketch *s, int vi)
{
	const struct cx_vital *v = &s->v[vi];

	return CX_READ(v->state) == CX_USED || CX_READ(v->declared) || v->unavailable;
}

int cx_flip(struct cx_sketch *s)
{
	int closed = (int)(CX_READ(s->open) & 1);

	CX_WRITE(s->open, !closed);
	stp_smp_mb();
	return closed;
}

void cx_fold(struct cx_sketch *s, int closed, const struct cx_cpu *cpu)
{
	int i;

	for (i = 0; i < CX_VITALS_MAX; i++) {
		s->v[i].copy[closed].events += cpu->events[closed][i];
		s->v[i].copy[closed].weight += cpu->weight[closed][i];
		s->v[i].copy[closed].counted += cpu->counted[closed][i];
	}
}

void cx_cpu_zero(struct cx_cpu *cpu, int closed)
{
	memset(cpu->events[closed], 0, sizeof(cpu->events[closed]));
	memset(cpu->weight[closed], 0, sizeof(cpu->weight[closed]));
	memset(cpu->counted[closed], 0, sizeof(cpu->counted[closed]));
}

/* The events of unit weight that the CPUs did not count: what the HCA
 * got beyond their counts (exact unless a counter saturated). */
static void cx_unit_events(struct cx_copy *c)
{
	s64 sum = 0, unit;
	int i;

	for (i = 0; i < CX_COUNTERS; i++)
		sum += cx_count_at(c, i);
	unit = sum - c->counted;
	if (unit > 0) {
		c->events += unit;
		c->weight += unit;
	}
}

void cx_finish(struct cx_sketch *s, int closed)
{
	u64 hi = s->hi_cycles, lo = s->lo_cycles;
	int i;

	for (i = 0; i < CX_VITALS_MAX; i++) {
		struct cx_copy *c = &s->v[i].copy[closed];
		u64 cost;

		cx_unit_events(c);
		cost = (u64)c->events * CX_EVENT_CYCLES + (u64)c->sample_cycles;

		c->cycles = (s64)cost;
		if (hi && (s64)(cost / hi) > c->adapted)
			cx_adapt(&s->v[i], (s64)(cost / hi) - c->adapted);
		else if (lo && cost < lo)
			cx_adapt(&s->v[i], -1);
	}
}

int cx_nsamples(const struct cx_copy *c)
{
	s64 n = c->claimed;
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
		n += cx_count_at(c, i) != 0;
	return n;
}

void cx_clear(struct cx_sketch *s, int copy)
{
	u16 parity = (u16)((copy & 1) << 15);
	int i;

	for (i = 0; i < CX_VITALS_MAX; i++)
		cx_clear_copy(&s->v[i].copy[copy & 1]);
	/* the closed epoch's entries: the epoch after next reuses its parity */
	for (i = 0; i < CX_SEEN_SLOTS; i++) {
		u16 e = CX_READ(s->seen[i]);

		if (e && (e & 0x8000) == parity)
			cx_seen_cas(s->seen, (u32)i, e, 0);
	}
}
