/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Associative arrays: up to STP_MAX_KEYS keys, each a long or a string,
 * mapping to a long, a string or a statistic.  All entries are allocated
 * when the map is made (max_entries of them); inserting into a full map
 * fails (counted as STP_EV_MAP_FULL) unless the map wraps ("global a%"),
 * in which case the oldest entry is reused.  Strings, keys included, are
 * stored inline, cut at MAXSTRINGLEN-1 bytes (counted as STP_EV_STR_TRUNC).
 *
 * Iteration without sorting is in insertion order.  Not thread-safe: the
 * generated code holds the global's lock around every use.
 *
 * Statistic-valued arrays written from many CPUs are struct stp_pmap: one
 * map per CPU that "<<<" updates without sharing, combined into an
 * aggregate map when read.
 */
#ifndef STP_MAP_H
#define STP_MAP_H

#include "shim.h"
#include "stat.h"

#define STP_MAX_KEYS 9

enum stp_type {
	STP_T_LONG = 1,
	STP_T_STRING = 2,
	STP_T_STAT = 3,
};

/* A key or printf argument: which member is valid follows from context. */
union stp_val {
	int64_t l;
	const char *s;
};


struct stp_map *stp_map_new(int nkeys, const enum stp_type *key_types,
			    enum stp_type val_type,
			    const struct stp_stat_desc *sd, /* STP_T_STAT */
			    int max_entries, int wrap);
void stp_map_free(struct stp_map *m);

/*
 * The script declared this array's size ("global a[100]"): a full map is
 * the script's error, whose message names that size, and is not counted
 * against MAXMAPENTRIES.
 */
void stp_map_declared_size(struct stp_map *m);

int stp_map_size(const struct stp_map *m);
int stp_map_max(const struct stp_map *m);
int stp_map_nkeys(const struct stp_map *m);

/* NULL when absent. */
struct stp_map_entry *stp_map_find(struct stp_map *m, const union stp_val *k);
/*
 * The entry for k, inserted (value 0, "" or an empty statistic) when
 * absent; NULL when the map is full and does not wrap.
 */
struct stp_map_entry *stp_map_insert(struct stp_map *m,
				     const union stp_val *k);
void stp_map_delete(struct stp_map *m, struct stp_map_entry *e);
void stp_map_clear(struct stp_map *m);

/*
 * The layout, here so that reaching an entry's value inlines (map.c
 * owns everything else in it).
 */
struct stp_map_entry {
	struct stp_map_entry *hnext;		/* hash chain */
	struct stp_map_entry *prev, *next;	/* insertion order; free list */
	u32 hash;
};

struct stp_map {
	int nkeys;
	enum stp_type ktype[STP_MAX_KEYS];
	size_t koff[STP_MAX_KEYS];	/* key i's offset in an entry */
	enum stp_type vtype;
	size_t voff;			/* the value's */
	size_t esize;			/* an entry, 8-byte multiple */
	const struct stp_stat_desc *sd;	/* STP_T_STAT values */
	int max, size, wrap;
	int declared;			/* size from the script: see map.h */
	u32 hmask;			/* buckets - 1 */
	struct stp_map_entry **table;
	struct stp_map_entry *first, *last;	/* insertion order */
	struct stp_map_entry *hot;	/* the entry last found: scripts
					 * often hit one key many times */
	struct stp_map_entry *free;
	char *pool;			/* max entries */
	struct stp_map_entry **scratch;	/* max, for stp_map_sorted */
};

/* Values and keys of an entry; strings are NUL-terminated, in the entry. */
static inline int64_t *stp_entry_long(struct stp_map *m, struct stp_map_entry *e)
{
	return (int64_t *)((char *)e + m->voff);
}

static inline char *stp_entry_str(struct stp_map *m, struct stp_map_entry *e)
{
	return (char *)e + m->voff;
}

static inline struct stp_stat *stp_entry_stat(struct stp_map *m, struct stp_map_entry *e)
{
	return (struct stp_stat *)((char *)e + m->voff);
}
union stp_val stp_entry_key(struct stp_map *m, struct stp_map_entry *e,
			    int i);
/* Set a string value, counting truncation. */
void stp_entry_set_str(struct stp_map *m, struct stp_map_entry *e,
		       const char *s);

/* Insertion order; NULL at the end. */
struct stp_map_entry *stp_map_first(struct stp_map *m);
struct stp_map_entry *stp_map_next(struct stp_map *m, struct stp_map_entry *e);

/*
 * Entries sorted into out[] (room for stp_map_max(m)), returning how many:
 * col 0 sorts by value (for statistics by aggregate agg), col i by key i
 * (1-based); dir +1 ascending, -1 descending, 0 insertion order.  Ties
 * keep insertion order.  limit > 0 keeps only the first limit entries.
 * A slice (keys[i] used where used[i] != 0) keeps only matching entries;
 * used may be NULL.
 */
int stp_map_sorted(struct stp_map *m, int col, int dir, enum stp_agg agg,
		   const union stp_val *slice, const int *used, int64_t limit,
		   struct stp_map_entry **out);

/* ---- per-CPU statistic arrays ---- */
struct stp_pmap;

struct stp_pmap *stp_pmap_new(int nkeys, const enum stp_type *key_types,
			      const struct stp_stat_desc *sd,
			      int max_entries, int wrap);
void stp_pmap_free(struct stp_pmap *pm);
void stp_pmap_declared_size(struct stp_pmap *pm);
/* "a[k] <<< v" on this CPU's map; 0, or -1 when the map is full. */
int stp_pmap_add(struct stp_pmap *pm, const union stp_val *k, int64_t v);
/*
 * Combine every CPU's map into the aggregate, and return it: for
 * foreach and the display of the whole array, O(CPUs x entries).
 */
struct stp_map *stp_pmap_agg(struct stp_pmap *pm);
/*
 * One element, O(CPUs): a[k]'s statistic combined over the CPUs (valid
 * until this CPU's next call), or NULL when a[k] does not exist; and
 * "k in a".  Reading a[k] inside foreach (k in a) stays linear.
 */
struct stp_stat *stp_pmap_stat(struct stp_pmap *pm, const union stp_val *k);
int stp_pmap_has(struct stp_pmap *pm, const union stp_val *k);
/* Delete k (every CPU), or everything. */
void stp_pmap_delete(struct stp_pmap *pm, const union stp_val *k);
void stp_pmap_clear(struct stp_pmap *pm);

#endif
