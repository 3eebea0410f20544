// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stp -i: the session's script, kept as pieces of text (what one add
 * typed, or one declaration of a loaded file).  A change is checked
 * first, by passes 1 and 2 of the whole script with the change in it,
 * and made only when they pass: one bad line leaves the script as it
 * was.  Each piece is a source of its own, named "<piece N>", so a
 * diagnostic points into the piece just typed, at its own line and
 * column.
 *
 * The passes run in a forked child (passes(), below): the parent
 * never holds their state, and Ctrl-C during a run stops the child,
 * not the prompt.
 */
#include "interactive.h"

#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum mode { CHECK, RUN };

/* One source to parse: its name and text. */
struct piece_src {
	const char *name, *text;
};

static const char *piece_name(int i)
{
	return ar_printf("<piece %d>", i + 1);
}

static char *trimmed(const char *text, size_t len)
{
	while (len && isspace((unsigned char)*text))
		text++, len--;
	while (len && isspace((unsigned char)text[len - 1]))
		len--;
	return ar_strndup(text, len);
}

static const char *joined(const struct piece_src *p, int n)
{
	struct sbuf sb = { 0 };
	const char *r;

	for (int i = 0; i < n; i++)
		sb_printf(&sb, "%s\n%s", p[i].name, p[i].text);
	r = ar_strdup(sb.s ? sb.s : "");
	free(sb.s);
	return r;
}

/* In the child: pass 1 of the pieces, each a source of its own, their
 * declarations in order.  pass1_parse() reads the library's macros
 * with a stand-in script, "probe never {}", which a check keeps (a
 * script of globals and functions only is fine to add to) and a run
 * drops. */
static int parse_pieces(struct session *s, const struct piece_src *p, int n,
			enum mode mode)
{
	struct parse_opts opts = { .guru = s->guru,
		.comment_parts_strings = pp_vercmp(s->env.systemtap_v, "2.0") < 0 };
	struct vec decls = { 0 };

	s->script_text = "probe never {}";
	if (pass1_parse(s))
		return 1;
	for (int k = 0; mode == CHECK && k < s->user->decls.len; k++)
		vec_push(&decls, s->user->decls.v[k]);
	for (int i = 0; i < n; i++) {
		struct source *src = src_new(p[i].name, p[i].text, strlen(p[i].text));
		struct script *t;

		src->is_user = 1;
		t = parse_source(s->pp, src, &opts);
		for (int k = 0; k < t->decls.len; k++)
			vec_push(&decls, t->decls.v[k]);
		if (!i && mode == RUN)
			s->user->src = src;
	}
	s->user->decls = decls;
	/* the module cache's key hashes script_text: the whole script's */
	s->script_text = joined(p, n);
	if (diag_errors()) {
		fprintf(stderr, "Pass 1: parse failed: %d error%s.\n", diag_errors(),
			diag_errors() == 1 ? "" : "s");
		return 1;
	}
	return 0;
}

static int child_passes(const struct isession *is, const struct piece_src *p, int n,
			enum mode mode)
{
	struct session s = is->opts;
	struct timespec t0, t1;

	/* -u: a function no probe calls yet is checked all the same */
	if (mode == CHECK)
		s.unoptimized = 1;
	target_init(&s);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (parse_pieces(&s, p, n, mode))
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (mode == RUN && s.verbose)
		fprintf(stderr, "Pass 1: parsed user script and %d library scripts in %.1f ms.\n",
			s.macro_files, (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6);
	if (mode == RUN && s.last_pass == 1) {
		struct sbuf out = { 0 };

		print_script(&out, s.user);
		fwrite(out.s, 1, out.len, stdout);
		return 0;
	}
	if (mode == RUN)
		return driver_after_pass1(&s);
	if (!pass2_elaborate(&s)) {
		fprintf(stderr, "Pass 2: analysis failed: %d error%s.\n", diag_errors(),
			diag_errors() == 1 ? "" : "s");
		return 1;
	}
	return 0;
}

static void no_op(int sig)
{
	(void)sig;
}

/* Passes of the sources in a child; its exit status, or -1 when a
 * signal ended it, after saying so (Ctrl-C stops the child: the prompt
 * ignores it meanwhile). */
static int passes(const struct isession *is, const struct piece_src *p, int n,
		  enum mode mode)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	pid_t pid;
	int st = 0;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "stp: fork: %s\n", strerror(errno));
		return 1;
	}
	if (!pid) {
		int rc;

		/* a run's Ctrl-C is stprun's, or stp-qemu's: they stop the
		 * run and exit, and this child passes their status on (a
		 * handler, unlike SIG_IGN, is not inherited across exec) */
		if (mode == RUN)
			sigaction(SIGINT, &(struct sigaction){ .sa_handler = no_op,
							       .sa_flags = SA_RESTART }, NULL);
		else
			signal(SIGINT, SIG_DFL);
		rc = child_passes(is, p, n, mode);

		fflush(NULL);
		_exit(rc);
	}
	sigaction(SIGINT, &ign, &old);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	sigaction(SIGINT, &old, NULL);
	if (WIFSIGNALED(st)) {
		fprintf(stderr, "stp: %s by %s\n", mode == RUN ? "run stopped" : "check ended",
			strsignal(WTERMSIG(st)));
		return -1;
	}
	return WEXITSTATUS(st);
}

/* The script's pieces as sources, then extra (a piece being added, or
 * a file being loaded) when not NULL. */
static int check_with(const struct isession *is, const char *extra_name,
		      const char *extra, int keep_pieces)
{
	int n = keep_pieces ? is->pieces.len : 0;
	struct piece_src *p = ar_alloc((n + 1) * sizeof(*p));

	for (int i = 0; i < n; i++) {
		p[i].name = piece_name(i);
		p[i].text = ar_printf("%s\n", (char *)is->pieces.v[i]);
	}
	if (extra) {
		p[n].name = extra_name;
		p[n++].text = extra;
	}
	return passes(is, p, n, CHECK);
}

int iscript_add(struct isession *is, const char *text)
{
	char *piece = trimmed(text, strlen(text));

	if (!*piece) {
		fputs("stp: add needs a probe, function or global (help add)\n", stderr);
		return 1;
	}
	if (check_with(is, piece_name(is->pieces.len), ar_printf("%s\n", piece), 1) != 0) {
		fputs("not added: the script is as it was\n", stderr);
		return 1;
	}
	vec_push(&is->pieces, piece);
	return 0;
}

int iscript_delete(struct isession *is, const char *arg)
{
	char *end;
	long n = strtol(arg, &end, 10);

	while (isspace((unsigned char)*end))
		end++;
	if (!*arg || *end || n < 1 || n > is->pieces.len) {
		fprintf(stderr, "stp: delete takes a piece's number from list (1-%d), not '%s'\n",
			is->pieces.len, arg);
		return 1;
	}
	memmove(is->pieces.v + n - 1, is->pieces.v + n,
		(is->pieces.len - n) * sizeof(void *));
	is->pieces.len--;
	return 0;
}

void iscript_list(const struct isession *is)
{
	if (!is->pieces.len)
		puts("(the script is empty: add a probe)");
	for (int i = 0; i < is->pieces.len; i++) {
		const char *p = is->pieces.v[i];

		printf("%d: ", i + 1);
		for (; *p; p++) {
			putchar(*p);
			if (*p == '\n')
				printf("%*s", i + 1 >= 10 ? 4 : 3, "");
		}
		putchar('\n');
	}
}

/* The pieces of a whole text: one per top-level declaration. */
static void split_into(struct vec *pieces, const char *text)
{
	struct vec at = { 0 };

	iscan_starts(text, &at);
	for (int i = 0; i < at.len; i++) {
		size_t a = (size_t)at.v[i];
		size_t b = i + 1 < at.len ? (size_t)at.v[i + 1] : strlen(text);
		char *piece = trimmed(text + a, b - a);

		if (*piece)
			vec_push(pieces, piece);
	}
	free(at.v);
}

int iscript_load(struct isession *is, const char *path)
{
	size_t len;
	char *text;

	if (!*path) {
		fputs("stp: load needs a file name\n", stderr);
		return 1;
	}
	text = util_read_file(path, &len);
	if (!text) {
		fprintf(stderr, "stp: cannot read '%s': %s\n", path, strerror(errno));
		return 1;
	}
	if (check_with(is, ar_strdup(path), text, 1)) {
		fprintf(stderr, "not loaded: the script is as it was\n");
		return 1;
	}
	split_into(&is->pieces, text);
	return 0;
}

static char *script_text(const struct isession *is)
{
	struct sbuf sb = { 0 };

	for (int i = 0; i < is->pieces.len; i++)
		sb_printf(&sb, "%s\n", (char *)is->pieces.v[i]);
	return sb.s ? sb.s : xcalloc(1, 1);
}

static int write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) == EOF || fclose(f)) {
		fprintf(stderr, "stp: cannot write '%s': %s\n", path, strerror(errno));
		if (f)
			fclose(f);
		return 1;
	}
	return 0;
}

int iscript_save(const struct isession *is, const char *path)
{
	char *text;
	int rc;

	if (!*path) {
		fputs("stp: save needs a file name\n", stderr);
		return 1;
	}
	text = script_text(is);
	rc = write_text(path, text);
	free(text);
	return rc;
}

/* $VISUAL, else $EDITOR, else vi, on path; 0 when it exited with 0. */
static int run_editor(const char *path)
{
	const char *ed = getenv("VISUAL");
	pid_t pid;
	int st = 0;

	if (!ed || !*ed)
		ed = getenv("EDITOR");
	if (!ed || !*ed)
		ed = "vi";
	fflush(NULL);
	pid = fork();
	if (!pid) {
		/* a shell, as $EDITOR may hold options ("emacs -nw") */
		execl("/bin/sh", "sh", "-c", ar_printf("%s \"$1\"", ed), "sh", path,
		      (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "stp: the editor '%s' failed; the script is as it was\n", ed);
		return 1;
	}
	return 0;
}

/* The edited text replaces the script once passes 1 and 2 accept it;
 * else the script stays, and the next edit starts from that text. */
int iscript_edit(struct isession *is)
{
	const char *path;
	int fd = tmp_file("stp-edit", ".stp", &path);
	char *old = script_text(is), *text = NULL;
	size_t len;
	int rc = 1;

	if (fd < 0) {
		free(old);
		return 1;
	}
	close(fd);
	if (write_text(path, is->edit_text ? is->edit_text : old) || run_editor(path))
		goto out;
	text = util_read_file(path, &len);
	if (!text || !strcmp(text, old)) {
		rc = !text;
		goto out;
	}
	if (check_with(is, ar_strdup(path), text, 0)) {
		fputs("not changed: the script is as it was (edit again to go on from your text)\n",
		      stderr);
		is->edit_text = ar_strdup(text);
		goto out;
	}
	is->pieces.len = 0;
	split_into(&is->pieces, text);
	is->edit_text = NULL;
	rc = 0;
out:
	unlink(path);
	free(old);
	free(text);
	return rc;
}

int iscript_run(struct isession *is)
{
	struct piece_src *p;
	int rc;

	if (!is->pieces.len) {
		fputs("stp: the script is empty: add a probe first\n", stderr);
		return 1;
	}
	p = ar_alloc(is->pieces.len * sizeof(*p));
	for (int i = 0; i < is->pieces.len; i++) {
		p[i].name = piece_name(i);
		p[i].text = ar_printf("%s\n", (char *)is->pieces.v[i]);
	}
	rc = passes(is, p, is->pieces.len, RUN);
	if (rc == 128 + SIGINT)
		fputs("stp: run stopped (Ctrl-C)\n", stderr);
	else if (rc > 0)
		fprintf(stderr, "stp: run ended with exit status %d\n", rc);
	return rc;
}
