// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Where elaboration keeps what it derives from the target's files (the
 * System.map's functions, the DWARF index), and how its files are
 * written and read: STP_CACHE, else
 * ~/.cache/stp.  Without either there is no cache, and the work is
 * done every run.
 */
#include "../elab/elab.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

const char *cache_dir(void)
{
	const char *dir = getenv("STP_CACHE"), *home;

	if (dir && *dir)
		return dir;
	home = getenv("HOME");
	return home && *home ? ar_printf("%s/.cache/stp", home) : NULL;
}

/* mkdir -p of the directories above path */
void cache_make_dirs(const char *path)
{
	char *p = ar_strdup(path);

	for (char *q = strchr(p + 1, '/'); q; q = strchr(q + 1, '/')) {
		*q = '\0';
		mkdir(p, 0755);
		*q = '/';
	}
}

/* A cache file, mapped read-only (only the pages read are loaded);
 * NULL when there is none. */
char *cache_map(const char *path, size_t *size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	void *p;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || st.st_size <= 0) {
		close(fd);
		return NULL;
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return NULL;
	*size = (size_t)st.st_size;
	return p;
}

/* parts[0..n) one after the other into path, whole or not at all: a
 * file beside it, renamed over it (runs at once each write their own).
 * 0 when it could not be written. */
int cache_save(const char *path, const struct iovec *parts, int n)
{
	char *tmp = ar_printf("%s.%d", path, (int)getpid());
	int fd, ok = 1;

	cache_make_dirs(path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return 0;
	for (int i = 0; i < n && ok; i++) {
		const char *p = parts[i].iov_base;
		size_t left = parts[i].iov_len;

		while (left && ok) {
			ssize_t w = write(fd, p, left);

			ok = w > 0;
			if (ok) {
				p += w;
				left -= (size_t)w;
			}
		}
	}
	if (!((close(fd) == 0) & ok) || rename(tmp, path)) {
		unlink(tmp);
		return 0;
	}
	return 1;
}
