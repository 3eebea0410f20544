// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stp: the driver.  The pass order lives here and only here:
 *
 *   1 parse      script + tapset library -> ASTs         (parser/)
 *   2 elaborate  ASTs + target kernel -> resolved program
 *   3 translate  resolved program -> C, in two steps:
 *                  access analysis: each handler's lock set, facts about
 *                    statistics and foreach loops (access.c)
 *                  emission: the C file, from the program and those facts
 *                    (emit*.c)
 *   4 build      C -> .ko via kbuild
 *   5 run        stprun loads the module and prints its output
 *
 * Each pass runs only if the previous one produced no errors; -p N
 * stops after pass N.
 */
#include "session.h"
#include "../kmod/build.h"
#include "../kmod/emit.h"
#include "interactive.h"
#include "../bpf/bpf.h"
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
	double t0 = now_ms();
	int rc;

	/* stp reads the library's macros first, then the user's script */
	MARK_PASS(pass1a__start, s);
	MARK_PASS(pass1b__start, s);
	rc = pass1_parse(s);
	MARK_PASS(pass1__end, s);

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
	double t0 = now_ms();
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

static int valid_module_name(const char *n)
{
	if (!*n || strlen(n) > 55)
		return 0;
	for (const char *p = n; *p; p++)
		if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (p > n && *p >= '0' && *p <= '9')))
			return 0;
	return 1;
}

/* Pass 3 to a string; prints it with -p3. */
static int run_pass3(struct session *s, struct elab *e, struct sbuf *c)
{
	double t0 = now_ms();
	int rc;

	MARK_PASS(pass3__start, s);
	rc = pass3_translate(e, access_analyze(e), c);
	MARK_PASS(pass3__end, s);

	if (s->verbose)
		fprintf(stderr, "Pass 3: translated to C in %.1f ms.\n", now_ms() - t0);
	if (rc) {
		fprintf(stderr, "Pass 3: translation failed: %d error%s.\n", diag_errors(),
			diag_errors() == 1 ? "" : "s");
		return 1;
	}
	if (s->last_pass == 3)
		fwrite(c->s, 1, c->len, stdout);
	return 0;
}

static int run_passes_3_to_5(struct session *s, struct elab *e)
{
	const char *module, *key, *ko;
	struct sbuf c = { 0 };
	double t0;
	int rc;

	if (s->module_name && !valid_module_name(s->module_name)) {
		fprintf(stderr, "stp: '%s' is not a valid module name (letters, digits, '_', "
			"at most 55, not starting with a digit)\n", s->module_name);
		return 1;
	}
	if (s->remote && strcmp(s->remote, "qemu")) {
		fprintf(stderr, "stp: --remote=%s: only 'qemu' is known\n", s->remote);
		return 1;
	}
	module = s->module_name;
	key = build_cache_key(s, module ? module : "");
	if (!module)
		module = ar_printf("stp_%.12s", strrchr(key, '/') + 1);
	if (s->last_pass == 3)
		return run_pass3(s, e, &c);
	t0 = now_ms();
	if (build_cached(key, module)) {
		/* a cached module skips passes 3 and 4: their markers fire
		 * together, so that a script timing them sees both */
		MARK_PASS(pass3__start, s);
		MARK_PASS(pass3__end, s);
		MARK_PASS(pass4__start, s);
		STAP_PROBE2(stap, cache__get, ar_printf("%s/%s.ko", key, module),
			    ar_printf("%s/%s.c", key, module));
		MARK_PASS(pass4__end, s);
		if (s->verbose) {
			fprintf(stderr, "Pass 3: using cached %s/%s.c\n", key, module);
			fprintf(stderr, "Pass 4: using cached %s/%s.ko\n", key, module);
		}
	} else {
		if (run_pass3(s, e, &c))
			return 1;
		t0 = now_ms();
		MARK_PASS(pass4__start, s);
		rc = build_module(s, module, c.s, c.len, key);
		MARK_PASS(pass4__end, s);
		if (rc) {
			fprintf(stderr, "Pass 4: compilation failed.\n");
			return 1;
		}
		if (s->verbose)
			fprintf(stderr, "Pass 4: compiled C into \"%s.ko\" in %.0f ms.\n", module,
				now_ms() - t0);
	}
	free(c.s);
	if (s->last_pass == 4 || s->module_name) {
		ko = ar_printf("%s.ko", module);
		if (build_install(key, module, ko)) {
			fprintf(stderr, "stp: cannot write %s\n", ko);
			return 1;
		}
		if (s->last_pass == 4) {
			char cwd[PATH_MAX];

			if (getcwd(cwd, sizeof(cwd)))
				ko = ar_printf("%s/%s", cwd, ko);
			puts(ko);
			return 0;
		}
	} else {
		ko = ar_printf("%s/%s.ko", key, module);
	}
	MARK_PASS(pass5__start, s);
	rc = run_pass5(s, ko);
	MARK_PASS(pass5__end, s);
	return rc;
}

/* --runtime=bpf's passes 3 to 5 (translator/bpf/). */
static int run_bpf_passes(struct session *s, struct elab *e)
{
	const char *key = bpf_cache_key(s);
	struct sbuf kern = { 0 }, user = { 0 };
	double t0 = now_ms();

	if (s->last_pass == 3 || !bpf_cached(key)) {
		if (bpf_translate(e, &kern, &user)) {
			fprintf(stderr, "Pass 3: translation failed: %d error%s.\n", diag_errors(),
				diag_errors() == 1 ? "" : "s");
			return 1;
		}
		if (s->last_pass == 3) {
			fputs(kern.s, stdout);
			fputs(user.s, stdout);
			return 0;
		}
		if (s->verbose)
			fprintf(stderr, "Pass 3: translated to C in %.1f ms.\n", now_ms() - t0);
		t0 = now_ms();
		if (bpf_build(s, key, kern.s, user.s)) {
			fprintf(stderr, "Pass 4: compilation failed.\n");
			return 1;
		}
		if (s->verbose)
			fprintf(stderr, "Pass 4: compiled C into \"%s/prog.bpf.o\" in %.0f ms.\n",
				key, now_ms() - t0);
	} else if (s->verbose) {
		fprintf(stderr, "Pass 4: using cached %s/prog.bpf.o\n", key);
	}
	if (s->last_pass == 4) {
		puts(ar_printf("%s/prog.bpf.o", key));
		return 0;
	}
	return bpf_run(s, key);
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
	struct elab *e;

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
	if (wants_bpf(s))
		return run_bpf_passes(s, e);
	return run_passes_3_to_5(s, e);
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
