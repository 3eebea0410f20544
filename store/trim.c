// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vstore_trim: the store's size and age limits.  Whole epochs go, oldest
 * first (by start time), with their vital rows and samples; the newest
 * epoch always stays.  Age counts back from the newest epoch's end, not
 * from the clock, so a store read back later (or a test) trims the same
 * way.  Size counts the database's pages in use; freed pages go back to
 * the file system by an incremental vacuum in the same transaction, so
 * the file shrinks at the next checkpoint (and the WAL file beside it is
 * cut back to 4 MB then).
 *
 * The texts no epoch names any more go in the same transaction: each text
 * keeps the newest epoch that named it, so those older than every epoch
 * left are the ones to drop, found without reading a sample.
 */
#include <stdio.h>
#include <stdlib.h>

#include "store_int.h"

/* The epochs that go: a condition on epoch's columns, with ?1. */
#define NOT_NEWEST \
	"id <> (SELECT id FROM epoch ORDER BY start_ns DESC, id DESC LIMIT 1)"
static const char by_age[] = "end_ns <= ?1 AND " NOT_NEWEST;
static const char oldest[] =
	"id IN (SELECT id FROM epoch ORDER BY start_ns, id LIMIT ?1)";

/* ORDER: samples and vital rows before their epoch. */
static const char *const delete_sql[] = {
	"DELETE FROM sample_block WHERE epoch_id IN"
	" (SELECT id FROM epoch WHERE %s)",
	"DELETE FROM epoch_vital WHERE epoch_id IN"
	" (SELECT id FROM epoch WHERE %s)",
	"DELETE FROM epoch WHERE %s",
};

/* Epoch ids only grow, so a text last named before the oldest epoch left
 * is named by none. */
static const char orphans_sql[] =
	"DELETE FROM exec WHERE last_epoch < (SELECT min(id) FROM epoch);"
	"DELETE FROM site WHERE last_epoch < (SELECT min(id) FROM epoch);"
	"DELETE FROM stack WHERE last_epoch < (SELECT min(id) FROM epoch);";

static sqlite3_int64 query_int(struct vstore *st, const char *sql)
{
	sqlite3_stmt *s;
	sqlite3_int64 v = -1;

	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL))
		return -1;
	if (sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return v;
}

/* Run sql with ?1 = arg; SQLite's result code. */
static int bind_step(struct vstore *st, const char *sql, sqlite3_int64 arg)
{
	sqlite3_stmt *s;
	int rc;

	rc = sqlite3_prepare_v2(st->db, sql, -1, &s, NULL);
	if (rc)
		return rc;
	sqlite3_bind_int64(s, 1, arg);
	rc = sqlite3_step(s);
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* Run delete_sql[i] for cond (?1 = arg); SQLite's result code. */
static int delete_step(struct vstore *st, size_t i, const char *cond,
		       sqlite3_int64 arg)
{
	char *sql;
	int rc;

	if (asprintf(&sql, delete_sql[i], cond) < 0)
		abort();
	rc = bind_step(st, sql, arg);
	free(sql);
	return rc;
}

/* Delete the epochs where cond holds (?1 = arg); how many, or -1. */
static int delete_epochs(struct vstore *st, const char *cond,
			 sqlite3_int64 arg)
{
	int gone;

	for (size_t i = 0; i < 3; i++)
		if (delete_step(st, i, cond, arg))
			return -1;
	gone = sqlite3_changes(st->db);
	if (gone && vstore_exec(st, orphans_sql))
		return -1;
	return gone;
}

static int trim_age(struct vstore *st, uint64_t max_age_s)
{
	sqlite3_int64 newest = query_int(st, "SELECT max(end_ns) FROM epoch");

	if (newest < 0)
		return 0;
	return delete_epochs(st, by_age,
			     newest - (sqlite3_int64)(max_age_s * 1000000000));
}

static sqlite3_int64 bytes_used(struct vstore *st)
{
	sqlite3_int64 pages = query_int(st, "PRAGMA page_count");
	sqlite3_int64 free_pages = query_int(st, "PRAGMA freelist_count");

	return (pages - free_pages) * query_int(st, "PRAGMA page_size");
}

/*
 * Delete the oldest epochs until the pages in use fit max_bytes, guessing
 * each round's count from the mean epoch's size; with one epoch left,
 * stop.
 */
static int trim_size(struct vstore *st, uint64_t max_bytes)
{
	sqlite3_int64 used, n, k, max = (sqlite3_int64)max_bytes;
	int gone = 0, d;

	for (;;) {
		used = bytes_used(st);
		n = query_int(st, "SELECT count(*) FROM epoch");
		if (used <= max)
			return gone;
		if (n <= 1)
			return gone;
		k = (used - max + used / n - 1) / (used / n);
		k = k < 1 ? 1 : k > n - 1 ? n - 1 : k;
		d = delete_epochs(st, oldest, k);
		if (d <= 0)
			return d < 0 ? -1 : gone;
		gone += d;
	}
}

int vstore_trim(struct vstore *st, uint64_t max_bytes, uint64_t max_age_s,
		char **err)
{
	int age = 0, size = 0;

	if (vstore_exec(st, "BEGIN IMMEDIATE"))
		return vstore_fail(st, "cannot trim", err);
	if (max_age_s)
		age = trim_age(st, max_age_s);
	if (age >= 0 && max_bytes)
		size = trim_size(st, max_bytes);
	if (age < 0 || size < 0)
		return vstore_fail(st, "cannot trim", err);
	if (age + size && vstore_exec(st, "PRAGMA incremental_vacuum"))
		return vstore_fail(st, "cannot reclaim space", err);
	if (vstore_exec(st, "COMMIT"))
		return vstore_fail(st, "cannot trim", err);
	return age + size;
}
