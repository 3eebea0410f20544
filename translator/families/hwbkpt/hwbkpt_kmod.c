// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Pass 3 for kernel.data(...): each watchpoint's handler, which the
 * kernel calls from the debug exception after the access, with the
 * registers of the code that made it; and the table runtime/hwbkpt.c
 * arms.  A symbol's address is placed at run time, relative to _printk.
 */
#include "hwbkpt_family.h"
#include "../../kmod/emit.h"

#include <stdlib.h>

static struct sbuf cbs, table;
static int n;

void em_hwbkpt_entry(struct emit *m, int idx, const struct derived_probe *d)
{
	const char *addr;

	(void)m;	/* its state is this file's */
	sb_printf(&cbs, "/* %s */\nstatic STP_HANDLER void stp_hw_cb_%d(struct perf_event *ev,\n"
		  "\t\tstruct perf_sample_data *data, struct pt_regs *regs)\n{\n"
		  "\tstp_probe_hit(&stp_probe_%d, probe_%d, regs, NULL);\n}\n\n",
		  d->name, idx, idx, idx);
	if (d->hw.symbol)
		addr = ar_printf("0x%llxUL + ((unsigned long)&_printk - 0x%llxUL)",
				 (unsigned long long)d->hw.addr, (unsigned long long)d->hw.base);
	else
		addr = ar_printf("0x%llxUL", (unsigned long long)d->hw.addr);
	sb_printf(&table, "\t{ .probe = &stp_probe_%d, .cb = stp_hw_cb_%d, .len = %d, .rw = %d },\n",
		  idx, idx, d->hw.len, d->hw.rw);
	/* not constant (KASLR): set by stp_hwbkpt_arm() from this */
	sb_printf(&cbs, "#define STP_HW_ADDR_%d (%s)\n\n", n, addr);
	n++;
}

void em_hwbkpt_tables(struct emit *m, struct sbuf *o)
{
	(void)m;
	sb_puts(o, "#include \"runtime/hwbkpt.h\"\n\n");
	sb_printf(o, "%s", cbs.s ? cbs.s : "");
	em_array(o, "stp_hwbkpt", "stp_hwbkpts", &table, "STP_NHWBKPTS", n);
	sb_puts(o, "static unsigned long stp_hwbkpt_addr(int i)\n{\n\tswitch (i) {\n");
	for (int i = 0; i < n; i++)
		sb_printf(o, "\tcase %d: return STP_HW_ADDR_%d;\n", i, i);
	sb_puts(o, "\t}\n\treturn 0;\n}\n\n");
	free(cbs.s);
}
