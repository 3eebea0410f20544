// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Target variables: $param, $local, @cast, @var and the pretty-printed
 * $$vars, found in DWARF at the probe's address and compiled into an
 * embedded-C function the handler calls.
 *
 * A variable's location (a DWARF expression, or one entry of a location
 * list valid at the address) becomes a C expression over the probe's
 * pt_regs: registers, the frame's CFA from the call frame information,
 * constants, memory read through the runtime's fault-safe accessors.
 * Then its type is walked along the member chain ("->f[2].g"): pointers
 * are followed, offsets added, and the last member read with its own
 * size and sign, or as a string when it is a char array.
 */
#include "dw.h"
#include "elab.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PRETTY_DEPTH 3

struct tv {
	struct elab *e;
	struct derived_probe *d;
	struct dwarf_file *f;
	struct node *n;
	const char *what;	/* the expression so far, for messages */
	struct sbuf c;		/* the function's body */
	struct sbuf decls;	/* its temporaries, declared first */
	int ntmp;
	const char *err;	/* the first error, reported at the end */
	struct loc err_loc;
	int user;
	int nparams;		/* parameters i0, i1...: the @cast/@var's own
				 * arguments, then subscripts */
	enum type ptype[64];	/* theirs (T_UNKNOWN: a number) */
	int uses_regs;
	uint64_t pc;
	Dwarf_Die fn_scope;	/* the subprogram (frame base) */
	int have_fn_scope;
};

/* A value's whereabouts: in memory (expr is the address), in a
 * register or computed (expr is the value). */
enum where { W_MEM, W_VALUE };

/* A part of a value held in parts (DW_OP_piece): a struct passed in
 * two registers, a variable partly in a register and partly on the
 * stack. */
struct piece {
	enum where w;
	const char *expr;	/* NULL: this part is optimized out */
	int off, size;		/* bytes */
};

struct lval {
	enum where w;
	const char *expr;	/* NULL for a value in parts of more than 8 bytes */
	const struct piece *pieces;
	int npieces;
};

static const char *const regname[] = {
	"ax", "dx", "cx", "bx", "si", "di", "bp", "sp",
	"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "ip",
};

const char *dwarf_regname(unsigned r)
{
	return r < sizeof(regname) / sizeof(regname[0]) ? regname[r] : NULL;
}

static void fail(struct tv *t, const struct loc *l, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void fail(struct tv *t, const struct loc *l, const char *fmt, ...)
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

static const char *tmp(struct tv *t)
{
	return ar_printf("t%d", t->ntmp++);
}

static const char *reg(struct tv *t, unsigned r)
{
	if (!dwarf_regname(r)) {
		fail(t, &t->n->loc, "'%s' lives in DWARF register %u, which stp does not read",
		     t->what, r);
		return "0";
	}
	t->uses_regs = 1;
	return ar_printf("(unsigned long)regs->%s", dwarf_regname(r));
}

/* Read size bytes at addr into a new temporary; a fault is an error. */
static const char *read_mem(struct tv *t, const char *addr, int size, int is_signed)
{
	const char *v = tmp(t), *a = tmp(t);
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

static unsigned long long kernel_reloc_base(struct tv *t, const char **sym);

/* The address static storage at link-time address a has now. */
static const char *static_addr(struct tv *t, uint64_t a)
{
	const char *sym;
	unsigned long long link;

	if (t->user) {
		fail(t, &t->n->loc, "'%s' is static data of a program, which stp does not read yet",
		     t->what);
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
static int translate_pieces(struct tv *t, Dwarf_Op *ops, size_t n, struct lval *out, int depth);

static int frame_cfa(struct tv *t, struct lval *out, int depth)
{
	Dwarf_Frame *frame;
	Dwarf_Op *ops, rule;
	Dwarf_Addr entry;
	size_t n;
	unsigned reg;
	int64_t off;

	/* a register plus an offset, as compilers say it; else libdw's
	 * CFI, which also knows CFA expressions */
	if (dwarf_cfa_rule(t->f, t->pc,
			   t->have_fn_scope && dwarf_entrypc(&t->fn_scope, &entry) == 0 ? entry : 0,
			   &reg, &off)) {
		int ok;

		rule = (Dwarf_Op){ .atom = DW_OP_bregx, .number = reg, .number2 = (Dwarf_Word)off };
		ok = translate_ops(t, &rule, 1, out, depth + 1);
		if (ok)
			out->w = W_VALUE;
		return ok;
	}
	if (!t->f->cfi || dwarf_cfi_addrframe(t->f->cfi, t->pc, &frame)) {
		fail(t, &t->n->loc, "no call frame information for 0x%llx, where '%s' is found "
		     "relative to the frame", (unsigned long long)t->pc, t->what);
		return 0;
	}
	if (dwarf_frame_cfa(frame, &ops, &n) || !n) {
		free(frame);
		fail(t, &t->n->loc, "no frame address at 0x%llx for '%s'", (unsigned long long)t->pc,
		     t->what);
		return 0;
	}
	{
		int ok = translate_ops(t, ops, n, out, depth + 1);

		free(frame);
		if (ok && out->w == W_MEM)	/* a CFA rule gives the address itself */
			out->w = W_VALUE;
		return ok;
	}
}

static int frame_base(struct tv *t, struct lval *out, int depth)
{
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t n;

	if (!t->have_fn_scope || !dwarf_attr_integrate(&t->fn_scope, DW_AT_frame_base, &a) ||
	    dwarf_getlocation_addr(&a, t->pc, &ops, &n, 1) <= 0) {
		fail(t, &t->n->loc, "no frame base for '%s' here", t->what);
		return 0;
	}
	if (!translate_ops(t, ops, n, out, depth + 1))
		return 0;
	if (out->w == W_MEM)	/* DW_OP_bregN as a frame base: its value */
		out->w = W_VALUE;
	return 1;
}

/*
 * A location in parts: each DW_OP_piece ends the expression of the
 * part before it.  A value of up to 8 bytes whose parts are all known
 * is also put together, for what reads it as a number.
 */
static int translate_pieces(struct tv *t, Dwarf_Op *ops, size_t n, struct lval *out, int depth)
{
	struct piece *pc = ar_alloc(16 * sizeof(*pc));
	struct sbuf whole = { 0 };
	size_t start = 0;
	int np = 0, off = 0, known = 1;

	for (size_t i = 0; i < n; i++) {
		struct lval sub = { 0 };

		if (ops[i].atom == DW_OP_bit_piece) {
			fail(t, &t->n->loc, "'%s' is split in bit pieces here (DW_OP_bit_piece), which "
			     "stp does not read", t->what);
			return 0;
		}
		if (ops[i].atom != DW_OP_piece)
			continue;
		if (np == 16 || ops[i].number == 0 || ops[i].number > 64) {
			fail(t, &t->n->loc, "'%s' is split in more or larger parts than stp reads",
			     t->what);
			return 0;
		}
		if (i > start && !translate_ops(t, ops + start, i - start, &sub, depth + 1))
			return 0;
		if (sub.npieces) {
			fail(t, &t->n->loc, "the location of '%s' has parts within parts", t->what);
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
		fail(t, &t->n->loc, "the location of '%s' ends in the middle of a part", t->what);
		return 0;
	}
	out->pieces = pc;
	out->npieces = np;
	out->w = W_VALUE;
	out->expr = NULL;
	if (off > 8 || !known)
		return !t->err;
	for (int k = 0; k < np; k++) {
		const char *v = pc[k].w == W_MEM ? read_mem(t, pc[k].expr, pc[k].size, 0) : pc[k].expr;
		unsigned long long mask = pc[k].size >= 8 ? ~0ULL : (1ULL << (8 * pc[k].size)) - 1;

		sb_printf(&whole, "%s(((unsigned long)%s & 0x%llxUL) << %d)", k ? " | " : "(", v, mask,
			  8 * pc[k].off);
	}
	sb_puts(&whole, ")");
	out->expr = ar_strdup(whole.s);
	free(whole.s);
	return !t->err;
}

/*
 * A DWARF expression as C.  The stack holds C expressions; the result
 * is a location (an address) unless the expression says it is a value
 * (a register, DW_OP_stack_value, a constant).
 */
static int translate_ops(struct tv *t, Dwarf_Op *ops, size_t n, struct lval *out, int depth)
{
	const char *st[64];
	int sp = 0;
	enum where w = W_MEM;

	*out = (struct lval){ W_MEM, NULL, NULL, 0 };
	if (depth > 4) {
		fail(t, &t->n->loc, "the location of '%s' nests too deeply", t->what);
		return 0;
	}
#define PUSH(x) do { const char *x_ = (x); if (sp >= 64) goto complex; st[sp++] = x_; } while (0)
#define NEED(k) do { if (sp < (k)) goto complex; } while (0)
	for (size_t i = 0; i < n; i++) {
		uint8_t op = ops[i].atom;
		struct lval sub = { 0 };

		if (op >= DW_OP_reg0 && op <= DW_OP_reg31) {
			if (n != 1)
				goto pieces;
			out->w = W_VALUE;
			out->expr = reg(t, op - DW_OP_reg0);
			return !t->err;
		}
		if (op >= DW_OP_breg0 && op <= DW_OP_breg31) {
			PUSH(ar_printf("(%s + %lld)", reg(t, op - DW_OP_breg0), (long long)ops[i].number));
			continue;
		}
		if (op >= DW_OP_lit0 && op <= DW_OP_lit31) {
			PUSH(ar_printf("%dUL", op - DW_OP_lit0));
			continue;
		}
		switch (op) {
		case DW_OP_regx:
			if (n != 1)
				goto pieces;
			out->w = W_VALUE;
			out->expr = reg(t, (unsigned)ops[i].number);
			return !t->err;
		case DW_OP_bregx:
			PUSH(ar_printf("(%s + %lld)", reg(t, (unsigned)ops[i].number),
				       (long long)ops[i].number2));
			break;
		case DW_OP_addr:
			PUSH(static_addr(t, ops[i].number));
			break;
		case DW_OP_const1u: case DW_OP_const2u: case DW_OP_const4u:
		case DW_OP_const8u: case DW_OP_constu:
			PUSH(ar_printf("0x%llxUL", (unsigned long long)ops[i].number));
			break;
		case DW_OP_const1s: case DW_OP_const2s: case DW_OP_const4s:
		case DW_OP_const8s: case DW_OP_consts:
			PUSH(ar_printf("(unsigned long)%lldL", (long long)ops[i].number));
			break;
		case DW_OP_fbreg:
			if (!frame_base(t, &sub, depth))
				return 0;
			PUSH(ar_printf("(%s + %lld)", sub.expr, (long long)ops[i].number));
			break;
		case DW_OP_call_frame_cfa:
			if (!frame_cfa(t, &sub, depth))
				return 0;
			PUSH(sub.expr);
			break;
		case DW_OP_plus_uconst:
			NEED(1);
			st[sp - 1] = ar_printf("(%s + %lluUL)", st[sp - 1], (unsigned long long)ops[i].number);
			break;
		case DW_OP_deref:
			NEED(1);
			st[sp - 1] = ar_printf("(unsigned long)%s", read_mem(t, st[sp - 1], 8, 0));
			break;
		case DW_OP_deref_size:
			NEED(1);
			st[sp - 1] = ar_printf("(unsigned long)%s",
					       read_mem(t, st[sp - 1], (int)ops[i].number, 0));
			break;
		case DW_OP_dup:
			NEED(1);
			PUSH(st[sp - 1]);
			break;
		case DW_OP_drop:
			NEED(1);
			sp--;
			break;
		case DW_OP_plus: case DW_OP_minus: case DW_OP_mul: case DW_OP_and:
		case DW_OP_or: case DW_OP_xor: case DW_OP_shl: case DW_OP_shr: {
			const char *sym = op == DW_OP_plus ? "+" : op == DW_OP_minus ? "-" :
				op == DW_OP_mul ? "*" : op == DW_OP_and ? "&" : op == DW_OP_or ? "|" :
				op == DW_OP_xor ? "^" : op == DW_OP_shl ? "<<" : ">>";

			NEED(2);
			st[sp - 2] = ar_printf("(%s %s %s)", st[sp - 2], sym, st[sp - 1]);
			sp--;
			break;
		}
		case DW_OP_neg:
			NEED(1);
			st[sp - 1] = ar_printf("(-%s)", st[sp - 1]);
			break;
		case DW_OP_not:
			NEED(1);
			st[sp - 1] = ar_printf("(~%s)", st[sp - 1]);
			break;
		case DW_OP_stack_value:
			w = W_VALUE;
			if (i + 1 != n)
				goto pieces;
			break;
		case DW_OP_entry_value:
		case DW_OP_GNU_entry_value: {
			const unsigned char *blk = (const unsigned char *)(uintptr_t)ops[i].number2;

			/* the value a register had on entry to the function:
			 * the register itself while the probe is there */
			if (t->pc == t->d->entry_pc && ops[i].number == 1 && blk &&
			    blk[0] >= DW_OP_reg0 && blk[0] <= DW_OP_reg31) {
				PUSH(reg(t, blk[0] - DW_OP_reg0));
				break;
			}
			fail(t, &t->n->loc, "'%s' is not available here: only the value it had on "
			     "entry to the function is known (DW_OP_entry_value); use @entry(%s) in "
			     "a .return probe, or probe the function's entry", t->what, t->what);
			return 0;
		}
		case DW_OP_implicit_value:
			if (ops[i].number > 8)
				goto complex;
			{
				uint64_t v = 0;

				memcpy(&v, (const void *)(uintptr_t)ops[i].number2, ops[i].number);
				out->w = W_VALUE;
				out->expr = ar_printf("0x%llxUL", (unsigned long long)v);
				return 1;
			}
		case DW_OP_piece:
			goto pieces;
		default:
			goto complex;
		}
	}
	if (sp != 1)
		goto complex;
	out->w = w;
	out->expr = st[0];
	return !t->err;
pieces:
	return translate_pieces(t, ops, n, out, depth);
complex:
	fail(t, &t->n->loc, "the location of '%s' uses DWARF operation 0x%x, which stp does not "
	     "translate", t->what, n ? ops[0].atom : 0);
	return 0;
#undef PUSH
#undef NEED
}

/* ---- types ---- */

static Dwarf_Die *type_of(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Attribute a;

	if (!dwarf_attr_integrate(die, DW_AT_type, &a) || !dwarf_formref_die(&a, out))
		return NULL;
	return out;
}

/* Typedefs and qualifiers off. */
static Dwarf_Die *peel(Dwarf_Die *t, Dwarf_Die *buf)
{
	Dwarf_Die cur = *t;

	for (int i = 0; i < 32; i++) {
		int tag = dwarf_tag(&cur);

		if (tag != DW_TAG_typedef && tag != DW_TAG_const_type &&
		    tag != DW_TAG_volatile_type && tag != DW_TAG_restrict_type &&
		    tag != DW_TAG_atomic_type)
			break;
		if (!type_of(&cur, &cur)) {
			*buf = cur;
			return NULL;	/* const void */
		}
	}
	*buf = cur;
	return buf;
}

/* "struct file*", "size_t", "char*": SystemTap's spelling for -L. */
static void type_name_of(Dwarf_Die *t, struct sbuf *sb, int depth)
{
	Dwarf_Die inner;
	const char *name = t ? dwarf_diename(t) : NULL;

	if (!t || depth > 16) {
		sb_puts(sb, "void");
		return;
	}
	switch (dwarf_tag(t)) {
	case DW_TAG_pointer_type:
		if (type_of(t, &inner) && dwarf_tag(&inner) == DW_TAG_subroutine_type) {
			Dwarf_Die ret, param;
			int first = 1;

			type_name_of(type_of(&inner, &ret), sb, depth + 1);
			sb_puts(sb, " (*)(");
			if (dwarf_child(&inner, &param) == 0) {
				do {
					Dwarf_Die pt;

					if (dwarf_tag(&param) == DW_TAG_unspecified_parameters) {
						sb_puts(sb, first ? "..." : ", ...");
						first = 0;
					}
					if (dwarf_tag(&param) != DW_TAG_formal_parameter)
						continue;
					if (!first)
						sb_puts(sb, ", ");
					first = 0;
					type_name_of(type_of(&param, &pt), sb, depth + 1);
				} while (dwarf_siblingof(&param, &param) == 0);
			}
			sb_puts(sb, ")");
			return;
		}
		type_name_of(type_of(t, &inner), sb, depth + 1);
		sb_puts(sb, "*");
		return;
	case DW_TAG_const_type:
		type_name_of(type_of(t, &inner), sb, depth + 1);
		sb_puts(sb, " const");
		return;
	case DW_TAG_volatile_type:
		type_name_of(type_of(t, &inner), sb, depth + 1);
		sb_puts(sb, " volatile");
		return;
	case DW_TAG_structure_type:
		sb_printf(sb, "struct %s", name ? name : "{...}");
		return;
	case DW_TAG_union_type:
		sb_printf(sb, "union %s", name ? name : "{...}");
		return;
	case DW_TAG_enumeration_type:
		sb_printf(sb, "enum %s", name ? name : "{...}");
		return;
	case DW_TAG_array_type:
		type_name_of(type_of(t, &inner), sb, depth + 1);
		sb_puts(sb, "[]");
		return;
	case DW_TAG_subroutine_type:
		sb_puts(sb, "void (*)()");
		return;
	default:
		sb_puts(sb, name ? name : "void");
	}
}

static const char *type_text(Dwarf_Die *t)
{
	struct sbuf sb = { 0 };
	const char *s;

	type_name_of(t, &sb, 0);
	s = ar_strdup(sb.s ? sb.s : "void");
	free(sb.s);
	return s;
}

static int byte_size(Dwarf_Die *t)
{
	Dwarf_Die buf, *p = peel(t, &buf);
	Dwarf_Word w;
	Dwarf_Attribute a;

	if (!p)
		return 0;
	if (dwarf_tag(p) == DW_TAG_pointer_type)
		return 8;
	if (dwarf_attr_integrate(p, DW_AT_byte_size, &a) && !dwarf_formudata(&a, &w))
		return (int)w;
	if (dwarf_tag(p) == DW_TAG_array_type) {
		Dwarf_Die el;
		Dwarf_Die child;
		int64_t count = 1;

		if (!type_of(p, &el))
			return 0;
		if (dwarf_child(p, &child) == 0) {
			do {
				Dwarf_Word ub;

				if (dwarf_tag(&child) != DW_TAG_subrange_type)
					continue;
				if (dwarf_attr(&child, DW_AT_count, &a) && !dwarf_formudata(&a, &ub))
					count *= (int64_t)ub;
				else if (dwarf_attr(&child, DW_AT_upper_bound, &a) && !dwarf_formudata(&a, &ub))
					count *= (int64_t)ub + 1;
				else
					count = 0;
			} while (dwarf_siblingof(&child, &child) == 0);
		}
		return (int)(count * byte_size(&el));
	}
	return 0;
}

static int is_signed_type(Dwarf_Die *p)
{
	Dwarf_Attribute a;
	Dwarf_Word enc;

	if (dwarf_tag(p) == DW_TAG_enumeration_type)
		return 1;
	if (dwarf_tag(p) != DW_TAG_base_type || !dwarf_attr(p, DW_AT_encoding, &a) ||
	    dwarf_formudata(&a, &enc))
		return 0;
	return enc == DW_ATE_signed || enc == DW_ATE_signed_char;
}

static int is_char(Dwarf_Die *t)
{
	Dwarf_Die buf, *p = t ? peel(t, &buf) : NULL;
	Dwarf_Attribute a;
	Dwarf_Word enc;

	if (!p || dwarf_tag(p) != DW_TAG_base_type || byte_size(p) != 1 ||
	    !dwarf_attr(p, DW_AT_encoding, &a) || dwarf_formudata(&a, &enc))
		return 0;
	return enc == DW_ATE_signed_char || enc == DW_ATE_unsigned_char;
}

/* A member of a struct or union by name, looking into anonymous
 * members; *off gets its offset from the start. */
static int find_member(Dwarf_Die *agg, const char *name, Dwarf_Die *out, int64_t *off, int depth)
{
	Dwarf_Die child;

	if (depth > 8 || dwarf_child(agg, &child) != 0)
		return 0;
	do {
		Dwarf_Attribute a;
		Dwarf_Word mo = 0;
		const char *mn;

		if (dwarf_tag(&child) != DW_TAG_member)
			continue;
		if (dwarf_attr(&child, DW_AT_data_member_location, &a))
			dwarf_formudata(&a, &mo);
		mn = dwarf_diename(&child);
		if (mn && !strcmp(mn, name)) {
			*out = child;
			*off = (int64_t)mo;
			return 1;
		}
		if (!mn) {
			Dwarf_Die ty, buf, *p;
			int64_t sub;

			if (type_of(&child, &ty) && (p = peel(&ty, &buf)) &&
			    (dwarf_tag(p) == DW_TAG_structure_type || dwarf_tag(p) == DW_TAG_union_type) &&
			    find_member(p, name, out, &sub, depth + 1)) {
				*off = (int64_t)mo + sub;
				return 1;
			}
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

/* A value's expression; "0" after an error when some part of it is
 * optimized out (or it is more than a number). */
static const char *known(struct tv *t, const struct lval *v)
{
	if (v->expr)
		return v->expr;
	fail(t, &t->n->loc, "'%s' is in parts here, %s", t->what,
	     v->npieces ? "some of them optimized out or more than 8 bytes in all" : "none known");
	return "0";
}

/* The value of v (whose type is ty) made an address to go through:
 * for a pointer the pointer's value, for an array or struct in memory
 * its address. */
static const char *as_pointer(struct tv *t, struct lval *v, Dwarf_Die *p)
{
	if (dwarf_tag(p) == DW_TAG_pointer_type) {
		if (v->w == W_VALUE)
			return known(t, v);
		return ar_printf("(unsigned long)%s", read_mem(t, v->expr, 8, 0));
	}
	if (v->w == W_MEM)
		return v->expr;
	fail(t, &t->n->loc, "'%s' is not in memory here (it is in a register)", t->what);
	return "0";
}

/* The scalar value of v, typed by p. */
static const char *rvalue(struct tv *t, struct lval *v, Dwarf_Die *p)
{
	int size = byte_size(p), sgn = is_signed_type(p);

	if (size <= 0 || size > 8) {
		fail(t, &t->n->loc, "'%s' has a type of %d bytes, which is not a number",
		     t->what, size);
		return "0";
	}
	if (v->w == W_MEM)
		return read_mem(t, v->expr, size, sgn);
	if (size == 8)
		return ar_printf("(int64_t)%s", known(t, v));
	return ar_printf("(int64_t)(%s%d)%s", sgn ? "s" : "u", size * 8, known(t, v));
}

/*
 * The bytes [off, off + size) of v, a struct or union: in memory, at
 * its address plus off; in a register, shifted down; in parts, from the
 * part that holds them all.  0 when no part does (or it is optimized
 * out).  out may be v.
 */
static int part_of(const struct lval *v, int64_t off, int size, struct lval *out)
{
	struct lval r = { 0 };

	if (!v->npieces && v->w == W_MEM) {
		r.w = W_MEM;
		r.expr = ar_printf("(%s + %lld)", v->expr, (long long)off);
	} else if (!v->npieces) {
		if (off < 0 || off + size > 8 || !v->expr)
			return 0;
		r.w = W_VALUE;
		r.expr = off ? ar_printf("((unsigned long)%s >> %d)", v->expr, (int)(8 * off)) : v->expr;
	} else {
		int k = 0;

		while (k < v->npieces && !(off >= v->pieces[k].off &&
					   off + size <= v->pieces[k].off + v->pieces[k].size))
			k++;
		if (k == v->npieces || !v->pieces[k].expr)
			return 0;
		r.w = v->pieces[k].w;
		r.expr = v->pieces[k].expr;
		return part_of(&r, off - v->pieces[k].off, size, out);
	}
	*out = r;
	return 1;
}

/* Whether a type is passed in general registers (no floating point
 * in it), as x86-64 returns a struct of up to 16 bytes in rax:rdx. */
static int integer_class(Dwarf_Die *type, int depth)
{
	Dwarf_Die buf, *p = peel(type, &buf), child, ct;
	Dwarf_Attribute a;
	Dwarf_Word enc;

	if (!p || depth > 8)
		return 0;
	switch (dwarf_tag(p)) {
	case DW_TAG_base_type:
		return !(dwarf_attr(p, DW_AT_encoding, &a) && !dwarf_formudata(&a, &enc) &&
			 (enc == DW_ATE_float || enc == DW_ATE_complex_float));
	case DW_TAG_array_type:
		return type_of(p, &ct) && integer_class(&ct, depth + 1);
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
		if (dwarf_child(p, &child) == 0)
			do {
				if (dwarf_tag(&child) == DW_TAG_member &&
				    (!type_of(&child, &ct) || !integer_class(&ct, depth + 1)))
					return 0;
			} while (dwarf_siblingof(&child, &child) == 0);
		return 1;
	default:
		return 1;
	}
}

/* A function's return value (of type rt) in a .return probe: rax, or
 * rax and rdx for a struct of 9 to 16 bytes. */
static void return_value(struct tv *t, Dwarf_Die *rt, struct lval *out)
{
	int size = byte_size(rt);

	t->uses_regs = 1;
	*out = (struct lval){ W_VALUE, reg(t, 0), NULL, 0 };
	if (size > 8 && size <= 16 && integer_class(rt, 0)) {
		struct piece *pc = ar_alloc(2 * sizeof(*pc));

		pc[0] = (struct piece){ W_VALUE, reg(t, 0), 0, 8 };
		pc[1] = (struct piece){ W_VALUE, reg(t, 1), 8, size - 8 };
		*out = (struct lval){ W_VALUE, NULL, pc, 2 };
	}
}

/* ---- the member chain ---- */

struct walk {
	struct lval v;
	Dwarf_Die type;		/* as declared */
	int have_type;
	int bit_size, bit_off;	/* a bitfield */
	int reg_part;		/* a member of a value held in registers */
};

static int walk_comps(struct tv *t, struct walk *w, const struct vec *comps)
{
	for (int i = 0; i < comps->len; i++) {
		struct node *c = comps->v[i];
		Dwarf_Die buf, *p = w->have_type ? peel(&w->type, &buf) : NULL;
		int tag = p ? dwarf_tag(p) : 0;

		if (!p) {
			fail(t, &c->loc, "'%s' has no type here to take %s of", t->what,
			     c->kind == N_MEMBER ? "a member" : "an element");
			return 0;
		}
		if (c->kind == N_MEMBER) {
			Dwarf_Die agg = *p, member, mt;
			int64_t off;
			int size;
			Dwarf_Attribute a;
			Dwarf_Word bs = 0, bo = 0;

			if (tag == DW_TAG_pointer_type) {
				Dwarf_Die pointee, pbuf, *pp;

				if (!type_of(p, &pointee) || !(pp = peel(&pointee, &pbuf))) {
					fail(t, &c->loc, "'%s' is a void pointer: it has no member '%s' "
					     "(use @cast)", t->what, c->name);
					return 0;
				}
				w->v = (struct lval){ W_MEM, as_pointer(t, &w->v, p), NULL, 0 };
				/* a pointer to a pointer: followed as far as it goes */
				for (int k = 0; k < 4 && dwarf_tag(pp) == DW_TAG_pointer_type; k++) {
					Dwarf_Die inner;

					if (!type_of(pp, &inner) || !(pp = peel(&inner, &pbuf)))
						break;
					w->v.expr = ar_printf("(unsigned long)%s", read_mem(t, w->v.expr, 8, 0));
				}
				if (!pp) {
					fail(t, &c->loc, "'%s' is a void pointer: it has no member '%s' "
					     "(use @cast)", t->what, c->name);
					return 0;
				}
				agg = *pp;
				tag = dwarf_tag(pp);
			}
			if (tag != DW_TAG_structure_type && tag != DW_TAG_union_type) {
				fail(t, &c->loc, "'%s' is '%s', which has no member '%s'", t->what,
				     type_text(&w->type), c->name);
				return 0;
			}
			if (!dwarf_hasattr(&agg, DW_AT_byte_size)) {
				fail(t, &c->loc, "'%s' is an incomplete type ('%s'): its members are "
				     "not known here", t->what, type_text(&agg));
				return 0;
			}
			if (!find_member(&agg, c->name, &member, &off, 0)) {
				fail(t, &c->loc, "'%s' has no member '%s'", type_text(&agg), c->name);
				return 0;
			}
			if (!type_of(&member, &mt)) {
				fail(t, &c->loc, "member '%s' has no type", c->name);
				return 0;
			}
			w->type = mt;
			w->bit_size = w->bit_off = 0;
			size = byte_size(&mt) > 0 ? byte_size(&mt) : 1;
			if (dwarf_attr(&member, DW_AT_bit_size, &a) && !dwarf_formudata(&a, &bs)) {
				int unit = size;

				w->bit_size = (int)bs;
				if (dwarf_attr(&member, DW_AT_data_bit_offset, &a) && !dwarf_formudata(&a, &bo)) {
					/* DWARF 5: bits from the start of the struct;
					 * read the storage unit that holds them */
					int64_t byte = (int64_t)(bo / 8) / unit * unit;

					if ((int64_t)bo - 8 * byte + (int64_t)bs > 8 * unit)
						byte = (int64_t)(bo / 8);	/* straddles: bytes */
					off += byte;
					w->bit_off = (int)((int64_t)bo - 8 * byte);
				} else if (dwarf_attr(&member, DW_AT_bit_offset, &a) && !dwarf_formudata(&a, &bo)) {
					w->bit_off = unit * 8 - (int)bo - (int)bs;
				}
				if (w->bit_off < 0 || w->bit_off + w->bit_size > 64) {
					fail(t, &c->loc, "bitfield '%s' is laid out in a way stp does not read",
					     c->name);
					return 0;
				}
			}
			w->reg_part |= w->v.w == W_VALUE;
			if (!part_of(&w->v, off, size, &w->v)) {
				fail(t, &c->loc, "'%s' is in registers here, and its member '%s' is not "
				     "wholly in one of them", t->what, c->name);
				return 0;
			}
		} else {	/* [index] */
			Dwarf_Die el;
			const char *idx;
			int size;

			if (c->lhs->kind == N_NUM) {
				idx = ar_printf("%lldL", (long long)c->lhs->num);
			} else {
				if (t->nparams >= 60) {
					fail(t, &c->loc, "'%s' has too many subscripts", t->what);
					return 0;
				}
				idx = ar_printf("(long)STAP_ARG_i%d", t->nparams++);
				vec_push_ar(&t->n->args, c->lhs);
			}
			if (tag != DW_TAG_pointer_type && tag != DW_TAG_array_type) {
				fail(t, &c->loc, "'%s' is '%s', which cannot be indexed", t->what,
				     type_text(&w->type));
				return 0;
			}
			if (!type_of(p, &el) || !(size = byte_size(&el))) {
				fail(t, &c->loc, "'%s' points to elements of unknown size", t->what);
				return 0;
			}
			w->v = (struct lval){ W_MEM, ar_printf("(%s + %s * %d)", as_pointer(t, &w->v, p),
							       idx, size), NULL, 0 };
			w->type = el;
		}
		if (t->err)
			return 0;
		t->what = c->kind == N_MEMBER ? ar_printf("%s->%s", t->what, c->name)
					      : ar_printf("%s[...]", t->what);
	}
	return 1;
}

/* The end of the chain as the function's result: a number, or a string
 * for char arrays. */
static enum type finish_value(struct tv *t, struct walk *w, int addr_of)
{
	Dwarf_Die buf, *p = w->have_type ? peel(&w->type, &buf) : NULL;
	int tag = p ? dwarf_tag(p) : 0;

	if (addr_of) {
		if (w->v.w != W_MEM) {
			fail(t, &t->n->loc, "'%s' has no address here (it is in a register)", t->what);
			return T_LONG;
		}
		if (w->bit_size) {
			fail(t, &t->n->loc, "a bitfield has no address");
			return T_LONG;
		}
		sb_printf(&t->c, "\tSTAP_RETVALUE = (int64_t)%s;\n", w->v.expr);
		return T_LONG;
	}
	if (!p) {
		fail(t, &t->n->loc, "'%s' has no type (void)", t->what);
		return T_LONG;
	}
	/* an array's value is its address (kernel_string() reads a char
	 * array, as in SystemTap) */
	if (tag == DW_TAG_array_type) {
		if (w->v.w == W_MEM) {	/* an array's value is its address */
			sb_printf(&t->c, "\tSTAP_RETVALUE = (int64_t)%s;\n", w->v.expr);
			return T_LONG;
		}
	}
	if (tag == DW_TAG_structure_type || tag == DW_TAG_union_type) {
		fail(t, &t->n->loc, "'%s' is a %s ('%s'): name one of its members, or print it "
		     "with '%s$'", t->what, tag == DW_TAG_union_type ? "union" : "struct",
		     type_text(&w->type), t->what);
		return T_LONG;
	}
	if (w->bit_size) {
		int size = byte_size(p), sgn = is_signed_type(p);
		const char *raw = w->v.w == W_MEM ? read_mem(t, w->v.expr, size, 0) : known(t, &w->v);
		const char *v = tmp(t);

		sb_printf(&t->decls, "\tuint64_t %s;\n", v);
		sb_printf(&t->c, "\t%s = ((uint64_t)%s >> %d) & ((1ULL << %d) - 1);\n",
			  v, raw, w->bit_off, w->bit_size);
		if (sgn)
			sb_printf(&t->c, "\tif (%s & (1ULL << %d)) %s |= ~((1ULL << %d) - 1);\n",
				  v, w->bit_size - 1, v, w->bit_size);
		sb_printf(&t->c, "\tSTAP_RETVALUE = (int64_t)%s;\n", v);
		return T_LONG;
	}
	sb_printf(&t->c, "\tSTAP_RETVALUE = %s;\n", rvalue(t, &w->v, p));
	return T_LONG;
}

/* ---- finding the variable ---- */

static unsigned long long kernel_reloc_base(struct tv *t, const char **sym)
{
	static const char *const cands[] = { "_printk", "printk" };

	*sym = NULL;
	for (size_t i = 0; i < sizeof(cands) / sizeof(cands[0]); i++) {
		uint64_t a;

		if (dwarf_symbol(t->f, cands[i], &a)) {
			*sym = cands[i];
			return a;
		}
	}
	return 0;
}

static const char *die_name(Dwarf_Die *d)
{
	Dwarf_Attribute a;
	Dwarf_Attribute *n = dwarf_attr_integrate(d, DW_AT_name, &a);

	return n ? dwarf_formstring(n) : NULL;
}

/* The DIEs under die containing pc, outermost first, into v. */
static void inner_scopes(Dwarf_Die *die, uint64_t pc, struct vec *v, int depth)
{
	Dwarf_Die child;

	if (depth > 32 || dwarf_child(die, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);

		if ((tag == DW_TAG_lexical_block || tag == DW_TAG_inlined_subroutine) &&
		    dwarf_haspc(&child, pc) == 1) {
			Dwarf_Die *copy = ar_alloc(sizeof(*copy));

			*copy = child;
			vec_push(v, copy);
			inner_scopes(&child, pc, v, depth + 1);
			return;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
}

/* The subprogram of the CU whose code holds pc (for an inlined copy's
 * frame base). */
static int subprogram_at(Dwarf_Die *cu, uint64_t pc, Dwarf_Die *out)
{
	Dwarf_Die child;

	if (dwarf_child(cu, &child) != 0)
		return 0;
	do {
		if (dwarf_tag(&child) == DW_TAG_subprogram && dwarf_haspc(&child, pc) == 1) {
			*out = child;
			return 1;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

/*
 * The scopes to search at pc, innermost first: the blocks of the
 * probe's function around pc (not the inlined functions it calls
 * there), the function, then the CU.  Walked down from the function's
 * own DIE: dwarf_getscopes() would walk the whole CU for each probe.
 */
static int scopes_at(struct tv *t, Dwarf_Die **scopes, int *from, int *to)
{
	Dwarf_Die cu, fn;
	struct vec inner = { 0 };
	int n, k = 0;

	if (!dwarf_die(t->f, t->d->die, &fn) || !dwarf_diecu(&fn, &cu, NULL, NULL))
		return 0;
	inner_scopes(&fn, t->pc, &inner, 0);
	n = inner.len + 2;
	*scopes = xcalloc((size_t)n, sizeof(**scopes));
	for (int i = inner.len - 1; i >= 0; i--) {
		Dwarf_Die *d = inner.v[i];

		/* a call inlined here: its variables are not the function's */
		if (dwarf_tag(d) == DW_TAG_inlined_subroutine) {
			k = 0;
			continue;
		}
		(*scopes)[k++] = *d;
	}
	/* blocks above the last inlined call only (the loop kept them) */
	{
		int keep = 0;

		for (int i = 0; i < inner.len; i++) {
			Dwarf_Die *d = inner.v[i];

			if (dwarf_tag(d) == DW_TAG_inlined_subroutine)
				break;
			keep++;
		}
		k = 0;
		for (int i = keep - 1; i >= 0; i--)
			(*scopes)[k++] = *(Dwarf_Die *)inner.v[i];
	}
	*from = 0;
	*to = k;
	(*scopes)[k++] = fn;
	(*scopes)[k++] = cu;
	free(inner.v);
	if (dwarf_tag(&fn) == DW_TAG_subprogram) {
		t->fn_scope = fn;
		t->have_fn_scope = 1;
	} else if (subprogram_at(&cu, t->pc, &t->fn_scope)) {
		t->have_fn_scope = 1;
	}
	return k;
}

/* Parameters and locals visible at the probe, innermost first, each
 * name once: into vars (Dwarf_Die *); params_only keeps parameters. */
static void visible_vars(struct tv *t, struct vec *vars, int which)
{
	Dwarf_Die *scopes = NULL;
	int from, to, n = scopes_at(t, &scopes, &from, &to);
	struct pmap seen = { 0 };

	for (int i = to; n > 0 && i >= from; i--) {
		Dwarf_Die child;

		if (dwarf_child(&scopes[i], &child) != 0)
			continue;
		do {
			int tag = dwarf_tag(&child);
			const char *name;

			if (tag != DW_TAG_formal_parameter && tag != DW_TAG_variable)
				continue;
			if ((which == 1 && tag != DW_TAG_formal_parameter) ||
			    (which == 2 && tag != DW_TAG_variable))
				continue;
			name = die_name(&child);
			if (!name || pmap_get(&seen, intern(name, strlen(name))))
				continue;
			pmap_put(&seen, intern(name, strlen(name)), (void *)1);
			{
				Dwarf_Die *copy = ar_alloc(sizeof(*copy));

				*copy = child;
				vec_push(vars, copy);
			}
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	free(scopes);
	free(seen.keys);
	free(seen.vals);
}

static int find_var(struct tv *t, const char *name, Dwarf_Die *out)
{
	Dwarf_Die *scopes = NULL;
	int from, to, n = scopes_at(t, &scopes, &from, &to);

	for (int i = from; n > 0 && i <= n - 1; i++) {
		Dwarf_Die child;

		/* past the function: only the CU's own variables */
		if (i > to && dwarf_tag(&scopes[i]) != DW_TAG_compile_unit)
			continue;
		if (dwarf_child(&scopes[i], &child) != 0)
			continue;
		do {
			int tag = dwarf_tag(&child);
			const char *dn;

			if (tag != DW_TAG_formal_parameter && tag != DW_TAG_variable)
				continue;
			dn = die_name(&child);
			if (dn && !strcmp(dn, name)) {
				*out = child;
				free(scopes);
				return 1;
			}
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	free(scopes);
	return 0;
}

/* Where variable var is at t->pc. */
static int var_location(struct tv *t, Dwarf_Die *var, const char *name, struct lval *out)
{
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t n;
	int r;

	*out = (struct lval){ W_MEM, NULL, NULL, 0 };
	if (dwarf_attr_integrate(var, DW_AT_const_value, &a)) {
		Dwarf_Sword sv;
		Dwarf_Word uv;

		if (!dwarf_formsdata(&a, &sv))
			out->expr = ar_printf("(unsigned long)%lldL", (long long)sv);
		else if (!dwarf_formudata(&a, &uv))
			out->expr = ar_printf("0x%llxUL", (unsigned long long)uv);
		else
			goto optimized;
		out->w = W_VALUE;
		return 1;
	}
	if (!dwarf_attr(var, DW_AT_location, &a))
		goto optimized;
	r = dwarf_getlocation_addr(&a, t->pc, &ops, &n, 1);
	if (r <= 0 || n == 0)
		goto optimized;
	return translate_ops(t, ops, n, out, 0);
optimized:
	fail(t, &t->n->loc, "'%s' is optimized out at 0x%llx (%s): the compiler kept no "
	     "value for it there", name, (unsigned long long)t->pc, t->d->name);
	return 0;
}

/* ---- pretty printing ---- */

static void pretty(struct tv *t, struct lval *v, Dwarf_Die *type, int depth, int strings,
		   const char *out);

static void pretty_members(struct tv *t, const struct lval *v, Dwarf_Die *agg, int depth,
			   int strings, const char *out)
{
	Dwarf_Die child;
	int first = 1;

	sb_printf(&t->c, "\tstp_str_append(%s, \"{\");\n", out);
	if (dwarf_child(agg, &child) == 0) {
		do {
			Dwarf_Attribute a;
			Dwarf_Word mo = 0;
			Dwarf_Die mt;
			const char *mn = dwarf_diename(&child);
			struct lval mv = { 0 };

			if (dwarf_tag(&child) != DW_TAG_member || !type_of(&child, &mt))
				continue;
			if (dwarf_hasattr(&child, DW_AT_bit_size))
				continue;
			if (dwarf_attr(&child, DW_AT_data_member_location, &a))
				dwarf_formudata(&a, &mo);
			sb_printf(&t->c, "\tstp_str_append(%s, \"%s%s%s%s\");\n", out, first ? "" : ", ",
				  mn ? "." : "", mn ? mn : "", mn ? "=" : "");
			first = 0;
			if (!part_of(v, (int64_t)mo, byte_size(&mt) > 0 ? byte_size(&mt) : 1, &mv)) {
				sb_printf(&t->c, "\tstp_str_append(%s, \"?\");\n", out);
				continue;
			}
			pretty(t, &mv, &mt, depth + 1, strings, out);
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	sb_printf(&t->c, "\tstp_str_append(%s, \"}\");\n", out);
}

/* Append v's text to the string out: numbers and pointers in hex,
 * chars arrays (and char pointers when strings) quoted, structs as
 * {.m=...} down to depth levels. */
static void pretty(struct tv *t, struct lval *v, Dwarf_Die *type, int depth, int strings,
		   const char *out)
{
	Dwarf_Die buf, *p = peel(type, &buf);
	int tag = p ? dwarf_tag(p) : 0;
	const char *val = tmp(t);

	if (!p || (v->w == W_VALUE && !v->expr && tag != DW_TAG_structure_type &&
		   tag != DW_TAG_union_type)) {
		sb_printf(&t->c, "\tstp_str_append(%s, \"?\");\n", out);
		return;
	}
	if (tag == DW_TAG_structure_type || tag == DW_TAG_union_type) {
		if (depth >= strings || !dwarf_hasattr(p, DW_AT_byte_size) ||
		    (v->w != W_MEM && !v->npieces && byte_size(p) > 8))
			sb_printf(&t->c, "\tstp_str_append(%s, \"{...}\");\n", out);
		else
			pretty_members(t, v, p, depth, strings, out);
		return;
	}
	if (tag == DW_TAG_array_type) {
		Dwarf_Die el;

		if (v->w == W_MEM && type_of(p, &el) && is_char(&el)) {
			sb_printf(&t->c, "\tstp_tv_quoted(%s, %s, %d, %d);\n", out, v->expr,
				  byte_size(p), t->user);
			return;
		}
		sb_printf(&t->c, "\tstp_str_append(%s, \"[...]\");\n", out);
		return;
	}
	if (tag == DW_TAG_pointer_type && strings && depth == 0) {
		Dwarf_Die el, ebuf, *ep;

		/* $ptr$ shows the struct it points to */
		if (type_of(p, &el) && (ep = peel(&el, &ebuf)) &&
		    (dwarf_tag(ep) == DW_TAG_structure_type || dwarf_tag(ep) == DW_TAG_union_type) &&
		    dwarf_hasattr(ep, DW_AT_byte_size)) {
			const char *pv = tmp(t);

			sb_printf(&t->decls, "\tu64 %s;\n", pv);
			if (v->w == W_MEM)
				sb_printf(&t->c, "\tif (stp_tv_read(&%s, %s, 8, %d))\n\t\t%s = 0;\n", pv,
					  v->expr, t->user, pv);
			else
				sb_printf(&t->c, "\t%s = (u64)%s;\n", pv, v->expr);
			sb_printf(&t->c, "\tif (!%s) {\n\tstp_str_append(%s, \"NULL\");\n\t} else {\n", pv, out);
			pretty_members(t, &(struct lval){ W_MEM, ar_printf("(unsigned long)%s", pv),
							   NULL, 0 },
				       ep, depth, strings, out);
			sb_puts(&t->c, "\t}\n");
			return;
		}
	}
	if (tag == DW_TAG_pointer_type && strings) {
		Dwarf_Die el;

		if (type_of(p, &el) && is_char(&el)) {
			if (v->w == W_MEM)
				sb_printf(&t->c, "\t{ u64 %s; if (stp_tv_read(&%s, %s, 8, %d)) stp_str_append(%s, \"?\"); "
					  "else stp_tv_quoted(%s, %s, MAXSTRINGLEN, %d); }\n",
					  val, val, v->expr, t->user, out, out, val, t->user);
			else
				sb_printf(&t->c, "\tstp_tv_quoted(%s, %s, MAXSTRINGLEN, %d);\n", out,
					  v->expr, t->user);
			return;
		}
	}
	{
		int size = byte_size(p);

		if (size <= 0 || size > 8) {
			sb_printf(&t->c, "\tstp_str_append(%s, \"?\");\n", out);
			return;
		}
		if (v->w == W_MEM)
			sb_printf(&t->c, "\t{ u%d %s; if (stp_tv_read(&%s, %s, %d, %d)) stp_str_append(%s, \"?\"); "
				  "else stp_tv_hex(%s, %s(u64)%s%s); }\n", size * 8, val, val, v->expr, size,
				  t->user, out, out, is_signed_type(p) ? ar_printf("(s%d)", size * 8) : "",
				  is_signed_type(p) ? "(s64)" : "", val);
		else
			sb_printf(&t->c, "\tstp_tv_hex(%s, (u64)(%s%s)%s);\n", out,
				  is_signed_type(p) ? "s" : "u", ar_printf("%d", size * 8), v->expr);
	}
}

/* $$vars, $$parms, $$locals, $$return, with the trailing $s' depth. */
static enum type pretty_all(struct tv *t, const char *which, int strings)
{
	struct vec vars = { 0 };
	int kind = !strncmp(which, "$$parms", 7) ? 1 : !strncmp(which, "$$locals", 8) ? 2 : 0;

	sb_puts(&t->c, "\tSTAP_RETVALUE[0] = '\\0';\n");
	if (!strncmp(which, "$$return", 8)) {
		Dwarf_Die fn, rt;

		if (!t->d->is_return) {
			fail(t, &t->n->loc, "'$$return' is only available in .return probes");
			return T_STRING;
		}
		if (dwarf_die(t->f, t->d->die, &fn) && type_of(&fn, &rt)) {
			struct lval v = { 0 };

			return_value(t, &rt, &v);
			sb_puts(&t->c, "\tstp_str_append(STAP_RETVALUE, \"return=\");\n");
			pretty(t, &v, &rt, 0, strings, "STAP_RETVALUE");
		}
		return T_STRING;
	}
	visible_vars(t, &vars, kind);
	for (int i = 0; i < vars.len; i++) {
		Dwarf_Die *var = vars.v[i], ty;
		const char *name = die_name(var);
		struct lval v = { 0 };
		const char *saved = t->err;
		struct sbuf keep = t->c;
		struct sbuf body = { 0 };

		/* one variable's code apart: if it has no location here, "=?" */
		t->c = body;
		sb_printf(&t->c, "\tstp_str_append(STAP_RETVALUE, \"%s%s=\");\n", i ? " " : "", name);
		if (type_of(var, &ty) && var_location(t, var, name, &v) && !t->err) {
			pretty(t, &v, &ty, 0, strings, "STAP_RETVALUE");
		} else {
			t->err = saved;
			t->c.len = 0;
			sb_printf(&t->c, "\tstp_str_append(STAP_RETVALUE, \"%s%s=?\");\n", i ? " " : "", name);
		}
		body = t->c;
		t->c = keep;
		sb_printf(&t->c, "\t{\n%s\t}\n", body.s ? body.s : "");
		free(body.s);
	}
	free(vars.v);
	return T_STRING;
}

/* ---- the generated function ---- */

static struct node *make_function(struct tv *t, const char *name, enum type ret, int setter)
{
	struct node *fd = node_new(N_FUNCTION, &t->n->loc);
	struct node *body = node_new(N_EMBEDDED, &t->n->loc);
	struct sbuf code = { 0 };
	int np = t->nparams + setter;

	fd->name = intern(name, strlen(name));
	fd->type = ret;
	fd->nparams = np;
	fd->params = ar_alloc((size_t)(np + 1) * sizeof(*fd->params));
	for (int i = 0; i < t->nparams; i++) {
		fd->params[i].name = intern(ar_printf("i%d", i), strlen(ar_printf("i%d", i)));
		fd->params[i].type = t->ptype[i] == T_STRING ? T_STRING : T_LONG;
		fd->params[i].loc = t->n->loc;
	}
	if (setter) {
		fd->params[np - 1].name = intern("value", 5);
		fd->params[np - 1].type = T_LONG;
		fd->params[np - 1].loc = t->n->loc;
	}
	sb_puts(&code, setter ? "\n" : " /* pure */\n");
	if (t->uses_regs)
		sb_puts(&code, "\tstruct pt_regs *regs = CONTEXT->regs;\n");
	sb_puts(&code, t->decls.s ? t->decls.s : "");
	if (t->uses_regs)
		sb_printf(&code, "\n\tif (!regs)\n\t\tSTAP_ERROR(\"no registers to read '%s' from in this probe\");\n",
			  t->what);
	sb_puts(&code, t->c.s ? t->c.s : "");
	body->str = ar_strdup(code.s);
	free(code.s);
	fd->body = body;
	return fd;
}

static int counter;

static int finish(struct tv *t, const char *what, enum type ret, int setter, int quiet)
{
	if (t->err) {
		if (!quiet)
			sem_error(&t->err_loc, "%s", t->err);
		free(t->c.s);
		return 0;
	}
	t->n->ref = make_function(t, ar_printf("__tvar_%s_%d", what, counter++), ret, setter);
	free(t->c.s);
	free(t->decls.s);
	return 1;
}

/* The typed member chain after the variable's own value. */
static int value_chain(struct tv *t, struct walk *w, int write, int quiet)
{
	enum type ret;

	if (!walk_comps(t, w, &t->n->comps))
		return finish(t, "x", T_LONG, 0, quiet);
	if (t->n->pretty) {
		sb_puts(&t->c, "\tSTAP_RETVALUE[0] = '\\0';\n");
		pretty(t, &w->v, &w->type, 0, t->n->pretty, "STAP_RETVALUE");
		return finish(t, "pretty", T_STRING, 0, quiet);
	}
	if (write) {
		Dwarf_Die buf, *p = peel(&w->type, &buf);
		int size = p ? byte_size(p) : 0;

		if (!p || size <= 0 || size > 8 || w->bit_size ||
		    (dwarf_tag(p) != DW_TAG_base_type && dwarf_tag(p) != DW_TAG_pointer_type &&
		     dwarf_tag(p) != DW_TAG_enumeration_type)) {
			fail(t, &t->n->loc, "'%s' cannot be written: only numbers and pointers can",
			     t->what);
			return finish(t, "w", T_LONG, 1, quiet);
		}
		if (w->v.w != W_MEM) {
			if (!w->v.expr || w->v.npieces || w->reg_part) {
				fail(t, &t->n->loc, "'%s' shares its registers with other values here "
				     "and cannot be written", t->what);
				return finish(t, "w", T_LONG, 1, quiet);
			}
			if (strncmp(w->v.expr, "(unsigned long)regs->", 21)) {
				fail(t, &t->n->loc, "'%s' is a computed value here and cannot be written",
				     t->what);
				return finish(t, "w", T_LONG, 1, quiet);
			}
			sb_printf(&t->c, "\tregs->%s = (unsigned long)STAP_ARG_value;\n", w->v.expr + 21);
			t->uses_regs = 1;
		} else {
			sb_printf(&t->c, "\t{ u%d v = (u%d)STAP_ARG_value;\n\t  if (stp_tv_write(%s, &v, %d, %d))\n"
				  "\t\tSTAP_ERROR(\"%s write fault at 0x%%016lx (addr)\", (unsigned long)%s); }\n",
				  size * 8, size * 8, w->v.expr, size, t->user,
				  t->user ? "user" : "kernel", w->v.expr);
		}
		sb_puts(&t->c, "\tSTAP_RETVALUE = STAP_ARG_value;\n");
		return finish(t, "w", T_LONG, 1, quiet);
	}
	ret = finish_value(t, w, t->n->addr);
	return finish(t, "v", ret, 0, quiet);
}

static int target_var(struct tv *t, int write, int quiet)
{
	const char *name = t->what + 1;
	struct walk w = { 0 };
	Dwarf_Die var;

	if (!strncmp(t->what, "$$", 2)) {
		if (t->n->comps.len) {
			fail(t, &t->n->loc, "'%s' is text: it has no members", t->what);
			return finish(t, "x", T_STRING, 0, quiet);
		}
		return finish(t, "vars", pretty_all(t, t->what, t->n->pretty ? 1 + t->n->pretty : 0),
			      0, quiet);
	}
	if (!strcmp(name, "return")) {
		Dwarf_Die fn;

		if (!t->d->is_return) {
			fail(t, &t->n->loc, "'$return' is only available in .return probes");
			return finish(t, "x", T_LONG, 0, quiet);
		}
		if (!dwarf_die(t->f, t->d->die, &fn) || !type_of(&fn, &w.type)) {
			fail(t, &t->n->loc, "'%s' returns void: there is no '$return'", t->d->symbol);
			return finish(t, "x", T_LONG, 0, quiet);
		}
		w.have_type = 1;
		return_value(t, &w.type, &w.v);
		return value_chain(t, &w, write, quiet);
	}
	if (!find_var(t, name, &var)) {
		struct vec vars = { 0 };
		struct sbuf have = { 0 };

		visible_vars(t, &vars, 0);
		for (int i = 0; i < vars.len && i < 12; i++)
			sb_printf(&have, "%s$%s", i ? " " : "", die_name(vars.v[i]));
		fail(t, &t->n->loc, "unable to find '%s' in %s (it has: %s)", t->what,
		     t->d->symbol ? t->d->symbol : t->d->name, have.s ? have.s : "no variables");
		free(have.s);
		free(vars.v);
		return finish(t, "x", T_LONG, 0, quiet);
	}
	w.have_type = type_of(&var, &w.type) != NULL;
	if (!var_location(t, &var, t->what, &w.v))
		return finish(t, "x", T_LONG, 0, quiet);
	return value_chain(t, &w, write, quiet);
}

/* The debuginfo @cast(p, "type", "M") and @var("v", "M") look in:
 * "kernel" (also "kernel<linux/x.h>": the header only says where the
 * type is declared), a kernel module by name, or a program by path. */
static int at_module(struct tv *t, struct node *n)
{
	int k = !strcmp(n->name, "@cast") ? 2 : 1;
	const char *m, *why = NULL, *path;
	struct dwarf_file *f;
	struct node *a;

	if (n->args.len <= k)
		return 1;
	a = n->args.v[k];
	m = a->str;
	if (!strncmp(m, "kernel", 6) && (!m[6] || m[6] == '<'))
		return 1;
	if (strchr(m, '<'))
		m = ar_strndup(m, (size_t)(strchr(m, '<') - m));
	if (*m == '/')
		path = m;
	else
		path = dwarf_find_kernel(t->e->s, m, &why);
	f = path ? dwarf_open(path, m, *m == '/', &why) : NULL;
	if (!f) {
		fail(t, &a->loc, "%s: %s", n->name, why);
		return 0;
	}
	t->f = f;
	t->user = f->user;
	return 1;
}

/* @cast(ptr, "type"[, "module<header>"]) and @var("name[@file]"). */
static int at_expr(struct tv *t, int write, int quiet)
{
	struct node *n = t->n;
	struct walk w = { 0 };
	const char *tname;

	/* the arguments stay (the -p2 listing shows them); the generated
	 * function takes and ignores the strings */
	for (int i = 0; i < n->args.len; i++)
		t->ptype[t->nparams++] = i == 0 && !strcmp(n->name, "@cast") ? T_LONG : T_STRING;
	if (!at_module(t, n))
		return finish(t, "x", T_LONG, 0, quiet);
	if (!strcmp(n->name, "@var")) {
		struct node *a = n->args.v[0];
		const char *name = a->str, *at = strchr(name, '@');
		struct vec found = { 0 };
		Dwarf_Die var;

		if (at)
			name = ar_strndup(name, (size_t)(at - name));
		dwarf_match(t->f, name, at ? at + 1 : NULL, &found);
		for (int i = found.len - 1; i >= 0; i--)
			if (((struct dw_entry *)found.v[i])->kind != DWK_VAR)
				found.v[i] = found.v[--found.len];
		if (!found.len) {
			uint64_t sa;

			free(found.v);
			/* defined by the linker: the symbol's address, the type
			 * of a declaration */
			if (!at && dwarf_symbol(t->f, name, &sa) && dwarf_find_decl(t->f, name, &var)) {
				w.have_type = type_of(&var, &w.type) != NULL;
				w.v.w = W_MEM;
				w.v.expr = static_addr(t, sa);
				return value_chain(t, &w, write, quiet);
			}
			fail(t, &a->loc, "no global variable '%s' in the %s's debuginfo", a->str,
			     t->f->user ? "program" : "kernel");
			return finish(t, "x", T_LONG, 0, quiet);
		}
		if (!dwarf_die(t->f, ((struct dw_entry *)found.v[0])->die, &var)) {
			free(found.v);
			fail(t, &a->loc, "cannot read the DWARF of '%s'", a->str);
			return finish(t, "x", T_LONG, 0, quiet);
		}
		free(found.v);
		w.have_type = type_of(&var, &w.type) != NULL;
		if (!var_location(t, &var, a->str, &w.v))
			return finish(t, "x", T_LONG, 0, quiet);
		return value_chain(t, &w, write, quiet);
	}
	/* @cast: the pointer is the function's first argument */
	tname = ((struct node *)n->args.v[1])->str;
	{
		Dwarf_Die ty;

		if (!dwarf_find_type(t->f, tname, &ty)) {
			fail(t, &((struct node *)n->args.v[1])->loc, "no type '%s' in the %s's debuginfo",
			     tname, t->f->user ? "program" : "kernel");
			return finish(t, "x", T_LONG, 0, quiet);
		}
		w.type = ty;
		w.have_type = 1;
		w.v.w = W_MEM;
		w.v.expr = "(unsigned long)STAP_ARG_i0";
		return value_chain(t, &w, write, quiet);
	}
}

int dwarf_target(struct elab *e, struct derived_probe *d, struct node *n,
		 int write, int quiet)
{
	struct tv t = { 0 };
	const char *why = NULL;

	t.e = e;
	t.d = d;
	t.n = n;
	t.what = n->name;
	if (d && d->dwf) {
		t.f = d->dwf;
	} else {
		t.f = dwarf_kernel(e->s, &why);
		if (!t.f) {
			if (!quiet)
				sem_error(&n->loc, "%s needs the kernel's debuginfo: %s", n->name, why);
			return 0;
		}
	}
	t.user = t.f->user;
	t.pc = d ? d->pc : 0;
	{
		int text = n->pretty || (n->kind == N_TARGET && !strncmp(n->name, "$$", 2));

		if (write && text) {
			if (!quiet)
				sem_error(&n->loc, "'%s%s' is text made from variables: it cannot be written",
					  n->name, n->pretty == 2 ? "$$" : n->pretty ? "$" : "");
			return 0;
		}
		if (write && n->addr) {
			if (!quiet)
				sem_error(&n->loc, "an address ('&%s') cannot be written", n->name);
			return 0;
		}
		if (n->addr && text) {
			if (!quiet)
				sem_error(&n->loc, "'%s' is text: it has no address", n->name);
			return 0;
		}
	}
	{
		int ok;

		if (n->kind == N_AT) {
			/* the args are the function's: the rest come from comps */
			ok = at_expr(&t, write, quiet);
		} else {
			n->args.len = 0;
			ok = target_var(&t, write, quiet);
		}
		if (++t.f->uses % 16 == 0)	/* now and then: refaulting costs too */
			dwarf_release(t.f);
		return ok;
	}
}

/* ---- -L ---- */

const char *dwarf_list_vars(struct elab *e, struct derived_probe *d)
{
	struct tv t = { 0 };
	struct vec vars = { 0 };
	struct sbuf sb = { 0 };
	struct node fake = { 0 };
	const char *s;

	if (!d->dwf)
		return "";
	t.e = e;
	t.d = d;
	t.f = d->dwf;
	t.pc = d->pc;
	fake.name = "$$vars";
	t.n = &fake;
	t.what = fake.name;
	/* a .return probe reads parameters as on entry; locals not at all */
	if (d->is_return)
		t.pc = d->entry_pc;
	visible_vars(&t, &vars, d->is_return ? 1 : 0);
	for (int i = 0; i < vars.len; i++) {
		Dwarf_Die ty;
		struct lval v = { 0 };

		/* only what can be read here, as SystemTap lists */
		t.err = NULL;
		if (!var_location(&t, vars.v[i], die_name(vars.v[i]), &v) || t.err)
			continue;

		sb_printf(&sb, " $%s:%s", die_name(vars.v[i]),
			  type_of(vars.v[i], &ty) ? type_text(&ty) : "void");
	}
	if (d->is_return) {
		Dwarf_Die fn, ty;

		if (dwarf_die(d->dwf, d->die, &fn) && type_of(&fn, &ty))
			sb_printf(&sb, " $return:%s", type_text(&ty));
	}
	s = ar_strdup(sb.s ? sb.s : "");
	free(sb.s);
	free(vars.v);
	free(t.c.s);
	return s;
}
