/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * translator/families/: the probe families, a folder each holding all
 * of the family: what pass 2 matches and which variables its points
 * have, and its row (NAME_points.c), the kmod backend's part of the
 * module (NAME_kmod.c) and the BPF backend's program (NAME_bpf.c); its
 * header (NAME_family.h) declares them all and is the folder's map.  A
 * family's operations are one struct, its row (family.h); list.h names
 * every family once, in the order the kmod backend writes their tables
 * and pass 2 tries their matchers.  Adding a family is a folder and a
 * row in list.h: the Makefile builds every .c here.
 *
 *   family.h   struct family_ops, enum probe_family (from list.h)
 *   list.h     FAMILY(ID, name): every family, once
 *   table.c    family_row(PF_...): the rows, by family
 *
 * list.h is also the map of the folders: a row each, with the points
 * it has; each folder's header is the map of its files.
 *
 * begin, end, error, never and timers are matched in ../elab/probes.c
 * itself (their rows have no match).  A family's own probe data is a
 * struct of its own inside struct derived_probe (../elab/elab.h), or,
 * for a family that adds none there, behind derived_probe's data.
 */
#ifndef STP_FAMILIES_H
#define STP_FAMILIES_H
#endif
