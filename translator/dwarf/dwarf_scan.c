// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Building the index, reading .debug_info directly.
 *
 * The index wants every function with code, every abstract inline
 * function and every variable with a location: all of them are the
 * CUs' own DIEs, so one pass over a kernel's ~170 MB reads those and
 * jumps over everything below them by DW_AT_sibling (function bodies,
 * struct members).  Going through libdw's per-DIE calls would take
 * seconds; decoding the abbreviations here takes a fraction of that.
 *
 * The copies the compiler inlined sit anywhere inside other functions'
 * bodies, some 320,000 of them in a kernel.  They are looked for one CU
 * at a time (dw_scan_body), in the CUs whose abstract inline
 * function a probe point names.
 *
 * Out-of-line and inlined copies are named by their abstract origin (or
 * specification), read where it is.  Addresses come from
 * DW_AT_entry_pc, DW_AT_low_pc or the first of DW_AT_ranges.
 */
#include "dw.h"
#include "dw_read.h"
#include "../symbols/bigmem.h"
#include "../elab/elab.h"

#include <gelf.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct sec {
	const unsigned char *d;
	size_t n;
};

struct abbrevs;

struct scan {
	struct dwarf_file *f;
	struct sec info, abbrev, str, line_str, line, str_offsets, addr, rnglists, ranges;
	struct vec *out;
	struct bigmem *mem;	/* where entries are allocated: the
				 * caller frees it once it made the index */
	enum { SCAN_TOP, SCAN_BODY } mode;
	int cross_refs;		/* a DIE refers to another CU's */
	struct vec *cus;	/* SCAN_TOP: the CUs' offsets, for SCAN_BODY */
	/* this CU */
	int version, offset_size, addr_size;
	const struct abbrevs *ab;
	uint64_t cu_off, cu_end, str_offsets_base, addr_base, cu_low, rnglists_base;
	/* this CU's file names: directory and name as the line table
	 * has them, joined and interned when an entry first uses one;
	 * the arrays are reused from CU to CU */
	const char **fdir, **fname, **fdone;
	const char **dirs;
	int nfiles, cap_files, cap_dirs;
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
	int sib_at;		/* where DW_AT_sibling is, when the forms
				 * before it have fixed sizes; else -1 */
	int sib_size;		/* and its size */
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

/* One abbreviation's attribute specs, appended to the pool. */
static void read_attr_specs(struct scan *sc, struct cursor *c, struct attr_spec **pool,
			    size_t *pool_cap, size_t *used)
{
	for (;;) {
		uint64_t name = get_uleb(c), form = get_uleb(c);
		int64_t imp = 0;

		if (form == DW_FORM_implicit_const)
			imp = get_sleb(c);
		if ((!name && !form) || c->bad)
			break;
		if (*used == *pool_cap) {
			*pool_cap = *pool_cap ? *pool_cap * 2 : 4096;
			*pool = xrealloc(*pool, *pool_cap * sizeof(**pool));
		}
		(*pool)[*used].name = (uint32_t)name;
		(*pool)[*used].form = (uint32_t)form;
		/* a reference out of the CU: libdw must see them all */
		if (form == DW_FORM_ref_addr || form == DW_FORM_ref_sig8 ||
		    form == DW_FORM_GNU_ref_alt || form == DW_FORM_ref_sup4 ||
		    form == DW_FORM_ref_sup8)
			sc->cross_refs = 1;
		(*pool)[*used].implicit = imp;
		(*used)++;
	}
}

/* What the scan needs to know of an abbreviation with attributes
 * as[0 .. n): whether its DIEs are indexed, their fixed size, where
 * their DW_AT_sibling is. */
static void abbrev_layout(struct scan *sc, struct abbrev *ab, const struct attr_spec *as,
			  size_t n)
{
	uint32_t tag = ab->tag;

	ab->wanted = tag == DW_TAG_compile_unit || tag == DW_TAG_partial_unit ||
		     tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
		     tag == DW_TAG_variable;
	/* declarations (of every function a CU calls) index nothing */
	for (size_t k = 0; k < n && ab->wanted; k++)
		if (as[k].name == DW_AT_declaration &&
		    (as[k].form == DW_FORM_flag_present ||
		     (as[k].form == DW_FORM_implicit_const && as[k].implicit)))
			ab->wanted = 0;
	ab->fixed = 0;
	ab->sib_at = -1;
	for (size_t k = 0; k < n; k++) {
		int sz = form_size(sc, as[k].form);

		if (as[k].name == DW_AT_sibling && ab->fixed >= 0 && sz > 0) {
			ab->sib_at = ab->fixed;
			ab->sib_size = sz;
		}
		if (sz < 0)
			ab->fixed = -1;
		else if (ab->fixed >= 0)
			ab->fixed += sz;
	}
}

/* Room in a for code; 0 for a code too large to be real. */
static int abbrevs_reserve(struct abbrevs *a, uint64_t code)
{
	size_t n = a->n ? a->n : 256;

	if (code < a->n)
		return 1;
	while (n <= code)
		n *= 2;
	if (n > 1u << 20)
		return 0;
	a->v = xrealloc(a->v, n * sizeof(*a->v));
	memset(a->v + a->n, 0, (n - a->n) * sizeof(*a->v));
	a->n = n;
	return 1;
}

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
		uint64_t code = get_uleb(&c);
		struct abbrev ab = { 0 };
		size_t first = used;

		if (!code || c.bad)
			break;
		ab.tag = (uint32_t)get_uleb(&c);
		ab.children = (unsigned char)get_n(&c, 1);
		read_attr_specs(sc, &c, pool, pool_cap, &used);
		ab.nattrs = (int)(used - first);
		abbrev_layout(sc, &ab, *pool + first, used - first);
		ab.attrs = (struct attr_spec *)(uintptr_t)first;
		if (!abbrevs_reserve(a, code))
			return 0;
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
		static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
		const char *dir = sc->fdir[i], *name = sc->fname[i];

		/* intern() is not the threads' to share */
		pthread_mutex_lock(&lock);
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
		pthread_mutex_unlock(&lock);
	}
	return sc->fdone[i];
}

/* A DIE's attributes that the index uses, from c (at its first
 * attribute); *sib its DW_AT_sibling (CU-relative), 0 without. */
static void read_die(struct scan *sc, struct cursor *c, const struct abbrev *a, int depth,
		     struct die *d, uint64_t *sib)
{
	memset(d, 0, sizeof(*d));
	*sib = 0;
	for (int i = 0; i < a->nattrs; i++) {
		const struct attr_spec *s = &a->attrs[i];
		struct val v, *to = NULL;

		switch (s->name) {
		case DW_AT_name: to = &d->name; break;
		case DW_AT_decl_file: to = &d->decl_file; break;
		case DW_AT_decl_line: to = &d->decl_line; break;
		case DW_AT_external: to = &d->external; break;
		case DW_AT_declaration: to = &d->declaration; break;
		case DW_AT_inline: to = &d->inline_; break;
		case DW_AT_low_pc: to = &d->low_pc; break;
		case DW_AT_high_pc: to = &d->high_pc; d->high_form = s->form; break;
		case DW_AT_ranges: to = &d->ranges; d->ranges_form = s->form; break;
		case DW_AT_location: to = &d->location; break;
		case DW_AT_abstract_origin: to = &d->origin; d->origin_form = s->form; break;
		case DW_AT_specification: to = &d->spec; d->spec_form = s->form; break;
		case DW_AT_entry_pc: to = &d->entry_pc; break;
		default:
			break;
		}
		if (to) {
			read_form(sc, c, s->form, s->implicit, to);
			continue;
		}
		read_form(sc, c, s->form, s->implicit, &v);
		if (s->name == DW_AT_sibling)
			*sib = v.u;
		else if (depth > 0)
			continue;
		else if (s->name == DW_AT_str_offsets_base)
			sc->str_offsets_base = v.u;
		else if (s->name == DW_AT_addr_base)
			sc->addr_base = v.u;
		else if (s->name == DW_AT_rnglists_base)
			sc->rnglists_base = v.u;
		else if (s->name == DW_AT_stmt_list)
			cu_files(sc, v.u);
	}
}

/* The DIE at off (in this CU), decoded; 0 when it is not one. */
static int die_at(struct scan *sc, uint64_t off, struct die *d)
{
	struct cursor c = { sc->info.d + off, sc->info.d + sc->cu_end, 0 };
	uint64_t code, sib;

	if (off <= sc->cu_off || off >= sc->cu_end)
		return 0;	/* another CU's (ref_addr): not read here */
	code = get_uleb(&c);
	if (!code || code >= sc->ab->n || !(sc->ab->v[code].children & 2))
		return 0;
	read_die(sc, &c, &sc->ab->v[code], 1, d, &sib);
	return !c.bad;
}

static uint64_t origin_of(struct scan *sc, const struct die *d)
{
	if (d->origin.present)
		return ref_of(sc, d->origin_form, d->origin.u);
	if (d->spec.present)
		return ref_of(sc, d->spec_form, d->spec.u);
	return 0;
}

/* An out-of-line or inlined copy, or a definition, is named by its
 * origin (or specification), which may be named by its own. */
static void name_from_origin(struct scan *sc, struct dw_entry *e, const struct die *d)
{
	uint64_t ref = origin_of(sc, d);
	struct die o;

	for (int hops = 0; ref && hops < 8 && die_at(sc, ref, &o); hops++) {
		if (o.name.present) {
			e->name = val_str(sc, &o.name);
			if (!e->file) {
				e->file = file_of(sc, &o);
				e->line = o.decl_line.present ? (int)o.decl_line.u : 0;
			}
			e->external |= o.external.present && o.external.u;
			return;
		}
		ref = origin_of(sc, &o);
	}
}

static struct dw_entry *entry(struct scan *sc, uint64_t off, const struct die *d,
			      enum dw_kind kind)
{
	struct dw_entry *e;

	e = bigmem_zalloc(sc->mem, sizeof(*e));
	e->kind = kind;
	e->die = off;
	e->name = val_str(sc, &d->name);
	e->file = file_of(sc, d);
	e->line = d->decl_line.present ? (int)d->decl_line.u : 0;
	e->external = d->external.present && d->external.u;
	if (!e->name)
		name_from_origin(sc, e, d);
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

/* What a DIE adds to the index: in SCAN_TOP the CU's functions,
 * abstract inlines and variables, in SCAN_BODY its inlined copies. */
static void index_die(struct scan *sc, uint64_t off, uint32_t tag, const struct die *d,
		      int depth)
{
	switch (tag) {
	case DW_TAG_compile_unit:
	case DW_TAG_partial_unit:
		if (d->low_pc.present)
			sc->cu_low = d->low_pc.u;
		break;
	case DW_TAG_subprogram:
		if (sc->mode != SCAN_TOP || (d->declaration.present && d->declaration.u))
			break;
		if (d->low_pc.present || d->ranges.present)
			place(sc, entry(sc, off, d, DWK_FUNC), d);
		else if (d->inline_.present && depth == 1)
			entry(sc, off, d, DWK_INLINE);
		break;
	case DW_TAG_inlined_subroutine:
		if (sc->mode == SCAN_BODY && d->origin.present)
			place(sc, entry(sc, off, d, DWK_INSTANCE), d);
		break;
	case DW_TAG_variable:
		if (sc->mode == SCAN_TOP && depth == 1 && d->location.present &&
		    !(d->declaration.present && d->declaration.u))
			entry(sc, off, d, DWK_VAR);
		break;
	default:
		break;
	}
}

static int is_type_tag(uint32_t tag)
{
	switch (tag) {
	case DW_TAG_structure_type: case DW_TAG_union_type: case DW_TAG_enumeration_type:
	case DW_TAG_array_type: case DW_TAG_subroutine_type: case DW_TAG_class_type:
		return 1;
	default:
		return 0;
	}
}

/* Past a DIE's children to its sibling at CU-relative to; 0 when that
 * is not ahead in this CU (then the children are walked). */
static int to_sibling(struct scan *sc, struct cursor *c, uint64_t to)
{
	if (!to || to >= sc->cu_end - sc->cu_off || sc->info.d + sc->cu_off + to <= c->p)
		return 0;
	c->p = sc->info.d + sc->cu_off + to;
	return 1;
}

/* Over a DIE the index does not want: its attributes by their sizes,
 * its children at once when nothing in them is wanted either (a type's
 * members; in SCAN_TOP, anything below the CU's own DIEs).  1 when its
 * children were passed by. */
static int pass_by(struct scan *sc, struct cursor *c, const struct abbrev *a, int depth)
{
	const unsigned char *attrs = c->p;

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
	if ((a->children & 1) && depth >= 1 && a->sib_at >= 0 && !c->bad &&
	    (sc->mode == SCAN_TOP || is_type_tag(a->tag))) {
		struct cursor r = { attrs + a->sib_at, c->end, 0 };
		uint64_t to = get_n(&r, a->sib_size);

		return !r.bad && to_sibling(sc, c, to);
	}
	return 0;
}

static int scan_cu(struct scan *sc, struct cursor *c)
{
	const struct abbrevs *ab = sc->ab;
	int depth = 0;

	while (c->p < c->end && !c->bad) {
		uint64_t off = (uint64_t)(c->p - sc->info.d);
		uint64_t code = get_uleb(c), sib;
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
		if (!a->wanted || (a->tag == DW_TAG_variable && depth != 1) ||
		    (a->tag == DW_TAG_inlined_subroutine && sc->mode == SCAN_TOP)) {
			if (pass_by(sc, c, a, depth))
				continue;
		} else {
			read_die(sc, c, a, depth, &d, &sib);
			if (c->bad)
				return 0;
			index_die(sc, off, a->tag, &d, depth);
			/* a function's body holds only inlined copies */
			if ((a->children & 1) && depth >= 1 && sc->mode == SCAN_TOP &&
			    to_sibling(sc, c, sib))
				continue;
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

void dw_section(struct dwarf_file *f, const char *name, const char **data, size_t *size)
{
	struct sec s = section(f->elf, name, f->relocated);

	*data = (const char *)s.d;
	*size = s.n;
}

static int scan_init(struct scan *sc, struct dwarf_file *f, struct vec *out, struct bigmem *mem)
{
	memset(sc, 0, sizeof(*sc));
	sc->f = f;
	sc->out = out;
	sc->mem = mem;
	sc->info = section(f->elf, ".debug_info", f->relocated);
	sc->abbrev = section(f->elf, ".debug_abbrev", f->relocated);
	/* (read once: a compressed section is decompressed in place) */
	sc->str.d = (const unsigned char *)f->dstr;
	sc->str.n = f->dstr_size;
	sc->line_str = section(f->elf, ".debug_line_str", f->relocated);
	sc->line = section(f->elf, ".debug_line", f->relocated);
	sc->str_offsets = section(f->elf, ".debug_str_offsets", f->relocated);
	sc->addr = section(f->elf, ".debug_addr", f->relocated);
	sc->rnglists = section(f->elf, ".debug_rnglists", f->relocated);
	sc->ranges = section(f->elf, ".debug_ranges", f->relocated);
	return sc->info.d && sc->abbrev.d;
}

static void scan_done(struct scan *sc)
{
	free(sc->fdir);
	free(sc->fname);
	free(sc->fdone);
	free(sc->dirs);
}

/*
 * The CU at off: its header read into sc, its abbreviations into ab
 * (unless they are those read last), its DIEs walked.  *next is the
 * CU after it.  0 when it cannot be read.
 */
static int scan_unit(struct scan *sc, uint64_t off, struct abbrevs *ab, uint64_t *last_abbrev,
		     struct attr_spec **pool, size_t *pool_cap, uint64_t *next)
{
	struct cursor c = sec_at(&sc->info, off);
	uint64_t len = get_n(&c, 4), abbrev_off;
	int unit_type = DW_UT_compile;

	*next = sc->info.n;
	sc->offset_size = 4;
	if (len == 0xffffffff) {
		len = get_n(&c, 8);
		sc->offset_size = 8;
	}
	if (c.bad || len < 7 || len > sc->info.n - (uint64_t)(c.p - sc->info.d))
		return 0;
	*next = (uint64_t)(c.p - sc->info.d) + len;
	c.end = sc->info.d + *next;
	sc->version = (int)get_n(&c, 2);
	if (sc->version >= 5) {
		unit_type = (int)get_n(&c, 1);
		sc->addr_size = (int)get_n(&c, 1);
		abbrev_off = get_n(&c, sc->offset_size);
		if (unit_type == DW_UT_skeleton || unit_type == DW_UT_split_compile)
			skip(&c, 8);
		else if (unit_type == DW_UT_type || unit_type == DW_UT_split_type)
			skip(&c, 8 + (uint64_t)sc->offset_size);
	} else {
		abbrev_off = get_n(&c, sc->offset_size);
		sc->addr_size = (int)get_n(&c, 1);
	}
	sc->cu_off = off;
	sc->cu_end = *next;
	sc->str_offsets_base = sc->offset_size == 8 ? 16 : 8;
	sc->addr_base = 8;
	sc->nfiles = 0;
	sc->cu_low = 0;
	sc->rnglists_base = 0;
	if (unit_type != DW_UT_compile && unit_type != DW_UT_partial) {
		sc->cross_refs = 1;	/* type units are referred to */
		return 1;
	}
	if (sc->cus)
		vec_push(sc->cus, (void *)(uintptr_t)off);
	if (abbrev_off != *last_abbrev) {
		if (!read_abbrevs(sc, abbrev_off, ab, pool, pool_cap))
			return 0;
		*last_abbrev = abbrev_off;
	}
	sc->ab = ab;
	return scan_cu(sc, &c);
}

/* What has no name or no place is left out. */
static void drop_unplaced(struct vec *out, int from)
{
	int k = from;

	for (int i = from; i < out->len; i++) {
		struct dw_entry *e = out->v[i];

		if (!e->name || ((e->kind == DWK_FUNC || e->kind == DWK_INSTANCE) && !e->lowpc))
			continue;
		out->v[k++] = e;
	}
	out->len = k;
}

/* Give back the whole pages of [p, p + n) of the mapped file. */
static void release(struct dwarf_file *f, const unsigned char *p, size_t n)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t lo = ((uintptr_t)p + page - 1) & ~(page - 1);
	uintptr_t hi = ((uintptr_t)p + n) & ~(page - 1);

	if (!f->relocated && hi > lo)
		madvise((void *)lo, hi - lo, MADV_DONTNEED);
}

/* A part of the CUs, [from, to), scanned by a thread of its own. */
struct part {
	struct dwarf_file *f;
	struct bigmem *mem;
	uint64_t from, to;
	struct vec out, cus;
	int ok, cross_refs;
};

static void *scan_part(void *arg)
{
	struct part *p = arg;
	struct scan sc;
	struct abbrevs ab = { 0 };
	struct attr_spec *pool = NULL;
	size_t pool_cap = 0;
	uint64_t off = p->from, next, last_abbrev = UINT64_MAX, kept = p->from, pop = p->from;
	int ncu = 0;

	p->ok = scan_init(&sc, p->f, &p->out, p->mem);
	sc.mode = SCAN_TOP;
	sc.cus = &p->cus;
	while (p->ok && off + 11 <= p->to) {
		/* mapped 4 MB at a time, ahead: a fault every 64 KB costs more */
		if (off + (1u << 20) > pop && pop < p->to) {
			uint64_t want = pop + (4u << 20) > p->to ? p->to : pop + (4u << 20);

			dw_populate(sc.info.d + pop, want - pop);
			pop = want;
		}
		p->ok = scan_unit(&sc, off, &ab, &last_abbrev, &pool, &pool_cap, &next);
		off = next;
		/* the pages read so far count as ours until given back;
		 * only this part's: the other thread is reading its own */
		if (++ncu % 16 == 0 || off >= p->to) {
			release(p->f, sc.info.d + kept, off - kept);
			kept = off;
		}
	}
	free(ab.v);
	free(pool);
	scan_done(&sc);
	p->cross_refs = sc.cross_refs;
	return NULL;
}

/* The first CU at or after off (by their lengths, from the first). */
static uint64_t cu_from(const struct sec *info, uint64_t off)
{
	uint64_t at = 0;

	while (at < off) {
		struct cursor c = sec_at(info, at);
		uint64_t len = get_n(&c, 4);

		if (len == 0xffffffff)
			len = get_n(&c, 8);
		if (c.bad || len > info->n - (uint64_t)(c.p - info->d))
			return info->n;
		at = (uint64_t)(c.p - info->d) + len;
	}
	return at;
}

int dw_scan(struct dwarf_file *f, struct vec *out, struct bigmem *mem, struct vec *cus,
	       int *cross_refs)
{
	struct sec info = section(f->elf, ".debug_info", f->relocated);
	struct part parts[2] = {
		{ .f = f, .mem = mem, .from = 0 },
		{ .f = f, .mem = mem },
	};
	pthread_t thread;
	int threaded = 0, ok = 1;

	/* a kernel's CUs in two halves, side by side; a module's at once
	 * (libdwfl's relocation is not to be raced) */
	parts[0].to = parts[1].from = f->relocated || info.n < (16u << 20) ? info.n :
				      cu_from(&info, info.n / 2);
	parts[1].to = info.n;
	dw_advise(f, MADV_SEQUENTIAL);	/* read ahead while the pass runs */
	if (parts[1].from < parts[1].to)
		threaded = !pthread_create(&thread, NULL, scan_part, &parts[1]);
	scan_part(&parts[0]);
	if (threaded)
		pthread_join(thread, NULL);
	else if (parts[1].from < parts[1].to)
		scan_part(&parts[1]);
	for (int i = 0; i < 2; i++) {
		ok &= parts[i].ok || parts[i].from >= parts[i].to;
		*cross_refs |= parts[i].cross_refs;
		for (int k = 0; k < parts[i].out.len; k++)
			vec_push(out, parts[i].out.v[k]);
		for (int k = 0; k < parts[i].cus.len; k++)
			vec_push(cus, parts[i].cus.v[k]);
		free(parts[i].out.v);
		free(parts[i].cus.v);
	}
	drop_unplaced(out, 0);
	return ok;
}

int dw_scan_body(struct dwarf_file *f, uint64_t cu, struct vec *out, struct bigmem *mem)
{
	struct scan sc;
	struct abbrevs ab = { 0 };
	struct attr_spec *pool = NULL;
	size_t pool_cap = 0;
	uint64_t next, last_abbrev = UINT64_MAX;
	int from = out->len, ok;

	if (!scan_init(&sc, f, out, mem))
		return 0;
	sc.mode = SCAN_BODY;
	ok = scan_unit(&sc, cu, &ab, &last_abbrev, &pool, &pool_cap, &next);
	free(ab.v);
	free(pool);
	scan_done(&sc);
	drop_unplaced(out, from);
	return ok;
}
