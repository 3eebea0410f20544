// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kprobe.function, kernel.function and module(...).function probes in
 * the module: each one's kprobe or kretprobe entry, and the hit function
 * of a kprobe (runtime/kprobes.c registers them).
 */
#include "kprobe_family.h"
#include "../../kmod/emit.h"

#include <stdlib.h>
#include <string.h>

/*
 * Each kprobe's own entry: handler and locks known here, so the hit path
 * inlines (runtime/probe.h).  An int3 kprobe leaves ip past the
 * breakpoint; the script sees the probed address, its prefix too
 * (emit_hoist.c).
 */
static void kprobe_hit(struct emit *m, struct sbuf *hits, int idx,
		       const struct derived_probe *d)
{
	sb_printf(hits, "static STP_HANDLER int stp_kp_hit_%d(struct kprobe *kp, struct pt_regs *regs)\n{\n"
		  "\tunsigned long ip = regs->ip;\n\n"
		  "\tregs->ip = (unsigned long)kp->addr;\n", idx);
	if (em_hoisted(d)) {
		em_prefix(m, idx, d, hits, NULL, "regs", "goto out;");
		sb_puts(hits, "out:\n");
	} else {
		sb_printf(hits, "\tstp_probe_hit(&stp_probe_%d, probe_%d, regs, NULL);\n", idx, idx);
	}
	sb_printf(hits, "\tregs->ip = ip;\n\treturn 0;\n}\nNOKPROBE_SYMBOL(stp_kp_hit_%d);\n\n", idx);
}

/* One kprobe or kretprobe: by symbol, "module:symbol" for modules. */
void em_kprobe_entry(struct emit *m, int idx, const struct derived_probe *d)
{
	const char *ks = d->kp_symbol ? d->kp_symbol : d->symbol;
	const char *sym = d->module ? ar_printf("%s:%s", d->module, ks) : ks;
	int required = !em_from_wildcard(d) && !d->pp->optional;
	struct sbuf *o = &m->kprobes;

	sb_printf(o, "\t{ .probe = &stp_probe_%d, .symbol = %s, .is_return = %d, .maxactive = %d, "
		  ".required = %d", idx, em_cstr_raw(sym), d->is_return, d->maxactive, required);
	if (d->offset)
		sb_printf(o, ", .offset = %lld", (long long)d->offset);
	if (!d->is_return) {
		kprobe_hit(m, &m->kp_hits, idx, d);
		sb_printf(o, ", .hit = stp_kp_hit_%d", idx);
	}
	if (d->is_return && m->entries.len)
		sb_printf(o, ", .entry = &stp_probe_%d_entry, .entry_size = sizeof(struct p%d_entry)",
			  idx, idx);
	sb_puts(o, " },\n");
	m->nkprobes++;
}

/* The kprobes' hit functions, then stp_kprobes[] (even when empty). */
void em_kprobe_tables(struct emit *m, struct sbuf *o)
{
	sb_printf(o, "%s", m->kp_hits.s ? m->kp_hits.s : "");
	sb_printf(o, "static struct stp_kprobe stp_kprobes[] = {\n%s};\n#define STP_NKPROBES %d\n\n",
		  m->kprobes.s ? m->kprobes.s : "\t{ .probe = NULL },\n", m->nkprobes);
	free(m->kp_hits.s);
	free(m->kprobes.s);
}

void em_kprobe_fields(struct sbuf *o, const struct derived_probe *d)
{
	sb_printf(o, "\t.func = %s, .module = %s, .is_return = %d, .syscall = %d,\n",
		  em_cstr_raw(d->symbol), em_cstr_raw(d->module ? d->module : "kernel"),
		  d->is_return, !strncmp(d->symbol, "__x64_sys_", 10));
}
