/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stprun: loads a module made by stp, runs its session over the
 * transport (transport_msg.h), prints its output, unloads it.
 *
 *   main.c     options, the session loop, signals, -c/-x
 *   cmdline.c  -c CMD split into words (stp checks it with the same code)
 *   module.c   module name and parameters, load, unload, the guardian
 *              process that unloads the module if stprun is killed
 *   trace.c    the per-CPU trace files, merged by record sequence
 *   report.c   the summary of STP_MSG_DONE
 *   detach.c   -F (detach, or run as a daemon) and -A (attach again)
 *   rotate.c   -S: the output in FILE.0, FILE.1, ...
 *   usym.c     symbols of user addresses in print_ubacktrace's output
 *   epoch.c    Chopstix epochs: read from the module, stored (vitals/)
 *   epoch_sum.c  their terminal summary
 *   stdin.c    standard input to input.char and input.line probes
 */
#ifndef STPRUN_H
#define STPRUN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "transport_msg.h"

extern int stprun_verbose;

/* "stprun: ..." to stderr; vsay only with -v. */
void warnx_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void vsay(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* module.c */
char *mod_name(const char *path);		/* "a/b-c.ko" -> "b_c" */
int mod_param_ok(const char *arg);		/* var=value */
int mod_is_loaded(const char *name);
int mod_load(int fd, const char *name, const char *params);
int mod_unload(const char *name, int seconds);
int guard_start(const char *name);		/* the write end, or -1 */
void guard_tell(int fd, char what);		/* 'L' loaded, 'U' unloaded */
int debugfs_ensure(void);

/* trace.c */
struct traces;
struct traces *traces_open(const char *dir);
/* Read what is there and write what is in order; drain: everything. */
int traces_pump(struct traces *t, FILE *out, int drain);
void traces_close(struct traces *t);
/* Records read that wait for a missing predecessor (1), or none (0). */
int traces_held(const struct traces *t);
/* The sequence number written next; where an attaching stprun goes on. */
uint32_t traces_next(const struct traces *t);
void traces_resume(struct traces *t, uint32_t next);

/* detach.c: -F and -A */
/* Write what was read, in order, and say where the next stprun goes on. */
void detach_prepare(struct traces *t, FILE *out, struct stp_msg_detach *m);
void detach_said(const char *name);	/* after it: "NAME" and how to attach */
/* -F -o: the parent prints "NAME PID" and exits 0; 0 in the daemon. */
int daemonize(const char *name);
/* STP_MSG_ATTACHED: 0, or -1 after a message (the session was not detached). */
int attach_reply(struct traces *t, const char *name, const void *p, size_t len);

/* usym.c: fwrite, with print_ubacktrace's user frames symbolized */
void usym_write(const char *p, size_t n, FILE *out);
/* " : sym+0xoff/0xsize [/path]", " [/path+0xoff/0xsize]" or "" */
void usym_text(char *out, size_t n, int pid, uint64_t addr);
/* The same from a non-PIE executable's file, when the process is gone. */
void usym_exe_text(char *out, size_t n, const char *exe, uint64_t addr);

/* stdin.c: 1 when the module reads standard input (and it is passed
 * on from now), 0 when it does not, -1 when its file cannot be opened. */
int stdin_start(const char *modname);
int stdin_pump(void);		/* what standard input has now, to it */
void stdin_stop(void);

/* epoch.c and epoch_*.c: closed Chopstix epochs, to the terminal and the store */
struct epochs;
struct epochs *epochs_new(const char *modname, const char *db_path,
			  uint64_t max_bytes, uint64_t max_age_s);
/* --vitals-limit MB[,DAYS] as bytes and seconds (0: none): 0, or -1 when
 * arg is not of that form (the caller says so). */
int epochs_limits(const char *arg, uint64_t *max_bytes, uint64_t *max_age_s);
/* Read the closed epoch from the module, summarize it to out, store it:
 * 1, or 0 when there was none, or -1. */
int epochs_collect(struct epochs *e, FILE *out);
/* The records of one closed epoch in buf (vitals_msg.h's, as the module
 * gives them; the BPF runner's are made in user space), which it frees:
 * stored, then summarized; t0 is now_ms() when the reading began. */
int epochs_take(struct epochs *e, char *buf, size_t n, FILE *out, double t0);
double now_ms(void);
/* 1 when the module has a sampler (its vitals file). */
int epochs_present(const char *modname);
void epochs_free(struct epochs *e);

/* report.c */
int report_done(const struct stp_msg_done *d, size_t len);
void report_lost_records(uint64_t n);

#endif
