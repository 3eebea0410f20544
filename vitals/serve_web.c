// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The page's files for stp-vitals serve.  A request's path is decoded
 * and refused outright when it could climb out of the web directory
 * ("..", ".", "\", NUL, a bad escape); the file it names is then
 * resolved (symbolic links followed) and served only when the result
 * still lies inside the directory and is a regular file.  Nothing else
 * on the disk is ever opened.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "serve_int.h"

#ifndef WEB_DIR
#define WEB_DIR "/usr/local/share/stp/web"
#endif

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Decode n bytes of s into d; -1 on a bad escape, -2 on a NUL. */
static int unescape(const char *s, size_t n, char *d)
{
	int hi, lo;

	for (size_t i = 0; i < n; i++) {
		if (s[i] != '%') {
			*d++ = s[i];
			continue;
		}
		if (i + 2 >= n || (hi = hexval(s[i + 1])) < 0 ||
		    (lo = hexval(s[i + 2])) < 0)
			return -1;
		if (!(hi | lo))
			return -2;
		*d++ = (char)(hi * 16 + lo);
		i += 2;
	}
	*d = 0;
	return 0;
}

/* Whether a segment of path is "." or "..". */
static int has_dot_segment(const char *p)
{
	for (const char *s = p; *s; s++)
		if (s[0] == '/' && s[1] == '.' &&
		    (!s[2] || s[2] == '/' ||
		     (s[2] == '.' && (!s[3] || s[3] == '/'))))
			return 1;
	return 0;
}

int vweb_path(const char *raw, size_t n, char **path, const char **why)
{
	char *d = malloc(n + 1);
	int bad = d ? unescape(raw, n, d) : 0;

	*path = NULL;
	*why = NULL;
	if (!d)
		*why = "out of memory";
	else if (bad == -2)
		*why = "a NUL (%00) in the path";
	else if (bad)
		*why = "a bad escape in the path";
	else if (d[0] != '/')
		*why = "the path does not start with '/'";
	else if (strchr(d, '\\'))
		*why = "a backslash in the path";
	else if (has_dot_segment(d))
		*why = "a '.' or '..' segment in the path";
	if (*why) {
		free(d);
		return 400;
	}
	*path = d;
	return 0;
}

char *vweb_dir(const char *dir, const char **tried)
{
	static char beside[PATH_MAX];
	char exe[PATH_MAX];
	ssize_t n;
	char *slash;

	if (!dir) {
		dir = WEB_DIR;
		n = readlink("/proc/self/exe", exe, sizeof(exe) - 5);
		if (n > 0) {
			exe[n] = 0;
			slash = strrchr(exe, '/');
			strcpy(slash + 1, "web");
			if (!access(exe, F_OK))
				dir = strcpy(beside, exe);
		}
	}
	*tried = dir;
	return realpath(dir, NULL);
}

static const char *type_of(const char *path)
{
	static const struct {
		const char *ext, *type;
	} types[] = {
		{ ".html", "text/html; charset=utf-8" },
		{ ".js", "text/javascript; charset=utf-8" },
		{ ".mjs", "text/javascript; charset=utf-8" },
		{ ".css", "text/css; charset=utf-8" },
		{ ".json", "application/json" },
		{ ".map", "application/json" },
		{ ".svg", "image/svg+xml" },
		{ ".png", "image/png" },
		{ ".ico", "image/x-icon" },
		{ ".txt", "text/plain; charset=utf-8" },
		{ ".woff2", "font/woff2" },
	};
	const char *dot = strrchr(path, '.');

	for (size_t i = 0; dot && i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(dot, types[i].ext))
			return types[i].type;
	return "application/octet-stream";
}

/* root + path (+ index.html), resolved; NULL unless inside root. */
static char *resolve(const char *root, const char *path)
{
	size_t rn = strlen(root), pn = strlen(path);
	char *full = malloc(rn + pn + sizeof("index.html"));
	char *real;

	if (!full)
		return NULL;
	memcpy(full, root, rn);
	memcpy(full + rn, path, pn + 1);
	if (path[pn - 1] == '/')
		strcat(full, "index.html");
	real = realpath(full, NULL);
	free(full);
	if (real && (strncmp(real, root, rn) || real[rn] != '/')) {
		free(real);
		real = NULL;
	}
	return real;
}

int vweb_open(const char *root, const char *path, struct vweb_file *f)
{
	char *real = resolve(root, path);
	struct stat st;

	f->fd = -1;
	if (!real)
		return 404;
	f->fd = open(real, O_RDONLY | O_CLOEXEC);
	f->type = type_of(real);
	free(real);
	if (f->fd < 0)
		return 404;
	if (fstat(f->fd, &st) || !S_ISREG(st.st_mode)) {
		close(f->fd);
		f->fd = -1;
		return 404;
	}
	f->size = (uint64_t)st.st_size;
	return 200;
}
