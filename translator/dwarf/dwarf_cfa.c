// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The canonical frame address at a pc, from .debug_frame, read here.
 *
 * libdw finds a pc's FDE in .debug_frame (which has no search table)
 * by reading and keeping every FDE before it, a malloc each: for a
 * function in the middle of a kernel, 20,000 of them.  Here the FDEs'
 * ranges are listed, sorted, with the index (dwarf_index.c keeps them),
 * and the one FDE wanted is run.
 *
 * Only the CFA rule is followed (a register plus an offset, what
 * compilers emit); an FDE with a CFA expression, an augmentation or an
 * opcode not known here says "not here", and the caller asks libdw.
 */
#include "dw.h"
#include "dw_read.h"
#include "../elab/elab.h"

#include <stdlib.h>
#include <string.h>

struct cfa_table {
	const unsigned char *d;
	size_t n;
};

/* The entry at off: its reader (after the length) bounded by its end,
 * its id (CIE pointer) and whether it is 64-bit; 0 at the end. */
static int entry_at(const struct cfa_table *t, uint64_t off, struct cursor *r, uint64_t *id,
		    int *wide, uint64_t *next)
{
	uint64_t len;

	if (off + 4 > t->n)
		return 0;
	r->p = t->d + off;
	r->end = t->d + t->n;
	r->bad = 0;
	len = get_n(r, 4);
	*wide = len == 0xffffffff;
	if (*wide)
		len = get_n(r, 8);
	if (r->bad || len > (uint64_t)(r->end - r->p))
		return 0;
	r->end = r->p + len;
	*next = (uint64_t)(r->end - t->d);
	*id = get_n(r, *wide ? 8 : 4);
	return !r->bad;
}

static int is_cie(uint64_t id, int wide)
{
	return wide ? id == UINT64_MAX : id == 0xffffffff;
}

struct cie {
	uint64_t code_align;
	int64_t data_align;
	int addr_size;
	struct cursor insns;
};

static int read_cie(const struct cfa_table *t, uint64_t off, struct cie *c)
{
	struct cursor r;
	uint64_t id, next;
	int wide, version;

	if (!entry_at(t, off, &r, &id, &wide, &next) || !is_cie(id, wide))
		return 0;
	version = (int)get_n(&r, 1);
	if (r.p >= r.end || *r.p)
		return 0;	/* an augmentation: libdw's to read */
	r.p++;
	c->addr_size = 8;
	if (version >= 4) {
		c->addr_size = (int)get_n(&r, 1);
		get_n(&r, 1);	/* segment selector size */
	}
	c->code_align = get_uleb(&r);
	c->data_align = get_sleb(&r);
	if (version == 1)
		get_n(&r, 1);
	else
		get_uleb(&r);	/* return address register */
	c->insns = r;
	return !r.bad && (c->addr_size == 4 || c->addr_size == 8);
}

/* By start, a byte at a time (radix): a kernel's 50,000 FDEs are in
 * order only within each CU. */
static void sort_fdes(struct dw_fde *v, size_t n, struct bigmem *m)
{
	struct dw_fde *tmp = bigmem_alloc(m, (n + 1) * sizeof(*tmp));

	for (int shift = 0; shift < 64; shift += 8) {
		size_t count[257] = { 0 };

		for (size_t i = 0; i < n; i++)
			count[((v[i].lo >> shift) & 0xff) + 1]++;
		if (n && count[((v[0].lo >> shift) & 0xff) + 1] == n)
			continue;	/* one value of this byte: in order */
		for (int b = 0; b < 256; b++)
			count[b + 1] += count[b];
		for (size_t i = 0; i < n; i++)
			tmp[count[(v[i].lo >> shift) & 0xff]++] = v[i];
		memcpy(v, tmp, n * sizeof(*v));
	}
}

static struct cfa_table *table_of(struct dwarf_file *f)
{
	struct cfa_table *t = f->cfa_table;

	if (!t) {
		t = f->cfa_table = ar_alloc(sizeof(*t));
		dw_section(f, ".debug_frame", (const char **)&t->d, &t->n);
	}
	return t;
}

size_t dw_fdes(struct dwarf_file *f, struct bigmem *m, struct dw_fde **out)
{
	struct cfa_table *t = table_of(f);
	uint64_t off = 0, next, id, cie_off = UINT64_MAX;
	struct cie cie;
	size_t len = 0;
	int wide, have_cie = 0;
	struct cursor r;
	/* at least a byte and a half of .debug_frame each */
	struct dw_fde *v = bigmem_alloc(m, (t->n / 16 + 1) * sizeof(*v));

	dw_populate(t->d, t->n);
	while (t->d && entry_at(t, off, &r, &id, &wide, &next)) {
		if (!is_cie(id, wide)) {
			if (id != cie_off) {
				cie_off = id;
				have_cie = read_cie(t, id, &cie);
			}
			if (have_cie) {
				uint64_t lo = get_n(&r, cie.addr_size), range = get_n(&r, cie.addr_size);

				if (!r.bad && range && len <= t->n / 16)
					v[len++] = (struct dw_fde){ lo, lo + range, off };
			}
		}
		off = next;
	}
	sort_fdes(v, len, m);
	*out = v;
	return len;
}

/* Run instructions up to pc (from loc): the CFA rule in *reg, *cfa_off.
 * 0 on what is not followed here. */
static int run(struct cursor *r, const struct cie *c, uint64_t *loc, uint64_t pc, uint64_t *reg,
	       int64_t *cfa_off)
{
	uint64_t saved[8][2];
	int depth = 0;

	while (r->p < r->end && !r->bad) {
		unsigned char op = *r->p++;
		uint64_t delta = 0;

		switch (op >> 6) {
		case 1:
			delta = op & 0x3f;
			goto advance;
		case 2:
			get_uleb(r);	/* offset: a register's rule */
			continue;
		case 3:
			continue;	/* restore */
		}
		switch (op) {
		case DW_CFA_nop:
			continue;
		case DW_CFA_advance_loc1: delta = get_n(r, 1); goto advance;
		case DW_CFA_advance_loc2: delta = get_n(r, 2); goto advance;
		case DW_CFA_advance_loc4: delta = get_n(r, 4); goto advance;
		case DW_CFA_offset_extended: case DW_CFA_register: case DW_CFA_val_offset:
		case DW_CFA_GNU_negative_offset_extended:
			get_uleb(r);
			get_uleb(r);
			continue;
		case DW_CFA_restore_extended: case DW_CFA_undefined: case DW_CFA_same_value:
		case DW_CFA_GNU_args_size:
			get_uleb(r);
			continue;
		case DW_CFA_offset_extended_sf: case DW_CFA_val_offset_sf:
			get_uleb(r);
			get_sleb(r);
			continue;
		case DW_CFA_expression: case DW_CFA_val_expression: {
			uint64_t n;

			get_uleb(r);
			n = get_uleb(r);
			if (n > (uint64_t)(r->end - r->p))
				return 0;
			r->p += n;
			continue;
		}
		case DW_CFA_remember_state:
			if (depth == 8)
				return 0;
			saved[depth][0] = *reg;
			saved[depth++][1] = (uint64_t)*cfa_off;
			continue;
		case DW_CFA_restore_state:
			if (!depth)
				return 0;
			*reg = saved[--depth][0];
			*cfa_off = (int64_t)saved[depth][1];
			continue;
		case DW_CFA_def_cfa:
			*reg = get_uleb(r);
			*cfa_off = (int64_t)get_uleb(r);
			continue;
		case DW_CFA_def_cfa_sf:
			*reg = get_uleb(r);
			*cfa_off = get_sleb(r) * c->data_align;
			continue;
		case DW_CFA_def_cfa_register:
			*reg = get_uleb(r);
			continue;
		case DW_CFA_def_cfa_offset:
			*cfa_off = (int64_t)get_uleb(r);
			continue;
		case DW_CFA_def_cfa_offset_sf:
			*cfa_off = get_sleb(r) * c->data_align;
			continue;
		default:	/* set_loc, def_cfa_expression, vendors' */
			return 0;
		}
advance:
		if (*loc + delta * c->code_align > pc)
			return 2;	/* pc's row is the one before */
		*loc += delta * c->code_align;
	}
	return !r->bad;
}

int dw_cfa(struct dwarf_file *f, uint64_t pc, unsigned *reg, int64_t *off)
{
	struct cfa_table *t = table_of(f);
	const struct dw_fde *v = f->fdes;
	size_t lo = 0, hi = f->nfdes;
	struct cursor r;
	struct cie cie;
	uint64_t id, next, loc, creg = UINT64_MAX, cie_off;
	int64_t coff = 0;
	int wide;

	while (lo < hi) {	/* the last FDE starting at or before pc */
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].lo <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || pc >= v[lo - 1].hi)
		return 0;
	if (!entry_at(t, v[lo - 1].off, &r, &id, &wide, &next) || is_cie(id, wide))
		return 0;
	cie_off = id;
	if (!read_cie(t, cie_off, &cie))
		return 0;
	loc = get_n(&r, cie.addr_size);
	get_n(&r, cie.addr_size);
	/* the CIE's instructions set the rule the FDE's start from */
	if (!run(&cie.insns, &cie, &loc, UINT64_MAX, &creg, &coff) ||
	    !run(&r, &cie, &loc, pc, &creg, &coff) || creg == UINT64_MAX || creg > 0xffff)
		return 0;
	*reg = (unsigned)creg;
	*off = coff;
	return 1;
}

int dw_cfa_rule(struct dwarf_file *f, uint64_t pc, uint64_t fn_entry, unsigned *reg,
		   int64_t *off)
{
	Dwarf_Frame *frame;
	Dwarf_Op *ops;
	size_t n;
	int ok;

	/* at a function's first instruction the return address was just
	 * pushed: %rsp + 8 (x86-64), with no CFI to search */
	if (fn_entry && pc == fn_entry) {
		*reg = 7;
		*off = 8;
		return 1;
	}
	if (dw_cfa(f, pc, reg, off))
		return 1;
	/* .eh_frame (a program's), through libdw */
	if (!f->cfi || dwarf_cfi_addrframe(f->cfi, pc, &frame))
		return 0;
	ok = !dwarf_frame_cfa(frame, &ops, &n) && n == 1 && ops[0].atom == DW_OP_bregx;
	if (ok) {
		*reg = (unsigned)ops[0].number;
		*off = (int64_t)ops[0].number2;
	}
	free(frame);
	return ok;
}
