/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Associative arrays (map.h).
 *
 * Every entry lives in one pool allocated by stp_map_new, so an insert
 * in probe context never allocates: it takes an entry from the free
 * list or, in a wrapping map, the oldest one.  An entry is a header
 * followed by its keys and its value, inline, at offsets the map keeps:
 *
 *   struct stp_map_entry | key 0 | ... | key n-1 | value
 *
 * A long is an int64_t, a string char[MAXSTRINGLEN], a statistic a
 * struct stp_stat with its buckets; each part starts 8-byte aligned.
 *
 * Lookup is a hash table of power-of-two size (at least max_entries
 * heads, so chains stay short) with chaining; a doubly linked list keeps
 * insertion order for iteration, for wrapping and as the tie-breaker of
 * sorting.  Sorting is a bottom-up merge sort (stable, no recursion)
 * with a scratch array allocated with the map.
 */
#include "map.h"

static inline char *map_at(struct stp_map_entry *e, size_t off)
{
	return (char *)e + off;
}

static size_t map_align(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

static size_t map_type_size(enum stp_type t, const struct stp_stat_desc *sd)
{
	if (t == STP_T_STRING)
		return MAXSTRINGLEN;
	if (t == STP_T_STAT)
		return stp_stat_size(sd);
	return sizeof(int64_t);
}

/* Lay out the entries; -1 for a bad description. */
static int map_layout(struct stp_map *m, int nkeys, const enum stp_type *kt,
		      enum stp_type vt, const struct stp_stat_desc *sd)
{
	size_t off = map_align(sizeof(struct stp_map_entry));
	int i;

	if (nkeys < 1 || nkeys > STP_MAX_KEYS || (vt == STP_T_STAT && !sd))
		return -1;
	m->nkeys = nkeys;
	for (i = 0; i < nkeys; i++) {
		if (kt[i] != STP_T_LONG && kt[i] != STP_T_STRING)
			return -1;
		m->ktype[i] = kt[i];
		m->koff[i] = off;
		off += map_align(map_type_size(kt[i], NULL));
	}
	m->vtype = vt;
	m->sd = sd;
	m->voff = off;
	m->esize = off + map_align(map_type_size(vt, sd));
	return 0;
}

static struct stp_map_entry *map_entry(struct stp_map *m, int i)
{
	return (struct stp_map_entry *)(m->pool + m->esize * i);
}

/* Every entry back on the free list, in pool order. */
static void map_reset(struct stp_map *m)
{
	int i;

	memset(m->table, 0, sizeof(*m->table) * (m->hmask + 1));
	m->first = m->last = m->hot = NULL;
	m->size = 0;
	m->free = NULL;
	for (i = m->max - 1; i >= 0; i--) {
		map_entry(m, i)->next = m->free;
		m->free = map_entry(m, i);
	}
}

struct stp_map *stp_map_new(int nkeys, const enum stp_type *key_types,
			    enum stp_type val_type,
			    const struct stp_stat_desc *sd,
			    int max_entries, int wrap)
{
	struct stp_map *m;
	u32 buckets = 1;

	if (max_entries < 1 || max_entries > (1 << 30))
		return NULL;
	m = stp_zalloc(sizeof(*m));
	if (!m)
		return NULL;
	if (map_layout(m, nkeys, key_types, val_type, sd))
		goto out_free;
	m->max = max_entries;
	m->wrap = wrap;
	while (buckets < (u32)max_entries)
		buckets <<= 1;
	m->hmask = buckets - 1;
	m->table = stp_zalloc(sizeof(*m->table) * buckets);
	m->pool = stp_zalloc(m->esize * max_entries);
	m->scratch = stp_zalloc(sizeof(*m->scratch) * max_entries);
	if (!m->table || !m->pool || !m->scratch)
		goto out_free;
	map_reset(m);
	return m;
out_free:
	stp_map_free(m);
	return NULL;
}

void stp_map_free(struct stp_map *m)
{
	if (!m)
		return;
	stp_free(m->scratch);
	stp_free(m->pool);
	stp_free(m->table);
	stp_free(m);
}

int stp_map_size(const struct stp_map *m)
{
	return m->size;
}

int stp_map_max(const struct stp_map *m)
{
	return m->max;
}

int stp_map_nkeys(const struct stp_map *m)
{
	return m->nkeys;
}

/* ---- keys ---- */

/* A string key as stored: NULL reads as "", cut at MAXSTRINGLEN-1. */
static inline const char *map_str(const char *s)
{
	return s ? s : "";
}

static inline u32 map_fnv(u32 h, const void *p, size_t n)
{
	const u8 *b = p;

	while (n--)
		h = (h ^ *b++) * 16777619u;
	return h;
}

/* FNV-1a over the keys as they would be stored. */
static STP_ALWAYS_INLINE u32 map_hash(const struct stp_map *m, const union stp_val *k)
{
	u32 h = 2166136261u;
	int i;

	for (i = 0; i < m->nkeys; i++) {
		if (m->ktype[i] == STP_T_LONG) {
			h = map_fnv(h, &k[i].l, sizeof(k[i].l));
		} else {
			const unsigned char *s = (const unsigned char *)map_str(k[i].s);
			int n;

			/* one pass: the bytes up to the NUL, then the NUL,
			 * so ("a","b") != ("ab","") */
			for (n = 0; n < MAXSTRINGLEN - 1 && s[n]; n++)
				h = (h ^ s[n]) * 16777619u;
			h = (h ^ 0) * 16777619u;
		}
	}
	return h;
}

/*
 * A stored key (8-byte aligned, NUL within MAXSTRINGLEN) against a probe's
 * string.  In the kernel, when the probe's string is aligned too (the
 * generated code aligns its buffers), a word at a time: an aligned word
 * never crosses a page, and no word past the one holding either NUL is
 * read, as the kernel's own word-at-a-time string functions do.  (Host
 * builds, under ASan, compare bytes.)
 */
static STP_ALWAYS_INLINE int map_str_eq(const char *stored, const char *s)
{
#ifndef STP_HOST
	const u64 *x = (const u64 *)stored, *y = (const u64 *)s;
	int i;

	if ((uintptr_t)s & 7)
		return !strncmp(stored, s, MAXSTRINGLEN - 1);
	for (i = 0; i < (MAXSTRINGLEN + 7) / 8; i++) {
		u64 p = x[i], q = y[i];
		/* the lowest set bit is exactly p's first zero byte */
		u64 z = (p - 0x0101010101010101ULL) & ~p & 0x8080808080808080ULL;

		if (!z) {
			if (p != q)
				return 0;
			continue;
		}
		if (!((p ^ q) & (z ^ (z - 1))))
			return 1;
		/* a longer probe string still matches the key it was cut to */
		return i * 8 + (__builtin_ctzll(z) >> 3) == MAXSTRINGLEN - 1 &&
		       !strncmp(stored, s, MAXSTRINGLEN - 1);
	}
	return 1;
#else
	return !strncmp(stored, s, MAXSTRINGLEN - 1);
#endif
}

static STP_ALWAYS_INLINE int map_key_eq(struct stp_map *m, struct stp_map_entry *e,
		      const union stp_val *k)
{
	int i;

	for (i = 0; i < m->nkeys; i++) {
		const char *p = map_at(e, m->koff[i]);

		if (m->ktype[i] == STP_T_LONG) {
			if (*(const int64_t *)p != k[i].l)
				return 0;
		} else if (!map_str_eq(p, map_str(k[i].s))) {
			return 0;
		}
	}
	return 1;
}

static void map_key_set(struct stp_map *m, struct stp_map_entry *e,
			const union stp_val *k)
{
	int i;

	for (i = 0; i < m->nkeys; i++) {
		char *p = map_at(e, m->koff[i]);
		const char *s;
		size_t n;

		if (m->ktype[i] == STP_T_LONG) {
			*(int64_t *)p = k[i].l;
			continue;
		}
		s = map_str(k[i].s);
		n = strnlen(s, MAXSTRINGLEN);
		if (n == MAXSTRINGLEN) {
			stp_count(STP_EV_STR_TRUNC);
			n--;
		}
		memcpy(p, s, n);
		p[n] = '\0';
	}
}

union stp_val stp_entry_key(struct stp_map *m, struct stp_map_entry *e,
			    int i)
{
	union stp_val v;

	if (m->ktype[i] == STP_T_LONG)
		v.l = *(int64_t *)map_at(e, m->koff[i]);
	else
		v.s = map_at(e, m->koff[i]);
	return v;
}

/* ---- values ---- */


void stp_entry_set_str(struct stp_map *m, struct stp_map_entry *e,
		       const char *s)
{
	char *p = stp_entry_str(m, e);
	size_t n;

	s = map_str(s);
	n = strnlen(s, MAXSTRINGLEN);
	if (n == MAXSTRINGLEN) {
		stp_count(STP_EV_STR_TRUNC);
		n--;
	}
	memmove(p, s, n);
	p[n] = '\0';
}

static void map_value_clear(struct stp_map *m, struct stp_map_entry *e)
{
	if (m->vtype == STP_T_STAT)
		stp_stat_clear(stp_entry_stat(m, e), m->sd);
	else if (m->vtype == STP_T_STRING)
		stp_entry_str(m, e)[0] = '\0';
	else
		*stp_entry_long(m, e) = 0;
}

/* ---- lookup, insertion, deletion ---- */

notrace struct stp_map_entry *stp_map_find(struct stp_map *m,
					   const union stp_val *k)
{
	struct stp_map_entry *e = m->hot;
	u32 h;

	if (e && map_key_eq(m, e, k))
		return e;
	h = map_hash(m, k);
	for (e = m->table[h & m->hmask]; e; e = e->hnext)
		if (e->hash == h && map_key_eq(m, e, k)) {
			m->hot = e;
			return e;
		}
	return NULL;
}

static void map_unlink(struct stp_map *m, struct stp_map_entry *e)
{
	struct stp_map_entry **pp = &m->table[e->hash & m->hmask];

	if (m->hot == e)
		m->hot = NULL;
	while (*pp != e)
		pp = &(*pp)->hnext;
	*pp = e->hnext;
	if (e->prev)
		e->prev->next = e->next;
	else
		m->first = e->next;
	if (e->next)
		e->next->prev = e->prev;
	else
		m->last = e->prev;
	m->size--;
}

/* A free entry, the oldest one when the map wraps, or NULL. */
static struct stp_map_entry *map_take(struct stp_map *m)
{
	struct stp_map_entry *e = m->free;

	if (e) {
		m->free = e->next;
		return e;
	}
	if (!m->wrap || !m->first)
		return NULL;
	e = m->first;
	map_unlink(m, e);
	return e;
}

void stp_map_declared_size(struct stp_map *m)
{
	m->declared = 1;
}

notrace struct stp_map_entry *stp_map_insert(struct stp_map *m,
					     const union stp_val *k)
{
	struct stp_map_entry *e = m->hot, **head;
	u32 h;

	if (e && map_key_eq(m, e, k))
		return e;
	h = map_hash(m, k);
	head = &m->table[h & m->hmask];
	for (e = *head; e; e = e->hnext)
		if (e->hash == h && map_key_eq(m, e, k)) {
			m->hot = e;
			return e;
		}
	e = map_take(m);
	if (!e) {
		if (!m->declared)
			stp_count(STP_EV_MAP_FULL);
		return NULL;
	}
	e->hash = h;
	map_key_set(m, e, k);
	map_value_clear(m, e);
	e->hnext = *head;
	*head = e;
	e->prev = m->last;
	e->next = NULL;
	if (m->last)
		m->last->next = e;
	else
		m->first = e;
	m->last = e;
	m->size++;
	m->hot = e;
	return e;
}

notrace void stp_map_delete(struct stp_map *m, struct stp_map_entry *e)
{
	map_unlink(m, e);
	e->next = m->free;
	m->free = e;
}

void stp_map_clear(struct stp_map *m)
{
	map_reset(m);
}

struct stp_map_entry *stp_map_first(struct stp_map *m)
{
	return m->first;
}

struct stp_map_entry *stp_map_next(struct stp_map *m, struct stp_map_entry *e)
{
	(void)m;
	return e->next;
}

/* ---- sorting ---- */

struct map_order {
	struct stp_map *m;
	int col, dir;
	enum stp_agg agg;
};

static inline int map_cmp_long(int64_t a, int64_t b)
{
	return a < b ? -1 : a > b;
}

/* An aggregate that does not exist (empty @min...) sorts as 0. */
static int64_t map_stat_key(const struct map_order *o,
			    struct stp_map_entry *e)
{
	int64_t v;

	if (stp_stat_get(stp_entry_stat(o->m, e), o->m->sd,
			 o->agg ? o->agg : STP_AGG_COUNT, &v))
		return 0;
	return v;
}

static int map_cmp(const struct map_order *o, struct stp_map_entry *a,
		   struct stp_map_entry *b)
{
	struct stp_map *m = o->m;
	enum stp_type t;
	size_t off;
	int c;

	if (o->col == 0) {
		t = m->vtype;
		off = m->voff;
	} else {
		t = m->ktype[o->col - 1];
		off = m->koff[o->col - 1];
	}
	if (t == STP_T_STRING)
		c = strcmp(map_at(a, off), map_at(b, off));
	else if (t == STP_T_STAT)
		c = map_cmp_long(map_stat_key(o, a), map_stat_key(o, b));
	else
		c = map_cmp_long(*(int64_t *)map_at(a, off),
				 *(int64_t *)map_at(b, off));
	return o->dir < 0 ? -c : c;
}

/* Merge runs [lo, mid) and [mid, hi) of src into dst; left wins ties. */
static void map_merge(const struct map_order *o, struct stp_map_entry **src,
		      struct stp_map_entry **dst, int lo, int mid, int hi)
{
	int i = lo, j = mid, k = lo;

	while (i < mid && j < hi)
		dst[k++] = map_cmp(o, src[i], src[j]) <= 0 ? src[i++] : src[j++];
	while (i < mid)
		dst[k++] = src[i++];
	while (j < hi)
		dst[k++] = src[j++];
}

/* Bottom-up merge sort of v[0..n), stable; the result ends up in v. */
static void map_sort(const struct map_order *o, struct stp_map_entry **v,
		     struct stp_map_entry **tmp, int n)
{
	struct stp_map_entry **src = v, **dst = tmp, **t;
	int w, lo, mid, hi;

	for (w = 1; w < n; w *= 2) {
		for (lo = 0; lo < n; lo += 2 * w) {
			mid = lo + w < n ? lo + w : n;
			hi = lo + 2 * w < n ? lo + 2 * w : n;
			map_merge(o, src, dst, lo, mid, hi);
		}
		t = src;
		src = dst;
		dst = t;
	}
	if (src != v)
		memcpy(v, src, sizeof(*v) * n);
}

static int map_in_slice(struct stp_map *m, struct stp_map_entry *e,
			const union stp_val *slice, const int *used)
{
	int i;

	for (i = 0; i < m->nkeys; i++) {
		const char *p = map_at(e, m->koff[i]);

		if (!used[i])
			continue;
		if (m->ktype[i] == STP_T_LONG ? *(const int64_t *)p != slice[i].l
		    : strncmp(p, map_str(slice[i].s), MAXSTRINGLEN - 1))
			return 0;
	}
	return 1;
}

notrace int stp_map_sorted(struct stp_map *m, int col, int dir,
			   enum stp_agg agg, const union stp_val *slice,
			   const int *used, int64_t limit,
			   struct stp_map_entry **out)
{
	struct map_order o = { .m = m, .col = col, .dir = dir, .agg = agg };
	struct stp_map_entry *e;
	int n = 0;

	for (e = m->first; e; e = e->next)
		if (!used || map_in_slice(m, e, slice, used))
			out[n++] = e;
	if (dir && col >= 0 && col <= m->nkeys)
		map_sort(&o, out, m->scratch, n);
	if (limit > 0 && limit < n)
		n = (int)limit;
	return n;
}

/* ---- per-CPU statistic arrays ---- */

struct stp_pmap {
	int ncpus;
	const struct stp_stat_desc *sd;
	struct stp_map *agg;
	char *one;			/* per CPU: one key's combined stat */
	size_t one_size;		/* bytes of each */
	struct stp_map *cpu[];		/* ncpus */
};

void stp_pmap_declared_size(struct stp_pmap *pm)
{
	int i;

	for (i = 0; i < pm->ncpus; i++)
		stp_map_declared_size(pm->cpu[i]);
}

struct stp_pmap *stp_pmap_new(int nkeys, const enum stp_type *key_types,
			      const struct stp_stat_desc *sd,
			      int max_entries, int wrap)
{
	int i, n = stp_ncpus();
	struct stp_pmap *pm = stp_zalloc(sizeof(*pm) + sizeof(pm->cpu[0]) * n);

	if (!pm)
		return NULL;
	pm->ncpus = n;
	pm->sd = sd;
	pm->one_size = (stp_stat_size(sd) + 7) & ~(size_t)7;
	pm->one = stp_zalloc(pm->one_size * n);
	pm->agg = stp_map_new(nkeys, key_types, STP_T_STAT, sd, max_entries,
			      wrap);
	if (!pm->one || !pm->agg)
		goto out_free;
	for (i = 0; i < n; i++) {
		pm->cpu[i] = stp_map_new(nkeys, key_types, STP_T_STAT, sd,
					 max_entries, wrap);
		if (!pm->cpu[i])
			goto out_free;
	}
	return pm;
out_free:
	stp_pmap_free(pm);
	return NULL;
}

void stp_pmap_free(struct stp_pmap *pm)
{
	int i;

	if (!pm)
		return;
	for (i = 0; i < pm->ncpus; i++)
		stp_map_free(pm->cpu[i]);
	stp_map_free(pm->agg);
	stp_free(pm->one);
	stp_free(pm);
}

notrace int stp_pmap_add(struct stp_pmap *pm, const union stp_val *k,
			 int64_t v)
{
	struct stp_map *m = pm->cpu[stp_this_cpu()];
	struct stp_map_entry *e = stp_map_insert(m, k);

	if (!e)
		return -1;
	stp_stat_add(stp_entry_stat(m, e), pm->sd, v);
	return 0;
}

/* Merge one CPU's entries into the aggregate, in its insertion order. */
static void map_agg_cpu(struct stp_map *agg, struct stp_map *m)
{
	union stp_val k[STP_MAX_KEYS];
	struct stp_map_entry *e, *ae;
	int i;

	for (e = m->first; e; e = e->next) {
		for (i = 0; i < m->nkeys; i++)
			k[i] = stp_entry_key(m, e, i);
		ae = stp_map_insert(agg, k);
		if (ae)
			stp_stat_merge(stp_entry_stat(agg, ae),
				       stp_entry_stat(m, e), m->sd);
	}
}

notrace struct stp_map *stp_pmap_agg(struct stp_pmap *pm)
{
	int i;

	stp_map_clear(pm->agg);
	for (i = 0; i < pm->ncpus; i++)
		map_agg_cpu(pm->agg, pm->cpu[i]);
	return pm->agg;
}

/*
 * One element: k's entry on each CPU, combined in this CPU's scratch
 * (readers on other CPUs have their own).  O(CPUs) lookups.
 */
notrace struct stp_stat *stp_pmap_stat(struct stp_pmap *pm,
				       const union stp_val *k)
{
	struct stp_stat *one;
	struct stp_map_entry *e;
	int i, found = 0;

	one = (struct stp_stat *)(pm->one + pm->one_size * stp_this_cpu());
	stp_stat_clear(one, pm->sd);
	for (i = 0; i < pm->ncpus; i++) {
		e = stp_map_find(pm->cpu[i], k);
		if (!e)
			continue;
		stp_stat_merge(one, stp_entry_stat(pm->cpu[i], e), pm->sd);
		found = 1;
	}
	return found ? one : NULL;
}

notrace int stp_pmap_has(struct stp_pmap *pm, const union stp_val *k)
{
	int i;

	for (i = 0; i < pm->ncpus; i++)
		if (stp_map_find(pm->cpu[i], k))
			return 1;
	return 0;
}

void stp_pmap_delete(struct stp_pmap *pm, const union stp_val *k)
{
	struct stp_map_entry *e;
	int i;

	for (i = 0; i < pm->ncpus; i++) {
		e = stp_map_find(pm->cpu[i], k);
		if (e)
			stp_map_delete(pm->cpu[i], e);
	}
	e = stp_map_find(pm->agg, k);
	if (e)
		stp_map_delete(pm->agg, e);
}

void stp_pmap_clear(struct stp_pmap *pm)
{
	int i;

	for (i = 0; i < pm->ncpus; i++)
		stp_map_clear(pm->cpu[i]);
	stp_map_clear(pm->agg);
}
