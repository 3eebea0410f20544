// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Building the index: one pass over .debug_info, read directly.
 *
 * The index wants every function with code, every abstract inline
 * function, every copy the compiler inlined (those sit anywhere inside
 * other functions' bodies) and every variable with a location.  Going
 * through libdw's per-DIE calls would take seconds for a kernel's
 * ~170 MB; decoding the abbreviations and skipping attribute forms here
 * takes a fraction of that, and touches no memory libdw would keep.
 *
 * Names of out-of-line and inlined copies come from their abstract
 * origin (or specification), resolved once the pass is over.  Addresses
 * come from DW_AT_entry_pc, DW_AT_low_pc or the first of DW_AT_ranges.
 */
#include "dw.h"
#include "elab.h"

#include <gelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

struct cursor {
	const unsigned char *p, *end;
	int bad;
};

static uint64_t get_n(struct cursor *c, int n)
{
	uint64_t v = 0;

	if (c->end - c->p < n) {
		c->bad = 1;
		c->p = c->end;
		return 0;
	}
	for (int i = 0; i < n; i++)
		v |= (uint64_t)c->p[i] << (8 * i);
	c->p += n;
	return v;
}

static uint64_t get_uleb(struct cursor *c)
{
	uint64_t v = 0;
	int shift = 0;

	while (c->p < c->end) {
		unsigned char b = *c->p++;

		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			return v;
	}
	c->bad = 1;
	return v;
}

static int64_t get_sleb(struct cursor *c)
{
	int64_t v = 0;
	int shift = 0;
	unsigned char b = 0;

	while (c->p < c->end) {
		b = *c->p++;
		if (shift < 64)
			v |= (int64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			break;
	}
	if (shift < 64 && (b & 0x40))
		v |= -((int64_t)1 << shift);
	return v;
}

static void skip(struct cursor *c, uint64_t n)
{
	if ((uint64_t)(c->end - c->p) < n) {
		c->bad = 1;
		c->p = c->end;
	} else {
		c->p += n;
	}
}

struct sec {
	const unsigned char *d;
	size_t n;
};

struct scan {
	struct dwarf_file *f;
	struct sec info, abbrev, str, line_str, line, str_offsets, addr, rnglists, ranges;
	struct vec *out;
	struct vec *chunks;	/* where entries are allocated, freed by
				 * the caller once it has made the index */
	struct dw_entry *chunk;
	int chunk_used;
	/* DIEs others name by reference: offset -> struct named */
	struct pmap named;
	struct vec pending;	/* struct dw_entry * whose name is its origin's */
	struct vec pending_origin;	/* and that origin's offset, same index */
	/* this CU */
	int version, offset_size, addr_size;
	uint64_t cu_off, str_offsets_base, addr_base, cu_low, rnglists_base;
	/* this CU's file names: directory and name as the line table
	 * has them, joined and interned when an entry first uses one;
	 * the arrays are reused from CU to CU */
	const char **fdir, **fname, **fdone;
	const char **dirs;
	int nfiles, cap_files, cap_dirs;
};

/* What a reference to a DIE can borrow: its name and declaration. */
struct named {
	const char *name, *file;
	int line;
	uint64_t origin;	/* its own origin, when it has no name */
	unsigned char external;
};

static const char *sec_str(const struct sec *s, uint64_t off)
{
	if (!s->d || off >= s->n)
		return NULL;
	/* a string section that ends in NUL ends every string in it */
	if (s->d[s->n - 1] != '\0' && !memchr(s->d + off, 0, s->n - off))
		return NULL;
	return (const char *)s->d + off;
}

/* A cursor from off to the end of s; bad (reading nothing) when off is
 * outside it. */
static struct cursor sec_at(const struct sec *s, uint64_t off)
{
	struct cursor c = { NULL, NULL, 1 };

	if (s->d && off < s->n) {
		c.p = s->d + off;
		c.end = s->d + s->n;
		c.bad = 0;
	}
	return c;
}

static const char *strx(struct scan *sc, uint64_t i)
{
	struct cursor c = sec_at(&sc->str_offsets, sc->str_offsets_base + i * (uint64_t)sc->offset_size);
	uint64_t off = get_n(&c, sc->offset_size);

	return c.bad ? NULL : sec_str(&sc->str, off);
}

static uint64_t addrx(struct scan *sc, uint64_t i)
{
	struct cursor c = sec_at(&sc->addr, sc->addr_base + i * (uint64_t)sc->addr_size);

	return get_n(&c, sc->addr_size);	/* 0 when outside */
}

/* ---- a CU's file names, from its line program's header ---- */


/* A DWARF 5 directory or file entry attribute: a string when it is one. */
static const char *entry_value(struct scan *sc, struct cursor *c, uint64_t form, int offset_size,
			       uint64_t *num)
{
	const char *s;

	*num = 0;
	switch (form) {
	case DW_FORM_string:
		s = (const char *)c->p;
		while (c->p < c->end && *c->p)
			c->p++;
		if (c->p >= c->end) {
			c->bad = 1;
			return NULL;
		}
		c->p++;
		return s;
	case DW_FORM_line_strp: return sec_str(&sc->line_str, get_n(c, offset_size));
	case DW_FORM_strp: return sec_str(&sc->str, get_n(c, offset_size));
	case DW_FORM_udata: *num = get_uleb(c); return NULL;
	case DW_FORM_data1: *num = get_n(c, 1); return NULL;
	case DW_FORM_data2: *num = get_n(c, 2); return NULL;
	case DW_FORM_data4: *num = get_n(c, 4); return NULL;
	case DW_FORM_data8: *num = get_n(c, 8); return NULL;
	case DW_FORM_data16: skip(c, 16); return NULL;
	case DW_FORM_block: skip(c, get_uleb(c)); return NULL;
	default: c->bad = 1; return NULL;
	}
}

static void add_file(struct scan *sc, const char *dir, const char *name)
{
	if (sc->nfiles == sc->cap_files) {
		sc->cap_files = sc->cap_files ? 2 * sc->cap_files : 256;
		sc->fdir = xrealloc(sc->fdir, (size_t)sc->cap_files * sizeof(*sc->fdir));
		sc->fname = xrealloc(sc->fname, (size_t)sc->cap_files * sizeof(*sc->fname));
		sc->fdone = xrealloc(sc->fdone, (size_t)sc->cap_files * sizeof(*sc->fdone));
	}
	sc->fdir[sc->nfiles] = dir;
	sc->fname[sc->nfiles] = name;
	sc->fdone[sc->nfiles] = NULL;
	sc->nfiles++;
}

static void add_dir(struct scan *sc, int *ndirs, const char *dir)
{
	if (*ndirs == sc->cap_dirs) {
		sc->cap_dirs = sc->cap_dirs ? 2 * sc->cap_dirs : 64;
		sc->dirs = xrealloc(sc->dirs, (size_t)sc->cap_dirs * sizeof(*sc->dirs));
	}
	sc->dirs[(*ndirs)++] = dir;
}

static void cu_files(struct scan *sc, uint64_t off)
{
	struct cursor c = sec_at(&sc->line, off);
	uint64_t len, hlen;
	int offset_size = 4, version, opcode_base, ndirs = 0;

	sc->nfiles = 0;
	if (c.bad)
		return;
	len = get_n(&c, 4);
	if (len == 0xffffffff) {
		len = get_n(&c, 8);
		offset_size = 8;
	}
	if (len < (uint64_t)(c.end - c.p))
		c.end = c.p + len;
	version = (int)get_n(&c, 2);
	if (version >= 5)
		get_n(&c, 2);		/* address and segment selector sizes */
	hlen = get_n(&c, offset_size);
	if (hlen < (uint64_t)(c.end - c.p))
		c.end = c.p + hlen;
	get_n(&c, version >= 4 ? 5 : 4);	/* through line_range */
	opcode_base = (int)get_n(&c, 1);
	for (int i = 1; i < opcode_base; i++)
		get_uleb(&c);
	if (version >= 5) {
		for (int pass = 0; pass < 2 && !c.bad; pass++) {
			int nfmt = (int)get_n(&c, 1);
			uint64_t fmt[16][2], count;

			if (nfmt > 16)
				return;
			for (int i = 0; i < nfmt; i++) {
				fmt[i][0] = get_uleb(&c);
				fmt[i][1] = get_uleb(&c);
			}
			count = get_uleb(&c);
			if (c.bad || count > 1000000)
				return;
			for (uint64_t k = 0; k < count && !c.bad; k++) {
				const char *name = NULL;
				uint64_t dir = 0, num;

				for (int i = 0; i < nfmt; i++) {
					const char *s = entry_value(sc, &c, fmt[i][1], offset_size, &num);

					if (fmt[i][0] == DW_LNCT_path)
						name = s;
					else if (fmt[i][0] == DW_LNCT_directory_index)
						dir = num;
				}
				if (pass == 0)
					add_dir(sc, &ndirs, name);
				else
					add_file(sc, dir && dir < (uint64_t)ndirs ? sc->dirs[dir] : NULL, name);
			}
		}
		return;
	}
	/* DWARF 2-4: directories from 1, files from 1 */
	add_dir(sc, &ndirs, NULL);
	while (c.p < c.end && *c.p && !c.bad)
		add_dir(sc, &ndirs, entry_value(sc, &c, DW_FORM_string, offset_size, &len));
	c.p++;
	add_file(sc, NULL, NULL);
	while (c.p < c.end && *c.p && !c.bad) {
		const char *name = entry_value(sc, &c, DW_FORM_string, offset_size, &len);
		uint64_t dir = get_uleb(&c);

		get_uleb(&c);
		get_uleb(&c);
		add_file(sc, dir && dir < (uint64_t)ndirs ? sc->dirs[dir] : NULL, name);
	}
}

/* ---- abbreviations ---- */

struct attr_spec {
	uint32_t name, form;
	int64_t implicit;
};

struct abbrev {
	uint32_t tag;
	unsigned char children;
	unsigned char wanted;	/* a DIE the index may want */
	int nattrs;
	int fixed;		/* bytes of all its attributes, when every
				 * form has a fixed size here; else -1 */
	struct attr_spec *attrs;
};

/* A form's size in this CU, or -1 when it is read to be known. */
static int form_size(const struct scan *sc, uint32_t form)
{
	switch (form) {
	case DW_FORM_addr: return sc->addr_size;
	case DW_FORM_data1: case DW_FORM_ref1: case DW_FORM_flag: case DW_FORM_strx1:
	case DW_FORM_addrx1:
		return 1;
	case DW_FORM_data2: case DW_FORM_ref2: case DW_FORM_strx2: case DW_FORM_addrx2:
		return 2;
	case DW_FORM_strx3: case DW_FORM_addrx3:
		return 3;
	case DW_FORM_data4: case DW_FORM_ref4: case DW_FORM_strx4: case DW_FORM_addrx4:
	case DW_FORM_ref_sup4:
		return 4;
	case DW_FORM_data8: case DW_FORM_ref8: case DW_FORM_ref_sig8: case DW_FORM_ref_sup8:
		return 8;
	case DW_FORM_data16:
		return 16;
	case DW_FORM_strp: case DW_FORM_line_strp: case DW_FORM_sec_offset:
	case DW_FORM_strp_sup: case DW_FORM_GNU_ref_alt: case DW_FORM_GNU_strp_alt:
		return sc->offset_size;
	case DW_FORM_ref_addr:
		return sc->version == 2 ? sc->addr_size : sc->offset_size;
	case DW_FORM_flag_present: case DW_FORM_implicit_const:
		return 0;
	default:
		return -1;
	}
}

struct abbrevs {
	struct abbrev *v;	/* by code */
	size_t n;
};

static int read_abbrevs(struct scan *sc, uint64_t off, struct abbrevs *a,
			struct attr_spec **pool, size_t *pool_cap)
{
	struct cursor c = sec_at(&sc->abbrev, off);
	size_t used = 0;

	if (c.bad)
		return 0;
	if (a->n)
		memset(a->v, 0, a->n * sizeof(*a->v));
	/* first pass into the pool; attrs are indices until the end */
	for (;;) {
		uint64_t code = get_uleb(&c), tag;
		struct abbrev ab = { 0 };
		size_t first = used;

		if (!code || c.bad)
			break;
		tag = get_uleb(&c);
		ab.tag = (uint32_t)tag;
		ab.children = (unsigned char)get_n(&c, 1);
		for (;;) {
			uint64_t name = get_uleb(&c), form = get_uleb(&c);
			int64_t imp = 0;

			if (form == DW_FORM_implicit_const)
				imp = get_sleb(&c);
			if ((!name && !form) || c.bad)
				break;
			if (used == *pool_cap) {
				*pool_cap = *pool_cap ? *pool_cap * 2 : 4096;
				*pool = xrealloc(*pool, *pool_cap * sizeof(**pool));
			}
			(*pool)[used].name = (uint32_t)name;
			(*pool)[used].form = (uint32_t)form;
			(*pool)[used].implicit = imp;
			used++;
		}
		ab.nattrs = (int)(used - first);
		ab.wanted = tag == DW_TAG_compile_unit || tag == DW_TAG_partial_unit ||
			    tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
			    tag == DW_TAG_variable;
		ab.fixed = 0;
		for (size_t k = first; k < used; k++) {
			int sz = form_size(sc, (*pool)[k].form);

			if (sz < 0) {
				ab.fixed = -1;
				break;
			}
			ab.fixed += sz;
		}
		ab.attrs = (struct attr_spec *)(uintptr_t)first;
		if (code >= a->n) {
			size_t n = a->n ? a->n : 256;

			while (n <= code)
				n *= 2;
			if (n > 1u << 20)
				return 0;
			a->v = xrealloc(a->v, n * sizeof(*a->v));
			memset(a->v + a->n, 0, (n - a->n) * sizeof(*a->v));
			a->n = n;
		}
		a->v[code] = ab;
		a->v[code].children |= 2;	/* defined */
	}
	for (size_t i = 0; i < a->n; i++)
		if (a->v[i].children & 2)
			a->v[i].attrs = *pool + (uintptr_t)a->v[i].attrs;
	return !c.bad;
}

/* ---- attribute values ---- */

struct val {
	uint64_t u;		/* numbers, offsets, addresses, references */
	const char *s;		/* inline strings */
	uint32_t str_form;	/* a string elsewhere: u is its offset/index */
	int is_addr;		/* u is an address (not an offset) */
	int present;
};

/* Read one attribute of form form; its value when it is a kind this
 * scan uses, else skipped. */
static void read_form(struct scan *sc, struct cursor *c, uint32_t form, int64_t implicit,
		      struct val *v)
{
	v->present = 1;
	v->s = NULL;
	v->str_form = 0;
	v->is_addr = 0;
	v->u = 0;
	switch (form) {
	case DW_FORM_addr: v->u = get_n(c, sc->addr_size); v->is_addr = 1; return;
	case DW_FORM_addrx: v->u = addrx(sc, get_uleb(c)); v->is_addr = 1; return;
	case DW_FORM_addrx1: v->u = addrx(sc, get_n(c, 1)); v->is_addr = 1; return;
	case DW_FORM_addrx2: v->u = addrx(sc, get_n(c, 2)); v->is_addr = 1; return;
	case DW_FORM_addrx3: v->u = addrx(sc, get_n(c, 3)); v->is_addr = 1; return;
	case DW_FORM_addrx4: v->u = addrx(sc, get_n(c, 4)); v->is_addr = 1; return;
	case DW_FORM_data1: case DW_FORM_ref1: case DW_FORM_flag: case DW_FORM_strx1:
		v->u = get_n(c, 1);
		break;
	case DW_FORM_data2: case DW_FORM_ref2: case DW_FORM_strx2:
		v->u = get_n(c, 2);
		break;
	case DW_FORM_strx3:
		v->u = get_n(c, 3);
		break;
	case DW_FORM_data4: case DW_FORM_ref4: case DW_FORM_strx4: case DW_FORM_ref_sup4:
		v->u = get_n(c, 4);
		break;
	case DW_FORM_data8: case DW_FORM_ref8: case DW_FORM_ref_sig8: case DW_FORM_ref_sup8:
		v->u = get_n(c, 8);
		break;
	case DW_FORM_data16:
		skip(c, 16);
		return;
	case DW_FORM_sdata:
		v->u = (uint64_t)get_sleb(c);
		return;
	case DW_FORM_udata: case DW_FORM_ref_udata: case DW_FORM_strx:
	case DW_FORM_loclistx: case DW_FORM_rnglistx:
		v->u = get_uleb(c);
		break;
	case DW_FORM_string:
		v->s = (const char *)c->p;
		while (c->p < c->end && *c->p)
			c->p++;
		skip(c, 1);
		return;
	case DW_FORM_strp: case DW_FORM_line_strp:
		/* found only if wanted: most names are of no interest */
		v->u = get_n(c, sc->offset_size);
		v->str_form = form;
		return;
	case DW_FORM_strp_sup: case DW_FORM_GNU_strp_alt: case DW_FORM_GNU_ref_alt:
	case DW_FORM_sec_offset: case DW_FORM_ref_addr:
		v->u = get_n(c, form == DW_FORM_ref_addr && sc->version == 2 ? sc->addr_size :
			     sc->offset_size);
		return;
	case DW_FORM_exprloc: case DW_FORM_block:
		skip(c, get_uleb(c));
		return;
	case DW_FORM_block1: skip(c, get_n(c, 1)); return;
	case DW_FORM_block2: skip(c, get_n(c, 2)); return;
	case DW_FORM_block4: skip(c, get_n(c, 4)); return;
	case DW_FORM_flag_present:
		v->u = 1;
		return;
	case DW_FORM_implicit_const:
		v->u = (uint64_t)implicit;
		return;
	case DW_FORM_indirect: {
		uint32_t f = (uint32_t)get_uleb(c);

		read_form(sc, c, f, 0, v);
		return;
	}
	default:
		c->bad = 1;
		return;
	}
	if (form == DW_FORM_strx || form == DW_FORM_strx1 || form == DW_FORM_strx2 ||
	    form == DW_FORM_strx3 || form == DW_FORM_strx4)
		v->str_form = DW_FORM_strx;
}

static const char *val_str(struct scan *sc, const struct val *v)
{
	if (!v->present)
		return NULL;
	switch (v->str_form) {
	case DW_FORM_strp: return sec_str(&sc->str, v->u);
	case DW_FORM_line_strp: return sec_str(&sc->line_str, v->u);
	case DW_FORM_strx: return strx(sc, v->u);
	default: return v->s;
	}
}

static uint64_t ref_of(struct scan *sc, uint32_t form, uint64_t u)
{
	/* CU-relative references are most; ref_addr is already global */
	return form == DW_FORM_ref_addr ? u : sc->cu_off + u;
}

/* ---- the walk ---- */

struct die {
	struct val name, decl_file, decl_line, external, declaration, inline_, low_pc, high_pc,
		   ranges, location, origin, spec, entry_pc;
	uint32_t origin_form, spec_form, high_form, ranges_form;
};

/* The first range of DW_AT_ranges: where a function split in parts
 * (hot and .cold) starts, and where that part ends.  0 if unknown. */
static int first_range(struct scan *sc, const struct die *d, uint64_t *lo, uint64_t *hi)
{
	uint64_t base = sc->cu_low, off = d->ranges.u;
	struct cursor c;

	if (sc->version < 5) {
		c = sec_at(&sc->ranges, off);
		while (!c.bad) {
			uint64_t a = get_n(&c, sc->addr_size), b = get_n(&c, sc->addr_size);

			if (!a && !b)
				return 0;
			if (a == (sc->addr_size == 8 ? UINT64_MAX : 0xffffffffu)) {
				base = b;
				continue;
			}
			*lo = base + a;
			*hi = base + b;
			return 1;
		}
		return 0;
	}
	if (d->ranges_form == DW_FORM_rnglistx) {
		/* an index into the offsets after rnglists_base */
		struct cursor x = sec_at(&sc->rnglists, sc->rnglists_base +
					 off * (uint64_t)sc->offset_size);

		off = sc->rnglists_base + get_n(&x, sc->offset_size);
		if (x.bad)
			return 0;
	}
	c = sec_at(&sc->rnglists, off);
	while (!c.bad) {
		uint64_t a, b;

		switch (get_n(&c, 1)) {
		case DW_RLE_end_of_list:
			return 0;
		case DW_RLE_base_addressx:
			base = addrx(sc, get_uleb(&c));
			continue;
		case DW_RLE_base_address:
			base = get_n(&c, sc->addr_size);
			continue;
		case DW_RLE_startx_endx:
			a = addrx(sc, get_uleb(&c));
			b = addrx(sc, get_uleb(&c));
			break;
		case DW_RLE_startx_length:
			a = addrx(sc, get_uleb(&c));
			b = a + get_uleb(&c);
			break;
		case DW_RLE_offset_pair:
			a = base + get_uleb(&c);
			b = base + get_uleb(&c);
			break;
		case DW_RLE_start_end:
			a = get_n(&c, sc->addr_size);
			b = get_n(&c, sc->addr_size);
			break;
		case DW_RLE_start_length:
			a = get_n(&c, sc->addr_size);
			b = a + get_uleb(&c);
			break;
		default:
			return 0;
		}
		if (a == b)
			continue;
		*lo = a;
		*hi = b;
		return 1;
	}
	return 0;
}

/* A CU's file names are interned when first used: each CU spells
 * the common headers anew. */
static const char *file_of(struct scan *sc, const struct die *d)
{
	uint64_t i = d->decl_file.u;

	if (!d->decl_file.present || i >= (uint64_t)sc->nfiles || !sc->fname[i])
		return NULL;
	if (!sc->fdone[i]) {
		const char *dir = sc->fdir[i], *name = sc->fname[i];

		if (!dir || !*dir || *name == '/') {
			sc->fdone[i] = intern(name, strlen(name));
		} else {
			size_t dl = strlen(dir), nl = strlen(name);
			char *buf = xmalloc(dl + nl + 2);

			memcpy(buf, dir, dl);
			buf[dl] = '/';
			memcpy(buf + dl + 1, name, nl + 1);
			sc->fdone[i] = intern(buf, dl + nl + 1);
			free(buf);
		}
	}
	return sc->fdone[i];
}

static void remember(struct scan *sc, uint64_t off, const struct die *d)
{
	struct named *n = ar_alloc(sizeof(*n));

	n->name = val_str(sc, &d->name);
	n->file = file_of(sc, d);
	n->line = d->decl_line.present ? (int)d->decl_line.u : 0;
	n->external = d->external.present && d->external.u;
	if (d->origin.present)
		n->origin = ref_of(sc, d->origin_form, d->origin.u);
	else if (d->spec.present)
		n->origin = ref_of(sc, d->spec_form, d->spec.u);
	pmap_put(&sc->named, (void *)(uintptr_t)(off + 1), n);
}

static struct dw_entry *entry(struct scan *sc, uint64_t off, const struct die *d,
			      enum dw_kind kind)
{
	struct dw_entry *e;

	if (!sc->chunk || sc->chunk_used == 4096) {
		sc->chunk = xcalloc(4096, sizeof(*sc->chunk));
		sc->chunk_used = 0;
		vec_push(sc->chunks, sc->chunk);
	}
	e = &sc->chunk[sc->chunk_used++];
	e->kind = kind;
	e->die = off;
	e->name = val_str(sc, &d->name);
	e->file = file_of(sc, d);
	e->line = d->decl_line.present ? (int)d->decl_line.u : 0;
	e->external = d->external.present && d->external.u;
	if (!e->name) {
		/* named by its origin: resolved at the end */
		uint64_t o = d->origin.present ? ref_of(sc, d->origin_form, d->origin.u) :
			     d->spec.present ? ref_of(sc, d->spec_form, d->spec.u) : 0;

		vec_push(&sc->pending, e);
		vec_push(&sc->pending_origin, (void *)(uintptr_t)o);
	}
	vec_push(sc->out, e);
	return e;
}

static void place(struct scan *sc, struct dw_entry *e, const struct die *d)
{
	if (d->entry_pc.present && d->entry_pc.is_addr)
		e->lowpc = d->entry_pc.u;
	else if (d->low_pc.present && d->low_pc.is_addr)
		e->lowpc = d->low_pc.u;
	if (d->low_pc.present && d->high_pc.present)
		e->highpc = d->high_pc.is_addr ? d->high_pc.u : d->low_pc.u + d->high_pc.u;
	if (d->entry_pc.present && !d->entry_pc.is_addr && d->low_pc.present)
		e->lowpc = d->low_pc.u + d->entry_pc.u;	/* DWARF 5: an offset */
	if (!e->lowpc && d->ranges.present) {
		uint64_t lo, hi;

		if (first_range(sc, d, &lo, &hi)) {
			e->lowpc = d->entry_pc.present && d->entry_pc.is_addr ? d->entry_pc.u : lo;
			e->highpc = hi;
		}
	} else if (e->kind == DWK_FUNC && !e->highpc && d->ranges.present) {
		uint64_t lo, hi;

		if (first_range(sc, d, &lo, &hi))
			e->highpc = hi;
	}
}

static int scan_cu(struct scan *sc, struct cursor *c, const struct abbrevs *ab)
{
	int depth = 0;

	while (c->p < c->end && !c->bad) {
		uint64_t off = (uint64_t)(c->p - sc->info.d);
		uint64_t code = get_uleb(c);
		const struct abbrev *a;
		struct die d;

		if (!code) {
			if (--depth <= 0)
				return 1;
			continue;
		}
		if (code >= ab->n || !(ab->v[code].children & 2))
			return 0;
		a = &ab->v[code];
		/* most DIEs (types, members, parameters, blocks) only pass by */
		if (!a->wanted || (a->tag == DW_TAG_variable && depth != 1)) {
			if (a->fixed >= 0) {
				skip(c, (uint64_t)a->fixed);
			} else {
				struct val v;

				for (int i = 0; i < a->nattrs; i++) {
					int sz = form_size(sc, a->attrs[i].form);

					if (sz >= 0)
						skip(c, (uint64_t)sz);
					else
						read_form(sc, c, a->attrs[i].form, a->attrs[i].implicit, &v);
				}
			}
			if (a->children & 1)
				depth++;
			else if (depth == 0)
				return 1;
			continue;
		}
		memset(&d, 0, sizeof(d));
		for (int i = 0; i < a->nattrs; i++) {
			const struct attr_spec *s = &a->attrs[i];
			struct val v, *to = NULL;

			switch (s->name) {
			case DW_AT_name: to = &d.name; break;
			case DW_AT_decl_file: to = &d.decl_file; break;
			case DW_AT_decl_line: to = &d.decl_line; break;
			case DW_AT_external: to = &d.external; break;
			case DW_AT_declaration: to = &d.declaration; break;
			case DW_AT_inline: to = &d.inline_; break;
			case DW_AT_low_pc: to = &d.low_pc; break;
			case DW_AT_high_pc: to = &d.high_pc; d.high_form = s->form; break;
			case DW_AT_ranges: to = &d.ranges; d.ranges_form = s->form; break;
			case DW_AT_location: to = &d.location; break;
			case DW_AT_abstract_origin: to = &d.origin; d.origin_form = s->form; break;
			case DW_AT_specification: to = &d.spec; d.spec_form = s->form; break;
			case DW_AT_entry_pc: to = &d.entry_pc; break;
			case DW_AT_str_offsets_base: case DW_AT_addr_base:
			case DW_AT_stmt_list: case DW_AT_rnglists_base:
				break;
			default:
				read_form(sc, c, s->form, s->implicit, &v);
				continue;
			}
			if (!to) {
				read_form(sc, c, s->form, s->implicit, &v);
				if (s->name == DW_AT_str_offsets_base)
					sc->str_offsets_base = v.u;
				else if (s->name == DW_AT_addr_base)
					sc->addr_base = v.u;
				else if (s->name == DW_AT_rnglists_base)
					sc->rnglists_base = v.u;
				else if (s->name == DW_AT_stmt_list && depth == 0)
					cu_files(sc, v.u);
				continue;
			}
			read_form(sc, c, s->form, s->implicit, to);
		}
		if (c->bad)
			return 0;
		switch (a->tag) {
		case DW_TAG_compile_unit:
		case DW_TAG_partial_unit:
			if (d.low_pc.present)
				sc->cu_low = d.low_pc.u;
			break;
		case DW_TAG_subprogram:
			/* the abstract functions copies name as their origin */
			if (d.inline_.present || (d.declaration.present && d.name.present))
				remember(sc, off, &d);
			if (d.declaration.present && d.declaration.u)
				break;
			if (d.low_pc.present || d.ranges.present)
				place(sc, entry(sc, off, &d, DWK_FUNC), &d);
			else if (d.inline_.present && depth == 1)
				entry(sc, off, &d, DWK_INLINE);
			break;
		case DW_TAG_inlined_subroutine:
			if (d.origin.present) {
				struct dw_entry *e = entry(sc, off, &d, DWK_INSTANCE);

				place(sc, e, &d);
			}
			break;
		case DW_TAG_variable:
			/* a definition may take its name from a declaration */
			if (depth == 1 && d.declaration.present && d.name.present)
				remember(sc, off, &d);
			if (depth == 1 && d.location.present && !(d.declaration.present && d.declaration.u))
				entry(sc, off, &d, DWK_VAR);
			break;
		default:
			break;
		}
		if (a->children & 1)
			depth++;
		else if (depth == 0)
			return 1;
	}
	return !c->bad;
}

static struct sec section(Elf *elf, const char *want, int relocated)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	struct sec s = { NULL, 0 };

	if (elf_getshdrstrndx(elf, &shstrndx))
		return s;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstrndx, sh.sh_name)) ||
		    strcmp(name, want) || sh.sh_type == SHT_NOBITS)
			continue;
		/* a module's debug sections may come compressed; and libdwfl
		 * relocated them where elf_getdata() finds them */
		if ((sh.sh_flags & SHF_COMPRESSED) && elf_compress(scn, 0, 0) < 0)
			return s;
		d = relocated || (sh.sh_flags & SHF_COMPRESSED) ? elf_getdata(scn, NULL)
								: elf_rawdata(scn, NULL);
		if (d && d->d_buf) {
			s.d = d->d_buf;
			s.n = d->d_size;
		}
		return s;
	}
	return s;
}

/* The name (and declaration) a DIE has through its origins. */
static const struct named *origin_named(struct scan *sc, uint64_t off)
{
	for (int hops = 0; hops < 8; hops++) {
		const struct named *n = pmap_get(&sc->named, (void *)(uintptr_t)(off + 1));

		if (!n)
			return NULL;
		if (n->name)
			return n;
		if (!n->origin)
			return NULL;
		off = n->origin;
	}
	return NULL;
}

int dwarf_scan(struct dwarf_file *f, struct vec *out, struct vec *chunks)
{
	struct scan sc = { 0 };
	struct abbrevs ab = { 0 };
	struct attr_spec *pool = NULL;
	size_t pool_cap = 0;
	uint64_t off = 0, last_abbrev = UINT64_MAX;
	int ncu = 0, ok = 1;

	sc.f = f;
	sc.out = out;
	sc.chunks = chunks;
	sc.info = section(f->elf, ".debug_info", f->relocated);
	sc.abbrev = section(f->elf, ".debug_abbrev", f->relocated);
	sc.str = section(f->elf, ".debug_str", f->relocated);
	sc.line_str = section(f->elf, ".debug_line_str", f->relocated);
	sc.line = section(f->elf, ".debug_line", f->relocated);
	sc.str_offsets = section(f->elf, ".debug_str_offsets", f->relocated);
	sc.addr = section(f->elf, ".debug_addr", f->relocated);
	sc.rnglists = section(f->elf, ".debug_rnglists", f->relocated);
	sc.ranges = section(f->elf, ".debug_ranges", f->relocated);
	if (!sc.info.d || !sc.abbrev.d)
		return 0;
	dwarf_advise(f, MADV_SEQUENTIAL);	/* read ahead while the pass runs */
	while (off + 11 <= sc.info.n && ok) {
		struct cursor c = sec_at(&sc.info, off);
		uint64_t len = get_n(&c, 4), abbrev_off, next;
		int unit_type = DW_UT_compile;

		sc.offset_size = 4;
		if (len == 0xffffffff) {
			len = get_n(&c, 8);
			sc.offset_size = 8;
		}
		next = (uint64_t)(c.p - sc.info.d) + len;
		if (next > sc.info.n || len < 7)
			break;
		c.end = sc.info.d + next;
		sc.version = (int)get_n(&c, 2);
		if (sc.version >= 5) {
			unit_type = (int)get_n(&c, 1);
			sc.addr_size = (int)get_n(&c, 1);
			abbrev_off = get_n(&c, sc.offset_size);
			if (unit_type == DW_UT_skeleton || unit_type == DW_UT_split_compile)
				skip(&c, 8);
			else if (unit_type == DW_UT_type || unit_type == DW_UT_split_type)
				skip(&c, 8 + (uint64_t)sc.offset_size);
		} else {
			abbrev_off = get_n(&c, sc.offset_size);
			sc.addr_size = (int)get_n(&c, 1);
		}
		sc.cu_off = off;
		sc.str_offsets_base = sc.offset_size == 8 ? 16 : 8;
		sc.addr_base = 8;
		sc.nfiles = 0;
		sc.cu_low = 0;
		sc.rnglists_base = 0;
		if (unit_type == DW_UT_compile || unit_type == DW_UT_partial) {
			if (abbrev_off != last_abbrev) {
				ok = read_abbrevs(&sc, abbrev_off, &ab, &pool, &pool_cap);
				last_abbrev = abbrev_off;
			}
			if (ok)
				ok = scan_cu(&sc, &c, &ab);
		}
		off = next;
		/* the pages read so far count as ours until given back */
		if (++ncu % 16 == 0)
			dwarf_release(f);
	}
	dwarf_release(f);
	dwarf_advise(f, MADV_RANDOM);
	free(ab.v);
	free(pool);
	/* names from origins */
	for (int i = 0; i < sc.pending.len; i++) {
		struct dw_entry *e = sc.pending.v[i];
		const struct named *n = origin_named(&sc, (uint64_t)(uintptr_t)sc.pending_origin.v[i]);

		if (!n) {
			e->name = NULL;
			continue;
		}
		e->name = n->name;
		if (!e->file) {
			e->file = n->file;
			e->line = n->line;
		}
		e->external |= n->external;
	}
	/* what has no address in the forms read here is left out: asking
	 * libdw would make it read every CU before (~100 MB) */
	/* drop what has no name or no place */
	{
		int k = 0;

		for (int i = 0; i < out->len; i++) {
			struct dw_entry *e = out->v[i];

			if (!e->name || ((e->kind == DWK_FUNC || e->kind == DWK_INSTANCE) && !e->lowpc))
				continue;
			out->v[k++] = e;
		}
		out->len = k;
	}
	free(sc.fdir);
	free(sc.fname);
	free(sc.fdone);
	free(sc.dirs);
	free(sc.pending.v);
	free(sc.pending_origin.v);
	free(sc.named.keys);
	free(sc.named.vals);
	return ok;
}
