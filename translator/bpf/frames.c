// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel probes' own fields of struct stp_ctx (their locals, string
 * temporaries and key slots), a struct each, overlaid in one union: a
 * CPU runs one probe at a time (the busy flag turns away a nested one),
 * so the context is as big as the biggest probe, not as all of them.
 * BPF caps a per-CPU map's value at 32 KiB, which syscall.*'s 750
 * probes overflowed when each had fields of its own.  What probes share
 * (the functions' frames, written after the probes, and the histogram
 * record) stays outside the union.
 */
#include "bpf.h"

#include <string.h>

size_t bx_frame_begin(struct bx *x)
{
	return x->ctx.len;
}

/* The fields added to x->ctx since mark become probe i's struct. */
void bx_frame_end(struct bx *x, size_t mark, int i)
{
	static const char shared[] = "\tstruct stp_hist_rec hrec;\n";
	char *own = x->ctx.s ? x->ctx.s + mark : NULL;
	char *h;

	if (!own || !*own)
		return;
	h = strstr(own, shared);
	sb_printf(&x->frames, "\t\tstruct {\t/* p%d */\n", i);
	for (const char *p = own; *p; p++) {
		if (p == h) {
			p += sizeof(shared) - 2;
			continue;
		}
		if (p == own || p[-1] == '\n')
			sb_putc(&x->frames, '\t');
		sb_putc(&x->frames, *p);
	}
	sb_puts(&x->frames, "\t\t};\n");
	x->ctx.len = mark;
	x->ctx.s[mark] = 0;
	if (h)
		sb_puts(&x->ctx, shared);
}

/* The union, for the end of struct stp_ctx ("" when no probe has fields). */
const char *bx_frames(struct bx *x)
{
	return x->frames.s ? ar_printf("\tunion {\n%s\t};\n", x->frames.s) : "";
}
