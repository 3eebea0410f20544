// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The store's tables.  Long text (exec paths, sites, stacks) is kept once
 * in its own table and found again by a 64-bit hash (a stack as the ids of
 * its frames, which are sites), so a path that
 * thousands of samples share costs its bytes once and an index entry of
 * a few bytes, not a copy of the text in a UNIQUE index.  Each text
 * remembers the newest epoch that named it (last_epoch), so trimming can
 * drop the texts of deleted epochs without reading any sample.  An
 * epoch's samples are one compressed block (sblock.h) and each vital's
 * HCA a bitmap (hca.h): a row per sample cost 72 bytes of a busy epoch's
 * 440 samples, a block about a fifth of that.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "schema.h"

/* ORDER: doc/vitals.md's "The vital-signs store" describes these tables. */
static const char schema_sql[] =
	"CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)"
	" WITHOUT ROWID;"
	"CREATE TABLE epoch(id INTEGER PRIMARY KEY, start_ns INTEGER NOT NULL,"
	" end_ns INTEGER NOT NULL, host TEXT NOT NULL);"
	"CREATE INDEX epoch_start ON epoch(start_ns);"
	"CREATE INDEX epoch_end ON epoch(end_ns);"
	"CREATE TABLE vital(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);"
	"CREATE TABLE epoch_vital(epoch_id INTEGER NOT NULL,"
	" vital_id INTEGER NOT NULL, seq INTEGER NOT NULL,"
	" weight INTEGER NOT NULL, events INTEGER NOT NULL,"
	" uniq INTEGER NOT NULL, samples INTEGER NOT NULL,"
	" dropped INTEGER NOT NULL, t INTEGER NOT NULL,"
	" available INTEGER NOT NULL, why TEXT,"
	" hca_len INTEGER NOT NULL, hca BLOB,"
	" PRIMARY KEY(epoch_id, seq));"
	"CREATE TABLE exec(id INTEGER PRIMARY KEY, hash INTEGER NOT NULL,"
	" path TEXT NOT NULL, last_epoch INTEGER NOT NULL);"
	"CREATE INDEX exec_hash ON exec(hash);"
	"CREATE TABLE site(id INTEGER PRIMARY KEY, hash INTEGER NOT NULL,"
	" name TEXT NOT NULL, last_epoch INTEGER NOT NULL);"
	"CREATE INDEX site_hash ON site(hash);"
	"CREATE TABLE stack(id INTEGER PRIMARY KEY, hash INTEGER NOT NULL,"
	" frames BLOB NOT NULL, last_epoch INTEGER NOT NULL);"
	"CREATE INDEX stack_hash ON stack(hash);"
	"CREATE TABLE sample_block(epoch_id INTEGER PRIMARY KEY,"
	" n INTEGER NOT NULL, block BLOB NOT NULL);"
	"CREATE VIEW vitals AS SELECT ev.epoch_id, e.start_ns, e.end_ns,"
	" e.host, v.name AS vital, ev.seq, ev.weight, ev.events, ev.uniq,"
	" ev.samples, ev.dropped, ev.t, ev.available, ev.why"
	" FROM epoch_vital ev JOIN epoch e ON e.id = ev.epoch_id"
	" JOIN vital v ON v.id = ev.vital_id;";

int vschema_create(sqlite3 *db)
{
	char ver[96];
	int rc;

	rc = sqlite3_exec(db, schema_sql, NULL, NULL, NULL);
	if (rc != SQLITE_OK)
		return rc;
	snprintf(ver, sizeof(ver),
		 "INSERT INTO meta VALUES('schema_version', '%d');",
		 VSTORE_SCHEMA_VERSION);
	return sqlite3_exec(db, ver, NULL, NULL, NULL);
}

int vschema_empty(sqlite3 *db)
{
	sqlite3_stmt *s;
	int n = -1;

	if (sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_schema",
			       -1, &s, NULL) != SQLITE_OK)
		return 0;
	if (sqlite3_step(s) == SQLITE_ROW)
		n = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	return n == 0;
}

static char *version_mismatch(const char *have)
{
	char *why;

	if (asprintf(&why, "schema version %s; this stp-vitals reads %d",
		     have, VSTORE_SCHEMA_VERSION) < 0)
		abort();
	return why;
}

char *vschema_check(sqlite3 *db)
{
	sqlite3_stmt *s;
	char *why = NULL;
	int rc;

	rc = sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE"
				" key = 'schema_version'", -1, &s, NULL);
	if (rc != SQLITE_OK) {
		if (rc == SQLITE_NOTADB)
			return strdup("file is not a database");
		if (strstr(sqlite3_errmsg(db), "no such table"))
			return strdup("no meta table");
		return strdup(sqlite3_errmsg(db));
	}
	rc = sqlite3_step(s);
	if (rc != SQLITE_ROW)
		why = strdup(rc == SQLITE_DONE ? "no schema_version in meta"
			     : sqlite3_errmsg(db));
	else if (sqlite3_column_int(s, 0) != VSTORE_SCHEMA_VERSION)
		why = version_mismatch((const char *)sqlite3_column_text(s, 0));
	sqlite3_finalize(s);
	return why;
}

char *vschema_not_store(const char *path, const char *why)
{
	char *msg;

	if (asprintf(&msg, "%s: not a vital-signs store (%s)", path, why) < 0)
		abort();
	return msg;
}

/* What SQLite would not say plainly: no file, a directory, no bytes. */
static const char *file_problem(const char *path)
{
	struct stat sb;

	if (stat(path, &sb))
		return strerror(errno);
	if (S_ISDIR(sb.st_mode))
		return "a directory";
	if (sb.st_size == 0)
		return "an empty file";
	return NULL;
}

sqlite3 *vschema_open_read(const char *path, char **err)
{
	sqlite3 *db = NULL;
	const char *bad;
	char *why;
	int rc;

	bad = file_problem(path);
	if (bad) {
		*err = vschema_not_store(path, bad);
		return NULL;
	}
	rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL);
	if (rc != SQLITE_OK) {
		*err = vschema_not_store(path, rc == SQLITE_CANTOPEN ?
					 "cannot open it" : sqlite3_errstr(rc));
		sqlite3_close(db);
		return NULL;
	}
	sqlite3_busy_timeout(db, 5000);
	why = vschema_check(db);
	if (why) {
		*err = vschema_not_store(path, why);
		free(why);
		sqlite3_close(db);
		return NULL;
	}
	return db;
}
