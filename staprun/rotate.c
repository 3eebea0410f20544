// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Output rotation as SystemTap's -S does it: the files are FILE.N with
 * N counting up from 0 and never reused; when there are more than COUNT,
 * the oldest (FILE.(N-COUNT)) is deleted as FILE.N is opened.  The
 * stream is a stdio FILE (fopencookie), so the code that writes output
 * does not know whether it rotates.
 */
#include "rotate.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct rotate {
	char *path;
	long size, count;	/* bytes a file; files kept, 0: all */
	long n;			/* the current file is path.n */
	long used;		/* bytes in it */
	int fd;
};

static int parse_num(const char *s, char **end, long max, long *v)
{
	errno = 0;
	if (*s < '0' || *s > '9')
		return -1;
	*v = strtol(s, end, 10);
	return errno || *v < 1 || *v > max ? -1 : 0;
}

int rotate_parse(const char *arg, long *size_mb, long *count)
{
	char *end;

	*count = 0;
	if (parse_num(arg, &end, ROTATE_MAX_MB, size_mb))
		return -1;
	if (*end == ',' && parse_num(end + 1, &end, 1000000, count))
		return -1;
	return *end ? -1 : 0;
}

static int rotate_file(struct rotate *r, long n)
{
	char name[4096];
	int fd;

	snprintf(name, sizeof(name), "%s.%ld", r->path, n);
	fd = open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	if (r->fd >= 0)
		close(r->fd);
	r->fd = fd;
	r->n = n;
	r->used = 0;
	if (r->count && n >= r->count) {
		snprintf(name, sizeof(name), "%s.%ld", r->path, n - r->count);
		unlink(name);
	}
	return 0;
}

static int write_all(int fd, const char *p, size_t n)
{
	ssize_t w;

	while (n) {
		w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		p += w;
		n -= w;
	}
	return 0;
}

/* How much of p[0..n) goes into the current file before the next one. */
static size_t fits(const struct rotate *r, const char *p, size_t n)
{
	size_t room = r->size - r->used;
	const char *nl;

	if (n <= room)
		return n;
	nl = memrchr(p, '\n', room);
	if (nl)
		return nl + 1 - p;
	return r->used ? 0 : room;	/* a line longer than a file is cut */
}

static ssize_t rotate_write(void *cookie, const char *p, size_t n)
{
	struct rotate *r = cookie;
	size_t done = 0, k;

	while (done < n) {
		k = fits(r, p + done, n - done);
		if (!k) {
			if (rotate_file(r, r->n + 1))
				return done ? (ssize_t)done : -1;
			continue;
		}
		if (write_all(r->fd, p + done, k))
			return done ? (ssize_t)done : -1;
		r->used += k;
		done += k;
	}
	return n;
}

/* The stream rotate_open gave last, for rotate_next (switch_file()). */
static struct rotate *last;
static FILE *last_stream;

static int rotate_close(void *cookie)
{
	struct rotate *r = cookie;
	int rc = r->fd >= 0 ? close(r->fd) : 0;

	if (r == last)
		last = NULL, last_stream = NULL;

	free(r->path);
	free(r);
	return rc;
}

FILE *rotate_open(const char *path, long size, long count)
{
	cookie_io_functions_t io = { .write = rotate_write, .close = rotate_close };
	struct rotate *r = calloc(1, sizeof(*r));
	FILE *f;

	if (!r || !(r->path = strdup(path))) {
		free(r);
		errno = ENOMEM;
		return NULL;
	}
	r->size = size;
	r->count = count;
	r->fd = -1;
	if (rotate_file(r, 0) || !(f = fopencookie(r, "w", io))) {
		rotate_close(r);
		return NULL;
	}
	last = r;
	last_stream = f;
	return f;
}

int rotate_next(FILE *f)
{
	if (!last || f != last_stream) {
		errno = EINVAL;
		return -1;
	}
	if (fflush(f))
		return -1;
	return rotate_file(last, last->n + 1);
}
