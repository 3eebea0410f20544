/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What store.c and trim.c share: the open store and its statements. */
#ifndef STP_VITALS_STORE_INT_H
#define STP_VITALS_STORE_INT_H

#include <sqlite3.h>

#include "store.h"

/* ORDER: store.c's stmt_sql[] gives each one's SQL. */
enum vstore_stmt {
	VS_EPOCH,		/* a new epoch row */
	VS_EPOCH_VITAL,		/* one vital sign's figures in an epoch */
	VS_SAMPLE_BLOCK,	/* the epoch's samples */
	VS_VITAL_GET,		/* the interned texts: get by hash and text, */
	VS_VITAL_ADD,		/* add, */
	VS_VITAL_TOUCH,		/* or mark as named by this epoch */
	VS_EXEC_GET,
	VS_EXEC_ADD,
	VS_EXEC_TOUCH,
	VS_SITE_GET,
	VS_SITE_ADD,
	VS_SITE_TOUCH,
	VS_STACK_GET,
	VS_STACK_ADD,
	VS_STACK_TOUCH,
	VS_NSTMT
};

struct vstore {
	sqlite3 *db;
	char *path;
	sqlite3_stmt *stmt[VS_NSTMT];
};

/* Run SQL without results; SQLite's result code. */
int vstore_exec(struct vstore *st, const char *sql);
/*
 * *err = "PATH: what: SQLite's message", roll back any open transaction,
 * and return -1.
 */
int vstore_fail(struct vstore *st, const char *what, char **err);

#endif
