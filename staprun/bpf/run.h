/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The runner's parts (staprun/bpf/): main.c, out.c, maps.c. */
#ifndef STP_BPF_RUN_H
#define STP_BPF_RUN_H

#include "../../runtime/bpf/user.h"

#include <signal.h>

struct bpf_object;

extern volatile sig_atomic_t stp_u_stop;
extern int stp_u_errors;

/* out.c */
union stp_val;
void stp_u_format(const char *fmt, const union stp_val *args, int n);
void stp_u_record(const void *data, size_t size);
void stp_u_report(void);
void stp_u_time_init(void);	/* and the CPU count */
void stp_u_stopping(void);
void stp_u_set_target(long long pid);	/* target(): -c's or -x's process */	/* kernel probes do nothing from now on */
void stp_u_verifier_error(struct bpf_object *obj, int rc);
void stp_u_log_append(const char *text);

/* hist.c: a kernel probe's print(@hist_*(s)), as its site says */
struct stp_bhist;
void stp_u_hist_rec(const struct stp_bhist *b, const char *site);

/* maps.c */
int stp_u_ncpus(void);
size_t stp_u_stride(stp_map_t m);	/* a per-CPU value's bytes per CPU */
void stp_u_display(void);

/* core.c: a CO-RE relocation this kernel lacks, in the script's terms;
 * 0 when the log has none */
int stp_u_core_error(const char *log);

/* globals.c: -G VAR=VALUE, checked before the run, set after init() */
int stp_u_globals_check(void);
void stp_u_globals_set(void);

/* ksym.c: output with the stack markers of stack.h symbolized */
#include <stdio.h>
void stp_u_symwrite(const char *p, size_t n, FILE *out);
void stp_u_ksymdata(char *dst, size_t n, uint64_t addr);
void stp_u_ksymname(char *dst, size_t n, uint64_t addr);

/* sketch.c: the Chopstix sampler's epochs, when the script uses it */
int stp_u_cx_limits(void);	/* --vitals-limit (STP_VITALS_LIMIT), checked first */
int stp_u_cx_attach(struct bpf_object *obj);	/* after loading */
void stp_u_cx_tick(void);			/* closes an epoch when it is time */
/* freemem.c: free memory for the vital signs, from /proc */
int stp_u_free_attach(struct bpf_object *obj);
void stp_u_free_tick(void);
void stp_u_cx_final(void);			/* the last epoch, after end */

#endif
