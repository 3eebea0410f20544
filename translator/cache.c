// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Where elaboration keeps what it derives from the target's files (the
 * System.map's functions, the DWARF index): STP_CACHE, else
 * ~/.cache/stp.  Without either there is no cache, and the work is
 * done every run.
 */
#include "elab.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
