// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Passes 4 and 5 of the BPF backend.  Pass 4 compiles the kernel side
 * with clang -target bpf -O2 -g (the -g gives the verifier line info,
 * which the #line directives tie to the script) and links the user side
 * with the runner (build/libstpbpf.a); both land in the cache directory
 * the key names, so a second run of the same script skips pass 3 and 4.
 * Pass 5 runs the linked runner on the object.
 */
#include "bpf.h"
#include "../symbols/cache_key.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int exists(const char *p)
{
	struct stat st;

	return !stat(p, &st);
}

/* A library the user side links with: build/NAME in the build tree,
 * PREFIX/lib/stp/NAME once installed (root is PREFIX/share/stp). */
static const char *bpf_lib(const char *root, const char *name)
{
	const char *p = ar_printf("%s/build/%s", root, name);

	return exists(p) ? p : ar_printf("%s/../../lib/stp/%s", root, name);
}

/* The cache key: the kmod key's inputs, plus the BPF support headers
 * and the runner the user side links with (stp is not relinked when
 * only they change). */
const char *bpf_cache_key(struct session *s)
{
	const char *root = build_runtime_parent(s);
	const char *files[] = { ar_printf("%s/runtime/bpf/kern.h", root),
				ar_printf("%s/runtime/bpf/user.h", root),
				ar_printf("%s/runtime/bpf/shared.h", root),
				ar_printf("%s/runtime/bpf/kfunc.h", root),
				ar_printf("%s/runtime/bpf/stack.h", root),
				ar_printf("%s/runtime/bpf/sketch.h", root),
				ar_printf("%s/runtime/bpf/vitals.h", root),
				ar_printf("%s/runtime/bpf/tapset.h", root),
				ar_printf("%s/runtime/bpf/ksprintf.h", root),
				ar_printf("%s/runtime/bpf/sc_args.h", root),
				ar_printf("%s/runtime/bpf/names.h", root),
				bpf_lib(root, "libstpbpf.a") };
	size_t h = 0;

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		size_t n = 0;
		char *text = util_read_file(files[i], &n);

		if (text)
			h = h * 31 + util_hash(text, n);
		free(text);
	}
	return build_cache_key(s, ar_printf("bpf:%zx", h));
}

int bpf_cached(const char *key)
{
	return exists(ar_printf("%s/prog.bpf.o", key)) && exists(ar_printf("%s/run", key));
}

/* argv, its output to log; 0 when it exits 0. */
static int spawn(struct vec *av, const char *log)
{
	pid_t pid;
	int st;

	vec_push(av, NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		if (log && !freopen(log, "w", stderr))
			_exit(127);
		if (log)
			dup2(2, 1);
		execvp(av->v[0], (char **)av->v);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0)
		return -1;
	return WIFEXITED(st) && !WEXITSTATUS(st) ? 0 : -1;
}

static void defines(const struct session *s, struct vec *av)
{
	for (int i = 0; i < s->defines.len; i++)
		vec_push(av, ar_printf("-D%s", (const char *)s->defines.v[i]));
}

static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	int rc;

	if (!f)
		return -1;
	rc = fputs(text, f) < 0;
	return fclose(f) || rc ? -1 : 0;
}

static int show_log(const char *what, const char *log)
{
	size_t n;
	char *text = util_read_file(log, &n);

	char *cut = text;

	/* the first 20 lines: a compiler crash adds a stack dump */
	for (int i = 0; cut && i < 20; i++)
		cut = strchr(cut + 1, '\n');
	if (cut)
		cut[1] = '\0';
	fprintf(stderr, "Pass 4: %s failed (all of it in %s):\n%s", what, log,
		text ? text : "");
	free(text);
	return -1;
}

static int compile_kern(const struct session *s, const char *key, const char *root)
{
	struct vec av = { 0 };
	const char *args[] = { "clang", "-target", "bpf", "-O2", "-g", "-Wno-unused-value",
			       "-Wno-unused-label", "-D__TARGET_ARCH_x86",
			       /* a kmod runtime function BPF lacks: here, not at load */
			       "-Werror=implicit-function-declaration",
			       "-I/usr/include/x86_64-linux-gnu" };

	for (size_t i = 0; i < sizeof(args) / sizeof(args[0]); i++)
		vec_push(&av, (void *)args[i]);
	vec_push(&av, ar_printf("-I%s/runtime/bpf", root));
	defines(s, &av);
	vec_push(&av, "-c");
	vec_push(&av, ar_printf("%s/prog.bpf.c", key));
	vec_push(&av, "-o");
	vec_push(&av, ar_printf("%s/prog.bpf.o", key));
	if (spawn(&av, ar_printf("%s/clang.log", key)))
		return show_log("clang -target bpf", ar_printf("%s/clang.log", key));
	return 0;
}

static int link_user(const struct session *s, const char *key, const char *root)
{
	struct vec av = { 0 };
	const char *args[] = { "cc", "-O1", "-g", "-std=gnu11", "-w" };

	for (size_t i = 0; i < sizeof(args) / sizeof(args[0]); i++)
		vec_push(&av, (void *)args[i]);
	vec_push(&av, ar_printf("-I%s/runtime/bpf", root));
	defines(s, &av);
	vec_push(&av, "-o");
	vec_push(&av, ar_printf("%s/run", key));
	vec_push(&av, ar_printf("%s/user.c", key));
	vec_push(&av, "-Wl,--start-group");
	vec_push(&av, (void *)bpf_lib(root, "libstpbpf.a"));
	vec_push(&av, (void *)bpf_lib(root, "libstprt-host.a"));
	/* the vital-signs store, for scripts that use chopstix.stp */
	vec_push(&av, (void *)bpf_lib(root, "libvstore.a"));
	vec_push(&av, "-Wl,--end-group");
	/* for another machine (--sysroot, --remote: a guest without this
	 * one's libraries), a static program */
	if (s->sysroot || s->remote)
		vec_push(&av, "-static");
	vec_push(&av, "-lbpf");
	vec_push(&av, "-lelf");
	vec_push(&av, "-lsqlite3");
	vec_push(&av, "-lm");
	vec_push(&av, "-lz");
	if (s->sysroot || s->remote)
		vec_push(&av, "-lzstd");
	if (spawn(&av, ar_printf("%s/cc.log", key)))
		return show_log("cc (the user side)", ar_printf("%s/cc.log", key));
	return 0;
}

int bpf_build(struct session *s, const char *key, const char *kern, const char *user)
{
	const char *root = build_runtime_parent(s);

	cache_make_dirs(key);
	mkdir(key, 0755);
	if (write_file(ar_printf("%s/prog.bpf.c", key), kern) ||
	    write_file(ar_printf("%s/user.c", key), user)) {
		fprintf(stderr, "stp: cannot write %s\n", key);
		return -1;
	}
	if (compile_kern(s, key, root) || link_user(s, key, root))
		return -1;
	return 0;
}

int bpf_run(struct session *s, const char *key)
{
	const char *run = ar_printf("%s/run", key);

	fflush(stdout);
	if (s->verbose)
		setenv("STP_BPF_VERBOSE", "1", 1);
	if (s->globals.len) {	/* -G: the runner checks and sets them */
		struct sbuf g = { 0 };

		/* a line each; a value's own newlines and backslashes escaped */
		for (int i = 0; i < s->globals.len; i++) {
			if (i)
				sb_putc(&g, '\n');
			for (const char *c = s->globals.v[i]; *c; c++) {
				if (*c == '\n' || *c == '\\')
					sb_puts(&g, *c == '\n' ? "\\n" : "\\\\");
				else
					sb_putc(&g, *c);
			}
		}
		setenv("STP_BPF_GLOBALS", g.s, 1);
	}
	if (s->vitals_db)
		setenv("STP_VITALS_DB", s->vitals_db, 1);
	if (s->vitals_limit)	/* checked by the runner, as stprun checks it */
		setenv("STP_VITALS_LIMIT", s->vitals_limit, 1);
	if (s->command)
		execl(run, run, ar_printf("%s/prog.bpf.o", key), "-c", s->command, (char *)NULL);
	else if (s->target_pid)
		execl(run, run, ar_printf("%s/prog.bpf.o", key), "-x",
		      ar_printf("%ld", s->target_pid), (char *)NULL);
	else
		execl(run, run, ar_printf("%s/prog.bpf.o", key), (char *)NULL);
	perror(run);
	return 1;
}
