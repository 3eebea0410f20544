/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Between the files of process(...) points: uprobes.c (the points),
 * uprobe_syms.c (functions by ELF symbol table) and dwarf_find.c (a
 * program's separate debuginfo, and what to install without it).
 */
#ifndef STP_UPROBES_H
#define STP_UPROBES_H

#include <stdint.h>
#include <gelf.h>

#include "../elab/elab.h"

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
