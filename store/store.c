// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The vital-signs store's writer (see store.h, schema.c).  Settings and
 * why: WAL, so a writer killed mid-transaction leaves the last commit
 * intact and readers never wait for the writer; synchronous=NORMAL, which
 * in WAL mode loses no commit when the process dies (only, at worst, the
 * last ones when the machine loses power), without an fsync per epoch;
 * incremental auto_vacuum, so trim.c can hand freed pages back to the
 * file system; a busy timeout, so a reader's checkpoint never fails a put.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hca.h"
#include "sblock.h"
#include "schema.h"
#include "store_int.h"
#include "varint.h"

#define BUSY_MS 5000
#define WAL_LIMIT (4 << 20)	/* the WAL file is cut back to this */

/* ORDER: enum vstore_stmt. */
static const char *const stmt_sql[VS_NSTMT] = {
	"INSERT INTO epoch(start_ns, end_ns, host) VALUES(?1, ?2, ?3)",
	"INSERT INTO epoch_vital VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9,"
	" ?10, ?11, ?12, ?13)",
	"INSERT INTO sample_block VALUES(?1, ?2, ?3)",
	/* vital names are short and never trimmed: found by the name itself
	 * (?1 unused), and their touch does nothing */
	"SELECT id, ?3 FROM vital WHERE name = ?2",
	"INSERT INTO vital(name) VALUES(?2)",
	"SELECT 1 WHERE 0 AND ?1 AND ?2",
	"SELECT id, last_epoch FROM exec WHERE hash = ?1 AND path = ?2",
	"INSERT INTO exec(hash, path, last_epoch) VALUES(?1, ?2, ?3)",
	"UPDATE exec SET last_epoch = ?2 WHERE id = ?1",
	"SELECT id, last_epoch FROM site WHERE hash = ?1 AND name = ?2",
	"INSERT INTO site(hash, name, last_epoch) VALUES(?1, ?2, ?3)",
	"UPDATE site SET last_epoch = ?2 WHERE id = ?1",
	"SELECT id, last_epoch FROM stack WHERE hash = ?1 AND frames = ?2",
	"INSERT INTO stack(hash, frames, last_epoch) VALUES(?1, ?2, ?3)",
	"UPDATE stack SET last_epoch = ?2 WHERE id = ?1",
};

int vstore_exec(struct vstore *st, const char *sql)
{
	return sqlite3_exec(st->db, sql, NULL, NULL, NULL);
}

int vstore_fail(struct vstore *st, const char *what, char **err)
{
	if (asprintf(err, "%s: %s: %s", st->path, what,
		     sqlite3_errmsg(st->db)) < 0)
		abort();
	if (!sqlite3_get_autocommit(st->db))
		vstore_exec(st, "ROLLBACK");
	return -1;
}

static uint64_t fnv1a(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t h = 0xcbf29ce484222325ULL;

	while (n--)
		h = (h ^ *b++) * 0x100000001b3ULL;
	return h;
}

/* Run a reset statement whose bindings are set: SQLite's result code. */
static int step(sqlite3_stmt *s)
{
	int rc = sqlite3_step(s);

	sqlite3_reset(s);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static void bind_key(sqlite3_stmt *s, const void *key, size_t n, int is_blob)
{
	if (is_blob)
		sqlite3_bind_blob(s, 2, key, (int)n, SQLITE_STATIC);
	else
		sqlite3_bind_text(s, 2, key, (int)n, SQLITE_STATIC);
}

/*
 * The id of the text or blob key (n bytes) in the table whose statements
 * are get, get + 1 and get + 2 (VS_*_GET, VS_*_ADD, VS_*_TOUCH), added if
 * new, and marked as named by epoch.
 */
static int intern_key(struct vstore *st, enum vstore_stmt get,
		      const void *key, size_t n, int is_blob,
		      sqlite3_int64 epoch, sqlite3_int64 *id)
{
	sqlite3_stmt *g = st->stmt[get], *a = st->stmt[get + 1];
	sqlite3_stmt *t = st->stmt[get + 2];
	sqlite3_int64 h = (sqlite3_int64)fnv1a(key, n), last = epoch;
	int rc;

	sqlite3_bind_int64(g, 1, h);
	bind_key(g, key, n, is_blob);
	sqlite3_bind_int64(g, 3, epoch);
	rc = sqlite3_step(g);
	if (rc == SQLITE_ROW) {
		*id = sqlite3_column_int64(g, 0);
		last = sqlite3_column_int64(g, 1);
	}
	sqlite3_reset(g);
	if (rc == SQLITE_ROW && last != epoch) {
		sqlite3_bind_int64(t, 1, *id);
		sqlite3_bind_int64(t, 2, epoch);
		return step(t);
	}
	if (rc != SQLITE_DONE)
		return rc == SQLITE_ROW ? SQLITE_OK : rc;
	sqlite3_bind_int64(a, 1, h);
	bind_key(a, key, n, is_blob);
	sqlite3_bind_int64(a, 3, epoch);
	rc = step(a);
	*id = sqlite3_last_insert_rowid(st->db);
	return rc;
}

/* The id of text (0 for none): see intern_key. */
static int intern(struct vstore *st, enum vstore_stmt get, const char *text,
		  sqlite3_int64 epoch, sqlite3_int64 *id)
{
	*id = 0;
	if (!text)
		return SQLITE_OK;
	return intern_key(st, get, text, strlen(text), 0, epoch, id);
}

/*
 * A stack's id (0 for none).  Its frames are sites: each is interned in
 * the site table, and the stack is kept as their ids (varints), so a
 * frame that many stacks share costs its text once.
 */
static int intern_stack(struct vstore *st, const char *text,
			sqlite3_int64 epoch, sqlite3_int64 *id)
{
	size_t nframes = 1, len = 0;
	unsigned char *key;
	sqlite3_int64 site;
	char *frame, *copy, *rest;
	int rc = SQLITE_OK;

	*id = 0;
	if (!text)
		return SQLITE_OK;
	for (const char *p = text; *p; p++)
		nframes += *p == '\n';
	key = malloc(nframes * VARINT_MAX);
	copy = strdup(text);
	if (!key || !copy)
		abort();
	/* every piece between newlines, empty ones too, so text comes back */
	for (rest = copy; rest && !rc;) {
		frame = strsep(&rest, "\n");
		rc = intern(st, VS_SITE_GET, frame, epoch, &site);
		len += varint_put(key + len, (uint64_t)site);
	}
	if (!rc)
		rc = intern_key(st, VS_STACK_GET, key, len, 1, epoch, id);
	free(copy);
	free(key);
	return rc;
}

static int put_vital(struct vstore *st, sqlite3_int64 epoch, int seq,
		     const struct vx_vital *v)
{
	sqlite3_stmt *s = st->stmt[VS_EPOCH_VITAL];
	sqlite3_int64 vid;
	unsigned char *hca;
	size_t len;
	int rc;

	rc = intern(st, VS_VITAL_GET, v->vital, epoch, &vid);
	if (rc)
		return rc;
	hca = vhca_encode(v->hca, v->hca ? v->hca_len : 0, &len);
	sqlite3_bind_int64(s, 1, epoch);
	sqlite3_bind_int64(s, 2, vid);
	sqlite3_bind_int(s, 3, seq);
	sqlite3_bind_int64(s, 4, v->weight);
	sqlite3_bind_int64(s, 5, (sqlite3_int64)v->count);
	sqlite3_bind_int64(s, 6, (sqlite3_int64)v->unique);
	sqlite3_bind_int64(s, 7, (sqlite3_int64)v->samples);
	sqlite3_bind_int64(s, 8, (sqlite3_int64)v->dropped);
	sqlite3_bind_int64(s, 9, (sqlite3_int64)v->t);
	sqlite3_bind_int(s, 10, !!v->available);
	sqlite3_bind_text(s, 11, v->available ? NULL : v->why, -1,
			  SQLITE_STATIC);
	sqlite3_bind_int64(s, 12, hca ? v->hca_len : 0);
	sqlite3_bind_blob(s, 13, hca, (int)len, free);
	return step(s);
}

/* The sample as a block's row: its texts interned, named by epoch. */
static int sample_row(struct vstore *st, const struct vx_epoch *e,
		      sqlite3_int64 epoch, const struct vx_sample *x,
		      struct sb_row *r)
{
	sqlite3_int64 id[4];
	int rc;

	rc = intern(st, VS_VITAL_GET, x->vital, epoch, &id[0]);
	if (!rc)
		rc = intern(st, VS_EXEC_GET, x->exec, epoch, &id[1]);
	if (!rc)
		rc = intern(st, VS_SITE_GET, x->site, epoch, &id[2]);
	if (!rc)
		rc = intern_stack(st, x->stack, epoch, &id[3]);
	*r = (struct sb_row){
		.vital_id = (uint64_t)id[0],
		/* microseconds from the epoch's start */
		.at_us = ((int64_t)x->time_ns - (int64_t)e->start_ns) / 1000,
		.label = x->label, .weight = x->weight,
		.exec_id = (uint64_t)id[1], .site_id = (uint64_t)id[2],
		.stack_id = (uint64_t)id[3], .uid = x->uid, .pid = x->pid,
		.count = x->count, .data = x->data,
	};
	return rc;
}

static int put_samples(struct vstore *st, const struct vx_epoch *e,
		       sqlite3_int64 epoch)
{
	sqlite3_stmt *s = st->stmt[VS_SAMPLE_BLOCK];
	struct sb_row *rows;
	unsigned char *block;
	size_t len;
	int rc = SQLITE_OK;

	if (!e->nsamples)
		return SQLITE_OK;
	rows = calloc(e->nsamples, sizeof(*rows));
	if (!rows)
		abort();
	for (uint32_t i = 0; i < e->nsamples && !rc; i++)
		rc = sample_row(st, e, epoch, &e->samples[i], &rows[i]);
	if (!rc) {
		block = sblock_encode(rows, e->nsamples, &len);
		sqlite3_bind_int64(s, 1, epoch);
		sqlite3_bind_int64(s, 2, e->nsamples);
		sqlite3_bind_blob(s, 3, block, (int)len, free);
		rc = step(s);
	}
	free(rows);
	return rc;
}

static int put_epoch(struct vstore *st, const struct vx_epoch *e)
{
	sqlite3_stmt *s = st->stmt[VS_EPOCH];
	sqlite3_int64 id;
	int rc;

	sqlite3_bind_int64(s, 1, (sqlite3_int64)e->start_ns);
	sqlite3_bind_int64(s, 2, (sqlite3_int64)e->end_ns);
	sqlite3_bind_text(s, 3, e->host ? e->host : "", -1, SQLITE_STATIC);
	rc = step(s);
	id = sqlite3_last_insert_rowid(st->db);
	for (uint32_t i = 0; i < e->nvitals && !rc; i++)
		rc = put_vital(st, id, (int)i, &e->vitals[i]);
	if (!rc)
		rc = put_samples(st, e, id);
	return rc;
}

int vstore_put(struct vstore *st, const struct vx_epoch *e, char **err)
{
	if (vstore_exec(st, "BEGIN IMMEDIATE"))
		return vstore_fail(st, "cannot begin an epoch", err);
	if (put_epoch(st, e))
		return vstore_fail(st, "cannot write an epoch", err);
	if (vstore_exec(st, "COMMIT"))
		return vstore_fail(st, "cannot commit an epoch", err);
	return 0;
}

/* A pragma's one-row answer as text into buf ("" if none). */
static int pragma(struct vstore *st, const char *sql, char *buf, size_t n)
{
	sqlite3_stmt *s;
	int rc;

	buf[0] = 0;
	rc = sqlite3_prepare_v2(st->db, sql, -1, &s, NULL);
	if (rc)
		return rc;
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW && sqlite3_column_text(s, 0))
		snprintf(buf, n, "%s", sqlite3_column_text(s, 0));
	sqlite3_finalize(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* A new file: auto_vacuum is only set before the first table. */
static int create(struct vstore *st)
{
	if (vstore_exec(st, "PRAGMA auto_vacuum = INCREMENTAL"))
		return -1;
	if (vstore_exec(st, "BEGIN IMMEDIATE"))
		return -1;
	/* another writer may have created it while we looked */
	if (vschema_empty(st->db) && vschema_create(st->db))
		return -1;
	return vstore_exec(st, "COMMIT") ? -1 : 0;
}

static int settings(struct vstore *st, char **err)
{
	char mode[16], sql[64];

	if (pragma(st, "PRAGMA journal_mode = WAL", mode, sizeof(mode)))
		return vstore_fail(st, "cannot set WAL mode", err);
	if (strcmp(mode, "wal")) {
		if (asprintf(err, "%s: cannot set WAL mode (journal mode %s)",
			     st->path, mode) < 0)
			abort();
		return -1;
	}
	snprintf(sql, sizeof(sql), "PRAGMA journal_size_limit = %d",
		 WAL_LIMIT);
	if (vstore_exec(st, "PRAGMA synchronous = NORMAL") ||
	    vstore_exec(st, sql))
		return vstore_fail(st, "cannot set up", err);
	return 0;
}

static int prepare(struct vstore *st, char **err)
{
	for (int i = 0; i < VS_NSTMT; i++)
		if (sqlite3_prepare_v3(st->db, stmt_sql[i], -1,
				       SQLITE_PREPARE_PERSISTENT,
				       &st->stmt[i], NULL))
			return vstore_fail(st, "cannot prepare", err);
	return 0;
}

static int setup(struct vstore *st, char **err)
{
	char *why;

	sqlite3_busy_timeout(st->db, BUSY_MS);
	if (vschema_empty(st->db) && create(st))
		return vstore_fail(st, "cannot create the store", err);
	why = vschema_check(st->db);
	if (why) {
		*err = vschema_not_store(st->path, why);
		free(why);
		return -1;
	}
	if (settings(st, err))
		return -1;
	return prepare(st, err);
}

struct vstore *vstore_open(const char *path, char **err)
{
	struct vstore *st = calloc(1, sizeof(*st));
	int rc;

	if (!st || !(st->path = strdup(path)))
		abort();
	rc = sqlite3_open_v2(path, &st->db,
			     SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
	if (rc != SQLITE_OK) {
		if (asprintf(err, "%s: cannot open: %s", path,
			     sqlite3_errstr(rc)) < 0)
			abort();
		vstore_close(st);
		return NULL;
	}
	if (setup(st, err)) {
		vstore_close(st);
		return NULL;
	}
	return st;
}

void vstore_close(struct vstore *st)
{
	if (!st)
		return;
	for (int i = 0; i < VS_NSTMT; i++)
		sqlite3_finalize(st->stmt[i]);
	sqlite3_close(st->db);
	free(st->path);
	free(st);
}
