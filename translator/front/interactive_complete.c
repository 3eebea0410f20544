// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stp -i: Tab.  What it offers depends on where the cursor is:
 *
 *   the first word               the commands
 *   after set, show / help       option names / commands
 *   after load, save             file names (readline's own)
 *   after add, before probe      the declaration keywords
 *   in a probe's point list      probe points, one component at a time
 *                                (syscall.op -> syscall.open, syscall.openat;
 *                                process("/bin/ls").fu -> .function( by the
 *                                types' process(string).function(string));
 *                                in a quoted argument, what -l lists for it
 *                                (kernel.function("vfs_readl -> vfs_readlink;
 *                                kernel.trace("sched_swi -> sched_switch)
 *   in a body                    tapset functions, the script's globals, the
 *                                probe's context variables, and after '$' its
 *                                $variables
 *
 * The names come from stp itself, run as a child with the session's
 * target: --dump-probe-types, --dump-probe-aliases, -l 'kernel.trace("*")'
 * (the lister of -l), --dump-functions, and -L POINT for variables.
 * Each list is read once per target and kept: the first Tab may take a
 * moment, later ones are instant.
 */
#include "interactive.h"

#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <readline/readline.h>

static struct isession *is;
static const char *pending;	/* the lines of an add typed so far */

/* A list read from stp, for the target of one generation. */
struct list {
	const char *key;	/* -L's point, or NULL */
	int generation;
	int read;
	struct vec lines;
};

static struct list points, functions;
static struct vec var_lists;	/* struct list *: -L POINT's, by point */

/* stp ARGS...'s output lines, stderr dropped. */
static void run_lister(const char *a1, const char *a2, struct vec *out)
{
	struct vec av = { 0 };
	int fd[2];
	pid_t pid;
	FILE *f;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	vec_push(&av, "stp");
	iset_target_args(is, &av);
	vec_push(&av, (void *)a1);
	if (a2)
		vec_push(&av, (void *)a2);
	vec_push(&av, NULL);
	if (pipe(fd))
		return;
	pid = fork();
	if (!pid) {
		int null = open("/dev/null", O_WRONLY);

		dup2(fd[1], STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
		close(fd[0]);
		execv("/proc/self/exe", (char **)av.v);
		_exit(127);
	}
	close(fd[1]);
	f = fdopen(fd[0], "r");
	while (f && (n = getline(&line, &cap, f)) > 0) {
		if (line[n - 1] == '\n')
			line[n - 1] = '\0';
		vec_push(out, ar_strdup(line));
	}
	free(line);
	if (f)
		fclose(f);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	free(av.v);
}

static int fresh(struct list *l)
{
	if (l->read && l->generation == is->generation)
		return 1;
	l->lines.len = 0;
	l->read = 1;
	l->generation = is->generation;
	return 0;
}

static struct vec *point_list(void)
{
	struct vec aliases = { 0 };

	if (fresh(&points))
		return &points.lines;
	run_lister("--dump-probe-types", NULL, &points.lines);
	run_lister("--dump-probe-aliases", NULL, &aliases);
	for (int i = 0; i < aliases.len; i++) {
		const char *a = aliases.v[i];

		vec_push(&points.lines, ar_strndup(a, strcspn(a, " ")));
	}
	run_lister("-l", "kernel.trace(\"*\")", &points.lines);
	free(aliases.v);
	return &points.lines;
}

/* A list kept per key (a -L point, a -l pattern) for this target. */
static struct list *keyed_list(struct vec *lists, const char *key)
{
	for (int i = 0; i < lists->len; i++)
		if (!strcmp(((struct list *)lists->v[i])->key, key))
			return lists->v[i];

	struct list *l = ar_alloc(sizeof(*l));

	l->key = ar_strdup(key);
	vec_push(lists, l);
	return l;
}

/* -L POINT's words after the point: "$name:type" and "name:type". */
static struct vec *var_list(const char *point)
{
	struct list *l = keyed_list(&var_lists, point);
	struct vec out = { 0 };

	if (fresh(l))
		return &l->lines;
	run_lister("-L", point, &out);
	for (int i = 0; i < out.len; i++) {
		const char *w = strchr(out.v[i], ' ');

		while (w && *w) {
			size_t n = strcspn(++w, " ");

			vec_push(&l->lines, ar_strndup(w, strcspn(w, ":")));
			w += n;
		}
	}
	free(out.v);
	return &l->lines;
}


/*
 * The points -l lists for a point typed up to inside its last quoted
 * argument (kernel.function("vfs_re, module("ext4").function("ext4_f),
 * with that argument's "@file:line" dropped, as one types them.  At
 * least two characters of the argument: a bare "*" lists every function.
 */
static struct vec *listed_points(const char *text)
{
	static struct vec lists;
	const char *open = strrchr(text, '"');
	int quotes = 0;
	struct list *l;
	struct vec out = { 0 };

	for (const char *c = text; *c; c++)
		quotes += *c == '"';
	if (!(quotes & 1) || strlen(open + 1) < 2 || strchr(open + 1, '*') ||
	    !strncmp(text, "kernel.trace(", 13))
		return NULL;
	l = keyed_list(&lists, text);
	if (fresh(l))
		return &l->lines;
	run_lister("-l", ar_printf("%s*\")", text), &out);
	for (int i = 0; i < out.len; i++) {
		const char *p = out.v[i], *at, *close;

		if (strncmp(p, text, strlen(text)))
			continue;	/* -l wrote the point otherwise */
		at = strchr(p + strlen(text), '@');
		close = at ? strchr(at, '"') : NULL;
		vec_push(&l->lines, at && close ? ar_printf("%.*s%s", (int)(at - p), p, close)
					       : (void *)p);
	}
	free(out.v);
	return &l->lines;
}

/* The candidates this Tab offers: the generator hands them out. */
static struct vec cands;
static struct pmap cand_seen;

static void offer(const char *c)
{
	c = intern(c, strlen(c));
	if (pmap_get(&cand_seen, c))
		return;
	pmap_put(&cand_seen, c, (void *)c);
	vec_push(&cands, (void *)c);
}

static void offer_matching(const char *const *names, const char *text)
{
	for (; *names; names++)
		if (!strncmp(*names, text, strlen(text)))
			offer(*names);
}

/* Where the point component that holds offset `from` ends: at the next
 * '.' outside quotes and parentheses, or at a '(' (included), so that
 * "kernel.tr" becomes "kernel.trace(" and not each tracepoint. */
static size_t component_end(const char *p, size_t from)
{
	int parens = 0, quoted = 0;

	for (size_t i = 0; p[i]; i++) {
		if (quoted) {
			quoted = p[i] != '"';
			continue;
		}
		if (p[i] == '"')
			quoted = 1;
		else if (p[i] == ')')
			parens--;
		else if (p[i] == '(' && !parens++ && i >= from)
			return i + 1;
		else if (p[i] == '.' && !parens && i >= from)
			return i;
	}
	return strlen(p);
}

/* Where the parenthesis opened at p[0] closes (quotes skipped), or -1. */
static long closing_paren(const char *p)
{
	int parens = 0, quoted = 0;

	for (long i = 0; p[i]; i++) {
		if (quoted)
			quoted = p[i] != '"';
		else if (p[i] == '"')
			quoted = 1;
		else if (p[i] == '(')
			parens++;
		else if (p[i] == ')' && !--parens)
			return i;
	}
	return -1;
}

/*
 * text with each closed argument written as the probe types list it,
 * process("/bin/ls").fu as process(string).fu; *head is how much of
 * text, and *ghead of the result, those arguments take.  NULL when
 * text has no closed argument.
 */
static char *generalize(const char *text, size_t *head, size_t *ghead)
{
	struct sbuf g = { 0 };
	size_t i = 0;
	long close;

	*head = *ghead = 0;
	while (text[i]) {
		if (text[i] != '(' || (close = closing_paren(text + i)) < 0) {
			sb_printf(&g, "%c", text[i++]);
			continue;
		}
		sb_puts(&g, text[i + 1] == '"' ? "(string)" : "(number)");
		i += close + 1;
		*head = i;
		*ghead = g.len;
	}
	if (!*head) {
		free(g.s);
		return NULL;
	}
	return g.s;
}

/* 1 when some point goes on past what is offered (no space after it). */
static int offer_from(const char *p, const char *text, size_t n, const char *shown, size_t skip)
{
	size_t end;

	if (strncmp(p, text, n))
		return 0;
	end = component_end(p, n);
	offer(ar_printf("%s%.*s", shown, (int)(end - skip), p + skip));
	return p[end] != '\0' || (end && p[end - 1] == '(');
}

/* kernel.trace("NAME as the tracepoint lister's kernel.trace("SYS:NAME"),
 * offered as typed: without its system. */
static int offer_tracepoint_names(struct vec *all, const char *text)
{
	static const char tp[] = "kernel.trace(\"";
	int goes_on = 0;

	if (strncmp(text, tp, sizeof(tp) - 1) || strchr(text + sizeof(tp) - 1, ':'))
		return 0;
	for (int i = 0; i < all->len; i++) {
		const char *p = all->v[i], *colon;

		if (strncmp(p, tp, sizeof(tp) - 1) || !(colon = strchr(p, ':')))
			continue;
		goes_on |= offer_from(ar_printf("%s%s", tp, colon + 1), text, strlen(text), "", 0);
	}
	return goes_on;
}

static int offer_points(const char *text)
{
	struct vec *all = point_list(), *listed = listed_points(text);
	size_t n = strlen(text), head, ghead;
	char *g = generalize(text, &head, &ghead);
	const char *shown = g ? ar_strndup(text, head) : NULL;
	int goes_on = 0;

	for (int i = 0; i < all->len; i++) {
		goes_on |= offer_from(all->v[i], text, n, "", 0);
		if (g)	/* process("/bin/ls").fu: process(string).function( */
			goes_on |= offer_from(all->v[i], g, strlen(g), shown, ghead);
	}
	free(g);
	for (int i = 0; listed && i < listed->len; i++)
		goes_on |= offer_from(listed->v[i], text, n, "", 0);
	return offer_tracepoint_names(all, text) | goes_on;
}

static void offer_globals(const char *text)
{
	for (int i = 0; i <= is->pieces.len; i++) {
		const char *p = i < is->pieces.len ? is->pieces.v[i] : pending;

		if (!p)
			continue;
		if (!strncmp(p, "private", 7))
			p += 7 + strspn(p + 7, " \t");
		if (strncmp(p, "global", 6) || !isspace((unsigned char)p[6]))
			continue;
		for (p += 6; *p;) {
			size_t n;

			p += strspn(p, " \t\n,");
			n = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
			if (!n)
				break;
			if (!strncmp(p, text, strlen(text)) && strlen(text) <= n)
				offer(ar_strndup(p, n));
			p += n;
			p += strcspn(p, ",;\n");	/* "[100]", "= 5" */
			if (*p != ',')
				break;
		}
	}
}

static void offer_body(const char *text, const char *point)
{
	struct vec *v;

	if (point) {
		v = var_list(point);
		for (int i = 0; i < v->len; i++)
			if (!strncmp(v->v[i], text, strlen(text)))
				offer(v->v[i]);
	}
	if (*text == '$')
		return;
	if (!fresh(&functions))
		run_lister("--dump-functions", NULL, &functions.lines);
	for (int i = 0; i < functions.lines.len; i++)
		if (!strncmp(functions.lines.v[i], text, strlen(text)))
			offer(functions.lines.v[i]);
	offer_globals(text);
}

/* The add text before the cursor: earlier lines too, on a continuation. */
static const char *add_text(const char *line, int upto)
{
	return ar_printf("%s%s%.*s", pending ? pending : "", pending ? "\n" : "", upto, line);
}

/* The first word of the line, and where the rest starts (or -1 when
 * the cursor is still in the first word). */
static const char *first_word(int *rest)
{
	const char *l = rl_line_buffer;
	size_t a = strspn(l, " \t"), n = strcspn(l + a, " \t");

	if (pending) {
		*rest = 0;
		return "add";
	}
	*rest = (int)(a + n) < rl_point ? (int)(a + n) : -1;
	return ar_strndup(l + a, n);
}

static int context_here(const char **point)
{
	int rest;
	const char *w = first_word(&rest);

	*point = NULL;
	if (rest < 0 || strcmp(w, "add"))
		return 0;
	return iscan_context(add_text(rl_line_buffer + rest, rl_point - rest), point);
}

static char *generate(const char *text, int state)
{
	static int i;

	(void)text;
	if (!state)
		i = 0;
	return i < cands.len ? strdup(cands.v[i++]) : NULL;
}

static char **complete(const char *text, int start, int end)
{
	static const char *const keywords[] = { "probe", "global", "function",
						"private", NULL };
	const char *point, *w;
	int rest, goes_on = 0;

	(void)start;
	(void)end;
	rl_attempted_completion_over = 1;
	cands.len = 0;
	free(cand_seen.keys);
	free(cand_seen.vals);
	memset(&cand_seen, 0, sizeof(cand_seen));
	w = first_word(&rest);
	if (rest < 0)
		offer_matching(interactive_commands(), text);
	else if (!strcmp(w, "set") || !strcmp(w, "show"))
		offer_matching(iset_names(), text);
	else if (!strcmp(w, "help"))
		offer_matching(interactive_commands(), text);
	else if (!strcmp(w, "load") || !strcmp(w, "save")) {
		rl_attempted_completion_over = 0;
		return NULL;
	} else if (!strcmp(w, "add")) {
		switch (context_here(&point)) {
		case 0: offer_matching(keywords, text); break;
		case 1: goes_on = offer_points(text); break;
		default: offer_body(text, point); rl_completion_append_character = '\0';
		}
	}
	if (goes_on)
		rl_completion_append_character = '\0';
	return cands.len ? rl_completion_matches(text, generate) : NULL;
}

/* A point's word takes in '(' and '"' (kernel.trace("sched:...")); a
 * body's stops at operators but keeps '$'. */
static char *word_breaks(void)
{
	const char *point;

	return (char *)(context_here(&point) == 1 ? " \t\n,{="
			: " \t\n\"'`<>=;|&{(}[],+-*/%!~^?:.");
}

void icomplete_pending(const char *text)
{
	pending = text;
}

void icomplete_init(struct isession *s)
{
	is = s;
	rl_attempted_completion_function = complete;
	rl_completion_word_break_hook = word_breaks;
	rl_variable_bind("show-all-if-ambiguous", "on");
}
