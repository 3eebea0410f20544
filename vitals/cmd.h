/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stp-vitals' subcommands: one file each (dump.c, ...), listed in
 * stp_vitals.c's table.  A subcommand returns the exit status: 0, 1 for
 * a failure (a bad store), 2 for a usage error.
 */
#ifndef STP_VITALS_CMD_H
#define STP_VITALS_CMD_H

#include <stdint.h>

struct vcmd {
	const char *name;
	int (*run)(const struct vcmd *c, int argc, char **argv);
	const char *args;	/* after the name, for the usage line */
	const char *summary;	/* one line for --help */
	void (*help)(void);	/* more for NAME --help, or NULL */
};

/* "stp-vitals: NAME: message" and the usage line on stderr; returns 2. */
int vcmd_usage(const struct vcmd *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* "stp-vitals: message" on stderr; returns 1. */
int vcmd_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The option's value: --opt=V or --opt V (moving *i); NULL if none. */
const char *vcmd_value(int argc, char **argv, int *i, const char *opt);
struct vread;
/* The store at path, read-only; NULL after saying why (exit status 1). */
struct vread *vcmd_open(const char *path);
/* A time option's value (when.h's forms) into *ns; 0, or the usage error. */
int vcmd_time(const struct vcmd *c, const char *opt, const char *v,
	      int64_t *ns);

int vcmd_dump(const struct vcmd *c, int argc, char **argv);
int vcmd_serve(const struct vcmd *c, int argc, char **argv);
int vcmd_metrics(const struct vcmd *c, int argc, char **argv);
int vcmd_rules(const struct vcmd *c, int argc, char **argv);
void vcmd_rules_help(void);
int vcmd_diff(const struct vcmd *c, int argc, char **argv);
void vcmd_diff_help(void);
int vcmd_report(const struct vcmd *c, int argc, char **argv);

#endif
