/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kernel.function, module(M).function, kernel.statement and kprobe.*:
 * matched in ../../elab/probes.c by the kernel's DWARF (../../dwarf/)
 * or its symbol table (../../symbols/ksyms.c).
 *
 *   kprobe_points.c            the family's row (family.h)
 *   kprobe_kmod.c       each one's kprobe or kretprobe entry, and a
 *                       kprobe's hit function
 *   kprobe_bpf.c        a BPF trampoline program (fentry/fexit) or a
 *                       kprobe, its registers laid out as a kprobe's
 *   kprobe_bpf_entry.c  @entry in a .return under BPF
 */
#ifndef STP_KPROBE_FAMILY_H
#define STP_KPROBE_FAMILY_H

#include "../../elab/elab.h"

/* kprobe_kmod.c: probe idx's entry; stp_kprobes[] and the hits */
void em_kprobe_entry(struct emit *m, int idx, const struct derived_probe *d);
void em_kprobe_tables(struct emit *m, struct sbuf *o);
/* what probefunc() and probemod() read, in its struct stp_probe */
void em_kprobe_fields(struct sbuf *o, const struct derived_probe *d);

/* kprobe_bpf.c */
int bx_kfunc_is_kprobe(struct bx *x, const struct derived_probe *d);
const char *bx_kfunc_section(struct bx *x, struct derived_probe *d, int i, struct sbuf *att);
void bx_kfunc_prologue(struct bx *x, const struct derived_probe *d, int i);
void bx_kfunc_context(struct bx *x, int is_return, int kprobe);
/* kprobe_bpf_entry.c: @entry in their .return */
void bx_kentry_program(struct bx *x, struct derived_probe *d, int idx, const char *sec,
		       struct sbuf *att);
void bx_kentry_take(struct bx *x, const struct derived_probe *d);
/* an @entry's saved value, or NULL when n is not in a kernel .return */
const char *bx_kentry_find(const struct node *n);

#endif
