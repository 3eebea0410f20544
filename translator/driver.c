// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stp: the driver.  The pass order lives here and only here:
 *
 *   1 parse      script + tapset library -> ASTs         (parser/)
 *   2 elaborate  ASTs + target kernel -> resolved program
 *   3 translate  resolved program -> C
 *   4 build      C -> .ko via kbuild
 *   5 run        stprun loads the module and prints its output
 *
 * Each pass runs only if the previous one produced no errors; -p N
 * stops after pass N.
 */
#include "session.h"
#include "../parser/parse.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char *const pass_names[] = {
	NULL, "parse", "elaboration", "translation", "build", "run",
};

/* Passes in this build; later ones are still to come. */
#define PASSES_AVAILABLE 1

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* In the build tree, use its tapsets/; installed, TAPSET_DIR. */
static const char *find_tapset_root(void)
{
	char exe[PATH_MAX];
	ssize_t n;
	const char *env = getenv("STP_TAPSET_DIR");
	char *slash;

	if (env && *env)
		return env;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			const char *dir;

			*slash = '\0';
			dir = ar_printf("%s/tapsets", exe);
			if (is_dir(dir) && !access(ar_printf("%s/Makefile", exe), R_OK))
				return dir;
		}
	}
	return TAPSET_DIR;
}

static int needs_pass(int pass, const char *what)
{
	fprintf(stderr,
		"stp: %s needs pass %d (%s), which this build of stp does not have yet; "
		"stop earlier with -p%d\n",
		what, pass, pass_names[pass], PASSES_AVAILABLE);
	return 1;
}

static int run_pass1(struct session *s)
{
	double t0 = now_ms();
	int rc = pass1_parse(s);

	if (s->verbose)
		fprintf(stderr,
			"Pass 1: parsed user script and %d library scripts in %.1f ms.\n",
			s->macro_files, now_ms() - t0);
	if (rc) {
		int n = diag_errors();

		if (n)
			fprintf(stderr, "Pass 1: parse failed: %d error%s.\n",
				n, n == 1 ? "" : "s");
		return 1;
	}
	if (s->last_pass == 1) {
		struct sbuf out = { 0 };

		print_script(&out, s->user);
		if (out.len)
			fwrite(out.s, 1, out.len, stdout);
		free(out.s);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct session s = { 0 };
	int rc = opts_parse(&s, argc, argv);

	if (rc >= 0)
		return rc;
	diag_set_warnings(s.warn_mode);
	if (s.list_probe)
		return needs_pass(2, s.list_vars ? "-L" : "-l");
	target_init(&s);
	s.tapset_root = find_tapset_root();
	if (run_pass1(&s))
		return 1;
	if (s.last_pass > PASSES_AVAILABLE)
		return needs_pass(PASSES_AVAILABLE + 1,
				  s.last_pass == 5 ? "running a script" :
				  ar_printf("-p%d", s.last_pass));
	return 0;
}
