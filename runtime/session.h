/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the session (session.c) offers everything else: its settings,
 * errors, and the ways a run ends.
 */
#ifndef STP_SESSION_H
#define STP_SESSION_H

struct stp_ctx;
struct stp_probe;
struct pt_regs;

/* stprun -v: say what is skipped, refused, dropped (module parameter
 * stpd_verbose). */
extern int stp_verbose;

/* "next" unwinds like an error that nobody reports or catches. */
extern const char stp_next_mark[];

void stp_error_at(struct stp_ctx *c, const char *msg, const char *where);
void stp_error_fmt(struct stp_ctx *c, const char *where, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* 0 when the handler ran without an error. */
int stp_run_probe(const struct stp_probe *p, struct pt_regs *regs, void *entry);
void stp_request_exit(void);

/* Session facts tapset functions read. */
extern int stp_target_pid;

/* exit(): no more probe hits; end probes run when stprun answers. */
void stp_request_stop(void);

#endif
