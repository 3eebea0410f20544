/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A tiny header-only unit test harness.
 *
 *   TEST(lex_numbers) { CHECK_EQ_INT(tok.num, 42); }
 *   int main(int argc, char **argv) { return unit_main(argc, argv); }
 *
 * TEST() registers the function before main runs (a constructor);
 * unit_main() runs every test, or only those named on the command line,
 * in the order they appear in the file.  A failed check prints
 * FILE:LINE and both values on stdout and marks its test failed; the
 * test goes on, so one run shows every broken check.  The last line is
 * "N passed, N failed", counting test functions.
 *
 * Diagnostics of the code under test go to stderr; unit_capture_begin()
 * and unit_capture_end() collect them so a test can compare the exact
 * text.  unit_isolated() runs a function in a child process, for code
 * that leaves process-wide state behind (the diagnostic error cap) or
 * that may not terminate.
 */
#ifndef STP_UNIT_H
#define STP_UNIT_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define UNIT_MAX_TESTS 512

struct unit_test {
	const char *name;
	void (*fn)(void);
	int line;		/* order of appearance in the file */
	int ran;
	int failed;		/* checks that failed */
};

static struct unit_test unit_tests[UNIT_MAX_TESTS];
static int unit_ntests;
static struct unit_test *unit_current;
static int unit_capture_fd = -1;	/* saved stderr while capturing */
static FILE *unit_capture_tmp;

static inline void unit_register(const char *name, void (*fn)(void), int line)
{
	if (unit_ntests == UNIT_MAX_TESTS) {
		fprintf(stderr, "unit: more than %d tests\n", UNIT_MAX_TESTS);
		exit(2);
	}
	unit_tests[unit_ntests].name = name;
	unit_tests[unit_ntests].fn = fn;
	unit_tests[unit_ntests].line = line;
	unit_ntests++;
}

#define TEST(name)                                                        \
	static void unit_test_##name(void);                               \
	__attribute__((constructor)) static void unit_reg_##name(void)    \
	{                                                                 \
		unit_register(#name, unit_test_##name, __LINE__);         \
	}                                                                 \
	static void unit_test_##name(void)

/* Print s with C escapes, so that multi-line text stays readable. */
static inline void unit_put_escaped(const char *s)
{
	if (!s) {
		fputs("(null)", stdout);
		return;
	}
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\n')
			fputs("\\n", stdout);
		else if (c == '\t')
			fputs("\\t", stdout);
		else if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < ' ' || c == 0x7f)
			printf("\\x%02x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static inline void unit_fail_head(const char *file, int line, const char *what)
{
	if (unit_current)
		unit_current->failed++;
	printf("%s:%d: %s: failed: %s\n", file, line,
	       unit_current ? unit_current->name : "?", what);
}

static inline int unit_check(const char *file, int line, int ok,
			     const char *what)
{
	if (!ok)
		unit_fail_head(file, line, what);
	return ok;
}

static inline int unit_check_int(const char *file, int line, long long a,
				 long long b, const char *what)
{
	if (a == b)
		return 1;
	unit_fail_head(file, line, what);
	printf("    got:      %lld\n    expected: %lld\n", a, b);
	return 0;
}

static inline int unit_check_str(const char *file, int line, const char *a,
				 const char *b, const char *what)
{
	if (a && b && !strcmp(a, b))
		return 1;
	if (!a && !b)
		return 1;
	unit_fail_head(file, line, what);
	fputs("    got:      ", stdout);
	unit_put_escaped(a);
	fputs("\n    expected: ", stdout);
	unit_put_escaped(b);
	putchar('\n');
	return 0;
}

#define CHECK(cond) unit_check(__FILE__, __LINE__, !!(cond), #cond)
#define CHECK_EQ_INT(a, b)                                                \
	unit_check_int(__FILE__, __LINE__, (long long)(a), (long long)(b), \
		       "CHECK_EQ_INT(" #a ", " #b ")")
#define CHECK_EQ_STR(a, b)                                                \
	unit_check_str(__FILE__, __LINE__, (a), (b),                      \
		       "CHECK_EQ_STR(" #a ", " #b ")")

/* ---- capturing stderr ---- */

static inline void unit_capture_begin(void)
{
	fflush(stderr);
	unit_capture_tmp = tmpfile();
	if (!unit_capture_tmp) {
		perror("unit: tmpfile");
		exit(2);
	}
	unit_capture_fd = dup(2);
	dup2(fileno(unit_capture_tmp), 2);
}

/* Everything written to stderr since unit_capture_begin(); malloc'd. */
static inline char *unit_capture_end(void)
{
	long n;
	char *s;

	fflush(stderr);
	dup2(unit_capture_fd, 2);
	close(unit_capture_fd);
	unit_capture_fd = -1;
	fseek(unit_capture_tmp, 0, SEEK_END);
	n = ftell(unit_capture_tmp);
	rewind(unit_capture_tmp);
	s = malloc(n + 1);
	if (!s)
		exit(2);
	n = (long)fread(s, 1, n, unit_capture_tmp);
	s[n] = 0;
	fclose(unit_capture_tmp);
	unit_capture_tmp = NULL;
	return s;
}

/*
 * Run fn(arg) in a child process with stderr captured, killed after
 * timeout seconds.  Returns the child's exit status (0..255), or -1 if
 * it died of a signal (the time limit: SIGALRM).  *err gets stderr.
 */
static inline int unit_isolated(int (*fn)(void *), void *arg, int timeout,
				char **err)
{
	pid_t pid;
	int status;

	fflush(stdout);
	unit_capture_begin();
	pid = fork();
	if (pid < 0) {
		perror("unit: fork");
		exit(2);
	}
	if (pid == 0) {
		alarm(timeout);
		status = fn(arg);
		fflush(stderr);
		fflush(stdout);
		_exit(status & 0xff);
	}
	waitpid(pid, &status, 0);
	*err = unit_capture_end();
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* ---- running ---- */

static inline int unit_by_line(const void *a, const void *b)
{
	const struct unit_test *x = a, *y = b;

	return x->line - y->line;
}

static inline int unit_selected(const char *name, int argc, char **argv)
{
	if (argc < 2)
		return 1;
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], name))
			return 1;
	return 0;
}

/* One line per failing test, then "N passed, N failed".  Returns the
 * exit code: 0 when every test passed, 1 otherwise. */
static inline int unit_summary(void)
{
	int passed = 0, failed = 0;

	for (int i = 0; i < unit_ntests; i++) {
		if (!unit_tests[i].ran)
			continue;
		if (unit_tests[i].failed) {
			printf("FAIL %s (%d check%s)\n", unit_tests[i].name,
			       unit_tests[i].failed,
			       unit_tests[i].failed == 1 ? "" : "s");
			failed++;
		} else {
			passed++;
		}
	}
	printf("%d passed, %d failed\n", passed, failed);
	fflush(stdout);
	return failed ? 1 : 0;
}

/* Run the tests named in argv, or all of them. */
static inline int unit_main(int argc, char **argv)
{
	qsort(unit_tests, unit_ntests, sizeof(unit_tests[0]), unit_by_line);
	for (int i = 0; i < unit_ntests; i++) {
		struct unit_test *t = &unit_tests[i];

		if (!unit_selected(t->name, argc, argv))
			continue;
		unit_current = t;
		t->fn();
		t->ran = 1;
		unit_current = NULL;
		fflush(stdout);
	}
	return unit_summary();
}

#endif
