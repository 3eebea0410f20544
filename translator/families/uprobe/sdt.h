/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SDT markers (<sys/sdt.h>, "USDT"): what a program's or library's
 * .note.stapsdt notes say (sdt_points.c), and their arguments as target
 * variables (sdt_var.c).  uprobe_points.c places the probes.
 */
#ifndef STP_SDT_H
#define STP_SDT_H

#include <gelf.h>
#include <stdint.h>

#include "../../elab/elab.h"

/* One argument, from its operand text: "-4@%eax", "8@-24(%rbp)",
 * "8@$5", "4@16(%rsp,%rax,4)", "8@8+sym(%rip)". */
enum sdt_where {
	SDT_REG,		/* reg (a part of it: shift, size) */
	SDT_IMM,		/* the value disp */
	SDT_MEM,		/* at disp [+ sym] [+ reg] [+ index * scale] */
};

struct sdt_arg {
	const char *text;	/* the operand as the note has it */
	int size;		/* bytes: 1, 2, 4 or 8 */
	int is_signed;		/* a negative size */
	enum sdt_where where;
	const char *reg;	/* struct pt_regs member, or NULL */
	int shift;		/* SDT_REG: %ah's 8, else 0 */
	const char *index;	/* SDT_MEM: pt_regs member, or NULL */
	int scale;
	int64_t disp;
	const char *sym;	/* SDT_MEM: a symbol disp counts from */
	uint64_t sym_addr;	/* its link-time address */
	int rip;		/* SDT_MEM: reg is %rip */
	int unreadable;		/* an operand stp does not know */
};

struct sdt_marker {
	const char *provider, *name;
	uint64_t pc;		/* link-time address, after .stapsdt.base */
	uint64_t sem;		/* the semaphore's address, or 0 */
	const char *argstr;	/* the note's argument string */
	int addr32;		/* an i386 file's: 4-byte addresses and operands */
	int nargs;
	struct sdt_arg *args;
};

/* The markers of elf, in note order (struct sdt_marker *); 0 and *why
 * when its notes cannot be read. */
int sdt_markers(Elf *elf, struct vec *out, const char **why);
/* Whether m is what provider (a glob, or NULL: any) and name (a glob)
 * name. */
int sdt_matches(const struct sdt_marker *m, const char *provider, const char *name);
/* "provider:name, ..." of the markers, each once, sorted; "none". */
const char *sdt_names(const struct vec *markers);
/* The file offset of link-time address a (a semaphore) in the file's
 * part of a PT_LOAD of elf; 0 when none maps it. */
int sdt_file_offset(Elf *elf, uint64_t a, uint64_t *off);
/* No marker of file of matches: the error at mark's pattern, with the
 * markers elf has (NULL: more than one file was searched). */
void sdt_no_match(const struct probe_comp *provider, const struct probe_comp *mark,
		  const char *of, Elf *elf);
/* process.mark: the program -c runs, or -x's, as proc's argument; 0
 * without either. */
int sdt_target_program(const struct session *s, struct probe_comp *proc);

/* sdt_var.c: $argN, $$name, $$provider, $$parms of marker probe d; as
 * btf_target(), n->ref becomes the function that computes it. */
int sdt_target(struct derived_probe *d, struct node *n, int write, int quiet);
/* -L's " $arg1:long ...". */
const char *sdt_list_vars(const struct derived_probe *d);

#endif
