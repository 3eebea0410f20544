// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The aggregator's tables in the store (doc/vitals.md, "Reading the vital
 * signs", documents them).  They are written through a connection of
 * their own, read-write, so the store's readers stay read-only; when the
 * store cannot be written (a read-only file, a directory not ours), what
 * is already kept is still read and the rest is computed each time.
 * AGG_VERSION names how the points are computed and kept: when it
 * changes, the tables are dropped and what they kept computed again.
 */
#include <stdlib.h>
#include <string.h>

#include "agg_int.h"
#include "strpool.h"

#define AGG_VERSION "2"

static const char schema_sql[] =
	"CREATE TABLE IF NOT EXISTS agg_meta(key TEXT PRIMARY KEY, value TEXT);"
	"CREATE TABLE IF NOT EXISTS agg_bucket(scale INTEGER, start_ns INTEGER,"
	" end_ns INTEGER, epochs INTEGER, id_sum INTEGER, has_tops INTEGER,"
	" PRIMARY KEY(scale, start_ns)) WITHOUT ROWID;"
	"CREATE TABLE IF NOT EXISTS agg_point(scale INTEGER, start_ns INTEGER,"
	" seq INTEGER, vital TEXT, weight INTEGER, events INTEGER,"
	" uniq INTEGER, samples INTEGER, dropped INTEGER, epochs INTEGER,"
	" available INTEGER, PRIMARY KEY(scale, start_ns, seq)) WITHOUT ROWID;"
	"CREATE TABLE IF NOT EXISTS agg_top(scale INTEGER, start_ns INTEGER,"
	" seq INTEGER, vital TEXT, kind TEXT, rank INTEGER, name TEXT,"
	" samples INTEGER, weight INTEGER, PRIMARY KEY(scale, start_ns, seq))"
	" WITHOUT ROWID;"
	"CREATE VIEW IF NOT EXISTS agg_points AS SELECT CASE scale WHEN 0"
	" THEN 'epoch' WHEN 1 THEN 'hour' ELSE 'day' END AS scale, start_ns,"
	" end_ns, vital, weight, events, uniq, samples, dropped, p.epochs,"
	" available FROM agg_point p JOIN agg_bucket b USING (scale, start_ns);"
	"CREATE VIEW IF NOT EXISTS agg_tops AS SELECT CASE scale WHEN 0"
	" THEN 'epoch' WHEN 1 THEN 'hour' ELSE 'day' END AS scale, start_ns,"
	" end_ns, vital, kind, rank, name, samples, weight FROM agg_top"
	" JOIN agg_bucket USING (scale, start_ns);";

struct akeep {
	sqlite3 *db;
	int own;		/* db is ours (read-write), not the reader's */
	int writable;
	int in_tx;
	sqlite3_stmt *bucket, *points, *tops, *del_b, *del_p, *del_t, *put_b,
		*put_p, *put_t;
};

/* Is what is kept of this AGG_VERSION? */
static int same_version(sqlite3 *db)
{
	sqlite3_stmt *s;
	int same = 0;

	if (sqlite3_prepare_v2(db, "SELECT value FROM agg_meta WHERE"
			       " key = 'version'", -1, &s, NULL))
		return 0;	/* no agg_meta yet */
	if (sqlite3_step(s) == SQLITE_ROW)
		same = !strcmp((const char *)sqlite3_column_text(s, 0),
			       AGG_VERSION);
	sqlite3_finalize(s);
	return same;
}

/* The tables of another AGG_VERSION go, all they kept with them. */
static int make_tables(sqlite3 *db)
{
	if (same_version(db))
		return sqlite3_exec(db, schema_sql, NULL, NULL, NULL) ? -1 : 0;
	return sqlite3_exec(db, "BEGIN IMMEDIATE;"
			    " DROP VIEW IF EXISTS agg_points;"
			    " DROP VIEW IF EXISTS agg_tops;"
			    " DROP TABLE IF EXISTS agg_bucket;"
			    " DROP TABLE IF EXISTS agg_point;"
			    " DROP TABLE IF EXISTS agg_top;"
			    " DROP TABLE IF EXISTS agg_meta;", NULL, NULL, NULL) ||
	       sqlite3_exec(db, schema_sql, NULL, NULL, NULL) ||
	       sqlite3_exec(db, "INSERT INTO agg_meta VALUES('version', '"
			    AGG_VERSION "'); COMMIT;", NULL, NULL, NULL) ? -1 : 0;
}

/* A read-write connection with the tables made; NULL if it cannot be. */
static sqlite3 *open_rw(const char *path)
{
	sqlite3 *db;

	if (!path || !*path || sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE,
						NULL)) {
		return NULL;
	}
	sqlite3_busy_timeout(db, 1000);
	if (make_tables(db)) {
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		sqlite3_close(db);
		return NULL;
	}
	return db;
}

static int prepare(struct akeep *k)
{
	static const char *const sql[9] = {
		"SELECT epochs, id_sum, has_tops FROM agg_bucket WHERE"
		" scale = ?1 AND start_ns = ?2",
		"SELECT vital, weight, events, uniq, samples, dropped, epochs,"
		" available FROM agg_point WHERE scale = ?1 AND start_ns = ?2"
		" ORDER BY seq",
		"SELECT vital, kind, rank, name, samples, weight FROM agg_top"
		" WHERE scale = ?1 AND start_ns = ?2 ORDER BY seq",
		"DELETE FROM agg_bucket WHERE scale = ?1 AND start_ns = ?2",
		"DELETE FROM agg_point WHERE scale = ?1 AND start_ns = ?2",
		"DELETE FROM agg_top WHERE scale = ?1 AND start_ns = ?2",
		"INSERT INTO agg_bucket VALUES(?1, ?2, ?3, ?4, ?5, ?6)",
		"INSERT INTO agg_point VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8,"
		" ?9, ?10, ?11)",
		"INSERT INTO agg_top VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
	};
	sqlite3_stmt **s[9] = { &k->bucket, &k->points, &k->tops, &k->del_b,
				&k->del_p, &k->del_t, &k->put_b, &k->put_p,
				&k->put_t };
	int n = k->writable ? 9 : 3;

	for (int i = 0; i < n; i++)
		if (sqlite3_prepare_v2(k->db, sql[i], -1, s[i], NULL))
			return -1;
	return 0;
}

struct akeep *akeep_open(struct vread *r)
{
	struct akeep *k = vmust(calloc(1, sizeof(*k)));

	k->db = open_rw(sqlite3_db_filename(vread_db(r), "main"));
	k->own = k->writable = k->db != NULL;
	if (!k->db)
		k->db = vread_db(r);	/* what an earlier run kept, if any */
	if (prepare(k)) {
		akeep_close(k);
		return NULL;
	}
	return k;
}

void akeep_close(struct akeep *k)
{
	if (!k)
		return;
	if (k->in_tx)
		sqlite3_exec(k->db, "COMMIT", NULL, NULL, NULL);
	sqlite3_stmt *s[9] = { k->bucket, k->points, k->tops, k->del_b,
			       k->del_p, k->del_t, k->put_b, k->put_p,
			       k->put_t };

	for (int i = 0; i < 9; i++)
		sqlite3_finalize(s[i]);
	if (k->own)
		sqlite3_close(k->db);
	free(k);
}

static void bind2(sqlite3_stmt *s, int scale, const struct abucket *b)
{
	sqlite3_reset(s);
	sqlite3_bind_int(s, 1, scale);
	sqlite3_bind_int64(s, 2, b->start_ns);
}

/* Is bucket b kept (with its tops, if tops), computed from the same
 * epochs? */
static int kept(struct akeep *k, int scale, const struct abucket *b,
		int tops)
{
	sqlite3_stmt *s = k->bucket;
	int rc;

	bind2(s, scale, b);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		return sqlite3_column_int64(s, 0) == b->epochs &&
		       sqlite3_column_int64(s, 1) == b->id_sum &&
		       (!tops || sqlite3_column_int(s, 2));
	return rc == SQLITE_DONE ? 0 : -1;
}

static void point_row(sqlite3_stmt *s, const struct abucket *b,
		      struct vagg_point *p)
{
	*p = (struct vagg_point){
		.start_ns = b->start_ns, .end_ns = b->end_ns,
		.vital = vmust(strdup((const char *)sqlite3_column_text(s, 0))),
		.weight = sqlite3_column_int64(s, 1),
		.events = (uint64_t)sqlite3_column_int64(s, 2),
		.unique = (uint64_t)sqlite3_column_int64(s, 3),
		.samples = (uint64_t)sqlite3_column_int64(s, 4),
		.dropped = (uint64_t)sqlite3_column_int64(s, 5),
		.epochs = (uint32_t)sqlite3_column_int64(s, 6),
		.available = sqlite3_column_int(s, 7),
	};
}

int akeep_get(struct akeep *k, int scale, const struct abucket *b,
	      struct vagg_point **pts, uint32_t *n)
{
	uint32_t cap = 16;
	int rc = kept(k, scale, b, 0);

	*pts = NULL;
	*n = 0;
	if (rc != 1)
		return rc;
	*pts = vmust(malloc(cap * sizeof(**pts)));
	bind2(k->points, scale, b);
	while ((rc = sqlite3_step(k->points)) == SQLITE_ROW) {
		if (*n == cap)
			*pts = vmust(realloc(*pts, (cap *= 2) * sizeof(**pts)));
		point_row(k->points, b, &(*pts)[(*n)++]);
	}
	sqlite3_reset(k->points);
	if (rc == SQLITE_DONE)
		return 1;
	akeep_free(*pts, *n);
	*pts = NULL;
	*n = 0;
	return -1;
}

static char *dup_col(sqlite3_stmt *s, int col)
{
	const char *t = (const char *)sqlite3_column_text(s, col);

	return vmust(strdup(t ? t : ""));
}

int akeep_get_tops(struct akeep *k, int scale, const struct abucket *b,
		   struct vagg_top **tops, uint32_t *n)
{
	sqlite3_stmt *s = k->tops;
	uint32_t cap = 64;
	int rc = kept(k, scale, b, 1);

	*tops = NULL;
	*n = 0;
	if (rc != 1)
		return rc;
	*tops = vmust(malloc(cap * sizeof(**tops)));
	bind2(s, scale, b);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (*n == cap)
			*tops = vmust(realloc(*tops, (cap *= 2) * sizeof(**tops)));
		(*tops)[(*n)++] = (struct vagg_top){
			.start_ns = b->start_ns, .end_ns = b->end_ns,
			.vital = dup_col(s, 0), .kind = dup_col(s, 1),
			.rank = (unsigned)sqlite3_column_int(s, 2),
			.name = dup_col(s, 3),
			.samples = (uint64_t)sqlite3_column_int64(s, 4),
			.weight = sqlite3_column_int64(s, 5) };
	}
	sqlite3_reset(s);
	if (rc == SQLITE_DONE)
		return 1;
	akeep_free_tops(*tops, *n);
	*tops = NULL;
	*n = 0;
	return -1;
}

void akeep_free_tops(struct vagg_top *tops, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		free((char *)tops[i].vital);
		free((char *)tops[i].kind);
		free((char *)tops[i].name);
	}
	free(tops);
}

void akeep_free(struct vagg_point *pts, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		free((char *)pts[i].vital);
	free(pts);
}

static int step(sqlite3_stmt *s)
{
	int rc = sqlite3_step(s);

	sqlite3_reset(s);
	return rc == SQLITE_DONE ? 0 : -1;
}

static int put_point(struct akeep *k, int scale, const struct abucket *b,
		     uint32_t seq, const struct vagg_point *p)
{
	sqlite3_stmt *s = k->put_p;

	bind2(s, scale, b);
	sqlite3_bind_int(s, 3, (int)seq);
	sqlite3_bind_text(s, 4, p->vital, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 5, p->weight);
	sqlite3_bind_int64(s, 6, (sqlite3_int64)p->events);
	sqlite3_bind_int64(s, 7, (sqlite3_int64)p->unique);
	sqlite3_bind_int64(s, 8, (sqlite3_int64)p->samples);
	sqlite3_bind_int64(s, 9, (sqlite3_int64)p->dropped);
	sqlite3_bind_int64(s, 10, p->epochs);
	sqlite3_bind_int(s, 11, p->available);
	return step(s);
}

static int put_top(struct akeep *k, int scale, const struct abucket *b,
		   uint32_t seq, const struct vagg_top *t)
{
	sqlite3_stmt *s = k->put_t;

	bind2(s, scale, b);
	sqlite3_bind_int(s, 3, (int)seq);
	sqlite3_bind_text(s, 4, t->vital, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 5, t->kind, -1, SQLITE_STATIC);
	sqlite3_bind_int(s, 6, (int)t->rank);
	sqlite3_bind_text(s, 7, t->name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 8, (sqlite3_int64)t->samples);
	sqlite3_bind_int64(s, 9, t->weight);
	return step(s);
}

int akeep_put(struct akeep *k, int scale, const struct abucket *b,
	      const struct vagg_point *pts, uint32_t n,
	      const struct vagg_top *tops, uint32_t ntops, int has_tops)
{
	int rc = 0;

	if (!k->writable)
		return 0;
	if (!k->in_tx && sqlite3_exec(k->db, "BEGIN IMMEDIATE", NULL, NULL,
				      NULL)) {
		k->writable = 0;
		return -1;
	}
	k->in_tx = 1;
	bind2(k->del_b, scale, b);
	bind2(k->del_p, scale, b);
	bind2(k->del_t, scale, b);
	rc = step(k->del_b) || step(k->del_p) || step(k->del_t);
	bind2(k->put_b, scale, b);
	sqlite3_bind_int64(k->put_b, 3, b->end_ns);
	sqlite3_bind_int64(k->put_b, 4, b->epochs);
	sqlite3_bind_int64(k->put_b, 5, b->id_sum);
	sqlite3_bind_int(k->put_b, 6, has_tops);
	if (!rc)
		rc = step(k->put_b);
	for (uint32_t i = 0; i < n && !rc; i++)
		rc = put_point(k, scale, b, i, &pts[i]);
	for (uint32_t i = 0; i < ntops && !rc; i++)
		rc = put_top(k, scale, b, i, &tops[i]);
	if (!rc)
		return 0;
	sqlite3_exec(k->db, "ROLLBACK", NULL, NULL, NULL);	/* keep none */
	k->in_tx = 0;
	k->writable = 0;
	return -1;
}
