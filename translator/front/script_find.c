// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The user's script file.  A name with no '/' that is not a file here
 * ("stp vitals.stp" from any directory) is looked up in stp's script
 * directories: the build tree's examples/ when stp runs from its build
 * tree, then the installed SCRIPT_DIR ($(PREFIX)/share/stp/scripts,
 * where "make install" puts the examples).  A path, or a name that is
 * here, is read as it is, so a script of one's own always wins.
 */
#include "session.h"
#include "../../parser/parse.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef SCRIPT_DIR
#define SCRIPT_DIR "/usr/local/share/stp/scripts"
#endif

/* The build tree's examples/ when this stp is the tree's, else NULL. */
static const char *tree_examples(void)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	if (access(ar_printf("%s/Makefile", exe), R_OK) ||
	    access(ar_printf("%s/tapsets", exe), X_OK))
		return NULL;
	return ar_printf("%s/examples", exe);
}

/* The directories searched, in order, NULL-ended. */
static void script_dirs(const char *dirs[3])
{
	int n = 0;
	const char *tree = tree_examples();

	if (tree)
		dirs[n++] = tree;
	dirs[n++] = SCRIPT_DIR;
	dirs[n] = NULL;
}

static int exists(const char *path)
{
	struct stat st;

	return !stat(path, &st) || errno != ENOENT;
}

/* The path to read name from, or NULL after the message. */
static const char *script_path(const struct session *s, const char *name)
{
	const char *dirs[3], *p;
	struct sbuf where = { 0 };

	if (strchr(name, '/') || exists(name))
		return name;
	script_dirs(dirs);
	for (int i = 0; dirs[i]; i++) {
		p = ar_printf("%s/%s", dirs[i], name);
		if (exists(p)) {
			if (s->verbose)
				fprintf(stderr, "stp: %s: found in %s\n", name, dirs[i]);
			return p;
		}
		sb_printf(&where, ", %s", dirs[i]);
	}
	fprintf(stderr, "stp: cannot read script '%s': %s (looked in .%s)\n",
		name, strerror(ENOENT), where.s);
	free(where.s);
	return NULL;
}

struct source *script_load(struct session *s)
{
	const char *path = script_path(s, s->script_file);
	struct source *src;

	if (!path)
		return NULL;
	s->script_file = path;	/* diagnostics and the cache key name it */
	src = src_load(path);
	if (!src)
		fprintf(stderr, "stp: cannot read script '%s': %s\n",
			path, strerror(errno));
	return src;
}
