// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stp's temporary directories and files: under $TMPDIR, /tmp when it
 * is unset or empty, as SystemTap's.  A TMPDIR that cannot hold them is
 * said once, by name, where the first one is made; one holding white
 * space is refused where the path goes to the kernel's build (make
 * splits its arguments there, and the module would be built elsewhere).
 */
#include "base.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *tmp_root(void)
{
	const char *t = getenv("TMPDIR");

	return t && *t ? t : "/tmp";
}

static int tmp_usable(const char *root, int for_make)
{
	if (for_make && strpbrk(root, " \t\n")) {
		fprintf(stderr, "stp: TMPDIR '%s' holds white space, which the kernel's build "
			"(make) cannot take in a path; set TMPDIR to a directory without it\n", root);
		return 0;
	}
	return 1;
}

static void tmp_refused(const char *root, const char *what)
{
	fprintf(stderr, "stp: cannot make %s in TMPDIR '%s': %s\n", what, root, strerror(errno));
}

const char *tmp_dir(const char *name, int for_make)
{
	const char *root = tmp_root();
	char *path;

	if (!tmp_usable(root, for_make))
		return NULL;
	path = ar_printf("%s/%sXXXXXX", root, name);
	if (!mkdtemp(path)) {
		tmp_refused(root, "a temporary directory");
		return NULL;
	}
	return path;
}

int tmp_file(const char *name, const char *suffix, const char **path)
{
	const char *root = tmp_root();
	char *p = ar_printf("%s/%sXXXXXX%s", root, name, suffix);
	int fd = mkstemps(p, (int)strlen(suffix));

	if (fd < 0)
		tmp_refused(root, "a temporary file");
	*path = p;
	return fd;
}
