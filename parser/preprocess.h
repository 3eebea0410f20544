/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The preprocessor: conditionals %( COND %? A %: B %), @define macros,
 * macro libraries (.stpm), and script arguments ($1, @1, $#, @#).
 */
#ifndef STP_PREPROCESS_H
#define STP_PREPROCESS_H

#include "lex.h"

/* What conditionals can test: the target and the session. */
struct pp_env {
	const char *kernel_v;		/* "6.1.0" */
	const char *kernel_vr;		/* "6.1.0-56-amd64" */
	const char *arch;		/* "x86_64" */
	const char *runtime;		/* "kernel" */
	const char *systemtap_v;	/* language compatibility level */
	const char *privilege;		/* "stapdev", "stapsys", "stapusr" */
	int guru;			/* -g */
	int argc;			/* script arguments */
	char **argv;
	/* CONFIG_FOO's value ("y", "m", "...") or "" when unset. */
	const char *(*config)(void *ctx, const char *name);
	void *config_ctx;
};

struct pp;

struct pp *pp_new(const struct pp_env *env);
/*
 * Preprocess one file's tokens into out (which ends with TK_EOF).  A
 * macro library (src->is_macro_lib) only defines macros, which become
 * visible to every later file; other files' macros are their own.
 */
void pp_file(struct pp *pp, const struct source *src,
	     const struct tokens *in, struct tokens *out);
/* Lex and preprocess in one step.  The result lives in pp and is
 * valid until the next call. */
const struct tokens *pp_source(struct pp *pp, const struct source *src);

/* Compare versions the way glibc's strverscmp does. */
int pp_vercmp(const char *a, const char *b);

#endif
