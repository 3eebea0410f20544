/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The target kernel's BTF, read with libbpf, and what stp derives from it
 * without debuginfo: tracepoints and their typed arguments.
 *
 *   btf_image.c     the kernel as an ELF in memory: a -dbg vmlinux, or
 *                   the ELF inside a bzImage (xz, zstd, gzip)
 *   btf_load.c      the kernel's BTF and each tracepoint's system,
 *                   cached in ~/.cache/stp/btf/
 *   btf_module.c    a module's BTF and systems; which module has a
 *                   tracepoint
 *   btf_type.c      BTF types: SystemTap's spelling, sizes, members
 *   btf_var.c       $name, $name->member..., $$parms: the generated
 *                   function a tracepoint handler calls (btf_var.h)
 *   btf_pretty.c    values as text: $x$, $$parms
 *   btf_kfunc.c     a kernel function's parameters, for $var without DWARF
 *   btf_cast.c      @cast(p, "type") by BTF under --runtime=bpf
 *   btf_core.c      CO-RE: member offsets as relocations, recorded for
 *                   the BPF backend to declare (btf_core_decls)
 *
 * kernel.trace("[SYSTEM:]NAME") points, which use it, are a family
 * (../families/trace/trace_points.c).
 */
#ifndef STP_BTF_H
#define STP_BTF_H

#include "../elab/elab.h"

#include <libelf.h>
#include <stdint.h>

struct btf;
struct btf_type;

struct kimage {
	char *data;		/* the ELF file, malloc'ed */
	size_t size;
	Elf *elf;
};

/* btf_image.c: 0 and *why when path is no kernel stp can read. */
int kimage_open(const char *path, struct kimage *k, const char **why);
/* A section's bytes: 0 without it. */
int kimage_section(struct kimage *k, const char *name, const void **p, size_t *n);
/* n bytes at link-time address addr of allocated data, or NULL. */
const void *kimage_at(struct kimage *k, uint64_t addr, size_t n);
void kimage_close(struct kimage *k);

/* btf_load.c */
struct kbtf {
	struct btf *btf;
	struct pmap systems;	/* interned tracepoint name -> its event's
				 * system (TRACE_SYSTEM), when it has one */
	const char *source;	/* where the BTF came from, for -v */
	const char *no_systems;	/* why the systems are unknown (then
				 * SYSTEM:NAME matches by NAME), or NULL */
};
/* The target kernel's, loaded once; NULL and *why without it. */
struct kbtf *kbtf_load(const struct session *s, const char **why);

/* btf_module.c */
/* Module m's BTF (split on the kernel's) and its tracepoints' systems;
 * NULL and *why without them. */
struct kbtf *kbtf_module_load(const struct session *s, const char *m, const char **why);
/* The module of the target kernel that has tracepoint name, or NULL. */
const char *kbtf_module_of(const struct session *s, const char *name);

/* btf_type.c */
/* Typedefs and qualifiers off. */
const struct btf_type *btf_peel(const struct btf *b, uint32_t id, uint32_t *out_id);
/* "struct task_struct*", "long int", "bool": SystemTap's spelling. */
const char *btf_type_text(const struct btf *b, uint32_t id);
/* A member of a struct or union by name, anonymous members searched;
 * its type and byte offset (bit offset in *bit, size in *bits for a
 * bitfield, else 0).  0 when there is none. */
int btf_find_member(const struct btf *b, uint32_t agg, const char *name, uint32_t *type,
		    int64_t *off, int *bit, int *bits);

/* ../families/trace/trace_points.c */
struct tracepoint_info {
	const struct btf *btf;	/* its types' */
	const char *name;	/* interned */
	const char *system;	/* interned, or NULL */
	const char *module;	/* interned; NULL in the core kernel */
	int nargs;
	const char **arg_names;
	uint32_t *arg_types;	/* BTF type ids */
	int by_value;		/* an argument is a struct or float: the
				 * callback cannot take it as a u64 */
};
/* btf_load.c: where the running kernel's events are, tracefs first */
#define TRACEFS_EVENTS_DIRS 2
extern const char *const tracefs_events_dirs[TRACEFS_EVENTS_DIRS];

/* btf_record.c: field of tp's event record ($next_comm), from tracefs */
struct tp_field {
	int offset, size, is_signed, is_array;
	int is_data_loc;	/* __data_loc: where in the record its text is */
};
int tp_record_field(const struct tracepoint_info *tp, const char *field, struct tp_field *out);

/* -L: " $prev:struct task_struct* ..." */
const char *tracepoint_list_vars(const struct derived_probe *d);

/* btf_kfunc.c: kernel function d's parameters, described as a
 * tracepoint's arguments (--runtime=bpf without DWARF); NULL when its
 * BTF does not have it. */
const struct tracepoint_info *btf_kfunc_info(const struct session *s, struct derived_probe *d);

/* btf_var.c: $name... in tracepoint probe d, as dw_target() does. */
int btf_target(struct elab *e, struct derived_probe *d, struct node *n, int write, int quiet);

/* btf_core.c: the offsets of kernel member chains, as data each
 * runtime reads its way (STP_CORE_OFFSET: the number in a module, a
 * relocation under --runtime=bpf, whose backend declares the flavours
 * they name) */
struct btf;
/* root's member path "a.b.c" (off bytes in the build's BTF) as C */
const char *btf_core_offset(const struct btf *b, uint32_t root, const char *path, int64_t off);
/* whether the running kernel's root has member path, as C; NULL when
 * root has no name to match by */
const char *btf_core_exists(const struct btf *b, uint32_t root, const char *path);
void btf_core_decls(struct sbuf *o);	/* the local flavours they name */
/* btf_cast.c: @cast of a kernel type by BTF (pass 2, from dw_target) */
int btf_cast_wanted(const struct elab *e, const struct derived_probe *d, const struct node *n);
int btf_cast(struct elab *e, struct derived_probe *d, struct node *n, int write, int quiet);

#endif
