// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading the store (see read.h).  The texts samples name (programs,
 * sites, stacks, vital names) are read once per id and kept for the
 * reader's life, so a walk over days of samples costs an array index per
 * text, and a text's pointer is the same for every sample that names it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hca.h"
#include "read.h"
#include "sblock.h"
#include "schema.h"
#include "varint.h"

enum { T_VITAL, T_EXEC, T_SITE, T_STACK, NTEXT };

/* ORDER: the enum above. */
static const char *const text_sql[NTEXT] = {
	"SELECT name FROM vital WHERE id = ?1",
	"SELECT path FROM exec WHERE id = ?1",
	"SELECT name FROM site WHERE id = ?1",
	"SELECT frames FROM stack WHERE id = ?1",
};

enum { S_EPOCHS, S_EPOCH, S_VITALS, S_BLOCK, NSTMT };

/* ORDER: the enum above. */
static const char *const stmt_sql[NSTMT] = {
	"SELECT id, start_ns, end_ns, host FROM epoch"
	" WHERE end_ns > ?1 AND start_ns < ?2 ORDER BY start_ns, id",
	"SELECT id, start_ns, end_ns, host FROM epoch WHERE id = ?1",
	"SELECT vital_id, weight, events, uniq, samples, dropped, t,"
	" available, why, hca_len, hca FROM epoch_vital WHERE epoch_id = ?1"
	" ORDER BY seq",
	"SELECT n, block FROM sample_block WHERE epoch_id = ?1",
};

struct text_cache {
	char **text;		/* by id; NULL: not read yet */
	size_t n;
};

struct vread {
	sqlite3 *db;
	char *path;
	char *err;
	sqlite3_stmt *stmt[NSTMT], *text_stmt[NTEXT];
	struct text_cache cache[NTEXT];
	struct sb_buf buf;	/* a block's bytes and texts, reused */
	struct sb_row *rows;
	uint32_t rows_cap;
};

static int fail(struct vread *r, const char *what)
{
	free(r->err);
	if (asprintf(&r->err, "%s: %s: %s", r->path, what,
		     sqlite3_errmsg(r->db)) < 0)
		abort();
	return -1;
}

static int fail_bad(struct vread *r, const char *what, int64_t epoch)
{
	free(r->err);
	if (asprintf(&r->err, "%s: %s of epoch %lld is damaged", r->path,
		     what, (long long)epoch) < 0)
		abort();
	return -1;
}

const char *vread_error(const struct vread *r)
{
	return r->err ? r->err : "no error";
}

sqlite3 *vread_db(struct vread *r)
{
	return r->db;
}

struct vread *vread_open(const char *path, char **err)
{
	struct vread *r = calloc(1, sizeof(*r));

	if (!r || !(r->path = strdup(path)))
		abort();
	r->db = vschema_open_read(path, err);
	if (!r->db) {
		vread_close(r);
		return NULL;
	}
	for (int i = 0; i < NSTMT; i++)
		if (sqlite3_prepare_v2(r->db, stmt_sql[i], -1, &r->stmt[i],
				       NULL))
			goto bad;
	for (int i = 0; i < NTEXT; i++)
		if (sqlite3_prepare_v2(r->db, text_sql[i], -1,
				       &r->text_stmt[i], NULL))
			goto bad;
	return r;
bad:
	if (asprintf(err, "%s: cannot read: %s", path,
		     sqlite3_errmsg(r->db)) < 0)
		abort();
	vread_close(r);
	return NULL;
}

void vread_close(struct vread *r)
{
	if (!r)
		return;
	for (int i = 0; i < NSTMT; i++)
		sqlite3_finalize(r->stmt[i]);
	for (int i = 0; i < NTEXT; i++) {
		sqlite3_finalize(r->text_stmt[i]);
		for (size_t k = 0; k < r->cache[i].n; k++)
			free(r->cache[i].text[k]);
		free(r->cache[i].text);
	}
	sqlite3_close(r->db);
	sblock_buf_free(&r->buf);
	free(r->rows);
	free(r->path);
	free(r->err);
	free(r);
}

int vread_begin(struct vread *r)
{
	if (sqlite3_exec(r->db, "BEGIN", NULL, NULL, NULL))
		return fail(r, "cannot begin a read");
	/* a deferred transaction takes its snapshot at the first read */
	if (sqlite3_exec(r->db, "SELECT count(*) FROM meta", NULL, NULL, NULL))
		return fail(r, "cannot read");
	return 0;
}

int vread_end(struct vread *r)
{
	if (sqlite3_get_autocommit(r->db))
		return 0;
	if (sqlite3_exec(r->db, "COMMIT", NULL, NULL, NULL))
		return fail(r, "cannot end a read");
	return 0;
}

static const char *text_of(struct vread *r, int t, uint64_t id, int *bad);

/*
 * A stack's text from its blob of frame ids (varints, sites): the
 * frames' names, a newline between each two.  malloc'd, or NULL (*bad)
 * when a frame is lost or the blob cut short.
 */
static char *stack_text(struct vread *r, const unsigned char *p, size_t n,
			int *bad)
{
	const unsigned char *end = p + n;
	size_t len = 0, cap = 256;
	char *out = malloc(cap);
	const char *frame;
	uint64_t id;

	if (!out)
		abort();
	out[0] = 0;
	while (p < end && !*bad) {
		id = varint_get(&p, end, bad);
		frame = *bad ? NULL : text_of(r, T_SITE, id, bad);
		if (!frame) {
			*bad = 1;
			break;
		}
		n = strlen(frame);
		if (len + n + 2 > cap) {
			cap = (len + n + 2) * 2;
			out = realloc(out, cap);
			if (!out)
				abort();
		}
		if (len)
			out[len++] = '\n';
		memcpy(out + len, frame, n + 1);
		len += n;
	}
	if (!*bad)
		return out;
	free(out);
	return NULL;
}

/* Grow c to hold id. */
static void cache_room(struct text_cache *c, uint64_t id)
{
	size_t n;

	if (id < c->n)
		return;
	n = id < 64 ? 128 : id * 2;
	c->text = realloc(c->text, n * sizeof(*c->text));
	if (!c->text)
		abort();
	memset(c->text + c->n, 0, (n - c->n) * sizeof(*c->text));
	c->n = n;
}

/* The text of id in table t, read once; NULL for id 0 or a lost id. */
static const char *text_of(struct vread *r, int t, uint64_t id, int *bad)
{
	struct text_cache *c = &r->cache[t];
	sqlite3_stmt *s = r->text_stmt[t];
	char *text = NULL;
	int rc;

	if (!id)
		return NULL;
	if (id < c->n && c->text[id])
		return c->text[id];
	sqlite3_bind_int64(s, 1, (sqlite3_int64)id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW && t == T_STACK)
		text = stack_text(r, sqlite3_column_blob(s, 0),
				  (size_t)sqlite3_column_bytes(s, 0), bad);
	else if (rc == SQLITE_ROW && !(text = strdup(
			(const char *)sqlite3_column_text(s, 0))))
		abort();
	sqlite3_reset(s);
	if (!text) {
		*bad = 1;
		return NULL;
	}
	/* the stack's frames may have grown the caches: room only now */
	cache_room(c, id);
	c->text[id] = text;
	return text;
}

static void epoch_row(sqlite3_stmt *s, struct vr_epoch *e)
{
	e->id = sqlite3_column_int64(s, 0);
	e->start_ns = sqlite3_column_int64(s, 1);
	e->end_ns = sqlite3_column_int64(s, 2);
	e->host = (const char *)sqlite3_column_text(s, 3);
}

int vread_epochs(struct vread *r, int64_t from, int64_t to,
		 int (*fn)(void *arg, const struct vr_epoch *e), void *arg)
{
	sqlite3_stmt *s = r->stmt[S_EPOCHS];
	struct vr_epoch e;
	int rc, stop = 0;

	sqlite3_bind_int64(s, 1, from);
	sqlite3_bind_int64(s, 2, to);
	while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		epoch_row(s, &e);
		stop = fn(arg, &e);
	}
	sqlite3_reset(s);
	if (stop)
		return stop;
	return rc == SQLITE_DONE ? 0 : fail(r, "cannot read the epochs");
}

int vread_epoch(struct vread *r, int64_t id, struct vr_epoch *e,
		char **host)
{
	sqlite3_stmt *s = r->stmt[S_EPOCH];
	int rc;

	*host = NULL;
	sqlite3_bind_int64(s, 1, id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		epoch_row(s, e);
		*host = strdup(e->host ? e->host : "");
		if (!*host)
			abort();
		e->host = *host;
	}
	sqlite3_reset(s);
	if (rc == SQLITE_ROW)
		return 0;
	return rc == SQLITE_DONE ? 1 : fail(r, "cannot read an epoch");
}

/* The vital row at s into v (occ: room for its bitmap); 0 or -1. */
static int vital_row(struct vread *r, sqlite3_stmt *s, struct vr_vital *v,
		     uint64_t **occ, int64_t epoch)
{
	uint32_t n = (uint32_t)sqlite3_column_int64(s, 9);
	int bad = 0;

	memset(v, 0, sizeof(*v));
	v->v.vital = text_of(r, T_VITAL, (uint64_t)sqlite3_column_int64(s, 0),
			     &bad);
	v->v.weight = sqlite3_column_int64(s, 1);
	v->v.count = (uint64_t)sqlite3_column_int64(s, 2);
	v->v.unique = (uint64_t)sqlite3_column_int64(s, 3);
	v->v.samples = (uint64_t)sqlite3_column_int64(s, 4);
	v->v.dropped = (uint64_t)sqlite3_column_int64(s, 5);
	v->v.t = (uint64_t)sqlite3_column_int64(s, 6);
	v->v.available = sqlite3_column_int(s, 7);
	v->v.why = (const char *)sqlite3_column_text(s, 8);
	v->v.hca_len = n;
	if (bad)
		return fail_bad(r, "a vital's name", epoch);
	if (!n)
		return 0;
	*occ = realloc(*occ, (n + 63) / 64 * sizeof(**occ));
	if (!*occ)
		abort();
	if (vhca_decode(sqlite3_column_blob(s, 10),
			(size_t)sqlite3_column_bytes(s, 10), *occ, n))
		return fail_bad(r, "an HCA", epoch);
	v->occ = *occ;
	return 0;
}

int vread_vitals(struct vread *r, const struct vr_epoch *e,
		 int (*fn)(void *arg, const struct vr_epoch *e,
			   const struct vr_vital *v), void *arg)
{
	sqlite3_stmt *s = r->stmt[S_VITALS];
	struct vr_vital v;
	uint64_t *occ = NULL;
	int rc, stop = 0;

	sqlite3_bind_int64(s, 1, e->id);
	while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		stop = vital_row(r, s, &v, &occ, e->id);
		if (!stop)
			stop = fn(arg, e, &v);
	}
	sqlite3_reset(s);
	free(occ);
	if (stop)
		return stop;
	return rc == SQLITE_DONE ? 0 : fail(r, "cannot read the vitals");
}

/* Row i of a block as a sample: its texts looked up; 0 or -1. */
static int to_sample(struct vread *r, const struct vr_epoch *e,
		     const struct sb_row *x, struct vx_sample *s)
{
	int bad = 0;

	*s = (struct vx_sample){
		.vital = text_of(r, T_VITAL, x->vital_id, &bad),
		.time_ns = (uint64_t)(e->start_ns + x->at_us * 1000),
		.label = x->label, .weight = x->weight,
		.exec = text_of(r, T_EXEC, x->exec_id, &bad),
		.uid = x->uid, .pid = x->pid,
		.site = text_of(r, T_SITE, x->site_id, &bad),
		.data = x->data, .count = x->count,
		.stack = text_of(r, T_STACK, x->stack_id, &bad),
	};
	return bad ? fail_bad(r, "a sample's text", e->id) : 0;
}

static int each_sample(struct vread *r, const struct vr_epoch *e,
		       const void *blob, size_t len, uint32_t n,
		       int (*fn)(void *arg, const struct vr_epoch *e,
				 const struct vx_sample *s), void *arg)
{
	struct vx_sample s;
	int stop = 0;

	if (n > r->rows_cap) {
		free(r->rows);
		r->rows_cap = n * 2;
		r->rows = calloc(r->rows_cap, sizeof(*r->rows));
		if (!r->rows)
			abort();
	}
	if (sblock_decode(blob, len, r->rows, n, &r->buf))
		return fail_bad(r, "the samples", e->id);
	for (uint32_t i = 0; i < n && !stop; i++) {
		stop = to_sample(r, e, &r->rows[i], &s);
		if (!stop)
			stop = fn(arg, e, &s);
	}
	return stop;
}

int vread_samples(struct vread *r, const struct vr_epoch *e,
		  int (*fn)(void *arg, const struct vr_epoch *e,
			    const struct vx_sample *s), void *arg)
{
	sqlite3_stmt *s = r->stmt[S_BLOCK];
	int64_t n;
	int rc;

	sqlite3_bind_int64(s, 1, e->id);
	rc = sqlite3_step(s);
	if (rc != SQLITE_ROW) {
		sqlite3_reset(s);
		return rc == SQLITE_DONE ? 0 : fail(r, "cannot read samples");
	}
	n = sqlite3_column_int64(s, 0);
	if (n < 0 || n > (1 << 24))
		rc = fail_bad(r, "the samples", e->id);
	else
		rc = each_sample(r, e, sqlite3_column_blob(s, 1),
				 (size_t)sqlite3_column_bytes(s, 1),
				 (uint32_t)n, fn, arg);
	sqlite3_reset(s);
	return rc;
}
