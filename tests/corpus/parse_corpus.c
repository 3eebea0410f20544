// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Real-world corpus: parse every .stp and .stpm file under a tapset
 * tree (Debian's systemtap-common), print it, reparse the printed text
 * and print again; the two printings must be identical.
 *
 * Files are grouped by runtime the way SystemTap searches them: the
 * root's macro libraries plus those of linux/, dyninst/ or bpf/.
 *
 *   parse_corpus DIR [-v]     last line: "N passed, N failed"
 *   parse_corpus DIR -t       parse only (no printing): for timing
 */
#include "parse.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int verbose, time_only;

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every file below dir (recursively unless flat) with the suffix. */
static void find(const char *dir, const char *suffix, int flat,
		 const char *skip, struct vec *out)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char *path;
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		path = ar_printf("%s/%s", dir, e->d_name);
		if (stat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			if (!flat && !(skip && strstr(skip, e->d_name)))
				find(path, suffix, 0, skip, out);
		} else if (ends_with(path, suffix)) {
			vec_push(out, path);
		}
	}
	closedir(d);
}

static struct pp *macros_for(const char *root, const char *runtime,
			     struct pp_env *env)
{
	struct pp *pp = pp_new(env);
	struct vec files = { 0 };

	find(root, ".stpm", 1, NULL, &files);
	find(ar_printf("%s/%s", root, runtime), ".stpm", 0, NULL, &files);
	qsort(files.v, files.len, sizeof(void *), cmp_str);
	for (int i = 0; i < files.len; i++) {
		struct source *src = src_load(files.v[i]);

		if (!src)
			continue;
		src->is_macro_lib = 1;
		pp_source(pp, src);
	}
	free(files.v);
	return pp;
}

static char *print_of(struct script *s)
{
	struct sbuf sb = { 0 };

	print_script(&sb, s);
	return sb.s ? sb.s : calloc(1, 1);
}

/* 0 when the file parses and round-trips. */
static int check_file(struct pp *pp, struct pp_env *env, const char *path)
{
	struct parse_opts opts = { .guru = 1 };
	struct source *src = src_load(path), *again;
	int errs = diag_errors();
	char *first, *second;
	int rc;

	if (!src)
		return 1;
	if (ends_with(path, ".stpm")) {
		src->is_macro_lib = 1;
		pp = pp_new(env);	/* its macros are in pp already */
	}
	if (time_only) {
		parse_source(pp, src, &opts);
		return diag_errors() != errs;
	}
	first = print_of(parse_source(pp, src, &opts));
	if (diag_errors() != errs) {
		fprintf(stderr, "FAIL %s: parse errors\n", path);
		free(first);
		return 1;
	}
	again = src_new(ar_printf("%s (printed)", path), first, strlen(first));
	second = print_of(parse_source(pp_new(env), again, &opts));
	rc = diag_errors() != errs || strcmp(first, second);
	if (rc)
		fprintf(stderr, "FAIL %s: printed form does not round-trip\n",
			path);
	else if (verbose)
		printf("ok %s\n", path);
	free(second);
	return rc;
}

int main(int argc, char **argv)
{
	static const char *const runtimes[] = { "linux", "dyninst", "bpf" };
	struct pp_env env = {
		.kernel_v = "6.1.0", .kernel_vr = "6.1.0-0-amd64",
		.arch = "x86_64", .systemtap_v = "4.8",
		.privilege = "stapdev", .guru = 1,
	};
	int passed = 0, failed = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: parse_corpus DIR [-v]\n");
		return 2;
	}
	verbose = argc > 2 && !strcmp(argv[2], "-v");
	time_only = argc > 2 && !strcmp(argv[2], "-t");
	diag_set_limit(1000000);
	for (int r = 0; r < 3; r++) {
		struct vec files = { 0 };
		struct pp *pp;

		env.runtime = r ? runtimes[r] : "kernel";
		pp = macros_for(argv[1], runtimes[r], &env);
		if (r == 0)
			find(argv[1], ".stp", 0, "dyninst bpf", &files);
		else
			find(ar_printf("%s/%s", argv[1], runtimes[r]), ".stp",
			     0, NULL, &files);
		find(argv[1], ".stpm", r != 0, r ? NULL : "dyninst bpf", &files);
		if (r)
			find(ar_printf("%s/%s", argv[1], runtimes[r]), ".stpm",
			     0, NULL, &files);
		qsort(files.v, files.len, sizeof(void *), cmp_str);
		for (int i = 0; i < files.len; i++) {
			if (r && !strstr(files.v[i], runtimes[r]))
				continue;	/* root .stpm: counted once */
			if (check_file(pp, &env, files.v[i]))
				failed++;
			else
				passed++;
		}
		free(files.v);
	}
	printf("systemtap-common corpus: %d of %d files parse and round-trip\n",
	       passed, passed + failed);
	printf("%d passed, %d failed\n", passed, failed);
	return 0;
}
