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

#include <stdlib.h>
#include <string.h>

size_t bx_frame_begin(struct bx *x)
{
	return x->ctx.len;
}

/* Fields every probe that has them shares, kept outside the union: the
 * histogram record, and a kernel function probe's registers and
 * arguments (kprobe_bpf.c adds them once, by name). */
static int shared_field(const char *line, size_t n)
{
	static const char *const shared[] = {
		"\tstruct stp_hist_rec hrec;\n",
		"\tstruct pt_regs kregs;\n",
		"\tu64 kargs[8];\n",
	};

	for (size_t k = 0; k < sizeof(shared) / sizeof(shared[0]); k++)
		if (strlen(shared[k]) == n && !strncmp(line, shared[k], n))
			return 1;
	return 0;
}

/* The fields added to x->ctx since mark become probe i's struct, but
 * for the shared ones, which stay in x->ctx. */
void bx_frame_end(struct bx *x, size_t mark, int i)
{
	char *own = x->ctx.s ? ar_strdup(x->ctx.s + mark) : NULL;
	struct sbuf mine = { 0 };

	if (!own || !*own)
		return;
	x->ctx.len = mark;
	x->ctx.s[mark] = 0;
	for (const char *p = own; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p + 1) : strlen(p);

		if (shared_field(p, n))
			sb_printf(&x->ctx, "%.*s", (int)n, p);
		else
			sb_printf(&mine, "\t%.*s", (int)n, p);
		p += n;
	}
	if (mine.s)
		sb_printf(&x->frames, "\t\tstruct {\t/* p%d */\n%s\t\t};\n", i, mine.s);
	free(mine.s);
}

/* The union, for the end of struct stp_ctx ("" when no probe has fields). */
const char *bx_frames(struct bx *x)
{
	return x->frames.s ? ar_printf("\tunion {\n%s\t};\n", x->frames.s) : "";
}
