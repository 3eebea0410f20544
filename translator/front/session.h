/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The session: everything the command line says, and what the passes
 * share.  Passes get it as an argument; nothing travels through
 * hidden globals.
 *
 * translator/front/, where a run of stp starts:
 *
 *   options.c      the command line, as stap takes it
 *   driver.c       the order of the passes, for both backends
 *   target.c       the target kernel as the preprocessor sees it
 *   pass1.c        pass 1: the macro libraries, then the script
 *   script_find.c  the script file ("stp vitals.stp" from anywhere)
 *   markers.c      stp's own SDT markers at the passes (markers.h)
 *   interactive*.c stp -i: the loop, its script, set/show, Tab, text
 *                  shape (interactive.h)
 */
#ifndef STP_SESSION_H
#define STP_SESSION_H

#include "../../parser/ast.h"
#include "../../parser/parse.h"

#include <stdio.h>

struct session {
	/* command line */
	int last_pass;		/* -p N; 5 when not given */
	int verbose;		/* -v count */
	int guru;		/* -g */
	int keep;		/* -k */
	int unoptimized;	/* -u */
	int warn_mode;		/* 0 with -w, 2 with -W, else 1 */
	const char *script_file;	/* FILE, or NULL with -e */
	const char *script_text;	/* -e SCRIPT */
	struct vec include_dirs;	/* -I DIR */
	struct vec defines;	/* -D NAME=VALUE */
	struct vec globals;	/* -G VAR=VALUE */
	struct vec bopts;	/* -B OPT */
	const char *module_name;	/* -m */
	const char *kernel_release;	/* -r */
	const char *output_file;	/* -o */
	const char *vitals_db;		/* --vitals-db: stprun's, for chopstix.stp */
	const char *vitals_limit;	/* --vitals-limit MB[,DAYS]: the same */
	const char *command;	/* -c */
	long target_pid;	/* -x */
	const char *list_probe;	/* -l / -L */
	int list_vars;		/* -L */
	const char *compatible;	/* --compatible */
	int prologue;		/* --prologue-searching: 1 always, -1 never, 0 auto */
	const char *remote;	/* --remote */
	const char *runtime;	/* --runtime: "kmod", "bpf", or NULL */
	int types_by_btf;	/* the backend's wish (backend.h), for pass 2 */
	int smp;		/* --smp: the guest's CPUs (--remote=qemu) */
	const char *sysroot;	/* --sysroot: the target's root directory */
	const char *vmlinux;	/* --vmlinux: the kernel's debuginfo */
	struct vec debug_files;	/* -d FILE: debuginfo of modules, programs */
	struct vec user_files;	/* pass 2: programs and libraries probed
				 * (paths here), hashed into the cache key */
	int buffer_mb;		/* -s */
	long timeout_ms;	/* -T SECONDS, in ms; 0 when not given */
	int detach;		/* -F: stprun leaves the module running */
	const char *rotate;	/* -S SIZE_MB[,COUNT], checked */
	int argc;		/* script arguments */
	char **argv;

	/* derived */
	struct pp_env env;
	const char *arch;
	const char *tapset_root;	/* installed/in-tree tapset dir */

	/* pass 1 results */
	struct script *user;
	int macro_files;	/* .stpm files read */
	struct vec library_files;	/* .stp paths, parsed on demand */
	struct pp *pp;		/* holds the library macros */
	struct parse_opts lib_opts;
	/* --dump-functions 1, --dump-probe-aliases 2 (dump_names.c) */
	int dump_names;
	/* -i: stp -i's prompt (interactive.c) instead of a batch run */
	int interactive;
};

int opts_parse(struct session *s, int argc, char **argv);
void target_init(struct session *s);	/* kernel version, arch, CONFIG */
/* Where this machine reads the target's file t: under --sysroot when it
 * is there, else t itself; NULL when neither is a regular file. */
const char *target_path(const struct session *s, const char *t);
int regular_file(const char *path);
/* Files of the tapset search path, .stpm first, each list sorted. */
void tapset_files(const struct session *s, struct vec *stpm, struct vec *stp);

/* script_find.c: the script file, looked up in stp's script directories
 * when it is a bare name not found here; NULL after the message. */
struct source *script_load(struct session *s);
int pass1_parse(struct session *s);
/* -T: the probe that ends the run, first among the user's; 1 on errors. */
int pass1_timeout_probe(struct session *s);

struct elab;
struct elab *pass2_elaborate(struct session *s);	/* NULL after errors */
void pass2_print(struct elab *e);
int elab_probe_count(const struct elab *e);
int elab_function_count(const struct elab *e);
int elab_global_count(const struct elab *e);
/* The path of a program shipped with stp (stprun): beside stp, else NAME. */
const char *run_helper(const char *name);

/* probe_types.c: --dump-probe-types */
void probe_types_dump(FILE *f);
/* dump_names.c: --dump-functions, or with aliases --dump-probe-aliases */
int dump_names(struct session *s, int aliases);

/* -l/-L's line for derived probe i. */
const char *elab_list_line(struct elab *e, int i, int with_vars);

#endif
