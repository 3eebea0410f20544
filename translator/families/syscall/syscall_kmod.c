// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Pass 3 for kernel.syscall(NR)[.return]: for each direction (entry,
 * return) a bitmap of the numbers some probe wants, which the runtime's
 * callback tests first (most system calls are no probe's), and a
 * dispatch function, a switch on the number whose cases run each of
 * that number's probes through stp_probe_hit() in the script's order.
 * The kernel is built without jump tables (retpolines), so the switch
 * is a tree of compares: no indirect call or jump on the hit path.
 * A return probe with @entry has a case at sys_enter too, where its
 * entry part runs (save_restore()).
 */
#include "../../kmod/emit.h"
#include "syscall_family.h"

#include <stdint.h>
#include <stdlib.h>

/* kind: a probe's hit; at sys_enter, what a return probe's @entry
 * saves; at sys_exit, such a probe's hit on its saves */
enum sd_kind { SD_HIT, SD_SAVE, SD_RESTORE };

struct sd_probe {
	int nr, idx, args_read;
	enum sd_kind kind;
};

/* more probes than this in one direction: each hit a function */
enum { INLINE_MAX = 16 };

static struct vec dirs[2];	/* struct sd_probe *: entry, return */

static void add(int dir, int idx, const struct derived_probe *d, enum sd_kind kind)
{
	struct sd_probe *p = ar_alloc(sizeof(*p));

	p->nr = d->sc.nr;
	p->idx = idx;
	/* saves copy every register in, restores every one out */
	p->args_read = d->sc.args_read || kind != SD_HIT;
	p->kind = kind;
	vec_push(&dirs[dir], p);
}

/* After probe idx's handler, so m->entries holds its @entry nodes. */
void em_sysdispatch_entry(struct emit *m, int idx, const struct derived_probe *d)
{
	if (!d->is_return || !m->entries.len) {
		add(d->is_return, idx, d, SD_HIT);
		return;
	}
	add(0, idx, d, SD_SAVE);
	add(1, idx, d, SD_RESTORE);
}

/*
 * A return probe's @entry: its entry part (probe_N_entry) runs at
 * sys_enter on a slot the thread claims (runtime/sysdispatch.h), whose
 * head holds the call's registers (struct pN_entry's sd, ../../kmod/emit.c);
 * at sys_exit the thread finds its slot again, the exit's registers go
 * over the head, and the handler reads both from there.
 */
static void save_restore(struct sbuf *o, int n)
{
	sb_printf(o, "static int stp_sd_tids_%d[STP_SD_CALLS];\n"
		  "static struct p%d_entry stp_sd_saves_%d[STP_SD_CALLS];\n\n", n, n, n);
	sb_printf(o, "static noinline STP_HANDLER void stp_sd_save_%d(struct pt_regs *regs, u64 *a)\n{\n"
		  "\tstruct p%d_entry *s;\n\tint i = stp_sd_claim(stp_sd_tids_%d);\n\n"
		  "\tif (i < 0)\n\t\treturn;\n\ts = &stp_sd_saves_%d[i];\n"
		  "\tmemset(s, 0, sizeof(*s));\n\tmemcpy(s->sd, a, sizeof(s->sd));\n"
		  "\t/* as with kretprobes: an error here drops this call's return */\n"
		  "\tif (stp_probe_hit(&stp_probe_%d_entry, probe_%d_entry, regs, s))\n"
		  "\t\tstp_sd_release(stp_sd_tids_%d, i);\n}\nNOKPROBE_SYMBOL(stp_sd_save_%d);\n\n",
		  n, n, n, n, n, n, n, n);
	sb_printf(o, "static noinline STP_HANDLER void stp_sd_restore_%d(struct pt_regs *regs, u64 *a)\n{\n"
		  "\tstruct p%d_entry *s;\n\tint i = stp_sd_take(stp_sd_tids_%d);\n\n"
		  "\tif (i < 0)\n\t\treturn;\n\ts = &stp_sd_saves_%d[i];\n"
		  "\tmemcpy(s->sd, a, sizeof(s->sd));\n"
		  "\tstp_probe_hit(&stp_probe_%d, probe_%d, regs, s);\n"
		  "\tstp_sd_release(stp_sd_tids_%d, i);\n}\nNOKPROBE_SYMBOL(stp_sd_restore_%d);\n\n",
		  n, n, n, n, n, n, n, n);
}

static int cmp_probe(const void *a, const void *b)
{
	const struct sd_probe *x = *(struct sd_probe *const *)a;
	const struct sd_probe *y = *(struct sd_probe *const *)b;

	if (x->nr != y->nr)
		return (x->nr > y->nr) - (x->nr < y->nr);
	return (x->idx > y->idx) - (x->idx < y->idx);
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

/*
 * Probe p's hit, a function of its own: with more than INLINE_MAX probes
 * one switch inlining every hit takes the compiler long (904 probes:
 * 25 s to build; 15 s with a function each, as each kprobe has one).
 */
static void hit_function(struct sbuf *o, const struct sd_probe *p)
{
	sb_printf(o, "static noinline STP_HANDLER void stp_sd_hit_%d(struct pt_regs *regs, u64 *a)\n{\n"
		  "\tstp_probe_hit(&stp_probe_%d, probe_%d, regs, a);\n}\nNOKPROBE_SYMBOL(stp_sd_hit_%d);\n\n",
		  p->idx, p->idx, p->idx, p->idx);
}

static void dispatch(struct sbuf *o, const char *fn, const struct vec *v)
{
	int inline_hits = v->len <= INLINE_MAX;

	for (int i = 0; i < v->len; i++) {
		const struct sd_probe *p = v->v[i];

		if (p->kind == SD_SAVE)
			save_restore(o, p->idx);
		else if (p->kind == SD_HIT && !inline_hits)
			hit_function(o, p);
	}
	/* inline into the tracepoint's callback: no call on the hit path */
	sb_printf(o, "static __always_inline void %s(long nr, struct pt_regs *regs, u64 *a)\n{\n"
		  "\tswitch (nr) {\n", fn);
	for (int i = 0; i < v->len; i++) {
		const struct sd_probe *p = v->v[i];

		if (!i || p->nr != ((const struct sd_probe *)v->v[i - 1])->nr)
			sb_printf(o, "%s\tcase %d:\n", i ? "\t\tbreak;\n" : "", p->nr);
		if (p->kind != SD_HIT)
			sb_printf(o, "\t\tstp_sd_%s_%d(regs, a);\n",
				  p->kind == SD_SAVE ? "save" : "restore", p->idx);
		else if (inline_hits)
			sb_printf(o, "\t\tstp_probe_hit(&stp_probe_%d, probe_%d, regs, a);\n",
				  p->idx, p->idx);
		else
			sb_printf(o, "\t\tstp_sd_hit_%d(regs, a);\n", p->idx);
	}
	sb_puts(o, "\t\tbreak;\n\t}\n}\n\n");
}

void em_sysdispatch_tables(struct emit *m, struct sbuf *o)
{
	static const char *const names[2][4] = {
		{ "stp_sd_enter_nrs", "stp_sd_enter_hit", "STP_SD_NENTER", "STP_SD_ENTER_ARGS" },
		{ "stp_sd_exit_nrs", "stp_sd_exit_hit", "STP_SD_NEXIT", "STP_SD_EXIT_ARGS" },
	};

	(void)m;
	sb_puts(o, "#include \"runtime/sysdispatch.h\"\n\n");
	for (int k = 0; k < 2; k++) {
		struct vec *v = &dirs[k];

		int args = 0;

		for (int i = 0; i < v->len; i++)
			args |= ((const struct sd_probe *)v->v[i])->args_read;
		/* no handler reads a register: the array is left unfilled */
		sb_printf(o, "#define %s %d\n#define %s %d\n", names[k][2], v->len, names[k][3], args);
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

void em_sysdispatch_fields(struct sbuf *o, const struct derived_probe *d)
{
	sb_printf(o, "\t.is_return = %d, .syscall = 2,\n", d->is_return);
}
