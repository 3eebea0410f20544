// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stp: the driver.  The pass order lives here and only here:
 *
 *   1 parse      script + tapset library -> ASTs         (parser/)
 *   2 elaborate  ASTs + target kernel -> resolved program (../elab/)
 *   then a backend (backend.h), by --runtime:
 *                kmod (../kmod/)                  bpf (../bpf/)
 *   3 translate  the module's C: access          the kernel side's
 *                analysis (each handler's lock   restricted C and the
 *                set, statistics' and foreach's  user side's C (gen*.c)
 *                facts, access.c), then
 *                emission (emit*.c)
 *   4 build      .ko via kbuild, cached          .bpf.o via clang, cached
 *   5 run        stprun loads the module and     the runner loads it with
 *                prints its output (or a guest   libbpf, attaches, prints
 *                with --remote=qemu)             the ring buffer's output
 *
 * Each pass runs only if the previous one produced no errors; -p N
 * stops after pass N.
 */
#include "session.h"
#include "backend.h"
#include "interactive.h"
#include "../../parser/parse.h"
#include "markers.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>


double driver_now_ms(void)
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

/* In the build tree, use its tapsets/; installed, BINDIR/../share/stp/tapset
 * (so a tree installed with any PREFIX works), else TAPSET_DIR. */
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
			/* installed under another PREFIX than it was built for */
			dir = ar_printf("%s/../share/stp/tapset", exe);
			if (is_dir(dir))
				return dir;
		}
	}
	return TAPSET_DIR;
}

static int run_pass1(struct session *s)
{
	double t0 = driver_now_ms();
	int rc;

	/* stp reads the library's macros first, then the user's script */
	MARK_PASS(pass1a__start, s);
	MARK_PASS(pass1b__start, s);
	rc = pass1_parse(s);
	MARK_PASS(pass1__end, s);

	if (s->verbose)
		fprintf(stderr,
			"Pass 1: parsed user script and %d library scripts in %.1f ms.\n",
			s->macro_files, driver_now_ms() - t0);
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

	if (!elab_probe_count(e)) {
		fprintf(stderr, "stp: no probe point matches '%s'\n", s->list_probe);
		return 1;
	}
	for (int i = 0; i < elab_probe_count(e); i++) {
		const char *line = elab_list_line(e, i, s->list_vars);

		if (line)
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
	double t0 = driver_now_ms();
	struct elab *e;

	MARK_PASS(pass2__start, s);
	e = pass2_elaborate(s);
	MARK_PASS(pass2__end, s);

	if (s->verbose)
		fprintf(stderr, "Pass 2: analyzed script: %d probe%s, %d function%s, "
			"%d global%s in %.1f ms.\n",
			e ? elab_probe_count(e) : 0, e && elab_probe_count(e) == 1 ? "" : "s",
			e ? elab_function_count(e) : 0, e && elab_function_count(e) == 1 ? "" : "s",
			e ? elab_global_count(e) : 0, e && elab_global_count(e) == 1 ? "" : "s",
			driver_now_ms() - t0);
	if (!e) {
		int n = diag_errors();

		fprintf(stderr, "Pass 2: analysis failed: %d error%s.\n", n,
			n == 1 ? "" : "s");
		return 1;
	}
	*out = e;
	return 0;
}

/* Why the running kernel loads no modules, or NULL when it does. */
static const char *no_modules(void)
{
	char buf[256] = "";
	FILE *f;

	if (access("/proc/modules", F_OK))
		return "it has no module support";
	f = fopen("/sys/kernel/security/lockdown", "r");
	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = 0;
		fclose(f);
	}
	if (strstr(buf, "[integrity]") || strstr(buf, "[confidentiality]"))
		return "it is locked down";
	return NULL;
}

/* kmod unless asked; bpf when running on this kernel, which loads no
 * modules (said once: the choice is kept in s->runtime). */
static int wants_bpf(struct session *s)
{
	struct utsname u;
	const char *why;

	if (s->runtime)
		return !strcmp(s->runtime, "bpf");
	s->runtime = "kmod";
	if (s->last_pass != 5 || s->remote || s->sysroot || uname(&u) ||
	    (s->kernel_release && strcmp(s->kernel_release, u.release)))
		return 0;
	why = no_modules();
	if (why) {
		fprintf(stderr, "stp: using --runtime=bpf: this kernel loads no modules (%s)\n", why);
		s->runtime = "bpf";
	}
	return why != NULL;
}

/* Passes 2 to 5 of a script pass 1 has parsed: the batch mode's, and
 * stp -i's run (interactive_script.c), in a child of its own. */
int driver_after_pass1(struct session *s)
{
	const struct backend *be = wants_bpf(s) ? &bpf_backend : &kmod_backend;
	struct elab *e;

	s->types_by_btf = be->types_by_btf;
	if (s->timeout_ms && !s->list_probe && pass1_timeout_probe(s))
		return 1;
	if (run_pass2(s, &e))
		return 1;
	if (s->list_probe)
		return list_probes(s, e);
	if (s->last_pass == 2) {
		pass2_print(e);
		return diag_errors() ? 1 : 0;
	}
	return be->passes(s, e);
}

/* Passes 1 to 5 (or the listing a session asks for instead). */
static int run_passes(struct session *s)
{
	/* before pass 1: %( runtime == "bpf" %) picks a tapset's flavour */
	s->env.runtime = wants_bpf(s) ? "bpf" : "kernel";
	if (run_pass1(s))
		return 1;
	if (s->last_pass == 1)
		return 0;
	if (s->dump_names)
		return dump_names(s, s->dump_names == 2);
	return driver_after_pass1(s);
}

int main(int argc, char **argv)
{
	struct session s = { 0 };
	int rc = opts_parse(&s, argc, argv);

	if (rc >= 0)
		return rc;
	MARK_PASS(pass0__start, &s);
	diag_set_warnings(s.warn_mode);
	s.tapset_root = find_tapset_root();
	if (s.interactive)
		return interactive_main(&s);
	if (s.dump_names) {
		s.script_text = "probe never {}";
		diag_set_warnings(0);
	} else if (s.list_probe) {
		s.script_text = ar_printf("probe %s ? {}", s.list_probe);
		s.last_pass = 2;
		diag_set_warnings(0);
	}
	target_init(&s);
	MARK_PASS(pass0__end, &s);
	rc = run_passes(&s);
	/* SystemTap's pass 6 is its cleanup: stp has none left to do */
	MARK_PASS(pass6__start, &s);
	MARK_PASS(pass6__end, &s);
	return rc;
}
