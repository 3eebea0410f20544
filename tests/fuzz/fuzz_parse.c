// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer targets for the front end.
 *
 * fuzz_parse (default): the input is a user script (-g, arguments
 * "5" "hello").  It must not crash, hang or trip a sanitizer; and when
 * it parses without errors, its printing must parse without errors and
 * print the same again (stp -p1 round trip).  A broken round trip is
 * reported on stderr and ends in __builtin_trap().
 *
 * fuzz_pp (-DFUZZ_PP): lexer and preprocessor only.  Without errors the
 * output must hold no conditional markers or @define, and end with
 * exactly one EOF token.
 *
 * Diagnostics are thrown away (stderr points at a null stream) unless
 * FUZZ_VERBOSE is set in the environment; libFuzzer and the sanitizers
 * keep the real stderr.  Each input starts with no errors counted and
 * may report up to FUZZ_MAX_ERRORS (default 100; stp stops at 20), see
 * fuzz_diag.c.  Memory is reclaimed after every input, see fuzz_alloc.c.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "parse.h"
#include "fuzz_alloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

static char *script_argv[] = { "5", "hello", NULL };

static const struct pp_env env = {
	.kernel_v = "6.1.0",
	.kernel_vr = "6.1.0-0-amd64",
	.arch = "x86_64",
	.runtime = "kernel",
	.systemtap_v = "4.8",
	.privilege = "stapdev",
	.guru = 1,
	.argc = 2,
	.argv = script_argv,
};

static const struct parse_opts opts = { .guru = 1 };

static FILE *real_stderr;
static int max_errors = 100;

static ssize_t null_write(void *cookie, const char *buf, size_t size)
{
	(void)cookie;
	(void)buf;
	return (ssize_t)size;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static char buf[1 << 16];

	(void)argc;
	(void)argv;
	real_stderr = stderr;
	if (!getenv("FUZZ_VERBOSE")) {
		cookie_io_functions_t io = { .write = null_write };
		FILE *null = fopencookie(NULL, "w", io);

		/* A static buffer: stdio must not malloc one lazily while
		 * an input runs (it would be reclaimed after it). */
		if (null && !setvbuf(null, buf, _IOFBF, sizeof(buf)))
			stderr = null;
	}
	if (getenv("FUZZ_MAX_ERRORS"))
		max_errors = atoi(getenv("FUZZ_MAX_ERRORS"));
	diag_set_limit(max_errors);
	fuzz_alloc_init();
	return 0;
}

static struct source *source_of(const char *name, const char *text,
				size_t len)
{
	char *copy = malloc(len + 1);
	struct source *src;

	memcpy(copy, text, len);
	copy[len] = '\0';
	src = src_new(name, copy, len);
	src->is_user = 1;
	return src;
}

static void __attribute__((noreturn)) fail(const char *what)
{
	fprintf(real_stderr, "\n==FUZZ== FAIL: %s\n", what);
	fflush(real_stderr);
	__builtin_trap();
}

#ifndef FUZZ_PP

static char *print_of(const struct script *s)
{
	struct sbuf sb = { 0 };

	print_script(&sb, s);
	if (!sb.s)
		sb_putn(&sb, "", 0);
	return sb.s;
}

static void check(const uint8_t *data, size_t size)
{
	struct source *src = source_of("<fuzz>", (const char *)data, size);
	int errs = diag_errors();
	struct script *s = parse_source(pp_new(&env), src, &opts);
	char *first, *second;

	if (diag_errors() != errs)
		return;
	first = print_of(s);
	src = source_of("<printed>", first, strlen(first));
	s = parse_source(pp_new(&env), src, &opts);
	if (diag_errors() != errs) {
		fprintf(real_stderr, "==FUZZ== printed form:\n%s\n"
			"==FUZZ== its diagnostics:\n", first);
		stderr = real_stderr;
		parse_source(pp_new(&env), src, &opts);
		fail("the printed form does not parse (round trip)");
	}
	second = print_of(s);
	if (strcmp(first, second)) {
		fprintf(real_stderr, "==FUZZ== first printing:\n%s\n"
			"==FUZZ== second printing:\n%s\n", first, second);
		fail("the printed form prints differently (round trip)");
	}
}

#else /* FUZZ_PP */

static void check(const uint8_t *data, size_t size)
{
	struct source *src = source_of("<fuzz>", (const char *)data, size);
	int errs = diag_errors();
	const struct tokens *ts = pp_source(pp_new(&env), src);

	if (!ts->len || ts->t[ts->len - 1].kind != TK_EOF)
		fail("preprocessor output does not end with EOF");
	if (diag_errors() != errs)
		return;
	for (int i = 0; i < ts->len; i++) {
		const struct token *t = &ts->t[i];

		if (t->kind == TK_EOF && i != ts->len - 1)
			fail("EOF token inside the preprocessor output");
		if (t->kind >= TK_PP_OPEN && t->kind <= TK_PP_CLOSE)
			fail("conditional marker left in the output");
		if (tok_is(t, "@define"))
			fail("@define left in the output");
		if (!t->loc.src || t->loc.line < 1 || t->loc.col < 1)
			fail("token without a location");
	}
}

#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_iter_begin();
	fuzz_diag_reset();
	check(data, size);
	fuzz_iter_end();
	return 0;
}
