/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * -o FILE -S SIZE_MB[,COUNT]: output in FILE.0, FILE.1, ..., each at
 * most SIZE_MB megabytes; with COUNT, only the COUNT newest are kept.
 * Built into stprun and into stp (which checks -S with the same code).
 */
#ifndef STP_ROTATE_H
#define STP_ROTATE_H

#include <stdio.h>

#define ROTATE_MAX_MB	(1L << 20)	/* a terabyte a file */

/* "SIZE_MB[,COUNT]": 0, or -1 when it is not that; *count 0 when absent. */
int rotate_parse(const char *arg, long *size_mb, long *count);

/*
 * A stream that writes path.0 (created or emptied) and goes on to the
 * next file when a write would take the current one past size bytes; it
 * cuts after the last newline that fits, so lines are not split unless
 * one is longer than a file.  NULL with errno set if path.0 cannot be
 * written.
 */
FILE *rotate_open(const char *path, long size, long count);

/* Go on to the next file now (switch_file()): 0, or -1 with errno set;
 * f is the stream rotate_open gave. */
int rotate_next(FILE *f);

#endif
