// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of maps and per-CPU statistic maps (runtime/map.c): insert,
 * find, delete, clear, full and wrapping maps, string keys cut at
 * MAXSTRINGLEN-1, insertion order, sorting by every column in both
 * directions (stable), limits and slices, and combining CPUs.
 */
#include <stdio.h>
#include "map.h"
#include "unit.h"

static const enum stp_type K_L[] = { STP_T_LONG };
static const enum stp_type K_S[] = { STP_T_STRING };
static const enum stp_type K_SL[] = { STP_T_STRING, STP_T_LONG };
static const enum stp_type K_SS[] = { STP_T_STRING, STP_T_STRING };

static void reset_events(void)
{
	for (int i = 0; i < STP_EV_COUNT; i++)
		stp_atomic_set(&stp_events[i], 0);
}

static long events(enum stp_event ev)
{
	return stp_atomic_read(&stp_events[ev]);
}

static struct stp_map_entry *ins_l(struct stp_map *m, int64_t k)
{
	union stp_val v = { .l = k };

	return stp_map_insert(m, &v);
}

static struct stp_map_entry *find_l(struct stp_map *m, int64_t k)
{
	union stp_val v = { .l = k };

	return stp_map_find(m, &v);
}

static struct stp_map_entry *ins_s(struct stp_map *m, const char *k)
{
	union stp_val v = { .s = k };

	return stp_map_insert(m, &v);
}

static struct stp_map_entry *find_s(struct stp_map *m, const char *k)
{
	union stp_val v = { .s = k };

	return stp_map_find(m, &v);
}

/* a[k] = v for a long-keyed, long-valued map. */
static void set_l(struct stp_map *m, int64_t k, int64_t v)
{
	*stp_entry_long(m, ins_l(m, k)) = v;
}

/* Keys (long maps) in iteration order, "1 2 3". */
static const char *keys_l(struct stp_map *m)
{
	static char buf[4096];
	struct stp_map_entry *e;
	size_t n = 0;

	buf[0] = 0;
	for (e = stp_map_first(m); e; e = stp_map_next(m, e))
		n += snprintf(buf + n, sizeof(buf) - n, "%s%lld", n ? " " : "",
			      (long long)stp_entry_key(m, e, 0).l);
	return buf;
}

/* Key 1 of out[0..n): longs, then strings. */
static const char *col1(struct stp_map *m, struct stp_map_entry **out, int n)
{
	static char buf[4096];
	size_t len = 0;

	buf[0] = 0;
	for (int i = 0; i < n; i++) {
		len += snprintf(buf + len, sizeof(buf) - len, "%s%lld",
				i ? " " : "",
				(long long)stp_entry_key(m, out[i], 0).l);
	}
	return buf;
}

static const char *col1_str(struct stp_map *m, struct stp_map_entry **out,
			    int n)
{
	static char buf[4096];
	size_t len = 0;

	buf[0] = 0;
	for (int i = 0; i < n; i++)
		len += snprintf(buf + len, sizeof(buf) - len, "%s%s",
				i ? " " : "", stp_entry_key(m, out[i], 0).s);
	return buf;
}

TEST(map_new_rejects_bad_args)
{
	enum stp_type bad[] = { STP_T_STAT };

	CHECK(!stp_map_new(0, K_L, STP_T_LONG, NULL, 10, 0));
	CHECK(!stp_map_new(STP_MAX_KEYS + 1, K_L, STP_T_LONG, NULL, 10, 0));
	CHECK(!stp_map_new(1, K_L, STP_T_LONG, NULL, 0, 0));
	CHECK(!stp_map_new(1, K_L, STP_T_STAT, NULL, 10, 0));
	CHECK(!stp_map_new(1, bad, STP_T_LONG, NULL, 10, 0));
	stp_map_free(NULL);
}

TEST(map_insert_find_long)
{
	struct stp_map *m = stp_map_new(1, K_L, STP_T_LONG, NULL, 16, 0);
	struct stp_map_entry *e;

	CHECK_EQ_INT(stp_map_size(m), 0);
	CHECK_EQ_INT(stp_map_max(m), 16);
	CHECK_EQ_INT(stp_map_nkeys(m), 1);
	for (int i = 1; i <= 10; i++)
		set_l(m, i * 1000, i);
	CHECK_EQ_INT(stp_map_size(m), 10);
	e = find_l(m, 7000);
	CHECK(e && *stp_entry_long(m, e) == 7);
	CHECK(!find_l(m, 7001));
	/* Inserting a present key finds it, value untouched. */
	CHECK(ins_l(m, 7000) == e);
	CHECK_EQ_INT(*stp_entry_long(m, e), 7);
	CHECK_EQ_INT(stp_map_size(m), 10);
	/* New entries start at 0. */
	CHECK_EQ_INT(*stp_entry_long(m, ins_l(m, -5)), 0);
	CHECK(find_l(m, INT64_MIN) == NULL);
	set_l(m, INT64_MIN, 1);
	set_l(m, INT64_MAX, 2);
	CHECK_EQ_INT(*stp_entry_long(m, find_l(m, INT64_MIN)), 1);
	CHECK_EQ_INT(*stp_entry_long(m, find_l(m, INT64_MAX)), 2);
	stp_map_free(m);
}

TEST(map_string_keys_and_values)
{
	struct stp_map *m = stp_map_new(1, K_S, STP_T_STRING, NULL, 8, 0);
	struct stp_map_entry *e;

	e = ins_s(m, "alpha");
	CHECK_EQ_STR(stp_entry_str(m, e), "");
	stp_entry_set_str(m, e, "first");
	ins_s(m, "beta");
	CHECK_EQ_STR(stp_entry_str(m, find_s(m, "alpha")), "first");
	CHECK_EQ_STR(stp_entry_key(m, find_s(m, "beta"), 0).s, "beta");
	CHECK(!find_s(m, "alph"));
	CHECK(!find_s(m, "alphabet"));
	/* NULL reads as "". */
	e = ins_s(m, NULL);
	CHECK(e == find_s(m, ""));
	CHECK_EQ_STR(stp_entry_key(m, e, 0).s, "");
	stp_map_free(m);
}

TEST(map_multi_keys)
{
	struct stp_map *m = stp_map_new(2, K_SL, STP_T_LONG, NULL, 8, 0);
	struct stp_map *m2 = stp_map_new(2, K_SS, STP_T_LONG, NULL, 8, 0);
	union stp_val a1[] = { { .s = "a" }, { .l = 1 } };
	union stp_val a2[] = { { .s = "a" }, { .l = 2 } };
	union stp_val ab[] = { { .s = "ab" }, { .s = "" } };
	union stp_val a_b[] = { { .s = "a" }, { .s = "b" } };

	*stp_entry_long(m, stp_map_insert(m, a1)) = 10;
	*stp_entry_long(m, stp_map_insert(m, a2)) = 20;
	CHECK_EQ_INT(stp_map_size(m), 2);
	CHECK_EQ_INT(*stp_entry_long(m, stp_map_find(m, a2)), 20);
	CHECK_EQ_INT(stp_entry_key(m, stp_map_find(m, a2), 1).l, 2);
	/* Key boundaries count: ("ab","") is not ("a","b"). */
	stp_map_insert(m2, ab);
	CHECK(!stp_map_find(m2, a_b));
	stp_map_insert(m2, a_b);
	CHECK_EQ_INT(stp_map_size(m2), 2);
	stp_map_free(m);
	stp_map_free(m2);
}

TEST(map_string_key_truncation)
{
	struct stp_map *m = stp_map_new(1, K_S, STP_T_LONG, NULL, 4, 0);
	static char longkey[MAXSTRINGLEN + 10], cut[MAXSTRINGLEN];
	struct stp_map_entry *e;

	memset(longkey, 'k', sizeof(longkey) - 1);
	memcpy(cut, longkey, MAXSTRINGLEN - 1);
	reset_events();
	e = ins_s(m, longkey);
	CHECK_EQ_INT(events(STP_EV_STR_TRUNC), 1);
	CHECK_EQ_INT(strlen(stp_entry_key(m, e, 0).s), MAXSTRINGLEN - 1);
	/* Both spellings name the stored key; looking up counts nothing. */
	CHECK(find_s(m, longkey) == e);
	CHECK(find_s(m, cut) == e);
	CHECK(ins_s(m, cut) == e);
	CHECK_EQ_INT(events(STP_EV_STR_TRUNC), 1);
	cut[MAXSTRINGLEN - 2] = 0;	/* one shorter: another key */
	CHECK(!find_s(m, cut));
	/* A key of exactly MAXSTRINGLEN-1 bytes is not cut. */
	longkey[MAXSTRINGLEN - 1] = 0;
	longkey[0] = 'x';
	ins_s(m, longkey);
	CHECK_EQ_INT(events(STP_EV_STR_TRUNC), 1);
	stp_map_free(m);
}

TEST(map_string_value_truncation)
{
	struct stp_map *m = stp_map_new(1, K_L, STP_T_STRING, NULL, 4, 0);
	static char val[MAXSTRINGLEN * 2];
	struct stp_map_entry *e = ins_l(m, 1);

	memset(val, 'v', sizeof(val) - 1);
	reset_events();
	stp_entry_set_str(m, e, val);
	CHECK_EQ_INT(strlen(stp_entry_str(m, e)), MAXSTRINGLEN - 1);
	CHECK_EQ_INT(events(STP_EV_STR_TRUNC), 1);
	stp_entry_set_str(m, e, stp_entry_str(m, e) + 10);	/* overlaps */
	CHECK_EQ_INT(strlen(stp_entry_str(m, e)), MAXSTRINGLEN - 11);
	stp_entry_set_str(m, e, NULL);
	CHECK_EQ_STR(stp_entry_str(m, e), "");
	CHECK_EQ_INT(events(STP_EV_STR_TRUNC), 1);
	stp_map_free(m);
}

TEST(map_delete)
{
	struct stp_map *m = stp_map_new(1, K_L, STP_T_LONG, NULL, 4, 0);

	for (int i = 1; i <= 4; i++)
		set_l(m, i, i * 10);
	stp_map_delete(m, find_l(m, 2));
	CHECK_EQ_STR(keys_l(m), "1 3 4");
	CHECK(!find_l(m, 2));
	CHECK_EQ_INT(stp_map_size(m), 3);
	stp_map_delete(m, find_l(m, 1));
	stp_map_delete(m, find_l(m, 4));
	CHECK_EQ_STR(keys_l(m), "3");
	/* Freed entries come back, at the end of the order, zeroed. */
	CHECK_EQ_INT(*stp_entry_long(m, ins_l(m, 2)), 0);
	set_l(m, 1, 5);
	CHECK_EQ_STR(keys_l(m), "3 2 1");
	stp_map_delete(m, find_l(m, 3));
	stp_map_delete(m, find_l(m, 2));
	stp_map_delete(m, find_l(m, 1));
	CHECK_EQ_STR(keys_l(m), "");
	CHECK(stp_map_first(m) == NULL);
	stp_map_free(m);
}

TEST(map_clear)
{
	struct stp_map *m = stp_map_new(1, K_L, STP_T_LONG, NULL, 3, 0);

	for (int i = 1; i <= 3; i++)
		set_l(m, i, i);
	stp_map_clear(m);
	CHECK_EQ_INT(stp_map_size(m), 0);
	CHECK(!stp_map_first(m));
	CHECK(!find_l(m, 1));
	reset_events();
	for (int i = 4; i <= 6; i++)
		CHECK(ins_l(m, i) != NULL);
	CHECK_EQ_INT(events(STP_EV_MAP_FULL), 0);
	CHECK_EQ_STR(keys_l(m), "4 5 6");
	stp_map_free(m);
}

TEST(map_full)
{
	struct stp_map *m = stp_map_new(1, K_L, STP_T_LONG, NULL, 3, 0);

	reset_events();
	for (int i = 1; i <= 3; i++)
		set_l(m, i, i);
	CHECK(ins_l(m, 4) == NULL);
	CHECK(ins_l(m, 5) == NULL);
	CHECK_EQ_INT(events(STP_EV_MAP_FULL), 2);
	/* Present keys still work; nothing was evicted. */
	CHECK(ins_l(m, 2) == find_l(m, 2));
	CHECK_EQ_STR(keys_l(m), "1 2 3");
	CHECK_EQ_INT(events(STP_EV_MAP_FULL), 2);
	stp_map_delete(m, find_l(m, 1));
	CHECK(ins_l(m, 4) != NULL);
	stp_map_free(m);
}

TEST(map_string_keys_aligned_compare)
{
	/* aligned probe buffers with garbage after the NUL, every length
	 * around a word: the word-at-a-time compare sees only the string */
	struct stp_map *m = stp_map_new(1, K_S, STP_T_LONG, NULL, 64, 0);
	_Alignas(8) char a[64], b[64];

	for (int len = 0; len < 20; len++) {
		union stp_val k;

		memset(a, 'x', sizeof(a));
		memset(a, 'a' + len % 26, len);
		a[len] = '\0';
		k.s = a;
		*stp_entry_long(m, stp_map_insert(m, &k)) = len;
	}
	for (int len = 0; len < 20; len++) {
		union stp_val k;
		struct stp_map_entry *e;

		memset(b, len & 1 ? 'y' : '\0', sizeof(b));
		memset(b, 'a' + len % 26, len);
		b[len] = '\0';
		k.s = b;
		e = stp_map_find(m, &k);
		CHECK(e != NULL);
		if (e)
			CHECK_EQ_INT(*stp_entry_long(m, e), len);
		b[len] = 'z';		/* one longer: absent */
		b[len + 1] = '\0';
		CHECK(stp_map_find(m, &k) == NULL);
	}
	stp_map_free(m);
}

TEST(map_hot_entry_forgotten_on_delete)
{
	struct stp_map *m = stp_map_new(1, K_L, STP_T_LONG, NULL, 4, 1);

	/* the last entry found is remembered; delete, clear and wrap forget it */
	set_l(m, 1, 10);
	set_l(m, 2, 20);
	CHECK(find_l(m, 1) != NULL);
	stp_map_delete(m, find_l(m, 1));
	CHECK(find_l(m, 1) == NULL);
	CHECK(find_l(m, 2) != NULL);
	stp_map_clear(m);
	CHECK(find_l(m, 2) == NULL);
	for (int i = 1; i <= 5; i++)	/* 5 wraps over 1, the hot one */
		set_l(m, i, i);
	CHECK(find_l(m, 1) == NULL);
	CHECK(find_l(m, 5) != NULL);
	CHECK_EQ_STR(keys_l(m), "2 3 4 5");
	stp_map_free(m);
}

TEST(map_full_declared_size)
{
	struct stp_map *m = stp_map_new(1, K_L, STP_T_LONG, NULL, 2, 0);

	/* "global a[2]": full is the script's error, not a MAXMAPENTRIES count */
	stp_map_declared_size(m);
	reset_events();
	set_l(m, 1, 1);
	set_l(m, 2, 2);
	CHECK(ins_l(m, 3) == NULL);
	CHECK_EQ_INT(events(STP_EV_MAP_FULL), 0);
	CHECK_EQ_STR(keys_l(m), "1 2");
	stp_map_free(m);
}

TEST(map_wrap)
{
	struct stp_map *m = stp_map_new(1, K_L, STP_T_LONG, NULL, 3, 1);

	reset_events();
	for (int i = 1; i <= 3; i++)
		set_l(m, i, i * 10);
	CHECK(ins_l(m, 4) != NULL);	/* reuses 1, the oldest */
	CHECK_EQ_STR(keys_l(m), "2 3 4");
	CHECK(!find_l(m, 1));
	CHECK_EQ_INT(*stp_entry_long(m, find_l(m, 4)), 0);
	CHECK_EQ_INT(stp_map_size(m), 3);
	/* Updating an entry does not make it younger. */
	set_l(m, 2, 99);
	set_l(m, 5, 50);
	CHECK_EQ_STR(keys_l(m), "3 4 5");
	CHECK_EQ_INT(events(STP_EV_MAP_FULL), 0);
	stp_map_free(m);
}

TEST(map_wrap_string_keys)
{
	struct stp_map *m = stp_map_new(1, K_S, STP_T_LONG, NULL, 2, 1);
	char k[16];

	for (int i = 0; i < 100; i++) {
		snprintf(k, sizeof(k), "key%d", i);
		*stp_entry_long(m, ins_s(m, k)) = i;
	}
	CHECK_EQ_INT(stp_map_size(m), 2);
	CHECK(!find_s(m, "key97"));
	CHECK_EQ_INT(*stp_entry_long(m, find_s(m, "key98")), 98);
	CHECK_EQ_INT(*stp_entry_long(m, find_s(m, "key99")), 99);
	stp_map_free(m);
}

/* ---- sorting ---- */

static struct stp_map_entry *out[4096];

/* Values 30 10 20 10 at keys 1..4: ties at 10 (keys 2 and 4). */
static struct stp_map *tie_map(void)
{
	struct stp_map *m = stp_map_new(1, K_L, STP_T_LONG, NULL, 8, 0);

	set_l(m, 1, 30);
	set_l(m, 2, 10);
	set_l(m, 3, 20);
	set_l(m, 4, 10);
	return m;
}

TEST(map_sorted_by_value)
{
	struct stp_map *m = tie_map();
	int n;

	n = stp_map_sorted(m, 0, 1, STP_AGG_NONE, NULL, NULL, 0, out);
	CHECK_EQ_INT(n, 4);
	CHECK_EQ_STR(col1(m, out, n), "2 4 3 1");
	n = stp_map_sorted(m, 0, -1, STP_AGG_NONE, NULL, NULL, 0, out);
	CHECK_EQ_STR(col1(m, out, n), "1 3 2 4");	/* ties: insertion */
	n = stp_map_sorted(m, 0, 0, STP_AGG_NONE, NULL, NULL, 0, out);
	CHECK_EQ_STR(col1(m, out, n), "1 2 3 4");
	stp_map_free(m);
}

TEST(map_sorted_by_long_key)
{
	struct stp_map *m = stp_map_new(1, K_L, STP_T_LONG, NULL, 8, 0);
	int n;

	set_l(m, 5, 0);
	set_l(m, -7, 0);
	set_l(m, INT64_MAX, 0);
	set_l(m, INT64_MIN, 0);
	set_l(m, 0, 0);
	n = stp_map_sorted(m, 1, 1, STP_AGG_NONE, NULL, NULL, 0, out);
	CHECK_EQ_STR(col1(m, out, n),
		     "-9223372036854775808 -7 0 5 9223372036854775807");
	n = stp_map_sorted(m, 1, -1, STP_AGG_NONE, NULL, NULL, 0, out);
	CHECK_EQ_STR(col1(m, out, n),
		     "9223372036854775807 5 0 -7 -9223372036854775808");
	stp_map_free(m);
}

TEST(map_sorted_by_string_key)
{
	struct stp_map *m = stp_map_new(1, K_S, STP_T_LONG, NULL, 8, 0);
	int n;

	ins_s(m, "pear");
	ins_s(m, "apple");
	ins_s(m, "Zebra");
	ins_s(m, "app");
	ins_s(m, "\xe9t\xe9");	/* strcmp: bytes compare unsigned */
	n = stp_map_sorted(m, 1, 1, STP_AGG_NONE, NULL, NULL, 0, out);
	CHECK_EQ_STR(col1_str(m, out, n), "Zebra app apple pear \xe9t\xe9");
	n = stp_map_sorted(m, 1, -1, STP_AGG_NONE, NULL, NULL, 0, out);
	CHECK_EQ_STR(col1_str(m, out, n), "\xe9t\xe9 pear apple app Zebra");
	stp_map_free(m);
}

TEST(map_sorted_by_second_key)
{
	struct stp_map *m = stp_map_new(2, K_SL, STP_T_LONG, NULL, 8, 0);
	union stp_val k[2];
	static const char *names[] = { "a", "b", "c", "d" };
	static const int64_t nums[] = { 3, 1, 2, 1 };
	int n;

	for (int i = 0; i < 4; i++) {
		k[0].s = names[i];
		k[1].l = nums[i];
		stp_map_insert(m, k);
	}
	n = stp_map_sorted(m, 2, 1, STP_AGG_NONE, NULL, NULL, 0, out);
	CHECK_EQ_STR(col1_str(m, out, n), "b d c a");
	n = stp_map_sorted(m, 2, -1, STP_AGG_NONE, NULL, NULL, 0, out);
	CHECK_EQ_STR(col1_str(m, out, n), "a c b d");
	stp_map_free(m);
}

TEST(map_sorted_by_string_value)
{
	struct stp_map *m = stp_map_new(1, K_L, STP_T_STRING, NULL, 8, 0);
	int n;

	stp_entry_set_str(m, ins_l(m, 1), "m");
	stp_entry_set_str(m, ins_l(m, 2), "b");
	stp_entry_set_str(m, ins_l(m, 3), "m");
	stp_entry_set_str(m, ins_l(m, 4), "");
	n = stp_map_sorted(m, 0, 1, STP_AGG_NONE, NULL, NULL, 0, out);
	CHECK_EQ_STR(col1(m, out, n), "4 2 1 3");
	n = stp_map_sorted(m, 0, -1, STP_AGG_NONE, NULL, NULL, 0, out);
	CHECK_EQ_STR(col1(m, out, n), "1 3 2 4");
	stp_map_free(m);
}

TEST(map_sorted_by_stat_aggregate)
{
	struct stp_stat_desc d = { 0 };
	struct stp_map *m;
	int n;

	stp_stat_desc_init(&d);
	m = stp_map_new(1, K_L, STP_T_STAT, &d, 8, 0);
	/* k1: 1,1,1,1  k2: 10,-10  k3: 50  k4: (empty) */
	for (int i = 0; i < 4; i++)
		stp_stat_add(stp_entry_stat(m, ins_l(m, 1)), &d, 1);
	stp_stat_add(stp_entry_stat(m, ins_l(m, 2)), &d, 10);
	stp_stat_add(stp_entry_stat(m, find_l(m, 2)), &d, -10);
	stp_stat_add(stp_entry_stat(m, ins_l(m, 3)), &d, 50);
	ins_l(m, 4);
#define SORTED(agg, dir) \
	col1(m, out, stp_map_sorted(m, 0, dir, agg, NULL, NULL, 0, out))
	CHECK_EQ_STR(SORTED(STP_AGG_COUNT, -1), "1 2 3 4");
	CHECK_EQ_STR(SORTED(STP_AGG_COUNT, 1), "4 3 2 1");
	CHECK_EQ_STR(SORTED(STP_AGG_NONE, -1), "1 2 3 4");	/* count */
	CHECK_EQ_STR(SORTED(STP_AGG_SUM, -1), "3 1 2 4");
	CHECK_EQ_STR(SORTED(STP_AGG_SUM, 1), "2 4 1 3");
	/* The empty k4 sorts as 0. */
	CHECK_EQ_STR(SORTED(STP_AGG_MIN, 1), "2 4 1 3");
	CHECK_EQ_STR(SORTED(STP_AGG_MAX, -1), "3 2 1 4");
	CHECK_EQ_STR(SORTED(STP_AGG_AVG, -1), "3 1 2 4");
	CHECK_EQ_STR(SORTED(STP_AGG_AVG, 1), "2 4 1 3");
	/* Variances: k1 0, k2 200, k3 0, k4 0. */
	CHECK_EQ_STR(SORTED(STP_AGG_VARIANCE, -1), "2 1 3 4");
	CHECK_EQ_STR(SORTED(STP_AGG_VARIANCE, 1), "1 3 4 2");
#undef SORTED
	n = stp_map_sorted(m, 1, -1, STP_AGG_SUM, NULL, NULL, 0, out);
	CHECK_EQ_STR(col1(m, out, n), "4 3 2 1");
	stp_map_free(m);
}

TEST(map_sorted_limit)
{
	struct stp_map *m = tie_map();
	int n;

	n = stp_map_sorted(m, 0, -1, STP_AGG_NONE, NULL, NULL, 2, out);
	CHECK_EQ_INT(n, 2);
	CHECK_EQ_STR(col1(m, out, n), "1 3");
	n = stp_map_sorted(m, 0, 1, STP_AGG_NONE, NULL, NULL, 100, out);
	CHECK_EQ_INT(n, 4);
	n = stp_map_sorted(m, 0, 1, STP_AGG_NONE, NULL, NULL, -3, out);
	CHECK_EQ_INT(n, 4);
	n = stp_map_sorted(m, 0, 0, STP_AGG_NONE, NULL, NULL, 3, out);
	CHECK_EQ_STR(col1(m, out, n), "1 2 3");
	n = stp_map_sorted(m, 0, 1, STP_AGG_NONE, NULL, NULL, INT64_MAX, out);
	CHECK_EQ_INT(n, 4);
	stp_map_free(m);
}

TEST(map_sorted_slice)
{
	struct stp_map *m = stp_map_new(2, K_SL, STP_T_LONG, NULL, 8, 0);
	static const char *names[] = { "x", "y", "x", "x", "y" };
	union stp_val k[2], slice[2];
	int used[2] = { 1, 0 }, n;

	for (int i = 0; i < 5; i++) {
		k[0].s = names[i];
		k[1].l = 10 - i;
		*stp_entry_long(m, stp_map_insert(m, k)) = i;
	}
	slice[0].s = "x";
	n = stp_map_sorted(m, 2, 1, STP_AGG_NONE, slice, used, 0, out);
	CHECK_EQ_INT(n, 3);
	CHECK_EQ_INT(stp_entry_key(m, out[0], 1).l, 7);
	CHECK_EQ_INT(stp_entry_key(m, out[2], 1).l, 10);
	used[0] = 0;
	used[1] = 1;
	slice[1].l = 9;
	n = stp_map_sorted(m, 0, 0, STP_AGG_NONE, slice, used, 0, out);
	CHECK_EQ_INT(n, 1);
	CHECK_EQ_STR(stp_entry_key(m, out[0], 0).s, "y");
	used[0] = 1;
	slice[0].s = "x";
	n = stp_map_sorted(m, 0, 0, STP_AGG_NONE, slice, used, 0, out);
	CHECK_EQ_INT(n, 0);
	/* Slice, then sort, then limit. */
	used[1] = 0;
	n = stp_map_sorted(m, 0, -1, STP_AGG_NONE, slice, used, 2, out);
	CHECK_EQ_INT(n, 2);
	CHECK_EQ_INT(*stp_entry_long(m, out[0]), 3);
	CHECK_EQ_INT(*stp_entry_long(m, out[1]), 2);
	stp_map_free(m);
}

TEST(map_many_entries_stable_sort)
{
	enum { N = 2048 };
	struct stp_map *m = stp_map_new(1, K_L, STP_T_LONG, NULL, N, 0);
	unsigned int seed = 12345;
	int n, ok = 1;

	for (int i = 0; i < N; i++) {
		seed = seed * 1103515245 + 12345;
		set_l(m, i, (seed >> 16) % 10);
	}
	CHECK_EQ_INT(stp_map_size(m), N);
	for (int i = 0; i < N; i++)
		ok &= find_l(m, i) && stp_entry_key(m, find_l(m, i), 0).l == i;
	CHECK(ok);
	n = stp_map_sorted(m, 0, 1, STP_AGG_NONE, NULL, NULL, 0, out);
	CHECK_EQ_INT(n, N);
	for (int i = 1; i < n; i++) {
		int64_t a = *stp_entry_long(m, out[i - 1]);
		int64_t b = *stp_entry_long(m, out[i]);

		ok &= a < b || (a == b && stp_entry_key(m, out[i - 1], 0).l <
					      stp_entry_key(m, out[i], 0).l);
	}
	CHECK(ok);
	/* Delete the even keys, insert new ones: chains stay consistent. */
	for (int i = 0; i < N; i += 2)
		stp_map_delete(m, find_l(m, i));
	for (int i = 0; i < N / 2; i++)
		ok &= ins_l(m, N + i) != NULL;
	for (int i = 0; i < N; i++)
		ok &= (find_l(m, i) != NULL) == (i % 2);
	CHECK(ok);
	CHECK_EQ_INT(stp_map_size(m), N);
	stp_map_free(m);
}

/* ---- per-CPU ---- */

static int64_t pm_agg(struct stp_map *m, const struct stp_stat_desc *d,
		      int64_t k, enum stp_agg a)
{
	struct stp_map_entry *e = find_l(m, k);
	int64_t v;

	if (!e)
		return -999;
	if (stp_stat_get(stp_entry_stat(m, e), d, a, &v))
		return -998;
	return v;
}

TEST(pmap_add_and_aggregate)
{
	struct stp_stat_desc d = { .hist = STP_HIST_LOG };
	union stp_val k1 = { .l = 1 }, k2 = { .l = 2 };
	struct stp_pmap *pm;
	struct stp_map *a;

	stp_stat_desc_init(&d);
	stp_host_ncpus = 3;
	pm = stp_pmap_new(1, K_L, &d, 8, 0);
	stp_host_cpu = 2;
	CHECK_EQ_INT(stp_pmap_add(pm, &k2, 10), 0);
	stp_host_cpu = 0;
	stp_pmap_add(pm, &k1, 1);
	stp_pmap_add(pm, &k1, 2);
	stp_host_cpu = 1;
	stp_pmap_add(pm, &k1, 3);
	stp_host_cpu = 2;
	stp_pmap_add(pm, &k1, 4);
	stp_pmap_add(pm, &k1, 5);
	a = stp_pmap_agg(pm);
	CHECK_EQ_INT(stp_map_size(a), 2);
	CHECK_EQ_STR(keys_l(a), "1 2");	/* CPU 0's order first */
	CHECK_EQ_INT(pm_agg(a, &d, 1, STP_AGG_COUNT), 5);
	CHECK_EQ_INT(pm_agg(a, &d, 1, STP_AGG_SUM), 15);
	CHECK_EQ_INT(pm_agg(a, &d, 1, STP_AGG_MIN), 1);
	CHECK_EQ_INT(pm_agg(a, &d, 1, STP_AGG_MAX), 5);
	/* Pairwise, as SystemTap combines map entries (see rt_stat.c). */
	CHECK_EQ_INT(pm_agg(a, &d, 1, STP_AGG_VARIANCE), 2);
	CHECK_EQ_INT(pm_agg(a, &d, 2, STP_AGG_COUNT), 1);
	CHECK_EQ_INT(stp_entry_stat(a, find_l(a, 2))->hist[68], 1);
	/* Reading again does not double. */
	a = stp_pmap_agg(pm);
	CHECK_EQ_INT(pm_agg(a, &d, 1, STP_AGG_COUNT), 5);
	stp_pmap_free(pm);
	stp_host_cpu = 0;
	stp_host_ncpus = 1;
}

TEST(pmap_full_cpu_map)
{
	struct stp_stat_desc d = { 0 };
	union stp_val k[3] = { { .l = 1 }, { .l = 2 }, { .l = 3 } };
	struct stp_pmap *pm;

	stp_host_ncpus = 2;
	pm = stp_pmap_new(1, K_L, &d, 2, 0);
	reset_events();
	stp_host_cpu = 0;
	CHECK_EQ_INT(stp_pmap_add(pm, &k[0], 1), 0);
	CHECK_EQ_INT(stp_pmap_add(pm, &k[1], 1), 0);
	CHECK_EQ_INT(stp_pmap_add(pm, &k[2], 1), -1);
	CHECK_EQ_INT(events(STP_EV_MAP_FULL), 1);
	CHECK_EQ_INT(stp_pmap_add(pm, &k[0], 1), 0);	/* present: fine */
	stp_host_cpu = 1;
	CHECK_EQ_INT(stp_pmap_add(pm, &k[2], 1), 0);
	/* Three keys do not fit the 2-entry aggregate: counted too. */
	CHECK_EQ_INT(stp_map_size(stp_pmap_agg(pm)), 2);
	CHECK_EQ_INT(events(STP_EV_MAP_FULL), 2);
	stp_pmap_free(pm);
	stp_host_cpu = 0;
	stp_host_ncpus = 1;
}

static int64_t one_agg(struct stp_stat *st, struct stp_stat_desc *d,
		       enum stp_agg a)
{
	int64_t v = -1;

	if (!st)
		return -999;
	if (stp_stat_get(st, d, a, &v))
		return -998;
	return v;
}

/* One element combined on its own: what foreach's body reads. */
TEST(pmap_one_element)
{
	struct stp_stat_desc d = { .hist = STP_HIST_LOG };
	union stp_val k[4] = { { .l = 1 }, { .l = 2 }, { .l = 3 }, { .l = 4 } };
	struct stp_pmap *pm;

	stp_stat_desc_init(&d);
	stp_host_ncpus = 3;
	pm = stp_pmap_new(1, K_L, &d, 2, 0);
	stp_host_cpu = 0;
	stp_pmap_add(pm, &k[0], 1);
	stp_pmap_add(pm, &k[0], 2);
	stp_host_cpu = 2;
	stp_pmap_add(pm, &k[0], 4);
	stp_pmap_add(pm, &k[1], 10);
	stp_host_cpu = 1;
	stp_pmap_add(pm, &k[2], 7);	/* one key more than the aggregate holds */
	CHECK_EQ_INT(one_agg(stp_pmap_stat(pm, &k[0]), &d, STP_AGG_COUNT), 3);
	CHECK_EQ_INT(one_agg(stp_pmap_stat(pm, &k[0]), &d, STP_AGG_SUM), 7);
	CHECK_EQ_INT(one_agg(stp_pmap_stat(pm, &k[0]), &d, STP_AGG_MAX), 4);
	CHECK_EQ_INT(stp_pmap_stat(pm, &k[0])->hist[67], 1);	/* 4 */
	CHECK_EQ_INT(one_agg(stp_pmap_stat(pm, &k[1]), &d, STP_AGG_SUM), 10);
	CHECK_EQ_INT(one_agg(stp_pmap_stat(pm, &k[2]), &d, STP_AGG_MIN), 7);
	CHECK(stp_pmap_stat(pm, &k[3]) == NULL);
	CHECK_EQ_INT(stp_pmap_has(pm, &k[2]), 1);
	CHECK_EQ_INT(stp_pmap_has(pm, &k[3]), 0);
	/* the same as the whole aggregate's entry */
	CHECK_EQ_INT(pm_agg(stp_pmap_agg(pm), &d, 1, STP_AGG_SUM), 7);
	stp_pmap_delete(pm, &k[0]);
	CHECK(stp_pmap_stat(pm, &k[0]) == NULL);
	stp_pmap_free(pm);
	stp_host_cpu = 0;
	stp_host_ncpus = 1;
}

TEST(pmap_wrap)
{
	struct stp_stat_desc d = { 0 };
	struct stp_pmap *pm = stp_pmap_new(1, K_L, &d, 2, 1);
	union stp_val k;

	for (k.l = 1; k.l <= 5; k.l++)
		CHECK_EQ_INT(stp_pmap_add(pm, &k, k.l), 0);
	CHECK_EQ_STR(keys_l(stp_pmap_agg(pm)), "4 5");
	stp_pmap_free(pm);
}

TEST(pmap_delete_and_clear)
{
	struct stp_stat_desc d = { 0 };
	union stp_val k1 = { .l = 1 }, k2 = { .l = 2 };
	struct stp_pmap *pm;
	struct stp_map *a;

	stp_host_ncpus = 2;
	pm = stp_pmap_new(1, K_L, &d, 4, 0);
	for (stp_host_cpu = 0; stp_host_cpu < 2; stp_host_cpu++) {
		stp_pmap_add(pm, &k1, 1);
		stp_pmap_add(pm, &k2, 2);
	}
	stp_host_cpu = 0;
	stp_pmap_agg(pm);
	stp_pmap_delete(pm, &k1);
	a = stp_pmap_agg(pm);
	CHECK_EQ_STR(keys_l(a), "2");
	CHECK_EQ_INT(pm_agg(a, &d, 2, STP_AGG_COUNT), 2);
	stp_pmap_delete(pm, &k1);	/* absent: nothing happens */
	stp_pmap_clear(pm);
	CHECK_EQ_INT(stp_map_size(stp_pmap_agg(pm)), 0);
	stp_pmap_add(pm, &k1, 7);
	CHECK_EQ_INT(pm_agg(stp_pmap_agg(pm), &d, 1, STP_AGG_SUM), 7);
	stp_pmap_free(pm);
	stp_host_ncpus = 1;
}

TEST(pmap_string_keys)
{
	struct stp_stat_desc d = { 0 };
	struct stp_pmap *pm;
	union stp_val k[2] = { { .s = "bash" }, { .l = 3 } };
	struct stp_map *a;
	int n;

	stp_host_ncpus = 2;
	pm = stp_pmap_new(2, K_SL, &d, 8, 0);
	stp_host_cpu = 1;
	stp_pmap_add(pm, k, 100);
	stp_host_cpu = 0;
	k[0].s = "cat";
	stp_pmap_add(pm, k, 5);
	k[0].s = "bash";
	stp_pmap_add(pm, k, 1);
	a = stp_pmap_agg(pm);
	n = stp_map_sorted(a, 0, -1, STP_AGG_SUM, NULL, NULL, 0, out);
	CHECK_EQ_STR(col1_str(a, out, n), "bash cat");
	CHECK_EQ_INT(stp_entry_stat(a, out[0])->sum, 101);
	stp_pmap_free(pm);
	stp_host_ncpus = 1;
}

int main(int argc, char **argv)
{
	return unit_main(argc, argv);
}
