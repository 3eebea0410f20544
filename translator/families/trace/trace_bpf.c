// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kernel.trace(...) under --runtime=bpf: a raw tracepoint program, its
 * arguments the tracepoint's as u64s (struct bpf_raw_tracepoint_args);
 * or, for a probe that reads fields of the event's record ($next_comm),
 * a tracepoint program, its context the record (btf_record.c).
 */
#include "trace_family.h"
#include "../../bpf/bpf.h"
#include "../../btf/btf.h"

const char *bx_trace_section(struct bx *x, struct derived_probe *d, int i, struct sbuf *att)
{
	(void)x;
	sb_printf(att, "\t{ \"p%d\", STP_ATTACH_AUTO, 0, 0, 0, 0, \"%s\" },\n", i, bx_cstr(d->name));
	if (d->tp_record)
		return ar_printf("tracepoint/%s/%s", d->tp->system, d->tp->name);
	return ar_printf("raw_tp/%s", d->tp->name);
}
