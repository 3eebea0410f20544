/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The user side of a --runtime=bpf script: what its generated C
 * (begin, end and error probes, the tables of formats, errors and
 * globals) calls, and what it gives the runner (staprun/bpf/).  The map
 * operations have kern.h's names, over file descriptors.
 */
#ifndef STP_BPF_USER_H
#define STP_BPF_USER_H

#include <stdint.h>
#include <stddef.h>
#include "shared.h"

#define STP_INLINE static inline
typedef int stp_map_t;

/* One printf site's format and argument kinds ('l' long, 's' string). */
struct stp_u_fmt {
	const char *fmt;
	const char *types;
};

/* One global, for display at the end and for foreach. */
struct stp_u_global {
	const char *name;
	const char *map;	/* its map's name, or NULL: a scalar in .bss */
	char type;		/* 'l', 's', or 'S' (statistics) */
	const char *keys;	/* arrays: a letter per key (maps.c's key_width), else "" */
	int display;		/* written, never read: shown at the end */
	size_t off;		/* a scalar's offset in struct stp_globals */
};

/* A kernel probe's program and how to attach it. */
enum stp_u_how {
	STP_ATTACH_AUTO,	/* by its section (raw_tp/NAME) */
	STP_ATTACH_PERF_CPU0,	/* a perf event on the first CPU (timer.*) */
	STP_ATTACH_PERF_ALL,	/* a perf event on every CPU (profile, perf.*) */
	STP_ATTACH_UPROBE,	/* process("PATH").function/.mark: path, offset */
};

struct stp_u_attach {
	const char *prog;
	enum stp_u_how how;
	unsigned type;		/* perf_event_attr.type */
	unsigned long long config, period;
	int freq;
	const char *pp;		/* the probe point, for messages */
	/* STP_ATTACH_UPROBE: the file, the probe's offset in it, a USDT
	 * semaphore's offset (0: none), and whether it is a .return */
	const char *path;
	unsigned long long offset, ref_ctr;
	int retprobe;
};

/* A kernel file line where the script's code at pos ("FILE:LINE:COL")
 * starts: the verifier's refusals are told by script position. */
struct stp_u_line {
	int line;
	const char *pos;
};

struct stp_u_prog {
	const struct stp_u_attach *attach;
	int nattach;
	const struct stp_u_fmt *fmts;
	const char *const *errors;	/* by error site */
	const struct stp_u_global *globals;
	int nglobals;
	int strlen;			/* MAXSTRINGLEN */
	void (*init)(void);		/* global initial values */
	void (*begin)(void);
	void (*end)(void);
	void (*error)(void);
	int has_error_probe;
	const char *const *whats;	/* by error site: what catch gets */
	const struct stp_u_line *lines;	/* by kernel file line, ascending */
};

extern const struct stp_u_prog stp_prog;
extern int stp_fd[];			/* by global index */
extern void *stp_gp;			/* struct stp_globals, mapped */
#define stp_g (*(struct stp_globals *)stp_gp)

/* A probe's state, as kern.h's: errors stop the probe. */
struct stp_kctx {
	void *entry;
	int err;
	int in_try;		/* an error goes to catch, not to the run */
	char msg[4096];		/* what catch (e) gets */
};

#define stp_div(a, b) ((a) / (b))
#define stp_mod(a, b) ((a) % (b))

void stp_error(struct stp_kctx *k, unsigned id);
void stp_error_msg(struct stp_kctx *k, unsigned id, const char *msg);
void stp_exit(void);
void stp_printf(unsigned id, const int64_t *longs, const char *const *strs);
void stp_sprintf(char *dst, unsigned id, const int64_t *longs, const char *const *strs);
int stp_k_stopped(void);	/* an error ends the run's begin probes */
void stp_strcpy(char *dst, const char *src);
void stp_strncpy(char *dst, const char *src, size_t n);
int stp_strcmp(const char *a, const char *b);
void stp_concat(char *dst, const char *a, const char *b);

int64_t stp_get_long(stp_map_t m, const void *k);
void stp_get_str(stp_map_t m, const void *k, char *dst);
int stp_in(stp_map_t m, const void *k);
int stp_put(stp_map_t m, const void *k, const void *v);
int stp_add_long(stp_map_t m, const void *k, int64_t d, int64_t *out);
/* runtime/stat.c (linked for the histograms' drawing) has its own */
#define stp_stat_add stp_u_stat_add
int stp_stat_add(stp_map_t m, const void *k, int64_t v);
int stp_hstat_add(stp_map_t m, const void *k, int64_t v, int b);
/* print(@hist_log(s)) / print(@hist_linear(s, start, stop, interval)):
 * the CPUs' buckets added up, drawn as the kmod runtime draws them */
void stp_u_hist(stp_map_t m, const void *k, int linear, int64_t start, int64_t stop,
		int64_t interval);
/* @hist_*(s)[i]: bucket i of nbuckets, the CPUs' added up; 0 outside */
int64_t stp_u_hist_get(stp_map_t m, const void *k, int64_t i, int nbuckets);
/* The CPUs' shares added up; count 0 when there are none. */
void stp_stat_read(stp_map_t m, const void *k, struct stp_bstat *out);
int stp_delete(stp_map_t m, const void *k);
void stp_clear(stp_map_t m);

/* foreach: the keys of global g, sorted as the loop asks (by key
 * column col, or by value with col -1; dir +1, -1 or 0), at most limit
 * (0: all); returns how many, in *keys (one key struct after another). */
int stp_sorted_keys(int g, int col, int dir, int agg, int64_t limit, void **keys);

/* String functions in user space (the tapsets' are kmod C). */
int64_t stp_u_strlen(const char *s);
void stp_u_substr(char *dst, const char *s, int64_t start, int64_t len);
int64_t stp_u_isinstr(const char *a, const char *b);

/* Context functions in user space. */
void stp_execname(char *dst);
int64_t stp_pid(void);
int64_t stp_tid(void);
int64_t stp_uid(void);
int64_t stp_gid(void);
int64_t stp_cpu(void);
int64_t stp_time_ns(void);
int64_t stp_ktime_ns(void);	/* ktime_get_ns(): CLOCK_MONOTONIC */

/* Stacks (staprun/bpf/ksym.c): sprint_stack and sprint_ustack of a hex
 * list, symbolized. */
void stp_u_sprint_stack(char *dst, const char *stk);
void stp_u_sprint_ustack(char *dst, const char *stk);
void stp_u_symname(char *dst, int64_t addr);
void stp_u_symdata(char *dst, int64_t addr);

/* The Chopstix sampler (staprun/bpf/sketch.c): chopstix.stp's and
 * vitals.stp's functions called in begin and end. */
int64_t stp_u_cx_start(int64_t epoch_ms, int64_t hi, int64_t lo);
int64_t stp_u_cx_unavailable(const char *vital, const char *why);
int64_t stp_u_cx_declare(const char *vital);
void stp_u_hw_unavailable(char *dst, int64_t what);
int64_t stp_u_warn(const char *msg);	/* staprun/bpf/warn.c */

#include "tapset_user.h"

/* What the tapsets' BPF flavours call, user space's side (kern.h has
 * the kernel's, under the same names). */
#define stp_probefunc(dst) ((dst)[0] = 0)
#define stp_sprint_stack stp_u_sprint_stack
#define stp_sprint_ustack stp_u_sprint_ustack
#define stp_symname stp_u_symname
#define stp_symdata stp_u_symdata
#define stp_errno_str stp_u_errno_str
#define stp_errno_known stp_u_errno_known
#define stp_signal_name stp_u_signal_name
#define stp_signal_str stp_u_signal_str
#define stp_chopstix_start stp_u_cx_start
#define stp_chopstix_unavailable stp_u_cx_unavailable
#define stp_chopstix_declare stp_u_cx_declare
#define stp_hw_unavailable stp_u_hw_unavailable

#endif
