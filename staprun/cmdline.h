/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * -c CMD: the command split into words as a shell would, so that the
 * program runs without a shell in between and target() is the program
 * itself.  stprun runs it; stp checks it when it reads its options, so
 * that a bad command stops stp before it builds anything.
 */
#ifndef STP_CMDLINE_H
#define STP_CMDLINE_H

#include <wordexp.h>

struct cmd {
	const char *path;	/* the file to execvp */
	char **argv;		/* the program and its arguments, NULL-ended */
	char **env;		/* NAME=VALUE words before it, for its environment */
	int nenv;
	int shell;		/* 1: argv is /bin/sh -c CMD */
	char *sh_argv[4];	/* argv when shell */
	wordexp_t we;		/* holds the words (when !shell) */
};

/*
 * 0, or -1 with *err a message for the user (allocated): an empty
 * command, an unmatched quote, an undefined variable.
 */
int cmd_parse(struct cmd *c, const char *text, char **err);
void cmd_free(struct cmd *c);

#endif
