/* SPDX-License-Identifier: GPL-2.0-or-later */
/* An ELF file's section by name: what uprobes, markers and the kernel's
 * BTF all look up (elfsec.c). */
#ifndef STP_ELFSEC_H
#define STP_ELFSEC_H

#include <gelf.h>

/* The first section called name, its header in *sh; NULL without one. */
Elf_Scn *elf_section(Elf *elf, const char *name, GElf_Shdr *sh);

#endif
