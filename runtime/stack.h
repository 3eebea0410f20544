/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Stack traces and symbols (stack.c), for tapsets/stack.stp: the kernel
 * stack of a probe hit by the kernel's own unwinder (ORC on x86-64), the
 * user stack by frame pointers, and kallsyms lookups, formatted as
 * SystemTap formats them:
 *
 *   backtrace(), callers(n)   "0xffffffff81234567 0xffffffff81234568"
 *   symname(a)                "vfs_read", or "0x%016lx" when unknown
 *   symdata(a)                "vfs_read+0x4/0x140 [kernel]", or "0x%016lx"
 *   print_stack(bt)           " 0xffffffff81234567 : vfs_read+0x4/0x140 [kernel]\n" a frame
 *   sprint_backtrace()        "vfs_read+0x4 [kernel]\n" a frame
 *
 * Buffers are per CPU, allocated at module init (stp_stack_alloc); the
 * callers run inside a probe hit, with interrupts off and the CPU's
 * context taken, so each CPU's buffer is theirs alone.
 */
#ifndef STP_STACK_H
#define STP_STACK_H

#ifndef MAXBACKTRACE
#define MAXBACKTRACE 20		/* frames of a backtrace, as SystemTap's */
#endif

/*
 * User frames in print_ubacktrace's output carry this marker, which
 * stprun replaces with " : sym+0xoff/0xsize [/path]" when it can read
 * the process's maps and ELF symbols (staprun/usym.c), and drops when
 * it cannot:  STP_USYM_OPEN "pid hexaddr" STP_USYM_CLOSE
 */
#define STP_USYM_OPEN	'\036'
#define STP_USYM_CLOSE	'\037'

struct stp_ctx;

int stp_stack_alloc(void);
void stp_stack_free(void);

/* This CPU's frame array of MAXBACKTRACE entries. */
unsigned long *stp_stack_pcs(void);

/* The hit's kernel stack into pcs (at most max); the count. */
int stp_kstack(struct stp_ctx *c, unsigned long *pcs, int max);
/* A task that is not running: its kernel stack where it left the CPU. */
struct task_struct;
int stp_task_kstack(struct task_struct *t, unsigned long *pcs, int max);
/* The current task's user stack, by frame pointers; 0 when none. */
int stp_ustack(struct stp_ctx *c, unsigned long *pcs, int max);

/* SystemTap's symname() and symdata() of a kernel address. */
void stp_symname(char *dst, size_t n, unsigned long addr);
void stp_symdata(char *dst, size_t n, unsigned long addr);

/*
 * pcs as text into dst (MAXSTRINGLEN), whole items only:
 *   STP_BT_HEX     "0x... 0x..."
 *   STP_BT_SIMPLE  "sym+0xoff [mod]\n" a frame (sprint_backtrace)
 *   STP_BT_FULL    " 0x... : sym+0xoff/0xsize [mod]\n" a frame
 *   STP_BT_ULINES  "0x...\n" a frame (sprint_ubacktrace: no symbols here)
 */
enum { STP_BT_HEX, STP_BT_SIMPLE, STP_BT_FULL, STP_BT_ULINES };
void stp_stack_sprint(char *dst, const unsigned long *pcs, int n, int how);
/* The same, STP_BT_FULL, to the hit's output: no length limit. */
void stp_stack_print(struct stp_ctx *c, const unsigned long *pcs, int n);
/* print_ubacktrace: " 0x..." and the marker stprun symbolizes. */
void stp_ustack_print(struct stp_ctx *c, const unsigned long *pcs, int n);

/*
 * print_stack(stk), sprint_stack(stk): each space-separated token of stk
 * (hex addresses, from backtrace() or callers()) as " TOKEN : symdata\n";
 * a token that is no number is address 0, as strtol would make it.
 */
void stp_syms_print(struct stp_ctx *c, const char *stk);
void stp_syms_sprint(char *dst, const char *stk);

#endif
