// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The index of a debuginfo file: every function with code, every
 * abstract inline function and every variable with a location, by
 * name, with where it is declared.  Elaboration looks names up here
 * instead of walking the DWARF: a kernel's .debug_info is ~170 MB.
 *
 * dwarf_scan.c builds it in one pass over .debug_info, inlined copies
 * included.  It is saved under the cache directory, keyed by the
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
#include <elfutils/libdwfl.h>

/* Bumped when what an index holds changes. */
#define DWIDX_VERSION 5
#define DWIDX_MAGIC "STPDWIDX"

struct rec {			/* one entry in the cache file */
	uint64_t die, lowpc, highpc;
	uint32_t name, file;	/* offsets into the string table */
	int32_t line;
	uint8_t kind, external, pad[2];
};


const char *dwarf_build_id(Elf *elf)
{
	const void *id;
	ssize_t n = dwelf_elf_gnu_build_id(elf, &id);
	struct sbuf sb = { 0 };
	const char *hex;

	if (n <= 1)
		return NULL;
	for (ssize_t i = 0; i < n; i++)
		sb_printf(&sb, "%02x", ((const unsigned char *)id)[i]);
	hex = ar_strdup(sb.s);
	free(sb.s);
	return hex;
}

/* ---- the image: records and their strings, as the cache file holds
 * them (after a header), sorted by name then address ---- */

static uint32_t str_off(struct sbuf *tab, struct pmap *seen, const char *s)
{
	void *v;
	uint32_t off;

	if (!s)
		return UINT32_MAX;
	v = pmap_get(seen, s);
	if (v)
		return (uint32_t)((uintptr_t)v - 1);
	off = (uint32_t)tab->len;
	pmap_put(seen, s, (void *)(uintptr_t)(off + 1));
	sb_putn(tab, s, strlen(s) + 1);
	return off;
}

static char *map_file(const char *path, size_t *size);

static const char *sort_tab;
static const struct rec *sort_recs;

static int cmp_rec(const void *pa, const void *pb)
{
	const struct rec *a = pa, *b = pb;
	int c = a->name == b->name ? 0 : strcmp(sort_tab + a->name, sort_tab + b->name);

	if (c)
		return c;
	if (a->lowpc != b->lowpc)
		return a->lowpc < b->lowpc ? -1 : 1;
	return a->die < b->die ? -1 : a->die > b->die;
}

static int cmp_ix(const void *pa, const void *pb)
{
	return cmp_rec(&sort_recs[*(const uint32_t *)pa], &sort_recs[*(const uint32_t *)pb]);
}

/*
 * The scan's entries as an image: header, records, strings.  Strings
 * are shared by pointer (the scan's names point into .debug_str, where
 * the linker merged equal strings), and a second time by text for the
 * file names that each CU spells anew.
 */
static void write_all(FILE *fp, const void *p, size_t n, int *ok)
{
	if (n && fwrite(p, n, 1, fp) != 1)
		*ok = 0;
}

/* Into the cache file path, mapped back (or, path NULL or it cannot be
 * written, into memory): the image. */
static char *make_image(struct vec *list, const char *path, size_t *size)
{
	struct sbuf tab = { 0 };
	struct pmap seen = { 0 };
	size_t n = (size_t)list->len, head = 8 + 3 * sizeof(uint32_t);
	struct rec *r = xcalloc(n + 1, sizeof(*r));
	uint32_t hdr[3];
	char *img = NULL;

	pmap_reserve(&seen, n / 4);	/* names repeat: most are inlined copies */
	for (size_t i = 0; i < n; i++) {
		const struct dw_entry *e = list->v[i];

		r[i].die = e->die;
		r[i].lowpc = e->lowpc;
		r[i].highpc = e->highpc;
		r[i].name = str_off(&tab, &seen, e->name);
		r[i].file = str_off(&tab, &seen, e->file);
		r[i].line = e->line;
		r[i].kind = e->kind;
		r[i].external = e->external;
	}
	free(seen.keys);
	free(seen.vals);
	/* sorted through an index: qsort of the records themselves would
	 * copy them all once more */
	sort_tab = tab.s;
	sort_recs = r;
	{
		uint32_t *ix = xmalloc((n + 1) * sizeof(*ix));
		struct rec tmp;

		for (size_t i = 0; i < n; i++)
			ix[i] = (uint32_t)i;
		qsort(ix, n, sizeof(*ix), cmp_ix);
		/* apply the permutation in place, cycle by cycle */
		for (size_t i = 0; i < n; i++) {
			size_t j = i;

			if (ix[i] == UINT32_MAX)
				continue;
			tmp = r[i];
			while (ix[j] != i) {
				size_t k = ix[j];

				r[j] = r[k];
				ix[j] = UINT32_MAX;
				j = k;
			}
			r[j] = tmp;
			ix[j] = UINT32_MAX;
		}
		free(ix);
	}
	hdr[0] = DWIDX_VERSION;
	hdr[1] = (uint32_t)n;
	hdr[2] = (uint32_t)tab.len;
	*size = head + n * sizeof(*r) + tab.len;
	if (path) {
		char *tmp = ar_printf("%s.%d", path, (int)getpid());
		FILE *fp;
		int ok = 1;

		cache_make_dirs(path);
		fp = fopen(tmp, "wb");
		if (fp) {
			write_all(fp, DWIDX_MAGIC, 8, &ok);
			write_all(fp, hdr, sizeof(hdr), &ok);
			write_all(fp, r, n * sizeof(*r), &ok);
			write_all(fp, tab.s, tab.len, &ok);
			if ((fclose(fp) == 0) & ok && !rename(tmp, path))
				img = map_file(path, size);
			else
				unlink(tmp);
		}
	}
	if (!img) {
		img = xmalloc(*size + 1);
		memcpy(img, DWIDX_MAGIC, 8);
		memcpy(img + 8, hdr, sizeof(hdr));
		memcpy(img + head, r, n * sizeof(*r));
		if (tab.len)
			memcpy(img + head + n * sizeof(*r), tab.s, tab.len);
	}
	free(r);
	free(tab.s);
	return img;
}

/* Use an image (kept: entries point into it); 0 if it is not a good
 * one.  Entries are made as lookups reach them: a kernel has half a
 * million, a script wants a few hundred. */
static int use_image(struct dwarf_file *f, const char *img, size_t size)
{
	uint32_t hdr[3];
	const struct rec *r;
	size_t head = 8 + sizeof(hdr);

	if (size < head || memcmp(img, DWIDX_MAGIC, 8))
		return 0;
	memcpy(hdr, img + 8, sizeof(hdr));
	if (hdr[0] != DWIDX_VERSION || size != head + (size_t)hdr[1] * sizeof(*r) + hdr[2] ||
	    (hdr[2] && img[size - 1] != '\0'))
		return 0;
	r = (const struct rec *)(img + head);
	f->recs = r;
	f->tab = (const char *)(r + hdr[1]);
	f->tab_size = hdr[2];
	f->nentries = (int)hdr[1];
	f->made = xcalloc((size_t)f->nentries + 1, sizeof(*f->made));
	return 1;
}

struct dw_entry *dwarf_entry(struct dwarf_file *f, int i)
{
	const struct rec *r = (const struct rec *)f->recs + i;
	struct dw_entry *e;

	if (i < 0 || i >= f->nentries)
		return NULL;
	if (f->made[i])
		return f->made[i];
	e = ar_alloc(sizeof(*e));
	f->made[i] = e;
	e->name = r->name < f->tab_size ? f->tab + r->name : "";
	e->file = r->file < f->tab_size ? f->tab + r->file : NULL;
	e->die = r->die;
	e->lowpc = r->lowpc;
	e->highpc = r->highpc;
	e->line = r->line;
	e->kind = r->kind;
	e->external = r->external;
	/* the next of the same name (spelled once, mostly) */
	if (i + 1 < f->nentries && (r[1].name == r->name ||
				    (r[1].name < f->tab_size && !strcmp(f->tab + r[1].name, e->name))))
		e->next = dwarf_entry(f, i + 1);
	return e;
}

static const char *name_at(const struct dwarf_file *f, int i)
{
	uint32_t n = ((const struct rec *)f->recs)[i].name;

	return n < f->tab_size ? f->tab + n : "";
}

const struct dw_entry *dwarf_function_at(struct dwarf_file *f, uint64_t pc)
{
	const struct rec *r = f->recs;
	int best = -1;

	for (int i = 0; i < f->nentries; i++)
		if (r[i].kind == DWK_FUNC && pc >= r[i].lowpc && pc < r[i].highpc &&
		    (best < 0 || r[i].lowpc > r[best].lowpc))
			best = i;
	return best < 0 ? NULL : dwarf_entry(f, best);
}

/* The cache file, mapped: only the pages lookups touch are read. */
static char *map_file(const char *path, size_t *size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	void *p;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || st.st_size <= 0) {
		close(fd);
		return NULL;
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return NULL;
	*size = (size_t)st.st_size;
	return p;
}

static int is_relocatable(Elf *elf)
{
	GElf_Ehdr eh;

	return gelf_getehdr(elf, &eh) && eh.e_type == ET_REL;
}

static char *no_debuginfo_path;

static const Dwfl_Callbacks offline_callbacks = {
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &no_debuginfo_path,
};

static Dwarf *relocated_dwarf(struct dwarf_file *f, const char *path, const char *module,
			      Elf **elf)
{
	Dwfl *dwfl = dwfl_begin(&offline_callbacks);
	Dwfl_Module *mod;
	Dwarf_Addr bias;
	Dwarf *dw;

	if (!dwfl)
		return NULL;
	mod = dwfl_report_offline(dwfl, module ? module : "module", path, -1);
	dwfl_report_end(dwfl, NULL, NULL);
	if (!mod || !(dw = dwfl_module_getdwarf(mod, &bias)))
		return NULL;
	*elf = dwarf_getelf(dw);
	f->relocated = 1;
	f->dwfl_module = mod;
	return dw;
}

/* Opened files, by path: a script may name the same program often. */
static struct pmap opened;

struct dwarf_file *dwarf_open(const char *path, const char *module, int user,
			      const char **why)
{
	const char *key = intern(path, strlen(path));
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
	if (is_relocatable(f->elf)) {
		/* a kernel module: its DWARF is right once relocated, which
		 * libdwfl does, laying its sections out from address 0 */
		elf_end(f->elf);
		f->elf = NULL;
		f->dw = relocated_dwarf(f, path, module, &f->elf);
	} else {
		f->dw = dwarf_begin_elf(f->elf, DWARF_C_READ, NULL);
	}
	if (!f->dw) {
		*why = ar_printf("%s has no DWARF debuginfo (%s)", path, dwarf_errmsg(-1));
		elf_end(f->elf);
		close(f->fd);
		return NULL;
	}
	/* Elaboration reads the file here and there: without this the
	 * kernel maps 16 pages around each one it reads, and the process's
	 * size counts them all. */
	dwarf_advise(f, MADV_RANDOM);
	f->cfi = dwarf_getcfi(f->dw);
	if (!f->cfi)
		f->cfi = dwarf_getcfi_elf(f->elf);
	f->build_id = dwarf_build_id(f->elf);
	dir = cache_dir();
	if (dir && f->build_id)
		cpath = ar_printf("%s/dwarf/%s-%d.idx", dir, f->build_id, DWIDX_VERSION);
	{
		size_t size = 0;
		char *img = cpath ? map_file(cpath, &size) : NULL;

		if (img && use_image(f, img, size)) {
			f->from_cache = 1;
		} else {
			struct vec list = { 0 }, chunks = { 0 };

			if (img)
				munmap(img, size);
			if (!dwarf_scan(f, &list, &chunks)) {
				*why = ar_printf("cannot read the DWARF of %s (an unsupported form or a "
						 "damaged file)", path);
				free(list.v);
				return NULL;
			}
			img = make_image(&list, cpath, &size);
			free(list.v);
			for (int i = 0; i < chunks.len; i++)
				free(chunks.v[i]);
			free(chunks.v);
			if (!use_image(f, img, size)) {
				*why = ar_printf("cannot index the DWARF of %s", path);
				return NULL;
			}
		}
	}
	pmap_put(&opened, key, f);
	return f;
}

/* The first entry whose name is not below key (compared over n bytes,
 * or whole with n 0). */
static int lower_bound(const struct dwarf_file *f, const char *key, size_t n)
{
	int lo = 0, hi = f->nentries;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		int c = n ? strncmp(name_at(f, mid), key, n) : strcmp(name_at(f, mid), key);

		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The ELF symbol of a module at pc (its function may be named
 * "f.isra.0" there, and kprobes look the symbol up), and pc's offset
 * from it; NULL when there is none. */
const char *dwarf_module_symbol(struct dwarf_file *f, uint64_t pc, uint64_t *off)
{
	GElf_Off o = 0;
	GElf_Sym sym;
	const char *name;

	if (!f->dwfl_module)
		return NULL;
	name = dwfl_module_addrinfo(f->dwfl_module, pc, &o, &sym, NULL, NULL, NULL);
	if (!name)
		return NULL;
	*off = o;
	return intern(name, strlen(name));
}

/*
 * The DIE at offset off.  libdw finds a DIE's CU by reading every CU
 * header before it, and with them touches some 35 MB of a kernel's
 * DWARF at once; done here 64 CUs at a time, the pages given back
 * after each step, the process never holds them all.
 */
Dwarf_Die *dwarf_die(struct dwarf_file *f, uint64_t off, Dwarf_Die *out)
{
	size_t hsize;
	Dwarf_Off next;
	int n = 0;

	while (f->walked <= off &&
	       dwarf_nextcu(f->dw, f->walked, &next, &hsize, NULL, NULL, NULL) == 0) {
		if (next > off || ++n % 64 == 0) {
			Dwarf_Die cu;

			dwarf_offdie(f->dw, f->walked + hsize, &cu);
			dwarf_release(f);
		}
		f->walked = next;
		if (next > off)
			break;
	}
	return dwarf_offdie(f->dw, off, out);
}

/* madvise() over the whole mapped file. */
void dwarf_advise(struct dwarf_file *f, int how)
{
	size_t size;
	char *base = elf_rawfile(f->elf, &size);
	long page = sysconf(_SC_PAGESIZE);

	if (base && page > 0 && !((uintptr_t)base % (uintptr_t)page))
		madvise(base, size, how);
}

/* Give back the file pages reading the DWARF mapped: they are the
 * page cache's, and read again if wanted, but count as this process's
 * size while mapped.  Not a module's: relocating it wrote to them. */
void dwarf_release(struct dwarf_file *f)
{
	if (!f->relocated)
		dwarf_advise(f, MADV_DONTNEED);
}

const struct dw_entry *dwarf_lookup(struct dwarf_file *f, const char *name)
{
	int i = lower_bound(f, name, 0);

	return i < f->nentries && !strcmp(name_at(f, i), name) ? dwarf_entry(f, i) : NULL;
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
	/* the names a glob can match start with its literal prefix */
	size_t pre = strcspn(glob, "*?[\\");
	int i = lower_bound(f, glob, pre);

	for (; i < f->nentries && !strncmp(name_at(f, i), glob, pre); i++) {
		const char *name = name_at(f, i);
		struct dw_entry *e;

		if (glob[pre] ? fnmatch(glob, name, 0) : strcmp(glob, name))
			continue;
		e = dwarf_entry(f, i);
		if (!file_glob || file_matches(file_glob, e->file))
			vec_push(out, e);
	}
}

static int type_named(Dwarf_Die *die, const char *name)
{
	const char *n = dwarf_diename(die), *want = name;

	if (!n || dwarf_hasattr(die, DW_AT_declaration))
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

/* The first DIE at the top of a CU that pred accepts, searching every
 * CU in order. */
static int first_top_die(struct dwarf_file *f, int (*pred)(Dwarf_Die *, const char *),
			 const char *name, Dwarf_Die *out)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	while (dwarf_nextcu(f->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu, die;

		if (dwarf_offdie(f->dw, off + hsize, &cu) && dwarf_child(&cu, &die) == 0) {
			do {
				if (pred(&die, name)) {
					*out = die;
					return 1;
				}
			} while (dwarf_siblingof(&die, &die) == 0);
		}
		off = next;
	}
	return 0;
}

static int variable_named(Dwarf_Die *die, const char *name)
{
	const char *n = dwarf_diename(die);

	return dwarf_tag(die) == DW_TAG_variable && n && !strcmp(n, name);
}

/* A variable only declared here (defined by the linker, as jiffies):
 * its declaration, for the type. */
int dwarf_find_decl(struct dwarf_file *f, const char *name, Dwarf_Die *out)
{
	return first_top_die(f, variable_named, name, out);
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
	return first_top_die(f, type_named, name, out);
}
