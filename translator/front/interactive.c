// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stp -i: the command loop.  Lines come from readline on a terminal
 * (history in ~/.stp_history, editing as ~/.inputrc sets it, Tab from
 * interactive_complete.c), else from standard input as they are, with
 * no prompt: "stp -i < commands" runs a session from a file.
 */
#include "interactive.h"

#include <ctype.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

struct command {
	const char *name, *usage, *what;
};

static const struct command commands[] = {
	{ "add", "add PROBE|FUNCTION|GLOBAL",
	  "adds a piece to the script once passes 1 and 2 accept the script with it;\n"
	  "more lines are read while its braces are open" },
	{ "delete", "delete N", "deletes piece N (list numbers them)" },
	{ "list", "list", "shows the script's pieces, numbered" },
	{ "edit", "edit", "edits the whole script in $VISUAL or $EDITOR (else vi); the text\n"
	  "replaces the script once passes 1 and 2 accept it" },
	{ "load", "load FILE", "adds FILE's declarations to the script, one piece each" },
	{ "save", "save FILE", "writes the script to FILE" },
	{ "run", "run", "runs the script (passes 1-5 with the options show lists);\n"
	  "it ends with exit() or Ctrl-C, and the prompt comes back" },
	{ "set", "set OPTION VALUE", "sets an option (by name or flag: set -r RELEASE)" },
	{ "show", "show [OPTION]", "shows the options, or one with what it does" },
	{ "help", "help [COMMAND]", "lists the commands, or says what one does" },
	{ "quit", "quit", "leaves stp (so does Ctrl-D)" },
};

#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

const char *const *interactive_commands(void)
{
	static const char *names[N_COMMANDS + 1];

	for (size_t i = 0; i < N_COMMANDS; i++)
		names[i] = commands[i].name;
	return names;
}

static int help(const char *name)
{
	for (size_t i = 0; i < N_COMMANDS; i++) {
		if (*name && strcmp(name, commands[i].name))
			continue;
		if (*name) {
			printf("%s\n  ", commands[i].usage);
			for (const char *p = commands[i].what; *p; p++)
				fputs(*p == '\n' ? "\n  " : (char[]){ *p, 0 }, stdout);
			putchar('\n');
			return 0;
		}
		printf("  %-27s %.*s\n", commands[i].usage,
		       (int)strcspn(commands[i].what, "\n;"), commands[i].what);
	}
	if (*name) {
		fprintf(stderr, "stp: help: no command '%s' (help lists them)\n", name);
		return 1;
	}
	puts("Tab completes commands, probe points, functions, globals and $variables.");
	return 0;
}

static int tty;

/* A line without its newline (malloc'd), or NULL at the end; a
 * command's line goes into the history, an add's continuation not (the
 * piece goes in whole: history_piece). */
static char *read_line(const char *prompt, int remember)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	if (tty) {
		line = readline(prompt);
		if (line && *line && remember)
			add_history(line);
		return line;
	}
	n = getline(&line, &cap, stdin);
	if (n < 0) {
		free(line);
		return NULL;
	}
	if (n && line[n - 1] == '\n')
		line[n - 1] = '\0';
	return line;
}

/* Ctrl-C on an add's continuation line drops the piece: the prompt is
 * the command prompt again, and what is typed there is a command. */
static volatile sig_atomic_t continuing, dropped;
static char *next_command;

/*
 * A piece typed over several lines becomes one history entry, in place
 * of its first line's: its lines joined by spaces, so that it comes
 * back as one line that adds it again.  Not when a line has a comment,
 * which would run on over the lines after it: those stay as typed.
 */
static void history_piece(const char *piece)
{
	HIST_ENTRY *first;
	char *one;

	if (!tty || !strchr(piece, '\n') || strchr(piece, '#') || strstr(piece, "//") ||
	    !history_length)
		return;
	one = ar_printf("add %s", piece);
	for (char *c = one; *c; c++)
		if (*c == '\n')
			*c = ' ';
	first = remove_history(history_length - 1);
	if (first)
		free_history_entry(first);
	add_history(one);
}

/* add's text: the rest of the line, and more lines while a brace is
 * open; NULL when Ctrl-C dropped it. */
static char *piece_text(const char *first)
{
	struct sbuf sb = { 0 };
	char *more;

	sb_puts(&sb, first);
	while (iscan_depth(sb.s) > 0) {
		icomplete_pending(sb.s);
		continuing = 1;
		dropped = 0;
		more = read_line("...> ", 0);
		continuing = 0;
		icomplete_pending(NULL);
		if (dropped) {	/* what was typed after Ctrl-C is a command */
			if (tty && more && *more)
				add_history(more);
			next_command = more;
			free(sb.s);
			return NULL;
		}
		if (!more)
			break;
		sb_printf(&sb, "\n%s", more);
		free(more);
	}
	history_piece(sb.s);
	return sb.s;
}

#define QUIT (-1)

/* The command's status: 0, 1 after a message, or QUIT. */
static int dispatch(struct isession *is, const char *word, const char *rest)
{
	int rc = 0;

	if (!strcmp(word, "quit") || !strcmp(word, "exit"))
		return QUIT;
	if (!strcmp(word, "add")) {
		char *text = piece_text(rest);

		rc = text ? iscript_add(is, text) : 0;
		free(text);
		return rc;
	}
	if (!strcmp(word, "delete"))
		return iscript_delete(is, rest);
	if (!strcmp(word, "list")) {
		iscript_list(is);
		return 0;
	}
	if (!strcmp(word, "edit"))
		return iscript_edit(is);
	if (!strcmp(word, "load"))
		return iscript_load(is, rest);
	if (!strcmp(word, "save"))
		return iscript_save(is, rest);
	if (!strcmp(word, "run"))
		return iscript_run(is) ? 1 : 0;
	if (!strcmp(word, "set"))
		return iset(is, rest);
	if (!strcmp(word, "show"))
		return ishow(is, rest);
	if (!strcmp(word, "help"))
		return help(rest);
	fprintf(stderr, "stp: no command '%s' (help lists them)\n", word);
	return 1;
}

/* The line's first word and the rest, trimmed; blank lines and
 * comments are no command. */
static int command(struct isession *is, char *line)
{
	char *word = line, *rest;
	size_t n;

	while (isspace((unsigned char)*word))
		word++;
	n = strcspn(word, " \t");
	rest = word + n;
	while (isspace((unsigned char)*rest))
		rest++;
	for (char *e = rest + strlen(rest); e > rest && isspace((unsigned char)e[-1]);)
		*--e = '\0';
	word[n] = '\0';
	if (!*word || *word == '#')
		return 0;
	return dispatch(is, word, rest);
}

/* Ctrl-C at the prompt drops the line being typed, as in a shell (and
 * on a continuation line the piece). */
static void on_sigint(int sig)
{
	(void)sig;
	if (continuing) {
		dropped = 1;
		rl_set_prompt("stp> ");
	}
	if (write(STDOUT_FILENO, "\n", 1) < 0)
		return;
	rl_on_new_line();
	rl_replace_line("", 0);
	rl_redisplay();
}

static const char *history_path(void)
{
	const char *home = getenv("HOME");

	return home && *home ? ar_printf("%s/.stp_history", home) : NULL;
}

static void start_readline(struct isession *is)
{
	struct sigaction sa = { .sa_handler = on_sigint };

	rl_readline_name = "stp";
	rl_catch_signals = 0;
	sigaction(SIGINT, &sa, NULL);
	using_history();
	if (history_path())
		read_history(history_path());
	icomplete_init(is);
	puts("stp interactive mode: help lists the commands, Tab completes, Ctrl-D quits.");
}

static void end_readline(void)
{
	if (!history_path())
		return;
	if (write_history(history_path()))
		fprintf(stderr, "stp: cannot write %s\n", history_path());
	history_truncate_file(history_path(), 1000);
}

int interactive_main(struct session *s)
{
	struct isession is = { .opts = *s };
	char *line;
	int failed = 0;

	is.opts.script_file = NULL;
	is.opts.script_text = NULL;
	tty = isatty(STDIN_FILENO);
	/* "stp -i < commands 2>&1": each line in its place among the messages */
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (tty)
		start_readline(&is);
	if (s->script_text)
		failed = iscript_add(&is, s->script_text);
	else if (s->script_file)
		failed = iscript_load(&is, s->script_file);
	while ((line = next_command ? next_command : read_line("stp> ", 1))) {
		int rc;

		next_command = NULL;
		diag_reset();
		rc = command(&is, line);
		free(line);
		if (rc == QUIT)
			break;
		failed |= rc;
	}
	if (!line && tty)
		putchar('\n');
	if (tty)
		end_readline();
	/* "stp -i < commands" fails when one of them did; at the prompt
	 * each says so at once */
	return tty ? 0 : failed;
}
