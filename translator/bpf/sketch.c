// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Chopstix sampler's maps (runtime/bpf/sketch.h, vitals.h) go into
 * a script's kernel side only when a function it uses calls them: the
 * sketch is a quarter of a megabyte a script would otherwise map.
 */
#include "bpf.h"

#include <string.h>

void bx_sketch_defines(struct elab *e, struct sbuf *o)
{
	for (int i = 0; i < e->used_functions.len; i++) {
		struct function *f = e->used_functions.v[i];
		const char *b = f->decl->body->kind == N_EMBEDDED ? f->decl->body->str : NULL;

		if (b && strstr(b, "/* bpf */") && (strstr(b, "stp_cx_") || strstr(b, "stp_vt_"))) {
			sb_puts(o, "#define STP_BPF_SKETCH 1\n");
			return;
		}
	}
}
