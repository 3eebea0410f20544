/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the last successful "=~" matched, group by group, for matched(),
 * matched_str() and ngroups() (tapsets/regex.stp): regex.c includes
 * regex_sub.c, and the state in struct stp_re, only when a script uses
 * them (the state is some 60 KB a CPU).
 */
#ifndef STP_REGEX_SUB_H
#define STP_REGEX_SUB_H

#define STP_RE_NSUB 10		/* the whole match and groups 1-9 */

/* The last match's group n (0: all of it) into dst, "" when the group
 * took no part; 0, -1 when the last =~ did not match, -2 when the
 * expression has no group n, -3 for a group past STP_RE_NSUB - 1. */
int stp_regex_group(int64_t n, char *dst);
/* The last match's number of groups, or -1 when it did not match. */
int stp_regex_ngroups(void);

#endif
