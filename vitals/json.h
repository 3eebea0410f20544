/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * JSON output for stp-vitals (json.c).  Strings come from the kernel
 * (paths, symbols, a program's comm), so they may hold any byte: quotes,
 * backslashes, control characters and DEL are escaped, bytes that are not
 * UTF-8 become U+FFFD, and U+2028/U+2029 are escaped too, so a line is
 * valid JSON and safe to paste into a script.
 */
#ifndef STP_VITALS_JSON_H
#define STP_VITALS_JSON_H

#include <stdio.h>

/* s as a JSON string, quotes included; null for NULL. */
void json_str(FILE *f, const char *s);
/* Lines of s ('\n' between) as a JSON array of strings; [] for NULL or "". */
void json_lines(FILE *f, const char *s);

#endif
