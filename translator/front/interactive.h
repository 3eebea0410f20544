/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stp -i: a prompt that builds a script piece by piece (SystemTap's
 * interactive mode).  The files, one concern each:
 *
 *   interactive.c           the command loop: readline, history, help
 *   interactive_script.c    the session's script: its pieces, their
 *                           checks (passes 1-2), load/save/edit, run
 *   interactive_scan.c      the script text's shape: brace depth, where
 *                           pieces start, the probe point being written
 *   interactive_set.c       set/show: the options runs and checks take
 *   interactive_complete.c  Tab: commands, probe points, functions,
 *                           globals and $variables
 *
 * The passes run in a child process each time (a check, a run): what
 * they leave behind (arenas, caches, the error counts) goes with it,
 * and the session keeps only texts.
 */
#ifndef STP_INTERACTIVE_H
#define STP_INTERACTIVE_H

#include "session.h"

struct isession {
	struct session opts;	/* the command line's options, as set changes them */
	struct vec pieces;	/* char *: the script, one declaration or more each */
	char *edit_text;	/* a failed edit's text, where the next edit starts */
	int generation;		/* bumped when the target changes: Tab's caches go */
};

/* driver.c: passes 2 to 5 after pass 1 (the batch mode's path). */
int driver_after_pass1(struct session *s);

int interactive_main(struct session *s);

/* interactive_script.c: each 0 on success, 1 after a message. */
int iscript_add(struct isession *is, const char *text);
int iscript_delete(struct isession *is, const char *arg);
void iscript_list(const struct isession *is);
int iscript_load(struct isession *is, const char *path);
int iscript_save(const struct isession *is, const char *path);
int iscript_edit(struct isession *is);
int iscript_run(struct isession *is);

/* interactive_scan.c */
/* Brace depth at the end of text (strings, comments, %{ %} skipped). */
int iscan_depth(const char *text);
/* Where each top-level declaration of text starts (its line's start
 * when it begins the line), as offsets; the first is always 0. */
void iscan_starts(const char *text, struct vec *offsets);
/* In an "add" text ending at the cursor: 1 when the cursor is in a
 * probe point list (before the body's '{'), 2 in a body, 0 elsewhere;
 * *point gets the first point of the probe being written (or NULL). */
int iscan_context(const char *text, const char **point);

/* interactive_set.c */
int iset(struct isession *is, const char *args);
int ishow(const struct isession *is, const char *name);
/* The option names set and show take, NULL-terminated (for Tab). */
const char *const *iset_names(void);
/* argv for a child stp with the session's target (-r, --sysroot, -I):
 * the lister Tab uses. */
void iset_target_args(const struct isession *is, struct vec *argv);

/* interactive_complete.c */
void icomplete_init(struct isession *is);
/* The lines of an add typed so far, on its continuation lines (or NULL). */
void icomplete_pending(const char *text);
const char *const *interactive_commands(void);

#endif
