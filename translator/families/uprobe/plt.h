/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The PLT stubs of a program or library, for process(...).plt points.
 */
#ifndef STP_PLT_H
#define STP_PLT_H

#include <gelf.h>
#include <stdint.h>

#include "../../elab/elab.h"

struct plt_stub {
	const char *name;	/* the function it calls (interned) */
	uint64_t addr;		/* its link-time address */
};

/* The stubs of elf whose function names match glob (struct plt_stub *,
 * appended to out in PLT order). */
void plt_stubs(Elf *elf, const char *glob, struct vec *out);

#endif
