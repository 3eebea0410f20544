/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A whole file read into memory, and the edit distance that "did you mean" uses (base.h). */
#include "base.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Regular files are read in one go at their size; /proc files and
 * pipes, whose size says nothing, in growing chunks. */
char *util_read_file(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct sbuf sb = { 0 };
	struct stat st;
	ssize_t n;

	if (fd < 0)
		return NULL;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0) {
		sb.cap = (size_t)st.st_size + 1;
		sb.s = xmalloc(sb.cap);
	}
	for (;;) {
		if (sb.cap - sb.len < 2) {
			sb.cap = sb.cap ? sb.cap * 2 : 65536;
			sb.s = xrealloc(sb.s, sb.cap);
		}
		n = read(fd, sb.s + sb.len, sb.cap - sb.len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		sb.len += (size_t)n;
	}
	if (n < 0) {
		int e = errno;

		close(fd);
		free(sb.s);
		errno = e;
		return NULL;
	}
	close(fd);
	if (!sb.s)
		sb.s = xmalloc(1);
	sb.s[sb.len] = '\0';
	*len = sb.len;
	return sb.s;
}

int util_edit_distance(const char *a, const char *b)
{
	int la = (int)strlen(a), lb = (int)strlen(b), prev[128], cur[128];

	if (la > 120 || lb > 120)
		return 99;
	for (int j = 0; j <= lb; j++)
		prev[j] = j;
	for (int i = 1; i <= la; i++) {
		cur[0] = i;
		for (int j = 1; j <= lb; j++) {
			int sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
			int del = prev[j] + 1, ins = cur[j - 1] + 1;

			cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
		}
		memcpy(prev, cur, (size_t)(lb + 1) * sizeof(int));
	}
	return prev[lb];
}
