/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SDT markers (<sys/sdt.h>) at the points of stp's pipeline where
 * SystemTap has its own: the start and end of each pass, the module
 * cache, the commands stp runs.  tapsets/stap_markers.stp names them
 * stap.pass0 ... stap.pass6.end, stap.cache_*, stap.system*, as
 * SystemTap does.  A marker is a nop until a uprobe is put on it.
 */
#ifndef STP_MARKERS_H
#define STP_MARKERS_H

#include "session.h"

#include <sys/sdt.h>

/* The "session" argument of the pass markers: SystemTap's scripts read
 * the script's name from it (markers.c says how). */
const void *markers_session(const struct session *s);

/* MARK_PASS(pass0__start, s): marker stap:NAME with the session. */
#define MARK_PASS(name, s) STAP_PROBE1(stap, name, markers_session(s))

/* The macro library that tells the tapset where the stp and stprun that
 * run are: @stp_exe, @stprun_exe. */
struct source *markers_library(void);

/* Run argv, its output to log (kept on the terminal when verbose), as
 * SystemTap's stap_system() does, with its stap.system markers: its
 * exit status (127: it could not be run), or -1. */
int markers_system(char *const argv[], const char *log, int verbose);

#endif
