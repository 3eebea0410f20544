/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What stp-vitals serve's files share (serve*.c): the request path's
 * checks and the web directory's files (serve_web.c), and the cache of
 * API answers (serve_cache.c).
 */
#ifndef STP_VITALS_SERVE_INT_H
#define STP_VITALS_SERVE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"

#define VSERVE_PORT 8463
#define VSERVE_MAX_URL 4096

/*
 * The path part of a raw URI, percent-decoded, into *path (malloc'd).
 * 0, or 400 with *why: a bad escape, a NUL, a backslash, a "." or ".."
 * segment, or no leading '/'.
 */
int vweb_path(const char *raw, size_t n, char **path, const char **why);
/*
 * The web directory: dir if given, else build/web beside the running
 * program or WEB_DIR once installed.  Its real path (malloc'd), or NULL
 * when it does not exist (*tried: the directory looked for).
 */
char *vweb_dir(const char *dir, const char **tried);

struct vweb_file {
	int fd;
	uint64_t size;
	const char *type;
};

/*
 * Open path (checked by vweb_path) under the real directory root: "/"
 * and ".../" mean their index.html.  200 with f filled, 404 when there is
 * no such regular file inside root (symbolic links may not lead out).
 */
int vweb_open(const char *root, const char *path, struct vweb_file *f);

/*
 * API answers kept whole while the store does not change (SQLite's
 * data_version), up to a number and a size of answers.
 */
struct vcache;

struct vcache *vcache_new(void);
void vcache_free(struct vcache *c);
/* The answer to key when kept and the store is unchanged; else NULL. */
const struct vbuf *vcache_get(struct vcache *c, struct vread *r,
			      const char *key, int *status,
			      const char **type);
/* Keep an answer (status 200 only); out stays the caller's. */
void vcache_put(struct vcache *c, const char *key, int status,
		const char *type, const struct vbuf *out);
/* Drop every answer if the store changed since; 1 if it did. */
int vcache_sync(struct vcache *c, struct vread *r);
/*
 * Answer path?query into the cache under key unless it is there; its
 * body stays in the cache (NULL if it could not be answered).
 */
const struct vbuf *vcache_fill(struct vcache *c, struct vread *r,
			       const char *key, const char *path,
			       const char *query);

/*
 * The page's first view answered in advance (serve_warm.c): /api/meta,
 * and the epoch series and flags over the whole store as web/main.js's
 * start() asks for them, so that a page opened (or reloaded) after a
 * new epoch finds them cached.  *last: the newest epoch's end when last
 * warmed (0 at first); nothing is done while it is the same.
 */
void vwarm_first_view(struct vcache *c, struct vread *r, int64_t *last);

#endif
