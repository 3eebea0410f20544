// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Target variables: where a value is.  A variable's location (a DWARF
 * expression, or the entry of its location list valid at the probe's
 * address) becomes a C expression over the probe's pt_regs: registers,
 * the frame's CFA from the call frame information, constants, memory
 * read through the runtime's fault-safe accessors.
 *
 * Also the code-generation basics every part of a target expression
 * uses: temporaries, registers, memory reads, the first error.
 */
#include "dwarf_var.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static const char *const regname[] = {
	"ax", "dx", "cx", "bx", "si", "di", "bp", "sp",
	"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "ip",
};

const char *dw_regname(unsigned r)
{
	return r < sizeof(regname) / sizeof(regname[0]) ? regname[r] : NULL;
}

void tv_fail(struct tv *t, const struct loc *l, const char *fmt, ...)
{
	va_list ap;
	struct sbuf sb = { 0 };

	if (t->err)
		return;
	va_start(ap, fmt);
	sb_vprintf(&sb, fmt, ap);
	va_end(ap);
	t->err = ar_strdup(sb.s);
	t->err_loc = *l;
	free(sb.s);
}

const char *tv_tmp(struct tv *t)
{
	return ar_printf("t%d", t->ntmp++);
}

const char *tv_reg(struct tv *t, unsigned r)
{
	if (!dw_regname(r)) {
		tv_fail(t, &t->n->loc, "'%s' lives in DWARF register %u, which stp does not read",
			t->what, r);
		return "0";
	}
	t->uses_regs = 1;
	return ar_printf("(unsigned long)regs->%s", dw_regname(r));
}

const char *tv_read_mem(struct tv *t, const char *addr, int size, int is_signed)
{
	const char *v = tv_tmp(t), *a = tv_tmp(t);
	const char *ty = size == 1 ? "u8" : size == 2 ? "u16" : size == 4 ? "u32" : "u64";

	sb_printf(&t->decls, "\tunsigned long %s;\n\t%s %s;\n", a, ty, v);
	sb_printf(&t->c, "\t%s = %s;\n", a, addr);
	sb_printf(&t->c, "\tif (stp_tv_read(&%s, %s, sizeof(%s), %d))\n"
		  "\t\tSTAP_ERROR(\"%s read fault at 0x%%016lx (addr)\", %s);\n",
		  v, a, v, t->user, t->user ? "user" : "kernel", a);
	if (is_signed)
		return ar_printf("(int64_t)(s%d)%s", size * 8, v);
	return ar_printf("(int64_t)%s", v);
}

/* The link-time address of a symbol the module links to, for KASLR. */
static unsigned long long kernel_reloc_base(struct tv *t, const char **sym)
{
	static const char *const cands[] = { "_printk", "printk" };

	*sym = NULL;
	for (size_t i = 0; i < sizeof(cands) / sizeof(cands[0]); i++) {
		uint64_t a;

		if (dw_symbol(t->f, cands[i], &a)) {
			*sym = cands[i];
			return a;
		}
	}
	return 0;
}

const char *tv_static_addr(struct tv *t, uint64_t a)
{
	const char *sym;
	unsigned long long link;

	if (t->user) {
		tv_fail(t, &t->n->loc, "'%s' is static data of a program, which stp does not "
			"read yet", t->what);
		return "0";
	}
	link = kernel_reloc_base(t, &sym);
	if (!sym)
		return ar_printf("0x%llxUL", (unsigned long long)a);
	/* KASLR moves the kernel: relative to a symbol the module links to */
	return ar_printf("(0x%llxUL + ((unsigned long)&%s - 0x%llxUL))",
			 (unsigned long long)a, sym, link);
}

static int translate_ops(struct tv *t, Dwarf_Op *ops, size_t n, struct lval *out, int depth);

/* A location computed from a CFA or frame-base rule is the address
 * itself: a value, not memory to read. */
static int as_value(int ok, struct lval *out)
{
	if (ok && out->w == W_MEM)
		out->w = W_VALUE;
	return ok;
}

static int frame_cfa(struct tv *t, struct lval *out, int depth)
{
	Dwarf_Frame *frame;
	Dwarf_Op *ops, rule;
	Dwarf_Addr entry;
	size_t n;
	unsigned reg;
	int64_t off;
	int ok;

	/* a register plus an offset, as compilers say it; else libdw's
	 * CFI, which also knows CFA expressions */
	if (dw_cfa_rule(t->f, t->pc,
			   t->have_fn_scope && dwarf_entrypc(&t->fn_scope, &entry) == 0 ? entry : 0,
			   &reg, &off)) {
		rule = (Dwarf_Op){ .atom = DW_OP_bregx, .number = reg, .number2 = (Dwarf_Word)off };
		ok = translate_ops(t, &rule, 1, out, depth + 1);
		if (ok)
			out->w = W_VALUE;
		return ok;
	}
	if (!t->f->cfi || dwarf_cfi_addrframe(t->f->cfi, t->pc, &frame)) {
		tv_fail(t, &t->n->loc, "no call frame information for 0x%llx, where '%s' is "
			"found relative to the frame", (unsigned long long)t->pc, t->what);
		return 0;
	}
	if (dwarf_frame_cfa(frame, &ops, &n) || !n) {
		free(frame);
		tv_fail(t, &t->n->loc, "no frame address at 0x%llx for '%s'",
			(unsigned long long)t->pc, t->what);
		return 0;
	}
	ok = translate_ops(t, ops, n, out, depth + 1);
	free(frame);
	return as_value(ok, out);
}

static int frame_base(struct tv *t, struct lval *out, int depth)
{
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t n;

	if (!t->have_fn_scope || !dwarf_attr_integrate(&t->fn_scope, DW_AT_frame_base, &a) ||
	    dwarf_getlocation_addr(&a, t->pc, &ops, &n, 1) <= 0) {
		tv_fail(t, &t->n->loc, "no frame base for '%s' here", t->what);
		return 0;
	}
	/* DW_OP_bregN as a frame base: its value */
	return as_value(translate_ops(t, ops, n, out, depth + 1), out);
}

/* A value of up to 8 bytes whose parts are all known, put together. */
static const char *join_pieces(struct tv *t, const struct piece *pc, int np)
{
	struct sbuf whole = { 0 };
	const char *r;

	for (int k = 0; k < np; k++) {
		const char *v = pc[k].w == W_MEM ? tv_read_mem(t, pc[k].expr, pc[k].size, 0)
						 : pc[k].expr;
		unsigned long long mask = pc[k].size >= 8 ? ~0ULL : (1ULL << (8 * pc[k].size)) - 1;

		sb_printf(&whole, "%s(((unsigned long)%s & 0x%llxUL) << %d)", k ? " | " : "(", v,
			  mask, 8 * pc[k].off);
	}
	sb_puts(&whole, ")");
	r = ar_strdup(whole.s);
	free(whole.s);
	return r;
}

/*
 * A location in parts: each DW_OP_piece ends the expression of the
 * part before it.  A value of up to 8 bytes whose parts are all known
 * is also put together, for what reads it as a number.
 */
static int translate_pieces(struct tv *t, Dwarf_Op *ops, size_t n, struct lval *out, int depth)
{
	struct piece *pc = ar_alloc(16 * sizeof(*pc));
	size_t start = 0;
	int np = 0, off = 0, known = 1;

	for (size_t i = 0; i < n; i++) {
		struct lval sub = { 0 };

		if (ops[i].atom == DW_OP_bit_piece) {
			tv_fail(t, &t->n->loc, "'%s' is split in bit pieces here (DW_OP_bit_piece), "
				"which stp does not read", t->what);
			return 0;
		}
		if (ops[i].atom != DW_OP_piece)
			continue;
		if (np == 16 || ops[i].number == 0 || ops[i].number > 64) {
			tv_fail(t, &t->n->loc, "'%s' is split in more or larger parts than stp reads",
				t->what);
			return 0;
		}
		if (i > start && !translate_ops(t, ops + start, i - start, &sub, depth + 1))
			return 0;
		if (sub.npieces) {
			tv_fail(t, &t->n->loc, "the location of '%s' has parts within parts", t->what);
			return 0;
		}
		pc[np] = (struct piece){ sub.w, i > start ? sub.expr : NULL, off,
					 (int)ops[i].number };
		known &= pc[np].expr != NULL;
		off += (int)ops[i].number;
		np++;
		start = i + 1;
	}
	if (start != n || !np) {
		tv_fail(t, &t->n->loc, "the location of '%s' ends in the middle of a part", t->what);
		return 0;
	}
	*out = (struct lval){ W_VALUE, NULL, pc, np };
	if (off > 8 || !known)
		return !t->err;
	out->expr = join_pieces(t, pc, np);
	return !t->err;
}

/* The DWARF expression stack: C expressions. */
struct ostack {
	const char *v[64];
	int n;
};

static bool push(struct ostack *s, const char *x)
{
	if (s->n >= 64)
		return false;
	s->v[s->n++] = x;
	return true;
}

/* What one operation leaves translate_ops to do. */
enum step {
	S_NEXT,		/* go on with the next operation */
	S_DONE,		/* *out is the location; the error state says */
	S_VALUE,	/* *out is a constant value */
	S_PIECES,	/* the expression is in parts */
	S_COMPLEX,	/* an operation stp does not translate */
	S_FAILED,	/* an error was reported */
};

static const char *binary_op(uint8_t op)
{
	switch (op) {
	case DW_OP_plus:	return "+";
	case DW_OP_minus:	return "-";
	case DW_OP_mul:		return "*";
	case DW_OP_and:		return "&";
	case DW_OP_or:		return "|";
	case DW_OP_xor:		return "^";
	case DW_OP_shl:		return "<<";
	case DW_OP_shr:		return ">>";
	default:		return NULL;
	}
}

/* The value a register had on entry to the function: the register
 * itself while the probe is at the entry. */
static enum step entry_value(struct tv *t, struct ostack *s, const Dwarf_Op *op)
{
	const unsigned char *blk = (const unsigned char *)(uintptr_t)op->number2;

	if (t->pc == t->d->entry_pc && op->number == 1 && blk &&
	    blk[0] >= DW_OP_reg0 && blk[0] <= DW_OP_reg31)
		return push(s, tv_reg(t, blk[0] - DW_OP_reg0)) ? S_NEXT : S_COMPLEX;
	tv_fail(t, &t->n->loc, "'%s' is not available here: only the value it had on entry to "
		"the function is known (DW_OP_entry_value); use @entry(%s) in a .return probe, "
		"or probe the function's entry", t->what, t->what);
	return S_FAILED;
}

static enum step implicit_value(const Dwarf_Op *op, struct lval *out)
{
	uint64_t v = 0;

	if (op->number > 8)
		return S_COMPLEX;
	memcpy(&v, (const void *)(uintptr_t)op->number2, op->number);
	out->w = W_VALUE;
	out->expr = ar_printf("0x%llxUL", (unsigned long long)v);
	return S_VALUE;
}

/* A register as the whole location: its value. */
static enum step in_register(struct tv *t, unsigned r, size_t n, struct lval *out)
{
	if (n != 1)
		return S_PIECES;
	out->w = W_VALUE;
	out->expr = tv_reg(t, r);
	return S_DONE;
}

/* The operations that work on the top of the stack. */
static enum step stack_op(struct ostack *s, struct tv *t, const Dwarf_Op *op)
{
	const char *sym = binary_op(op->atom);
	const char **top;

	if (s->n < (sym ? 2 : 1))
		return S_COMPLEX;
	top = &s->v[s->n - 1];
	if (sym) {
		s->v[s->n - 2] = ar_printf("(%s %s %s)", s->v[s->n - 2], sym, *top);
		s->n--;
		return S_NEXT;
	}
	switch (op->atom) {
	case DW_OP_plus_uconst:
		*top = ar_printf("(%s + %lluUL)", *top, (unsigned long long)op->number);
		return S_NEXT;
	case DW_OP_deref:
		*top = ar_printf("(unsigned long)%s", tv_read_mem(t, *top, 8, 0));
		return S_NEXT;
	case DW_OP_deref_size:
		*top = ar_printf("(unsigned long)%s", tv_read_mem(t, *top, (int)op->number, 0));
		return S_NEXT;
	case DW_OP_dup:
		return push(s, *top) ? S_NEXT : S_COMPLEX;
	case DW_OP_drop:
		s->n--;
		return S_NEXT;
	case DW_OP_neg:
		*top = ar_printf("(-%s)", *top);
		return S_NEXT;
	case DW_OP_not:
		*top = ar_printf("(~%s)", *top);
		return S_NEXT;
	default:
		return S_COMPLEX;
	}
}

/* One operation of an expression of n: a flat switch over them. */
static enum step one_op(struct tv *t, struct ostack *s, const Dwarf_Op *op, size_t n,
			int depth, struct lval *out)
{
	uint8_t a = op->atom;
	struct lval sub = { 0 };

	if (a >= DW_OP_reg0 && a <= DW_OP_reg31)
		return in_register(t, a - DW_OP_reg0, n, out);
	if (a >= DW_OP_breg0 && a <= DW_OP_breg31)
		return push(s, ar_printf("(%s + %lld)", tv_reg(t, a - DW_OP_breg0),
					 (long long)op->number)) ? S_NEXT : S_COMPLEX;
	if (a >= DW_OP_lit0 && a <= DW_OP_lit31)
		return push(s, ar_printf("%dUL", a - DW_OP_lit0)) ? S_NEXT : S_COMPLEX;
	switch (a) {
	case DW_OP_regx:
		return in_register(t, (unsigned)op->number, n, out);
	case DW_OP_bregx:
		return push(s, ar_printf("(%s + %lld)", tv_reg(t, (unsigned)op->number),
					 (long long)op->number2)) ? S_NEXT : S_COMPLEX;
	case DW_OP_addr:
		return push(s, tv_static_addr(t, op->number)) ? S_NEXT : S_COMPLEX;
	case DW_OP_const1u: case DW_OP_const2u: case DW_OP_const4u:
	case DW_OP_const8u: case DW_OP_constu:
		return push(s, ar_printf("0x%llxUL", (unsigned long long)op->number))
			? S_NEXT : S_COMPLEX;
	case DW_OP_const1s: case DW_OP_const2s: case DW_OP_const4s:
	case DW_OP_const8s: case DW_OP_consts:
		return push(s, ar_printf("(unsigned long)%lldL", (long long)op->number))
			? S_NEXT : S_COMPLEX;
	case DW_OP_fbreg:
		if (!frame_base(t, &sub, depth))
			return S_FAILED;
		return push(s, ar_printf("(%s + %lld)", sub.expr, (long long)op->number))
			? S_NEXT : S_COMPLEX;
	case DW_OP_call_frame_cfa:
		if (!frame_cfa(t, &sub, depth))
			return S_FAILED;
		return push(s, sub.expr) ? S_NEXT : S_COMPLEX;
	case DW_OP_entry_value:
	case DW_OP_GNU_entry_value:
		return entry_value(t, s, op);
	case DW_OP_implicit_value:
		return implicit_value(op, out);
	case DW_OP_piece:
		return S_PIECES;
	default:
		return stack_op(s, t, op);
	}
}

/*
 * A DWARF expression as C.  The stack holds C expressions; the result
 * is a location (an address) unless the expression says it is a value
 * (a register, DW_OP_stack_value, a constant).
 */
static int translate_ops(struct tv *t, Dwarf_Op *ops, size_t n, struct lval *out, int depth)
{
	struct ostack s = { .n = 0 };
	enum where w = W_MEM;
	enum step st = S_NEXT;

	*out = (struct lval){ W_MEM, NULL, NULL, 0 };
	if (depth > 4) {
		tv_fail(t, &t->n->loc, "the location of '%s' nests too deeply", t->what);
		return 0;
	}
	for (size_t i = 0; i < n && st == S_NEXT; i++) {
		if (ops[i].atom == DW_OP_stack_value) {
			w = W_VALUE;
			st = i + 1 == n ? S_NEXT : S_PIECES;
			continue;
		}
		st = one_op(t, &s, &ops[i], n, depth, out);
	}
	if (st == S_NEXT && s.n == 1) {
		out->w = w;
		out->expr = s.v[0];
		return !t->err;
	}
	switch (st) {
	case S_DONE:
		return !t->err;
	case S_VALUE:
		return 1;
	case S_PIECES:
		return translate_pieces(t, ops, n, out, depth);
	case S_FAILED:
		return 0;
	default:
		tv_fail(t, &t->n->loc, "the location of '%s' uses DWARF operation 0x%x, which "
			"stp does not translate", t->what, n ? ops[0].atom : 0);
		return 0;
	}
}

int tv_var_location(struct tv *t, Dwarf_Die *var, const char *name, struct lval *out)
{
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t n;
	Dwarf_Sword sv;
	Dwarf_Word uv;

	*out = (struct lval){ W_MEM, NULL, NULL, 0 };
	if (dwarf_attr_integrate(var, DW_AT_const_value, &a)) {
		if (!dwarf_formsdata(&a, &sv))
			*out = (struct lval){ W_VALUE, ar_printf("(unsigned long)%lldL", (long long)sv),
					      NULL, 0 };
		else if (!dwarf_formudata(&a, &uv))
			*out = (struct lval){ W_VALUE, ar_printf("0x%llxUL", (unsigned long long)uv),
					      NULL, 0 };
		if (out->expr)
			return 1;
	} else if (dwarf_attr(var, DW_AT_location, &a) &&
		   dwarf_getlocation_addr(&a, t->pc, &ops, &n, 1) > 0 && n) {
		return translate_ops(t, ops, n, out, 0);
	}
	tv_fail(t, &t->n->loc, "'%s' is optimized out at 0x%llx (%s): the compiler kept no "
		"value for it there", name, (unsigned long long)t->pc, t->d->name);
	return 0;
}
