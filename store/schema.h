/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The vital-signs store's schema (schema.c): created by the writer
 * (store.c), checked by every reader (stp-vitals' subcommands).  The
 * tables are documented in doc/vitals.md ("The vital-signs store").
 */
#ifndef STP_VITALS_SCHEMA_H
#define STP_VITALS_SCHEMA_H

#include <sqlite3.h>

#define VSTORE_SCHEMA_VERSION 2

/* Create the tables in an empty database; SQLITE_OK or an error code. */
int vschema_create(sqlite3 *db);
/*
 * Whether db is a store this code reads: NULL, or why not (static text
 * or, for a version mismatch, a malloc'd string the caller frees).
 */
char *vschema_check(sqlite3 *db);
/* Whether db holds no table at all (a new file). */
int vschema_empty(sqlite3 *db);
/*
 * Open a store read-only for stp-vitals: NULL with *err (malloc'd,
 * "PATH: not a vital-signs store (reason)") on failure.
 */
sqlite3 *vschema_open_read(const char *path, char **err);
/* The message of a failed open: "PATH: not a vital-signs store (why)". */
char *vschema_not_store(const char *path, const char *why);

#endif
