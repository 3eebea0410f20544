// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * -c CMD as SystemTap runs it: wordexp(3) splits it into words (quotes,
 * backslashes, $VAR, ~ and globs, but no command substitution), and the
 * program is executed directly, so that the shell's own system calls
 * are not counted as the target's.  What wordexp leaves to a shell goes
 * to /bin/sh -c: operators and redirections (| & ; < > ( ) { } and
 * newline: WRDE_BADCHAR), command substitution ($(...) and `...`:
 * WRDE_CMDSUB), and a first word only a shell knows (if, cd, read, ...).
 * Two shell forms keep the shell out: NAME=VALUE words before the
 * program set its environment, and a leading "exec" is dropped (the
 * program replaces the child either way).
 *
 * Built into stprun (static) and into stp, which checks a command when
 * it reads its options.
 */
#include "cmdline.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reserved words and builtins with no program of their own. */
static const char *const shell_only[] = {
	"!", "[[", "case", "do", "done", "elif", "else", "esac", "fi", "for",
	"function", "if", "in", "select", "then", "until", "while",
	".", ":", "alias", "bg", "break", "cd", "command", "continue", "eval",
	"exec", "exit", "export", "fc", "fg", "getopts", "hash", "jobs", "local",
	"read", "readonly", "return", "set", "shift", "source", "times",
	"trap", "type", "ulimit", "umask", "unalias", "unset", "wait",
};

static int is_shell_only(const char *w)
{
	for (size_t i = 0; i < sizeof(shell_only) / sizeof(*shell_only); i++)
		if (!strcmp(w, shell_only[i]))
			return 1;
	return 0;
}

static int is_assignment(const char *w)
{
	if (!isalpha((unsigned char)*w) && *w != '_')
		return 0;
	while (isalnum((unsigned char)*w) || *w == '_')
		w++;
	return *w == '=';
}

static int fail(char **err, const char *what, const char *text)
{
	if (asprintf(err, "-c: %s%s%s%s", what, text ? " in '" : "",
		     text ? text : "", text ? "'" : "") < 0)
		*err = NULL;
	return -1;
}

/* What WRDE_SYNTAX stopped at, as far as a quick scan tells. */
static const char *syntax_what(const char *s)
{
	char q = 0;

	for (; *s; s++) {
		if (q == '\'') {
			q = *s == '\'' ? 0 : q;
		} else if (*s == '\\') {
			if (!*++s)
				return "trailing backslash";
		} else if (q == '"') {
			q = *s == '"' ? 0 : q;
		} else if (*s == '\'' || *s == '"') {
			q = *s;
		}
	}
	return q ? "unmatched quote" : "bad shell syntax";
}

static void use_shell(struct cmd *c, const char *text)
{
	c->shell = 1;
	c->path = "/bin/sh";
	c->sh_argv[0] = "sh";
	c->sh_argv[1] = "-c";
	c->sh_argv[2] = (char *)text;
	c->sh_argv[3] = NULL;
	c->argv = c->sh_argv;
}

/* Past NAME=VALUE words and an "exec": the program.  0, or -1. */
static int find_program(struct cmd *c, const char *text, char **err)
{
	char **w = c->we.we_wordv;
	size_t n = c->we.we_wordc, i = 0;

	while (i < n && is_assignment(w[i]))
		i++;
	c->env = w;
	c->nenv = (int)i;
	if (i < n && !strcmp(w[i], "exec") && i + 1 < n && w[i + 1][0] != '-')
		i++;
	if (i == n)
		return fail(err, "no program to run", text);
	c->argv = w + i;
	c->path = w[i];
	return 0;
}

int cmd_parse(struct cmd *c, const char *text, char **err)
{
	int rc;

	memset(c, 0, sizeof(*c));
	text += strspn(text, " \t\n");
	if (!*text)
		return fail(err, "the command is empty", NULL);
	rc = wordexp(text, &c->we, WRDE_NOCMD | WRDE_UNDEF);
	switch (rc) {
	case 0:
		break;
	case WRDE_BADCHAR:
	case WRDE_CMDSUB:
		use_shell(c, text);
		return 0;
	case WRDE_SYNTAX:
		return fail(err, syntax_what(text), text);
	case WRDE_BADVAL:
		return fail(err, "undefined variable", text);
	default:
		return fail(err, "out of memory splitting the command", NULL);
	}
	if (find_program(c, text, err)) {
		cmd_free(c);
		return -1;
	}
	if (is_shell_only(c->path)) {
		wordfree(&c->we);
		use_shell(c, text);
	}
	return 0;
}

void cmd_free(struct cmd *c)
{
	if (!c->shell && c->we.we_wordv)
		wordfree(&c->we);
	memset(c, 0, sizeof(*c));
}
