// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The index of a debuginfo file: every function with code, every
 * abstract inline function and every variable with a location, by
 * name, with where it is declared.  Elaboration looks names up here
 * instead of walking the DWARF: a kernel's .debug_info is ~170 MB.
 *
 * Building it walks only the top level of each CU (DW_AT_sibling skips
 * the bodies).  It is saved under the cache directory, keyed by the
 * file's build-id, so the next run reads a few MB instead.
 */
#include "dw.h"
#include <stdbool.h>
#include "elab.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <gelf.h>
#include <unistd.h>
#include <elfutils/libdwelf.h>

/* Bumped when what an index holds changes. */
#define DWIDX_VERSION 2
#define DWIDX_MAGIC "STPDWIDX"

struct rec {			/* one entry in the cache file */
	uint64_t die, lowpc, highpc;
	uint32_t name, file;	/* offsets into the string table */
	int32_t line;
	uint8_t kind, external, pad[2];
};

struct builder {
	struct dwarf_file *f;
	struct vec list;	/* struct dw_entry * while scanning */
	const unsigned char *line, *line_str, *str;	/* raw sections */
	size_t line_size, line_str_size, str_size;
	const char **files;	/* this CU's file names, by number */
	int nfiles;
};

static const char *cache_dir(void)
{
	const char *dir = getenv("STP_CACHE"), *home;

	if (dir && *dir)
		return dir;
	home = getenv("HOME");
	return home && *home ? ar_printf("%s/.cache/stp", home) : NULL;
}

static const char *build_id_of(Elf *elf)
{
	const void *id;
	ssize_t n = dwelf_elf_gnu_build_id(elf, &id);
	struct sbuf sb = { 0 };
	const char *hex;

	if (n <= 0)
		return NULL;
	for (ssize_t i = 0; i < n; i++)
		sb_printf(&sb, "%02x", ((const unsigned char *)id)[i]);
	hex = ar_strdup(sb.s);
	free(sb.s);
	return hex;
}

static const char *intern_z(const char *s)
{
	return s ? intern(s, strlen(s)) : NULL;
}

/* ---- file names of a CU, from its line program's header ----
 *
 * libdw's dwarf_decl_file() parses the CU's whole line table to get
 * them, and keeps it: over a kernel that is most of the time and
 * hundreds of MB.  The header alone has the names. */

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

static const char *section_str(const unsigned char *sec, size_t size, uint64_t off)
{
	if (!sec || off >= size || !memchr(sec + off, 0, size - off))
		return NULL;
	return (const char *)sec + off;
}

/* One attribute of a DWARF 5 directory or file entry: a string when
 * the form is one, else NULL (and *num for data forms). */
static const char *form_value(struct builder *b, struct cursor *c, uint64_t form,
			      int offset_size, uint64_t *num)
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
	case DW_FORM_line_strp:
		return section_str(b->line_str, b->line_str_size, get_n(c, offset_size));
	case DW_FORM_strp:
		return section_str(b->str, b->str_size, get_n(c, offset_size));
	case DW_FORM_udata:
		*num = get_uleb(c);
		return NULL;
	case DW_FORM_data1: *num = get_n(c, 1); return NULL;
	case DW_FORM_data2: *num = get_n(c, 2); return NULL;
	case DW_FORM_data4: *num = get_n(c, 4); return NULL;
	case DW_FORM_data8: *num = get_n(c, 8); return NULL;
	case DW_FORM_data16: get_n(c, 8); get_n(c, 8); return NULL;
	case DW_FORM_block: {
		uint64_t n = get_uleb(c);

		if ((uint64_t)(c->end - c->p) < n)
			c->bad = 1;
		else
			c->p += n;
		return NULL;
	}
	default:
		c->bad = 1;
		return NULL;
	}
}

static const char *join(const char *dir, const char *name)
{
	if (!dir || !*dir || *name == '/')
		return name;
	return ar_printf("%s/%s", dir, name);
}

static void cu_files(struct builder *b, Dwarf_Die *cu)
{
	Dwarf_Attribute a;
	Dwarf_Word off;
	struct cursor c;
	uint64_t len, hlen;
	int offset_size = 4, version, opcode_base;
	const char **dirs = NULL;
	uint64_t ndirs = 0;

	b->files = NULL;
	b->nfiles = 0;
	if (!b->line || !dwarf_attr(cu, DW_AT_stmt_list, &a) || dwarf_formudata(&a, &off) ||
	    off >= b->line_size)
		return;
	c.p = b->line + off;
	c.end = b->line + b->line_size;
	c.bad = 0;
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

			if (nfmt > 16) {
				c.bad = 1;
				break;
			}
			for (int i = 0; i < nfmt; i++) {
				fmt[i][0] = get_uleb(&c);
				fmt[i][1] = get_uleb(&c);
			}
			count = get_uleb(&c);
			if (c.bad || count > 1000000)
				break;
			if (pass == 0) {
				dirs = ar_alloc((count + 1) * sizeof(*dirs));
				ndirs = count;
			} else {
				b->files = ar_alloc((count + 1) * sizeof(*b->files));
			}
			for (uint64_t k = 0; k < count && !c.bad; k++) {
				const char *name = NULL;
				uint64_t dir = 0, num;

				for (int i = 0; i < nfmt; i++) {
					const char *s = form_value(b, &c, fmt[i][1], offset_size, &num);

					if (fmt[i][0] == DW_LNCT_path)
						name = s;
					else if (fmt[i][0] == DW_LNCT_directory_index)
						dir = num;
				}
				if (pass == 0)
					dirs[k] = name;
				else
					b->files[b->nfiles++] = name ? join(dir && dir < ndirs ? dirs[dir] : NULL, name) : NULL;
			}
		}
	} else {
		/* DWARF 2-4: directories from 1, files from 1 */
		struct vec dv = { 0 };

		vec_push(&dv, NULL);
		while (c.p < c.end && *c.p)
			vec_push(&dv, (void *)form_value(b, &c, DW_FORM_string, offset_size, &len));
		c.p++;
		b->files = ar_alloc(sizeof(*b->files));
		b->nfiles = 1;
		b->files[0] = NULL;
		while (c.p < c.end && *c.p && !c.bad) {
			const char *name = form_value(b, &c, DW_FORM_string, offset_size, &len);
			uint64_t dir = get_uleb(&c);
			const char **nf = ar_alloc((size_t)(b->nfiles + 1) * sizeof(*nf));

			get_uleb(&c);
			get_uleb(&c);
			memcpy(nf, b->files, (size_t)b->nfiles * sizeof(*nf));
			nf[b->nfiles++] = name ? join(dir && dir < (uint64_t)dv.len ? dv.v[dir] : NULL, name) : NULL;
			b->files = nf;
		}
		free(dv.v);
	}
	if (c.bad && !b->nfiles)
		b->files = NULL;
}

static const char *decl_file(struct builder *b, Dwarf_Die *die)
{
	Dwarf_Attribute a;
	Dwarf_Word n;

	if (!dwarf_attr_integrate(die, DW_AT_decl_file, &a) || dwarf_formudata(&a, &n))
		return NULL;
	if (n >= (Dwarf_Word)b->nfiles || !b->files[n])
		return NULL;
	return intern_z(b->files[n]);
}

static void add(struct builder *b, Dwarf_Die *die, enum dw_kind kind)
{
	struct dw_entry *e = ar_alloc(sizeof(*e));
	Dwarf_Attribute a;
	int line = 0;
	bool ext = false;

	e->name = intern_z(dwarf_diename(die));
	if (!e->name) {
		Dwarf_Attribute *n = dwarf_attr_integrate(die, DW_AT_name, &a);

		e->name = n ? intern_z(dwarf_formstring(n)) : NULL;
		if (!e->name)
			return;
	}
	e->kind = kind;
	e->die = dwarf_dieoffset(die);
	e->file = decl_file(b, die);
	dwarf_decl_line(die, &line);
	e->line = line;
	if (dwarf_attr_integrate(die, DW_AT_external, &a))
		dwarf_formflag(&a, &ext);
	e->external = ext;
	if (kind == DWK_FUNC) {
		Dwarf_Addr lo = 0, hi = 0;

		if (dwarf_entrypc(die, &lo) != 0) {
			Dwarf_Addr base, start, end;

			if (dwarf_ranges(die, 0, &base, &start, &end) <= 0)
				return;
			lo = start;
			hi = end;
		} else if (dwarf_highpc(die, &hi) != 0) {
			hi = lo;
		}
		e->lowpc = lo;
		e->highpc = hi;
	}
	vec_push(&b->list, e);
}

static int has_attr(Dwarf_Die *die, int at)
{
	return dwarf_hasattr(die, (unsigned)at);
}

static void scan_cu(struct builder *b, Dwarf_Die *cu)
{
	Dwarf_Die die;

	if (dwarf_child(cu, &die) != 0)
		return;
	do {
		switch (dwarf_tag(&die)) {
		case DW_TAG_subprogram:
			if (has_attr(&die, DW_AT_declaration))
				break;
			if (has_attr(&die, DW_AT_low_pc) || has_attr(&die, DW_AT_ranges))
				add(b, &die, DWK_FUNC);
			else if (has_attr(&die, DW_AT_inline))
				add(b, &die, DWK_INLINE);
			break;
		case DW_TAG_variable:
			if (has_attr(&die, DW_AT_location) && !has_attr(&die, DW_AT_declaration))
				add(b, &die, DWK_VAR);
			break;
		default:
			break;
		}
	} while (dwarf_siblingof(&die, &die) == 0);
}

static const unsigned char *section(Elf *elf, const char *want, size_t *size)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstrndx, sh.sh_name)) ||
		    strcmp(name, want) || (sh.sh_flags & SHF_COMPRESSED))
			continue;
		d = elf_rawdata(scn, NULL);
		if (!d || !d->d_buf)
			return NULL;
		*size = d->d_size;
		return d->d_buf;
	}
	return NULL;
}

/* The file is mapped: pages the scan has read count as ours until
 * dropped.  They are clean file pages, read again if wanted. */
static void drop_pages(Elf *elf)
{
	size_t size;
	char *base = elf_rawfile(elf, &size);
	long page = sysconf(_SC_PAGESIZE);

	if (base && page > 0 && !((uintptr_t)base % (uintptr_t)page))
		madvise(base, size, MADV_DONTNEED);
}

static void scan(struct builder *b)
{
	Dwarf_Off off = 0, next;
	size_t hsize;
	int n = 0;

	b->line = section(b->f->elf, ".debug_line", &b->line_size);
	b->line_str = section(b->f->elf, ".debug_line_str", &b->line_str_size);
	b->str = section(b->f->elf, ".debug_str", &b->str_size);
	while (dwarf_nextcu(b->f->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;

		if (dwarf_offdie(b->f->dw, off + hsize, &cu)) {
			cu_files(b, &cu);
			scan_cu(b, &cu);
		}
		off = next;
		if (++n % 64 == 0)
			drop_pages(b->f->elf);
	}
	drop_pages(b->f->elf);
}

static int cmp_entry(const void *pa, const void *pb)
{
	const struct dw_entry *a = pa, *b = pb;
	int c = strcmp(a->name, b->name);

	if (c)
		return c;
	if (a->lowpc != b->lowpc)
		return a->lowpc < b->lowpc ? -1 : 1;
	return a->die < b->die ? -1 : a->die > b->die;
}

/* Sorted by name then address (the cache keeps them so), chained by
 * name. */
static void finish(struct dwarf_file *f, int sorted)
{
	if (!sorted)
		qsort(f->entries, (size_t)f->nentries, sizeof(*f->entries), cmp_entry);
	for (int i = f->nentries - 1; i >= 0; i--) {
		struct dw_entry *e = &f->entries[i];

		e->next = i + 1 < f->nentries && f->entries[i + 1].name == e->name
			? &f->entries[i + 1] : NULL;
		pmap_put(&f->names, e->name, e);
	}
}

/* ---- the cache file ---- */

static uint32_t str_off(struct sbuf *tab, struct pmap *seen, const char *s)
{
	void *v;

	if (!s)
		return UINT32_MAX;
	v = pmap_get(seen, s);
	if (v)
		return (uint32_t)((uintptr_t)v - 1);
	pmap_put(seen, s, (void *)(uintptr_t)(tab->len + 1));
	{
		uint32_t off = (uint32_t)tab->len;

		sb_putn(tab, s, strlen(s) + 1);
		return off;
	}
}

static void make_dirs(const char *path)
{
	char *p = ar_strdup(path);

	for (char *s = strchr(p + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
}

static void save(const struct dwarf_file *f, const char *path)
{
	struct sbuf tab = { 0 };
	struct pmap seen = { 0 };
	struct rec *r = xcalloc((size_t)f->nentries + 1, sizeof(*r));
	uint32_t hdr[3];
	char *tmp = ar_printf("%s.%d", path, (int)getpid());
	FILE *fp;

	for (int i = 0; i < f->nentries; i++) {
		const struct dw_entry *e = &f->entries[i];

		r[i].die = e->die;
		r[i].lowpc = e->lowpc;
		r[i].highpc = e->highpc;
		r[i].name = str_off(&tab, &seen, e->name);
		r[i].file = str_off(&tab, &seen, e->file);
		r[i].line = e->line;
		r[i].kind = e->kind;
		r[i].external = e->external;
	}
	hdr[0] = DWIDX_VERSION;
	hdr[1] = (uint32_t)f->nentries;
	hdr[2] = (uint32_t)tab.len;
	make_dirs(path);
	fp = fopen(tmp, "wb");
	if (fp) {
		int ok = fwrite(DWIDX_MAGIC, 8, 1, fp) == 1 &&
			 fwrite(hdr, sizeof(hdr), 1, fp) == 1 &&
			 (!f->nentries || fwrite(r, sizeof(*r), (size_t)f->nentries, fp) == (size_t)f->nentries) &&
			 (!tab.len || fwrite(tab.s, tab.len, 1, fp) == 1);

		if (fclose(fp) == 0 && ok)
			rename(tmp, path);
		else
			unlink(tmp);
	}
	free(r);
	free(tab.s);
	free(seen.keys);
	free(seen.vals);
}

static int load(struct dwarf_file *f, const char *path)
{
	size_t size;
	char *buf = util_read_file(path, &size);
	uint32_t hdr[3];
	const struct rec *r;
	const char *tab;

	if (!buf)
		return 0;
	if (size < 8 + sizeof(hdr) || memcmp(buf, DWIDX_MAGIC, 8))
		goto bad;
	memcpy(hdr, buf + 8, sizeof(hdr));
	if (hdr[0] != DWIDX_VERSION ||
	    size != 8 + sizeof(hdr) + (size_t)hdr[1] * sizeof(*r) + hdr[2])
		goto bad;
	r = (const struct rec *)(buf + 8 + sizeof(hdr));
	tab = (const char *)(r + hdr[1]);
	f->nentries = (int)hdr[1];
	f->entries = xcalloc((size_t)f->nentries + 1, sizeof(*f->entries));
	for (int i = 0; i < f->nentries; i++) {
		struct dw_entry *e = &f->entries[i];

		if (r[i].name >= hdr[2] || (r[i].file != UINT32_MAX && r[i].file >= hdr[2]))
			goto bad;
		e->name = intern_z(tab + r[i].name);
		e->file = r[i].file == UINT32_MAX ? NULL : intern_z(tab + r[i].file);
		e->die = r[i].die;
		e->lowpc = r[i].lowpc;
		e->highpc = r[i].highpc;
		e->line = r[i].line;
		e->kind = r[i].kind;
		e->external = r[i].external;
	}
	free(buf);
	return 1;
bad:
	free(buf);
	free(f->entries);
	f->entries = NULL;
	f->nentries = 0;
	return 0;
}

/* Opened files, by path: a script may name the same program often. */
static struct pmap opened;

struct dwarf_file *dwarf_open(const char *path, const char *module, int user,
			      const char **why)
{
	const char *key = intern_z(path);
	struct dwarf_file *f = pmap_get(&opened, key);
	const char *dir, *cpath = NULL;

	if (f)
		return f;
	f = ar_alloc(sizeof(*f));
	f->path = key;
	f->module = module;
	f->user = user;
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0) {
		*why = ar_printf("cannot open %s: %s", path, strerror(errno));
		return NULL;
	}
	elf_version(EV_CURRENT);
	f->elf = elf_begin(f->fd, ELF_C_READ_MMAP, NULL);
	if (!f->elf || elf_kind(f->elf) != ELF_K_ELF) {
		*why = ar_printf("%s is not an ELF file", path);
		close(f->fd);
		return NULL;
	}
	f->dw = dwarf_begin_elf(f->elf, DWARF_C_READ, NULL);
	if (!f->dw) {
		*why = ar_printf("%s has no DWARF debuginfo (%s)", path, dwarf_errmsg(-1));
		elf_end(f->elf);
		close(f->fd);
		return NULL;
	}
	f->cfi = dwarf_getcfi(f->dw);
	if (!f->cfi)
		f->cfi = dwarf_getcfi_elf(f->elf);
	f->build_id = build_id_of(f->elf);
	dir = cache_dir();
	if (dir && f->build_id)
		cpath = ar_printf("%s/dwarf/%s-%d.idx", dir, f->build_id, DWIDX_VERSION);
	if (cpath && load(f, cpath)) {
		f->from_cache = 1;
	} else {
		struct builder b = { .f = f };

		scan(&b);
		f->nentries = b.list.len;
		f->entries = xcalloc((size_t)f->nentries + 1, sizeof(*f->entries));
		for (int i = 0; i < b.list.len; i++)
			f->entries[i] = *(struct dw_entry *)b.list.v[i];
		free(b.list.v);
		finish(f, 0);
		if (cpath)
			save(f, cpath);
	}
	if (f->from_cache)
		finish(f, 1);
	pmap_put(&opened, key, f);
	return f;
}

const struct dw_entry *dwarf_lookup(struct dwarf_file *f, const char *name)
{
	return pmap_get(&f->names, intern_z(name));
}

/* A file glob matches the declaring file's path, or any tail of it
 * that starts after a '/' ("fs/read_write.c", "read_write.c"). */
static int file_matches(const char *glob, const char *file)
{
	if (!file)
		return 0;
	if (!fnmatch(glob, file, 0))
		return 1;
	for (const char *p = strchr(file, '/'); p; p = strchr(p + 1, '/'))
		if (!fnmatch(glob, p + 1, 0))
			return 1;
	return 0;
}

void dwarf_match(struct dwarf_file *f, const char *glob, const char *file_glob,
		 struct vec *out)
{
	if (!strpbrk(glob, "*?[")) {
		for (struct dw_entry *e = pmap_get(&f->names, intern_z(glob)); e; e = e->next)
			if (!file_glob || file_matches(file_glob, e->file))
				vec_push(out, e);
		return;
	}
	for (int i = 0; i < f->nentries; i++) {
		struct dw_entry *e = &f->entries[i];

		if (!fnmatch(glob, e->name, 0) && (!file_glob || file_matches(file_glob, e->file)))
			vec_push(out, e);
	}
}

static int type_named(Dwarf_Die *die, const char *name)
{
	const char *n = dwarf_diename(die), *want = name;

	if (!n || has_attr(die, DW_AT_declaration))
		return 0;
	switch (dwarf_tag(die)) {
	case DW_TAG_structure_type:
		if (strncmp(want, "struct ", 7))
			return 0;
		want += 7;
		break;
	case DW_TAG_union_type:
		if (strncmp(want, "union ", 6))
			return 0;
		want += 6;
		break;
	case DW_TAG_enumeration_type:
		if (strncmp(want, "enum ", 5))
			return 0;
		want += 5;
		break;
	case DW_TAG_typedef:
	case DW_TAG_base_type:
		break;
	default:
		return 0;
	}
	return !strcmp(n, want);
}

/* Types are not indexed: the one @cast wants is nearly always in the
 * first CUs (every kernel CU includes the common headers). */
static int find_type(struct dwarf_file *f, const char *name, Dwarf_Die *out);

/* "task_struct" alone may be a struct, a typedef, a union: as SystemTap
 * takes it. */
int dwarf_find_type(struct dwarf_file *f, const char *name, Dwarf_Die *out)
{
	while (*name == ' ')
		name++;
	if (find_type(f, name, out))
		return 1;
	if (strncmp(name, "struct ", 7) && strncmp(name, "union ", 6) && strncmp(name, "enum ", 5))
		return find_type(f, ar_printf("struct %s", name), out) ||
		       find_type(f, ar_printf("union %s", name), out);
	return 0;
}

/* A variable only declared here (defined by the linker, as jiffies):
 * its declaration, for the type. */
int dwarf_find_decl(struct dwarf_file *f, const char *name, Dwarf_Die *out)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	while (dwarf_nextcu(f->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu, die;

		if (dwarf_offdie(f->dw, off + hsize, &cu) && dwarf_child(&cu, &die) == 0) {
			do {
				const char *n = dwarf_diename(&die);

				if (dwarf_tag(&die) == DW_TAG_variable && n && !strcmp(n, name)) {
					*out = die;
					return 1;
				}
			} while (dwarf_siblingof(&die, &die) == 0);
		}
		off = next;
	}
	return 0;
}

/* A symbol's address from the ELF symbol table. */
int dwarf_symbol(struct dwarf_file *f, const char *name, uint64_t *addr)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(f->elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !(d = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; i < sh.sh_size / (sh.sh_entsize ? sh.sh_entsize : 1); i++) {
			GElf_Sym sym;
			const char *n;

			if (!gelf_getsym(d, (int)i, &sym) || !(n = elf_strptr(f->elf, sh.sh_link, sym.st_name)))
				continue;
			if (!strcmp(n, name) && sym.st_shndx != SHN_UNDEF) {
				*addr = sym.st_value;
				return 1;
			}
		}
	}
	return 0;
}

static int find_type(struct dwarf_file *f, const char *name, Dwarf_Die *out)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	while (dwarf_nextcu(f->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu, die;

		if (dwarf_offdie(f->dw, off + hsize, &cu) && dwarf_child(&cu, &die) == 0) {
			do {
				if (type_named(&die, name)) {
					*out = die;
					return 1;
				}
			} while (dwarf_siblingof(&die, &die) == 0);
		}
		off = next;
	}
	return 0;
}
