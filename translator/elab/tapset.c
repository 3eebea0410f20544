// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The tapset search path, as SystemTap lays it out: for each root (the
 * installed tapset directory, then each -I DIR), the root itself, its
 * ARCH/ subdirectory, and linux/ and linux/ARCH/ for the kernel
 * runtime.  Macro libraries (.stpm) are listed apart: they are read
 * first, since every other file may use their macros.
 */
#include "../front/session.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

static void scan_dir(const char *dir, struct vec *stpm, struct vec *stp)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct vec names = { 0 };

	if (!d)
		return;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' &&
		    (ends_with(e->d_name, ".stp") || ends_with(e->d_name, ".stpm")))
			vec_push(&names, ar_printf("%s/%s", dir, e->d_name));
	closedir(d);
	if (names.len)
		qsort(names.v, names.len, sizeof(void *), cmp_str);
	for (int i = 0; i < names.len; i++)
		vec_push(ends_with(names.v[i], ".stpm") ? stpm : stp, names.v[i]);
	free(names.v);
}

static void scan_root(const struct session *s, const char *root,
		      struct vec *stpm, struct vec *stp)
{
	scan_dir(root, stpm, stp);
	scan_dir(ar_printf("%s/%s", root, s->arch), stpm, stp);
	scan_dir(ar_printf("%s/linux", root), stpm, stp);
	scan_dir(ar_printf("%s/linux/%s", root, s->arch), stpm, stp);
}

void tapset_files(const struct session *s, struct vec *stpm, struct vec *stp)
{
	if (s->tapset_root)
		scan_root(s, s->tapset_root, stpm, stp);
	for (int i = 0; i < s->include_dirs.len; i++)
		scan_root(s, s->include_dirs.v[i], stpm, stp);
}
