/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Debuginfo: the DWARF of the kernel, a module or a program, read with
 * elfutils libdw.
 *
 *   dwarf_find.c   where the debuginfo file is (distribution paths,
 *                  build-id links, --vmlinux, -d)
 *   dwarf_index.c  names -> DIEs (functions, inline functions, global
 *                  variables), built once per file and cached by build-id
 *   dwarf_scan.c   building that index from .debug_info read directly
 *                  (dw_read.h: its bounds-checked reads of DWARF's encodings)
 *   dwarf_cfa.c    the frame address at a pc, from .debug_frame
 *   dwarf_probe.c  probe points: function patterns, source lines,
 *                  prologues, inline instances
 *   dwarf_var.c    $variables: scopes, the member chain, the generated
 *                  function (dwarf_var.h: what the next two share with it)
 *   dwarf_loc.c    location expressions -> C
 *   dwarf_type.c   types, values by type, pretty printing
 */
#ifndef STP_DW_H
#define STP_DW_H

#include <stdint.h>
#include <dwarf.h>
#include <elfutils/libdw.h>

#include "../front/session.h"
#include "../symbols/bigmem.h"

enum dw_kind {
	DWK_FUNC,		/* a function with code: lowpc is its entry */
	DWK_INLINE,		/* an abstract inline function: its instances
				 * are in the same CU */
	DWK_VAR,		/* a global or static variable with a location */
	DWK_INSTANCE,		/* an inlined copy: die is the
				 * DW_TAG_inlined_subroutine, lowpc its entry,
				 * name and declaration its origin's */
};

struct dw_entry {
	const char *name;	/* equal names share the string */
	const char *file;	/* declaring file, as DWARF names it */
	uint64_t die;		/* offset in .debug_info */
	uint64_t lowpc, highpc;	/* DWK_FUNC */
	int line;		/* declaring line */
	unsigned char kind;
	unsigned char external;
};

struct dw_fde {			/* an FDE of .debug_frame */
	uint64_t lo, hi;	/* the code it covers, [lo, hi) */
	uint64_t off;		/* where it is */
};

struct dwarf_file {
	const char *path;
	const char *build_id;	/* hex, or NULL */
	const char *module;	/* "kernel", a module's name, or a program path */
	int user;		/* a program or library: uprobes, user memory */
	int fd;
	Elf *elf;
	Dwarf *dw;
	Dwarf_CFI *cfi;		/* .debug_frame, then .eh_frame */
	const void *recs;	/* the index: records by name, then address */
	const char *tab;	/* and their strings */
	uint32_t tab_size;
	int nentries;
	struct dw_entry **made;	/* entries made from records so far */
	const uint64_t *cus;	/* the CUs' offsets, ascending */
	int ncus;
	int cross_refs;		/* DIEs refer to others' units: no views */
	struct cfa_table *cfa_table;	/* dwarf_cfa.c's, once made */
	const struct dw_fde *fdes;	/* by address: part of the index */
	size_t nfdes;
	const char *dstr;	/* .debug_str, where most names are */
	size_t dstr_size;
	struct pmap views;	/* CU offset + 1 -> Dwarf * of that CU alone */
	struct pmap views_used;	/* Dwarf * read since the last release */
	struct vec views_to_release;	/* their Elf handles */
	/* inlined copies, found a CU at a time as a lookup wants them:
	 * CU offset + 1 -> struct dw_body *; and the file that keeps them */
	struct pmap bodies;
	const char *bodies_path;	/* a directory: a file for each CU */
	struct bigmem body_mem;	/* where a CU's copies are found */
	int relocated;		/* a module, relocated by libdwfl in memory */
	struct Dwfl_Module *dwfl_module;	/* then its libdwfl module */
	uint64_t walked;	/* CUs before here are known to libdw */
	int uses;		/* target expressions read from it */
};

/* dwarf_find.c: the kernel's (module NULL) or a module's debuginfo file.
 * NULL and *why (naming the package to install) when there is none. */
const char *dw_find_kernel(const struct session *s, const char *module,
			      const char **why);

/* The kernel's, opened (dw_open) once; NULL and *why without it. */
struct dwarf_file *dw_kernel(const struct session *s, const char **why);

/* dwarf_header.c: the DWARF of C headers ("<sys/un.h>", several
 * "<a.h><b.h>"), compiled once; NULL and *why on failure. */
struct dwarf_file *dw_header(const char *headers, const char **why);

/* dwarf_index.c: open a debuginfo file and its index (cached by
 * build-id under STP_CACHE or ~/.cache/stp); NULL and *why on failure. */
struct dwarf_file *dw_open(const char *path, const char *module, int user,
			      const char **why);
/* Entries whose name matches a glob (and file glob, may be NULL), in
 * name and address order. */
void dw_match(struct dwarf_file *f, const char *glob, const char *file_glob,
		 struct vec *out);
const struct dw_entry *dw_lookup(struct dwarf_file *f, const char *name);
const char *dw_module_symbol(struct dwarf_file *f, uint64_t pc, uint64_t *off);
/* dwarf_offdie(), holding less of the file at once. */
Dwarf_Die *dw_die(struct dwarf_file *f, uint64_t off, Dwarf_Die *out);
/* Map [p, p + n) of the mapped file in one go (MADV_POPULATE_READ). */
void dw_populate(const void *p, size_t n);
/* madvise() over the mapped file. */
void dw_advise(struct dwarf_file *f, int how);
/* Unmap the pages read so far (they stay in the page cache). */
void dw_release(struct dwarf_file *f);
/* Entry i of the index (0 .. nentries - 1), by name then address. */
struct dw_entry *dw_entry_at(struct dwarf_file *f, int i);
/* The function whose code holds pc, or NULL. */
const struct dw_entry *dw_function_at(struct dwarf_file *f, uint64_t pc);
/* The first defining DIE of a named type ("struct task_struct", a
 * typedef name), searching every CU; 0 when there is none. */
int dw_find_type(struct dwarf_file *f, const char *name, Dwarf_Die *out);
/* A file's GNU build-id in hex, or NULL. */
const char *dw_build_id(Elf *elf);
/* A variable's declaration (for linker-defined ones), a symbol's address. */
int dw_find_decl(struct dwarf_file *f, const char *name, Dwarf_Die *out);
int dw_symbol(struct dwarf_file *f, const char *name, uint64_t *addr);

/* dwarf_scan.c: the entries of f's .debug_info but inlined copies into
 * out, allocated from mem, and the CUs' offsets into cus; *cross_refs
 * set when a DIE refers to one in another unit.  0 when it cannot be
 * read. */
int dw_scan(struct dwarf_file *f, struct vec *out, struct bigmem *mem, struct vec *cus,
	       int *cross_refs);
/* A section's data (NULL, 0 without). */
void dw_section(struct dwarf_file *f, const char *name, const char **data, size_t *size);
/* The inlined copies in the CU at offset cu, the same way. */
int dw_scan_body(struct dwarf_file *f, uint64_t cu, struct vec *out, struct bigmem *mem);

/* dwarf_cfa.c: the CFA at pc as register + offset, from .debug_frame
 * and f->fdes; 0 when that does not say it so simply (libdw's CFI may). */
int dw_cfa(struct dwarf_file *f, uint64_t pc, unsigned *reg, int64_t *off);
/* The same at a function's entry (fn_entry, 0 if not known), else from
 * .debug_frame, else libdw's CFI (.eh_frame) when it is that simple. */
int dw_cfa_rule(struct dwarf_file *f, uint64_t pc, uint64_t fn_entry, unsigned *reg,
		   int64_t *off);
/* .debug_frame's FDEs by address (in m), for the index. */
size_t dw_fdes(struct dwarf_file *f, struct bigmem *m, struct dw_fde **out);

/* dwarf_probe.c */
struct dw_pattern {
	const char *name;	/* glob */
	const char *file;	/* glob, or NULL */
	int line_lo, line_hi;	/* -1 when none */
	int relative;		/* "+N": from the declaration line */
	int all_lines;		/* ":*" */
};

struct dw_point {
	const struct dw_entry *fn;	/* the function (abstract, if inlined) */
	uint64_t die;		/* the function, or the inlined instance */
	uint64_t pc;		/* where the probe goes */
	uint64_t entry_pc;	/* the function's (or instance's) entry */
	int line;		/* .statement: the source line */
	int inlined;
};

enum {
	DWP_NO_CALL = 1,	/* .inline: no out-of-line functions */
	DWP_NO_INLINE = 2,	/* .call, .return: no inlined copies */
	DWP_AT_ENTRY = 4,	/* .return: the entry, not past the prologue */
	DWP_STATEMENT = 8,	/* .statement: line addresses */
};

/* "name[@file[:N|:N-M|:*|+N]]" into p; 0 when malformed. */
int dw_parse_pattern(const char *pattern, struct dw_pattern *p);
/* The points p names (struct dw_point *), by name then address
 * (statements: by name, line, address). */
void dw_points(struct dwarf_file *f, const struct dw_pattern *p, int flags,
		  struct vec *out);
uint64_t dw_prologue_end(struct dwarf_file *f, const struct dw_entry *e);
/* --prologue-searching: 1 always past the prologue, -1 never (the
 * entry), 0 (auto) past it unless the function's variables have
 * location lists (then they are right at the entry too). */
extern int dw_prologue_searching;
/* The point as a probe point names it: "name@file:line", the function's
 * declaring line, or the statement's line (file less a leading "./"). */
const char *dw_point_text(const struct dw_point *pt, int statement);
/* qsort's order of points (struct dw_point *): by name, then address. */
int dw_cmp_point(const void *a, const void *b);
struct derived_probe;
/* What a derived probe (kprobe or uprobe) takes from its point: the
 * DIE, the address, the entry, whether inlined. */
void dw_point_place(struct derived_probe *d, const struct dw_point *pt);

/* dwarf_var.c */
struct derived_probe;
struct elab;
struct node;
/* Resolve the target expression n ($var..., @cast, @var, $$vars, a
 * write when write) in probe d (NULL outside probes: @cast and @var
 * only): n gets ref = a generated function, args = its arguments.
 * With quiet, return 0 instead of reporting (for @defined). */
int dw_target(struct elab *e, struct derived_probe *d, struct node *n,
		 int write, int quiet);
/* The struct pt_regs field of DWARF register r (x86-64), or NULL. */
const char *dw_regname(unsigned r);
/* -L: " $file:struct file* $buf:char* ..." for probe d. */
const char *dw_list_vars(struct elab *e, struct derived_probe *d);

#endif
