// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stp-vitals dump DB [--from T] [--to T]: the store as JSON lines.  Each
 * epoch that overlaps [from, to) gives one "vital" line per vital sign,
 * in the order they were put, then one "sample" line per sample, all of
 * its samples whatever their times.  The whole dump is read in one
 * transaction, so a writer's commit during it is either all in or out.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "json.h"
#include "schema.h"
#include "when.h"

static const char epochs_sql[] =
	"SELECT id, start_ns, end_ns FROM epoch"
	" WHERE end_ns > ?1 AND start_ns < ?2 ORDER BY start_ns, id";
static const char vitals_sql[] =
	"SELECT v.name, ev.weight, ev.events, ev.uniq, ev.samples,"
	" ev.dropped, ev.t, ev.available, ev.why FROM epoch_vital ev"
	" JOIN vital v ON v.id = ev.vital_id WHERE ev.epoch_id = ?1"
	" ORDER BY ev.seq";
static const char samples_sql[] =
	"SELECT v.name, s.at_us, x.path, s.uid, s.pid, i.name, s.data,"
	" s.weight, s.label, k.frames FROM sample s"
	" JOIN vital v ON v.id = s.vital_id"
	" LEFT JOIN exec x ON x.id = s.exec_id"
	" LEFT JOIN site i ON i.id = s.site_id"
	" LEFT JOIN stack k ON k.id = s.stack_id"
	" WHERE s.epoch_id = ?1 ORDER BY s.seq";

struct dump {
	sqlite3 *db;
	sqlite3_stmt *epochs, *vitals, *samples;
	int64_t from, to;
};

static const char *text(sqlite3_stmt *s, int col)
{
	return (const char *)sqlite3_column_text(s, col);
}

static unsigned long long u64(sqlite3_stmt *s, int col)
{
	return (unsigned long long)sqlite3_column_int64(s, col);
}

static void put_time(const char *key, int64_t ns)
{
	char buf[WHEN_LEN];

	printf(",\"%s\":\"%s\"", key, when_format(ns, buf));
}

/* {"kind":"vital", ...} for the row of vitals_sql at s. */
static void put_vital(sqlite3_stmt *s, int64_t start, int64_t end)
{
	int available = sqlite3_column_int(s, 7);

	fputs("{\"kind\":\"vital\"", stdout);
	put_time("epoch_start", start);
	put_time("epoch_end", end);
	fputs(",\"vital\":", stdout);
	json_str(stdout, text(s, 0));
	printf(",\"weight\":%lld,\"events\":%llu,\"unique\":%llu,"
	       "\"samples\":%llu,\"dropped\":%llu,\"t\":%llu,\"available\":%s",
	       (long long)sqlite3_column_int64(s, 1), u64(s, 2), u64(s, 3),
	       u64(s, 4), u64(s, 5), u64(s, 6), available ? "true" : "false");
	if (!available) {
		fputs(",\"why\":", stdout);
		json_str(stdout, text(s, 8) ? text(s, 8) : "");
	}
	fputs("}\n", stdout);
}

/* {"kind":"sample", ...} for the row of samples_sql at s. */
static void put_sample(sqlite3_stmt *s, int64_t start)
{
	fputs("{\"kind\":\"sample\"", stdout);
	put_time("epoch_start", start);
	put_time("time", start + sqlite3_column_int64(s, 1) * 1000);
	fputs(",\"vital\":", stdout);
	json_str(stdout, text(s, 0));
	fputs(",\"exec\":", stdout);
	json_str(stdout, text(s, 2));
	printf(",\"uid\":%llu,\"pid\":%llu,\"site\":", u64(s, 3), u64(s, 4));
	json_str(stdout, text(s, 5));
	fputs(",\"data\":", stdout);
	json_str(stdout, text(s, 6));
	printf(",\"weight\":%lld,\"label\":%llu,\"stack\":",
	       (long long)sqlite3_column_int64(s, 7), u64(s, 8));
	json_lines(stdout, text(s, 9));
	fputs("}\n", stdout);
}

/* Step s (epoch id bound) through its rows; SQLite's result code. */
static int each_row(sqlite3_stmt *s, sqlite3_int64 id, int is_vital,
		    int64_t start, int64_t end)
{
	int rc;

	sqlite3_bind_int64(s, 1, id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (is_vital)
			put_vital(s, start, end);
		else
			put_sample(s, start);
	}
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static int dump_epochs(struct dump *d)
{
	sqlite3_stmt *e = d->epochs;
	sqlite3_int64 id;
	int64_t start, end;
	int rc;

	sqlite3_bind_int64(e, 1, d->from);
	sqlite3_bind_int64(e, 2, d->to);
	while ((rc = sqlite3_step(e)) == SQLITE_ROW) {
		id = sqlite3_column_int64(e, 0);
		start = sqlite3_column_int64(e, 1);
		end = sqlite3_column_int64(e, 2);
		rc = each_row(d->vitals, id, 1, start, end);
		if (!rc)
			rc = each_row(d->samples, id, 0, start, end);
		if (rc)
			return rc;
	}
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static int dump_store(struct dump *d)
{
	int rc;

	rc = sqlite3_prepare_v2(d->db, epochs_sql, -1, &d->epochs, NULL);
	if (!rc)
		rc = sqlite3_prepare_v2(d->db, vitals_sql, -1, &d->vitals, NULL);
	if (!rc)
		rc = sqlite3_prepare_v2(d->db, samples_sql, -1, &d->samples,
					NULL);
	if (!rc)
		rc = sqlite3_exec(d->db, "BEGIN", NULL, NULL, NULL);
	if (!rc)
		rc = dump_epochs(d);
	if (!rc)
		rc = sqlite3_exec(d->db, "COMMIT", NULL, NULL, NULL);
	sqlite3_finalize(d->epochs);
	sqlite3_finalize(d->vitals);
	sqlite3_finalize(d->samples);
	return rc;
}

/* The arguments into d; the DB path, or NULL after a usage error (*rc). */
static const char *dump_args(const struct vcmd *c, int argc, char **argv,
			     struct dump *d, int *rc)
{
	const char *db = NULL, *v;

	*rc = 0;
	for (int i = 1; i < argc && !*rc; i++) {
		if ((v = vcmd_value(argc, argv, &i, "--from")))
			*rc = vcmd_time(c, "--from", v, &d->from);
		else if ((v = vcmd_value(argc, argv, &i, "--to")))
			*rc = vcmd_time(c, "--to", v, &d->to);
		else if (!strcmp(argv[i], "--from") || !strcmp(argv[i], "--to"))
			*rc = vcmd_usage(c, "%s needs a time", argv[i]);
		else if (argv[i][0] == '-' && argv[i][1])
			*rc = vcmd_usage(c, "unknown option '%s'", argv[i]);
		else if (db)
			*rc = vcmd_usage(c, "one store, not '%s' too", argv[i]);
		else
			db = argv[i];
	}
	if (!*rc && !db)
		*rc = vcmd_usage(c, "no store given");
	return *rc ? NULL : db;
}

int vcmd_dump(const struct vcmd *c, int argc, char **argv)
{
	struct dump d = { .from = INT64_MIN, .to = INT64_MAX };
	const char *path;
	char *err;
	int rc;

	path = dump_args(c, argc, argv, &d, &rc);
	if (!path)
		return rc;
	d.db = vschema_open_read(path, &err);
	if (!d.db) {
		rc = vcmd_fail("%s", err);
		free(err);
		return rc;
	}
	rc = dump_store(&d);
	if (rc)
		rc = vcmd_fail("%s: %s", path, sqlite3_errmsg(d.db));
	sqlite3_close(d.db);
	if (fflush(stdout) || ferror(stdout))
		rc = vcmd_fail("cannot write the dump");
	return rc;
}
