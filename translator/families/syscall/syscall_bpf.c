// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kernel.syscall(NR)[.return] under --runtime=bpf: the syscall.* and
 * nd_syscall.* aliases stand on them.  As in the kmod runtime, however
 * many there are, they cost one program on each raw_syscalls
 * tracepoint: stp_sd_enter (raw_tp/sys_enter) and stp_sd_exit
 * (raw_tp/sys_exit) look the call's number up in a table and tail-call
 * the first probe on it (BPF_MAP_TYPE_PROG_ARRAY, filled by libbpf from
 * the map's initializer); each probe tail-calls the next one on the same
 * number when it is done.  A number no probe wants costs one lookup.
 *
 * A .return probe with @entry has a program in the sys_enter array too,
 * on its number (uprobe_bpf_entry.c writes it: p<N>_e), which saves
 * what @entry keeps by thread for the return's program to take.
 *
 * The probe programs are raw tracepoint programs that are not attached
 * themselves.  Their $id, $argN, $regs and $ret (pass 2's functions read
 * CONTEXT->entry[SD_*]) come from an array in the probe's struct stp_ctx,
 * filled from the tracepoint's arguments and the user registers.
 */
#include "../../bpf/bpf.h"
#include "syscall_family.h"
#include "../uprobe/uprobe_family.h"

#include <stdlib.h>

/* A kernel.syscall probe's place in its direction's program array;
 * entry: a .return probe's @entry program (p<N>_e), in sys_enter's. */
struct sd_slot {
	int probe, nr, entry;
};

static struct elab *laid_out;
static const char *const progs[2] = { "stp_sd_enter_progs", "stp_sd_exit_progs" };
static struct vec dirs[2];	/* struct sd_slot *, by number then script order */

static int cmp_slot(const void *a, const void *b)
{
	const struct sd_slot *x = *(struct sd_slot *const *)a;
	const struct sd_slot *y = *(struct sd_slot *const *)b;

	if (x->nr != y->nr)
		return (x->nr > y->nr) - (x->nr < y->nr);
	if (x->probe != y->probe)
		return (x->probe > y->probe) - (x->probe < y->probe);
	return x->entry - y->entry;
}

static void layout(struct bx *x)
{
	if (laid_out == x->e)
		return;
	laid_out = x->e;
	dirs[0].len = dirs[1].len = 0;
	for (int i = 0; i < x->e->probes.len; i++) {
		struct derived_probe *d = x->e->probes.v[i];
		struct sd_slot *s;

		if (d->family != PF_SYSCALL)
			continue;
		s = ar_alloc(sizeof(*s));
		s->probe = i;
		s->nr = d->sc.nr;
		vec_push(&dirs[d->is_return], s);
		if (d->is_return && bx_has_entry(d)) {
			s = ar_alloc(sizeof(*s));
			s->probe = i;
			s->nr = d->sc.nr;
			s->entry = 1;
			vec_push(&dirs[0], s);
		}
	}
	for (int r = 0; r < 2; r++)
		if (dirs[r].len)
			qsort(dirs[r].v, (size_t)dirs[r].len, sizeof(void *), cmp_slot);
}

static int slot_of(struct bx *x, int dir, int i, int entry)
{
	layout(x);
	for (int s = 0; s < dirs[dir].len; s++) {
		const struct sd_slot *p = dirs[dir].v[s];

		if (p->probe == i && p->entry == entry)
			return s;
	}
	return -1;
}

/* The tail call to the next program on the same number, if any. */
static void next_on_number(struct bx *x, int dir, int nr, int s)
{
	const struct vec *v = &dirs[dir];

	if (s < 0 || s + 1 >= v->len || ((struct sd_slot *)v->v[s + 1])->nr != nr)
		return;
	sb_printf(&x->code, "	bpf_tail_call(ctx, &%s, %d);\n", progs[dir], s + 1);
}


const char *bx_sys_section(struct bx *x, struct derived_probe *d, int i)
{
	layout(x);
	(void)d;
	(void)i;
	return "raw_tp";
}

/* Into the context's arrays named by tag and i: the call's number,
 * the user registers' address and the arguments in them, the return
 * value (ret: 1 at sys_exit), and k.entry at them. */
static void fill_slots(struct bx *x, const struct derived_probe *d, const char *tag, int i,
		       int ret)
{
	sb_printf(&x->ctx, "\tstruct pt_regs %sregs_p%d;\n\tu64 %sp%d[%d];\n", tag, i, tag, i,
		  SD_RET + 1);
	sb_printf(&x->code, "\tbpf_probe_read_kernel(&c->%sregs_p%d, sizeof(struct pt_regs), "
		  "(const void *)ctx->args[0]);\n", tag, i);
	sb_printf(&x->code, "\tc->%sp%d[%d] = %d;\n\tc->%sp%d[%d] = ctx->args[0];\n"
		  "\tc->%sp%d[%d] = %s;\n", tag, i, SD_ID, d->sc.nr, tag, i, SD_REGS, tag, i, SD_RET,
		  ret ? "ctx->args[1]" : "0");
	for (int a = 0; a < 6; a++)
		sb_printf(&x->code, "\tc->%sp%d[%d] = c->%sregs_p%d.%s;\n", tag, i, SD_ARG1 + a, tag,
			  i, (const char *[]){ "di", "si", "dx", "r10", "r8", "r9" }[a]);
	sb_printf(&x->code, "\tk.entry = c->%sp%d;\n\tk.regs = &c->%sregs_p%d;\n\tk.sysc = 1;\n",
		  tag, i, tag, i);
}

/* The probe's variables: its number, the user registers' address and
 * the arguments in them, the return value; the registers too for
 * int_arg() and the others, and returnval(). */
void bx_sys_prologue(struct bx *x, const struct derived_probe *d, int i)
{
	fill_slots(x, d, "sd_", i, d->is_return);
}

/* In .return probe i's @entry program at sys_enter: the entry's own
 * registers, where its $vars are read. */
void bx_sys_entry_prologue(struct bx *x, const struct derived_probe *d, int i)
{
	fill_slots(x, d, "sde_", i, 0);
}

/* The end of .return probe i's @entry program: the next program on its
 * number at sys_enter. */
void bx_sys_entry_epilogue(struct bx *x, const struct derived_probe *d, int i)
{
	next_on_number(x, 0, d->sc.nr, slot_of(x, 0, i, 1));
}

/* After the probe: the next probe on the same number, if any (a
 * return without its @entry saves comes here too, at sd_next). */
void bx_sys_epilogue(struct bx *x, const struct derived_probe *d, int i)
{
	sb_puts(&x->code, "sd_next: __attribute__((unused));\n");
	next_on_number(x, d->is_return, d->sc.nr, slot_of(x, d->is_return, i, 0));
}

/* A direction's program array (its probes declared first: the array
 * names them and they name it) and its table of first slots, each
 * plus one (0: no probe on that number). */
static void direction_maps(struct sbuf *o, int r)
{
	const struct vec *v = &dirs[r];
	const char *name = r ? "stp_sd_exit" : "stp_sd_enter";

	for (int s = 0; s < v->len; s++)
		sb_printf(o, "int p%d%s(struct bpf_raw_tracepoint_args *ctx);\n",
			  ((struct sd_slot *)v->v[s])->probe, ((struct sd_slot *)v->v[s])->entry ? "_e" : "");
	sb_printf(o, "\nstruct {\n\t__uint(type, BPF_MAP_TYPE_PROG_ARRAY);\n"
		  "\t__uint(max_entries, %d);\n\t__type(key, u32);\n"
		  "\t__array(values, int (void *));\n} %s SEC(\".maps\") = {\n\t.values = {\n",
		  v->len, progs[r]);
	for (int s = 0; s < v->len; s++)
		sb_printf(o, "\t\t[%d] = (void *)&p%d%s,\n", s, ((struct sd_slot *)v->v[s])->probe,
			  ((struct sd_slot *)v->v[s])->entry ? "_e" : "");
	sb_printf(o, "\t},\n};\n\nstatic const u16 %s_first[%d] = {\n", name, SD_MAX_NR);
	for (int s = 0; s < v->len; s++) {
		const struct sd_slot *p = v->v[s];

		if (!s || ((struct sd_slot *)v->v[s - 1])->nr != p->nr)
			sb_printf(o, "\t[%d] = %d,\n", p->nr, s + 1);
	}
	sb_puts(o, "};\n\n");
}

/* A direction's program on its raw_syscalls tracepoint. */
static void direction_prog(struct sbuf *o, struct sbuf *att, int r)
{
	const char *name = r ? "stp_sd_exit" : "stp_sd_enter";

	sb_printf(o, "\nSEC(\"raw_tp/%s\")\nint %s(struct bpf_raw_tracepoint_args *ctx)\n{\n",
		  r ? "sys_exit" : "sys_enter", name);
	if (r)
		sb_puts(o, "\tstruct pt_regs *regs = (void *)ctx->args[0];\n\tu64 nr = 0;\n\n"
			"\tbpf_probe_read_kernel(&nr, sizeof(nr), &regs->orig_ax);\n");
	else
		sb_puts(o, "\tu64 nr = ctx->args[1];\n\n");
	sb_printf(o, "\tif (nr < %d && %s_first[nr])\n\t\tbpf_tail_call(ctx, &%s, "
		  "%s_first[nr] - 1u);\n\treturn 0;\n}\n", SD_MAX_NR, name, progs[r], name);
	sb_printf(att, "\t{ \"%s\", STP_ATTACH_AUTO, 0, 0, 0, 0, \"kernel.syscall%s\" },\n", name,
		  r ? ".return" : "");
}

void bx_sys_maps(struct bx *x, struct sbuf *o)
{
	layout(x);
	for (int r = 0; r < 2; r++)
		if (dirs[r].len)
			direction_maps(o, r);
}

/* The dispatch, after the probes' programs: the kernel file's last use
 * of the layout, forgotten then (an interactive session translates
 * again, maybe with a new elab where this one was). */
void bx_sys_dispatch(struct bx *x, struct sbuf *o, struct sbuf *att)
{
	layout(x);
	for (int r = 0; r < 2; r++)
		if (dirs[r].len)
			direction_prog(o, att, r);
	laid_out = NULL;
}

const char *bx_syscall_section(struct bx *x, struct derived_probe *d, int i, struct sbuf *att)
{
	(void)att;
	return bx_sys_section(x, d, i);
}
