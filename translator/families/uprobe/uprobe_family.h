/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * process("PATH").function/.statement/.library/.plt/.mark and
 * python3.module(...).function(...): user-space probes.
 *
 *   uprobe_points.c           the points, and the family's row (family.h)
 *   uprobe_syms.c       a program's functions by its ELF symbol table
 *   plt.c               process(...).plt: PLT stubs (plt.h)
 *   sdt_points.c               process(...).mark: SDT markers (sdt.h)
 *   sdt_var.c           a marker's $argN, $$name, $$parms
 *   python.c            python3.module(...).function(...): aliases over
 *                       CPython's markers (python.h)
 *   uprobe_kmod.c       each one's entry in the module's stp_uprobes[]
 *   uprobe_bpf.c        a uprobe or uretprobe program
 *   uprobe_bpf_entry.c  @entry in a .return under BPF
 *
 * and ../../dwarf/dwarf_find.c (a program's separate debuginfo, and what
 * to install without it).
 */
#ifndef STP_UPROBES_H
#define STP_UPROBES_H

#include <stdint.h>
#include <gelf.h>

#include "../../elab/elab.h"

/* uprobe_points.c: process(...) points.  -1 when pp is none (or the process
 * family's: process.begin, ...); 0 after an error; 1 when out holds the
 * points found (struct derived_probe * templates: pp, family and the
 * uprobe fields), none for an optional point that names nothing there
 * is. */
int uprobes_match(struct elab *e, struct probe_point *pp, struct vec *out);

/* uprobe_kmod.c */
/* What probefunc() and probemod() read, in its struct stp_probe. */
void em_uprobe_fields(struct sbuf *o, const struct derived_probe *d);
/* Its entry in the uprobe or process table (probe idx, just emitted). */
void em_uprobe_entry(struct emit *m, int idx, const struct derived_probe *d);
/* The tables, stp_uprobes[] and stp_procprobes[], even when empty. */
void em_uprobe_tables(struct emit *m, struct sbuf *o);

/* uprobe_bpf.c: the program's section, its attach row */
const char *bx_uprobe_section(struct bx *x, struct derived_probe *d, int i, struct sbuf *att);
/* uprobe_bpf_entry.c: @entry in a uprobe's .return: a program at the
 * entry saves the values (kern_probe calls the first two) */
void bx_entry_probe(struct bx *x, struct derived_probe *d, int i, struct sbuf *att);
void bx_entry_fetch(struct bx *x, struct derived_probe *d, int i);
const char *bx_entry_value(struct bx *x, struct node *n);
void bx_entry_decls(struct sbuf *o);
/* 1 when .return probe d has an @entry (a kernel.syscall one's entry
 * program is in sys_enter's dispatch: ../syscall/syscall_bpf.c) */
int bx_has_entry(const struct derived_probe *d);

/* uprobe_syms.c */
struct up_sym {
	const char *name;	/* interned */
	uint64_t addr;		/* link-time address */
};

/* The functions defined in elf whose names match glob (struct up_sym *,
 * appended to out by name, then address): from .symtab, else .dynsym. */
void up_symbols(Elf *elf, const char *glob, struct vec *out);
/* Which table up_symbols() reads: ".symtab", ".dynsym" or NULL. */
const char *up_symtab_name(Elf *elf);
/* One symbol per address, the first of each: aliases are one function. */
void up_unique(struct vec *syms);

/* dwarf_find.c */
/* The separate debuginfo of a file of the target (its path target, read
 * here from host): a -d file of the same build-id, else
 * /usr/lib/debug/.build-id/NN/REST.debug, else /usr/lib/debug/PATH.debug
 * of the same build-id, else the .gnu_debuglink file beside it, in its
 * .debug/ or under /usr/lib/debug: each under --sysroot first, then here
 * (a build-id names one build, whichever root holds it).  NULL without;
 * the paths looked at are added to tried. */
const char *dw_find_user(const struct session *s, Elf *elf, const char *target,
			 const char *host, struct sbuf *tried);
/* What to do without debuginfo for that file: install the -dbg or
 * -dbgsym package of the Debian package holding it (dpkg -S, for a file
 * of this machine), else put a debug file at the build-id path, else
 * build it with -g. */
const char *dw_user_remedy(Elf *elf, const char *target, const char *host);

#endif
