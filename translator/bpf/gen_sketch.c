// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Chopstix sampler's maps (runtime/bpf/sketch.h, vitals.h) go into
 * a script's kernel side only when a function it uses calls them (its
 * flavour says bpf-sketch: flavour.c): the sketch is a quarter of a
 * megabyte a script would otherwise map.
 */
#include "bpf.h"


void bx_sketch_defines(struct elab *e, struct sbuf *o)
{
	for (int i = 0; i < e->used_functions.len; i++) {
		struct function *f = e->used_functions.v[i];
		if (bx_flavour(f) & BXF_SKETCH) {
			sb_puts(o, "#define STP_BPF_SKETCH 1\n");
			return;
		}
	}
}
