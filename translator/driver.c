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
#define PASSES_AVAILABLE 2

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
	if (s->last_pass == 1 && !s->list_probe) {
		struct sbuf out = { 0 };

		print_script(&out, s->user);
		if (out.len)
			fwrite(out.s, 1, out.len, stdout);
		free(out.s);
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* -l / -L: elaborate "probe PATTERN? {}" and list what it matched, at
 * the level the pattern named (alias names stay alias names). */
static int list_probes(struct session *s, struct elab *e)
{
	struct vec names = { 0 };

	for (int i = 0; i < elab_probe_count(e); i++) {
		const char *line = elab_list_line(e, i, s->list_vars);

		vec_push(&names, (void *)line);
	}
	if (names.len)
		qsort(names.v, names.len, sizeof(void *), cmp_str);
	for (int i = 0; i < names.len; i++)
		if (!i || strcmp(names.v[i], names.v[i - 1]))
			puts(names.v[i]);
	return 0;
}

static int run_pass2(struct session *s, struct elab **out)
{
	double t0 = now_ms();
	struct elab *e = pass2_elaborate(s);

	if (s->verbose)
		fprintf(stderr, "Pass 2: analyzed script: %d probe%s, %d function%s, "
			"%d global%s in %.1f ms.\n",
			e ? elab_probe_count(e) : 0, e && elab_probe_count(e) == 1 ? "" : "s",
			e ? elab_function_count(e) : 0, e && elab_function_count(e) == 1 ? "" : "s",
			e ? elab_global_count(e) : 0, e && elab_global_count(e) == 1 ? "" : "s",
			now_ms() - t0);
	if (!e) {
		int n = diag_errors();

		fprintf(stderr, "Pass 2: analysis failed: %d error%s.\n", n,
			n == 1 ? "" : "s");
		return 1;
	}
	*out = e;
	return 0;
}

int main(int argc, char **argv)
{
	struct session s = { 0 };
	int rc = opts_parse(&s, argc, argv);

	if (rc >= 0)
		return rc;
	diag_set_warnings(s.warn_mode);
	if (s.list_probe) {
		s.script_text = ar_printf("probe %s ? {}", s.list_probe);
		s.last_pass = 2;
		diag_set_warnings(0);
	}
	target_init(&s);
	s.tapset_root = find_tapset_root();
	if (run_pass1(&s))
		return 1;
	if (s.last_pass >= 2) {
		struct elab *e;

		if (run_pass2(&s, &e))
			return 1;
		if (s.list_probe)
			return list_probes(&s, e);
		if (s.last_pass == 2) {
			pass2_print(e);
			return diag_errors() ? 1 : 0;
		}
	}
	if (s.last_pass > PASSES_AVAILABLE)
		return needs_pass(PASSES_AVAILABLE + 1,
				  s.last_pass == 5 ? "running a script" :
				  ar_printf("-p%d", s.last_pass));
	return 0;
}
