/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the generated code shares with the runtime: the part of the
 * per-CPU context every handler uses, the probe descriptors, and the
 * macros that statements expand to.  Globals' locks are in locks.h,
 * string helpers in str.h, what the session offers in session.h.  The generated file defines
 * struct stp_context, whose first member is struct stp_ctx, with the
 * locals of its probes and the frames of its functions.
 */
#ifndef STP_CONTEXT_H
#define STP_CONTEXT_H

#include "shim.h"
#include "out.h"
#include "map.h"
#include "stat.h"
#include "format.h"
#include "transport.h"
#include "locks.h"
#include "str.h"
#include "session.h"
#include "throttle.h"

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/spinlock.h>
#include <linux/ptrace.h>
#include "compat.h"

struct stp_probe;

struct stp_ctx {
	int busy;
	int nesting;			/* function calls under way */
	long actions;			/* statements run by this hit */
	const char *error;		/* the message, or NULL */
	const char *error_where;	/* "operator '/' at f.stp:1:5" */
	const char *call_where;		/* the last function call's site */
	const struct stp_probe *probe;
	struct stp_out *out;
	struct pt_regs *regs;		/* kprobes, timer.profile; else NULL */
	void *entry;			/* .return: what @entry saved */
	char errbuf[MAXSTRINGLEN];	/* error("...") and friends */
	char *tok_next;			/* tokenize() state */
	char tok_buf[MAXSTRINGLEN];
	/* leaf helpers' text (target.h): off the stack, whatever MAXSTRINGLEN */
	char scratch[2][MAXSTRINGLEN];
	struct stp_throttle thr;	/* this CPU's overload state (throttle.h) */
};

/*
 * Generated handlers and functions: their arrays are fixed-size key and
 * argument lists indexed by constants, so the stack canary (which
 * -fstack-protector-strong adds for any array) would only cost every hit.
 * notrace: the runtime's hit path is not itself a place to probe.
 */
#define STP_HANDLER __no_stack_protector notrace
/*
 * A function the hot path calls on its rare branch (a probe prefix's
 * hit, the sampler's slow path) saves what it uses itself, so that its
 * callers keep their values in scratch registers across the call and
 * their common path needs no frame (tests/bench: every instruction of a
 * system call's event shows, under -icount).  The kernel is built
 * without SSE, as the attribute needs.
 */
#define STP_PRESERVES __attribute__((no_caller_saved_registers))

/* When a probe may run: the session state of the same number (probe.h). */
enum stp_probe_kind {
	STP_PK_BEGIN = 0,	/* starting */
	STP_PK_EVENT = 1,	/* timers, kprobes: running */
	STP_PK_END = 2,		/* stopping */
	STP_PK_ERROR = 3,	/* stopping after errors */
};

struct stp_probe {
	enum stp_probe_kind kind;
	const char *pp;			/* its probe point, as printed */
	const char *pn;			/* as the script named it, wildcards
					 * expanded, aliases not (pn()) */
	void (*handler)(struct stp_ctx *c);
	const struct stp_lockreq *locks;	/* in the globals' declaration
					 * order, one order for all (translator/kmod/access.c) */
	int nlocks;
	const char *func;		/* kprobes: the function, its module */
	const char *module;		/* ("kernel" for vmlinux) */
	int is_return;
	int syscall;			/* __x64_sys_*: user arguments in the
					 * pt_regs its first argument points to;
					 * 2: kernel.syscall, whose regs are
					 * those pt_regs */
	int act_static;			/* its handler counts no statements:
					 * it has fewer than MAXACTION, no
					 * loop and no call (probe.h) */
	int quiet;			/* its handler calls nothing, so
					 * prints nothing */
};

/* printf-style output from embedded C (STAP_PRINTF). */
void stp_out_kprintf(struct stp_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The end-of-run display of globals: "=5", "\"str\"", " @count=3 @min=...". */
void stp_display_long(struct stp_out *o, int64_t v);
void stp_display_str(struct stp_out *o, const char *s);
void stp_display_stat(struct stp_out *o, struct stp_stat *st,
		      const struct stp_stat_desc *d, int lead);

/*
 * Statement accounting: a block of n statements, and one loop turn,
 * each count against MAXACTION.  Both macros jump: on an error they go
 * to the handler's or function's unwind label (the generated code names
 * it), which releases what the frame holds and returns; the runtime
 * then reports the error (probe.h).  They are the only macros that hide
 * a jump, and the generated code is their only user.
 */
#define STP_ACT(c, n, where, unwind)					\
	do {								\
		if (unlikely(((c)->actions += (n)) > MAXACTION)) {	\
			stp_error_at((c), "MAXACTION exceeded", (where)); \
			goto unwind;					\
		}							\
	} while (0)

#define STP_FAIL(c, msg, where, unwind)					\
	do {								\
		stp_error_at((c), (msg), (where));			\
		goto unwind;						\
	} while (0)

#include "timer.h"
#include "stack.h"
#include "kprobes.h"
#include "uprobes.h"
#include "procfs.h"
#include "perf.h"
#include "process.h"
#include "probe.h"
#include "target.h"

#endif
