// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The cache of API answers for stp-vitals serve (serve_int.h).  The
 * page asks the same questions again (each reload, each pane after a
 * zoom back); the answers change only when a writer commits, which
 * SQLite's data_version tells on the reader's own connection without
 * touching a table.  So answers are kept whole, all dropped at once when
 * data_version moves, and the oldest dropped first beyond the limits.
 */
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "serve_int.h"

#define CACHE_N 64
#define CACHE_BYTES (64u << 20)

struct entry {
	char *key;
	int status;
	const char *type;	/* a static string */
	struct vbuf body;
};

struct vcache {
	struct entry e[CACHE_N];
	int next;		/* the slot to fill (the oldest) */
	size_t bytes;
	int64_t version;	/* data_version when filled; -1: none */
};

struct vcache *vcache_new(void)
{
	struct vcache *c = calloc(1, sizeof(*c));

	if (c)
		c->version = -1;
	return c;
}

static void drop(struct vcache *c, struct entry *e)
{
	c->bytes -= e->body.len;
	free(e->key);
	free(e->body.p);
	memset(e, 0, sizeof(*e));
}

static void clear(struct vcache *c)
{
	for (int i = 0; i < CACHE_N; i++)
		if (c->e[i].key)
			drop(c, &c->e[i]);
	c->next = 0;
}

void vcache_free(struct vcache *c)
{
	if (!c)
		return;
	clear(c);
	free(c);
}

static int64_t data_version(struct vread *r)
{
	sqlite3_stmt *st;
	int64_t v = -1;

	if (sqlite3_prepare_v2(vread_db(r), "PRAGMA data_version", -1, &st,
			       NULL))
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

int vcache_sync(struct vcache *c, struct vread *r)
{
	int64_t v = data_version(r);

	if (v >= 0 && v == c->version)
		return 0;
	clear(c);
	c->version = v;
	return 1;
}

static struct entry *find(struct vcache *c, const char *key)
{
	for (int i = 0; i < CACHE_N; i++)
		if (c->e[i].key && !strcmp(c->e[i].key, key))
			return &c->e[i];
	return NULL;
}

const struct vbuf *vcache_get(struct vcache *c, struct vread *r,
			      const char *key, int *status,
			      const char **type)
{
	struct entry *e;

	if (vcache_sync(c, r) || !(e = find(c, key)))
		return NULL;
	*status = e->status;
	*type = e->type;
	return &e->body;
}

const struct vbuf *vcache_fill(struct vcache *c, struct vread *r,
			       const char *key, const char *path,
			       const char *query)
{
	struct vbuf out = { 0 };
	const char *type;
	struct entry *e = find(c, key);
	int status;

	if (e)
		return &e->body;
	status = vapi_get(r, path, query, &out, &type);
	vcache_put(c, key, status, type, &out);
	free(out.p);
	e = find(c, key);
	return e ? &e->body : NULL;
}

void vcache_put(struct vcache *c, const char *key, int status,
		const char *type, const struct vbuf *out)
{
	struct entry *e;

	if (status != 200 || c->version < 0 || out->len > CACHE_BYTES / 4)
		return;
	if (c->e[c->next].key)
		drop(c, &c->e[c->next]);
	/* the oldest come after next, round the ring */
	for (int i = 1; i < CACHE_N && c->bytes + out->len > CACHE_BYTES; i++)
		if (c->e[(c->next + i) % CACHE_N].key)
			drop(c, &c->e[(c->next + i) % CACHE_N]);
	e = &c->e[c->next];
	e->key = strdup(key);
	e->body.p = malloc(out->len + 1);
	if (!e->key || !e->body.p) {
		free(e->key);
		free(e->body.p);
		memset(e, 0, sizeof(*e));
		return;
	}
	memcpy(e->body.p, out->p, out->len);
	e->body.len = e->body.cap = out->len;
	e->status = status;
	e->type = type;
	c->bytes += out->len;
	c->next = (c->next + 1) % CACHE_N;
}
