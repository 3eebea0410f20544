/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Times on stp-vitals' command line and in its output (when.c), as
 * nanoseconds of Unix time.
 */
#ifndef STP_VITALS_WHEN_H
#define STP_VITALS_WHEN_H

#include <stdint.h>

#define WHEN_LEN 80	/* room for when_format's text */
#define WHEN_FORMS "RFC 3339 as 2026-11-24T18:40:00.000Z, Unix seconds," \
	" or -10m, -2h, -1d back from now"

/* RFC 3339 UTC with milliseconds: "2026-11-24T18:40:00.000Z". */
char *when_format(int64_t ns, char buf[WHEN_LEN]);
/*
 * One of WHEN_FORMS into *ns; now_ns for the relative ones.  RFC 3339
 * takes any fraction of a second and Z or a +HH:MM/-HH:MM offset.
 * 0, or -1 when s is none of them.
 */
int when_parse(const char *s, int64_t now_ns, int64_t *ns);

#endif
