// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Pass 3 for kernel.syscall(NR)[.return]: for each direction (entry,
 * return) a bitmap of the numbers some probe wants, which the runtime's
 * callback tests first (most system calls are no probe's), and a
 * dispatch function, a switch on the number whose cases run each of
 * that number's probes through stp_probe_hit() in the script's order.
 * The kernel is built without jump tables (retpolines), so the switch
 * is a tree of compares: no indirect call or jump on the hit path.
 */
#include "emit.h"
#include "sysdispatch.h"

#include <stdint.h>
#include <stdlib.h>

struct sd_probe {
	int nr, idx;
};

static struct vec dirs[2];	/* struct sd_probe *: entry, return */

void em_sysdispatch_entry(int idx, const struct derived_probe *d)
{
	struct sd_probe *p = ar_alloc(sizeof(*p));

	p->nr = d->sc_nr;
	p->idx = idx;
	vec_push(&dirs[d->is_return], p);
}

static int cmp_probe(const void *a, const void *b)
{
	const struct sd_probe *x = *(struct sd_probe *const *)a, *y = *(struct sd_probe *const *)b;

	return x->nr != y->nr ? (x->nr > y->nr) - (x->nr < y->nr) : (x->idx > y->idx) - (x->idx < y->idx);
}

static void bitmap(struct sbuf *o, const char *name, const struct vec *v)
{
	uint64_t words[SD_MAX_NR / 64] = { 0 };

	for (int i = 0; i < v->len; i++) {
		const struct sd_probe *p = v->v[i];

		words[p->nr / 64] |= 1ull << (p->nr % 64);
	}
	sb_printf(o, "static const unsigned long %s[%d] = {", name, SD_MAX_NR / 64);
	for (int i = 0; i < SD_MAX_NR / 64; i++)
		sb_printf(o, "%s%s0x%llxUL", i ? "," : "", i % 4 ? " " : "\n\t",
			  (unsigned long long)words[i]);
	sb_puts(o, "\n};\n");
}

static void dispatch(struct sbuf *o, const char *fn, const struct vec *v)
{
	sb_printf(o, "static STP_HANDLER void %s(long nr, struct pt_regs *regs, u64 *a)\n{\n"
		  "\tswitch (nr) {\n", fn);
	for (int i = 0; i < v->len; i++) {
		const struct sd_probe *p = v->v[i];

		if (!i || p->nr != ((const struct sd_probe *)v->v[i - 1])->nr)
			sb_printf(o, "%s\tcase %d:\n", i ? "\t\tbreak;\n" : "", p->nr);
		sb_printf(o, "\t\tstp_probe_hit(&stp_probe_%d, probe_%d, regs, a);\n", p->idx, p->idx);
	}
	sb_printf(o, "\t\tbreak;\n\t}\n}\nNOKPROBE_SYMBOL(%s);\n\n", fn);
}

void em_sysdispatch_tables(struct sbuf *o)
{
	static const char *const names[2][3] = {
		{ "stp_sd_enter_nrs", "stp_sd_enter_hit", "STP_SD_NENTER" },
		{ "stp_sd_exit_nrs", "stp_sd_exit_hit", "STP_SD_NEXIT" },
	};

	sb_puts(o, "#include \"runtime/sysdispatch.h\"\n\n");
	for (int k = 0; k < 2; k++) {
		struct vec *v = &dirs[k];

		sb_printf(o, "#define %s %d\n", names[k][2], v->len);
		if (!v->len)
			continue;
		qsort(v->v, v->len, sizeof(void *), cmp_probe);
		bitmap(o, names[k][0], v);
		dispatch(o, names[k][1], v);
		free(v->v);
		*v = (struct vec){ 0 };
	}
	sb_puts(o, "\n");
}
