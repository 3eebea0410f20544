// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kmod backend (../front/backend.h): pass 3 (access analysis, then
 * emission), pass 4 (kbuild, with the module cache) and pass 5 (stprun,
 * here or in a guest) of a resolved program.  A cached module skips
 * passes 3 and 4.
 */
#include "../front/backend.h"
#include "../front/markers.h"
#include "../front/session.h"
#include "build.h"
#include "emit.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
	double t0 = driver_now_ms();
	int rc;

	MARK_PASS(pass3__start, s);
	rc = pass3_translate(e, access_analyze(e), c);
	MARK_PASS(pass3__end, s);

	if (s->verbose)
		fprintf(stderr, "Pass 3: translated to C in %.1f ms.\n", driver_now_ms() - t0);
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
	t0 = driver_now_ms();
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
		t0 = driver_now_ms();
		MARK_PASS(pass4__start, s);
		rc = build_module(s, module, c.s, c.len, key);
		MARK_PASS(pass4__end, s);
		if (rc) {
			fprintf(stderr, "Pass 4: compilation failed.\n");
			return 1;
		}
		if (s->verbose)
			fprintf(stderr, "Pass 4: compiled C into \"%s.ko\" in %.0f ms.\n", module,
				driver_now_ms() - t0);
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

const struct backend kmod_backend = { .name = "kmod", .passes = run_passes_3_to_5 };
