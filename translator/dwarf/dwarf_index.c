// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The index of a debuginfo file: every function with code, every
 * abstract inline function and every variable with a location, by
 * name, with where it is declared.  Elaboration looks names up here
 * instead of walking the DWARF: a kernel's .debug_info is ~170 MB.
 *
 * dwarf_scan.c builds it in one pass over the CUs' own DIEs; the
 * inlined copies inside function bodies are added a CU at a time, when
 * a lookup names their function.  Both are saved under the cache
 * directory, keyed by the file's build-id, so the next run maps a few
 * MB instead.  libdw reads a DIE through a view of its CU alone.
 */
#include "dw.h"
#include <stdbool.h>
#include "../elab/elab.h"
#include "../symbols/bigmem.h"

#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <gelf.h>
#include <unistd.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>

/* Bumped when what an index holds changes. */
#define DWIDX_VERSION 8
#define DWIDX_MAGIC "STPDWIDX"
#define DWBODY_MAGIC "STPDWBDY"

struct rec {			/* one entry in the cache file */
	uint64_t die, lowpc, highpc;
	uint32_t name, file;	/* in .debug_str, or (OWN_TEXT) the index's
				 * own strings; UINT32_MAX: none */
	int32_t line;
	uint8_t kind, external, pad[2];
};

const char *dw_build_id(Elf *elf)
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

/*
 * Strings of the records being made.  A name in .debug_str (most are:
 * the linker merged them there) is its offset in that section, with
 * OWN_TEXT clear; others (file names, names spelled in .debug_info)
 * are copied into the index's own text once each.
 */
#define OWN_TEXT 0x80000000u

struct strtab {
	const char *dstr;	/* .debug_str */
	size_t dstr_size;
	struct sbuf text;
	struct pmap offs;	/* string -> offset in text + 1 */
};

static uint32_t str_off(struct strtab *t, const char *s)
{
	uintptr_t v;

	if (!s)
		return UINT32_MAX;
	if (s >= t->dstr && s < t->dstr + t->dstr_size)
		return (uint32_t)(s - t->dstr);
	v = (uintptr_t)pmap_get(&t->offs, s);
	if (!v) {
		v = t->text.len + 1;
		pmap_put(&t->offs, s, (void *)v);
		sb_putn(&t->text, s, strlen(s) + 1);
	}
	return (uint32_t)(v - 1) | OWN_TEXT;
}

static void strtab_free(struct strtab *t)
{
	free(t->text.s);
	free(t->offs.keys);
	free(t->offs.vals);
}

/* A record's string: in .debug_str or the index's text. */
static const char *str_at(const char *dstr, size_t dstr_size, const char *text, size_t text_size,
			  uint32_t off)
{
	if (off == UINT32_MAX)
		return NULL;
	if (off & OWN_TEXT)
		return (off & ~OWN_TEXT) < text_size ? text + (off & ~OWN_TEXT) : "";
	/* a damaged file's offset, or one past the last NUL */
	return off < dstr_size && memchr(dstr + off, 0, dstr_size - off) ? dstr + off : "";
}

/* Records for the entries of list (in m), their strings into t. */
static struct rec *to_recs(const struct dwarf_file *f, const struct vec *list, struct bigmem *m,
			   struct strtab *t)
{
	size_t n = (size_t)list->len;
	struct rec *r = bigmem_alloc(m, (n + 1) * sizeof(*r));

	memset(t, 0, sizeof(*t));
	t->dstr = f->dstr;
	t->dstr_size = f->dstr_size;
	for (size_t i = 0; i < n; i++) {
		const struct dw_entry *e = list->v[i];

		r[i] = (struct rec){
			.die = e->die, .lowpc = e->lowpc, .highpc = e->highpc,
			.name = str_off(t, e->name), .file = str_off(t, e->file),
			.line = e->line, .kind = e->kind, .external = e->external,
		};
	}
	return r;
}

static const struct rec *sort_recs;
static const char *const *sort_names;


/* A name's first 8 bytes as a number that orders like strcmp. */
static uint64_t name_key(const char *s)
{
	uint64_t k = 0;
	int i = 0;

	for (; i < 8 && s[i]; i++)
		k = k << 8 | (unsigned char)s[i];
	return i ? k << (8 * (8 - i)) : 0;
}

/* Records (by index) of one name: by address, then DIE. */
static int cmp_addr_die(const void *pa, const void *pb)
{
	const struct rec *a = &sort_recs[*(const uint32_t *)pa], *b = &sort_recs[*(const uint32_t *)pb];

	if (a->lowpc != b->lowpc)
		return a->lowpc < b->lowpc ? -1 : 1;
	return a->die < b->die ? -1 : a->die > b->die;
}

/* By name, then address, then DIE. */
static int cmp_ix(const void *pa, const void *pb)
{
	uint32_t ia = *(const uint32_t *)pa, ib = *(const uint32_t *)pb;
	int c = sort_names[ia] == sort_names[ib] ? 0 : strcmp(sort_names[ia], sort_names[ib]);

	return c ? c : cmp_addr_die(pa, pb);
}

struct keyed {
	uint64_t key;
	uint32_t id;
};

/* v[0..n) (equal in their names' first depth bytes) in order, by the
 * next 8 bytes a byte at a time, then the rest, group by group. */
static void sort_run(struct keyed *v, size_t n, size_t depth, struct keyed *tmp, uint32_t *ids)
{
	if (n < 64) {
		for (size_t i = 0; i < n; i++)
			ids[i] = v[i].id;
		qsort(ids, n, sizeof(*ids), cmp_ix);
		for (size_t i = 0; i < n; i++)
			v[i].id = ids[i];
		return;
	}
	for (size_t i = 0; i < n; i++)
		v[i].key = name_key(sort_names[v[i].id] + depth);
	for (int shift = 0; shift < 64; shift += 8) {
		size_t count[257] = { 0 };

		for (size_t i = 0; i < n; i++)
			count[((v[i].key >> shift) & 0xff) + 1]++;
		if (count[((v[0].key >> shift) & 0xff) + 1] == n)
			continue;	/* one byte value: already in order */
		for (int b = 0; b < 256; b++)
			count[b + 1] += count[b];
		for (size_t i = 0; i < n; i++)
			tmp[count[(v[i].key >> shift) & 0xff]++] = v[i];
		memcpy(v, tmp, n * sizeof(*v));
	}
	for (size_t i = 0, j; i < n; i = j) {
		uint64_t k = v[i].key;

		for (j = i + 1; j < n && v[j].key == k; j++)
			;
		if (j - i < 2)
			continue;
		if (!(k & 0xff)) {	/* the names end here: one name */
			for (size_t m = i; m < j; m++)
				ids[m - i] = v[m].id;
			qsort(ids, j - i, sizeof(*ids), cmp_addr_die);
			for (size_t m = i; m < j; m++)
				v[m].id = ids[m - i];
		} else {
			sort_run(v + i, j - i, depth + 8, tmp, ids);
		}
	}
}

/* A half of the names, sorted by a thread of its own. */
struct half {
	struct keyed *v, *tmp;
	uint32_t *ids;
	size_t n;
};

static void *sort_half(void *arg)
{
	struct half *h = arg;

	sort_run(h->v, h->n, 0, h->tmp, h->ids);
	return NULL;
}

/*
 * The order of the entries by name, then address, then DIE, into perm:
 * by the names' bytes, 8 at a time a byte at a time (radix), and what
 * is left few by comparison.  A kernel has some 200,000; qsort by
 * strcmp alone took 50 ms.
 */
static void sort_entries(const struct vec *list, const struct rec *r, uint32_t *perm,
			 struct bigmem *m)
{
	/* in m: malloc'd, these would cost a page fault every 4 KB */
	size_t n = (size_t)list->len, count[257] = { 0 }, below = 0;
	struct keyed *v = bigmem_alloc(m, (n + 1) * sizeof(*v));
	struct keyed *tmp = bigmem_alloc(m, (n + 1) * sizeof(*tmp));
	const char **names = bigmem_alloc(m, (n + 1) * sizeof(*names));
	struct half h[2];
	pthread_t thread;
	int split = 0, threaded;

	/* two halves by the names' first byte, each sorted on its own */
	for (size_t i = 0; i < n; i++) {
		names[i] = ((const struct dw_entry *)list->v[i])->name;
		count[(unsigned char)names[i][0] + 1]++;
	}
	while (split < 256 && below + count[split + 1] <= n / 2)
		below += count[++split];
	for (int b = 0; b < 256; b++)
		count[b + 1] += count[b];
	for (size_t i = 0; i < n; i++)
		v[count[(unsigned char)names[i][0]]++].id = (uint32_t)i;
	h[0] = (struct half){ v, tmp, perm, below };
	h[1] = (struct half){ v + below, tmp + below, perm + below, n - below };
	sort_recs = r;
	sort_names = names;
	threaded = n > 10000 && !pthread_create(&thread, NULL, sort_half, &h[1]);
	sort_half(&h[0]);
	if (threaded)
		pthread_join(thread, NULL);
	else
		sort_half(&h[1]);
	for (size_t i = 0; i < n; i++)
		perm[i] = v[i].id;
}

/* Into the cache file path, mapped back (or, path NULL or it cannot be
 * written, into memory): the image.  After the records come the CUs'
 * offsets, .debug_frame's FDEs by address, then the strings. */
static char *make_image(struct dwarf_file *f, struct vec *list, const struct vec *cus,
			int cross_refs, struct bigmem *m, const char *path, size_t *size)
{
	struct dw_fde *fdes;
	size_t nfdes = dw_fdes(f, m, &fdes);
	struct strtab tab;
	size_t n = (size_t)list->len, head = 8 + 6 * sizeof(uint32_t);
	size_t ncus = (size_t)cus->len;
	uint32_t *perm = bigmem_alloc(m, (n + 1) * sizeof(*perm));
	struct rec *r, *sorted;
	uint64_t *cu;
	uint32_t hdr[6];
	char *img = NULL;

	r = to_recs(f, list, m, &tab);
	sort_entries(list, r, perm, m);
	sorted = bigmem_alloc(m, (n + 1) * sizeof(*sorted));
	for (size_t i = 0; i < n; i++)
		sorted[i] = r[perm[i]];
	cu = bigmem_alloc(m, (ncus + 1) * sizeof(*cu));
	for (size_t i = 0; i < ncus; i++)
		cu[i] = (uint64_t)(uintptr_t)cus->v[i];
	memcpy(hdr, (uint32_t[6]){ DWIDX_VERSION, (uint32_t)n, (uint32_t)tab.text.len,
				   (uint32_t)ncus, (uint32_t)cross_refs, (uint32_t)nfdes },
	       sizeof(hdr));
	*size = head + n * sizeof(*r) + ncus * sizeof(*cu) + nfdes * sizeof(*fdes) + tab.text.len;
	{
		struct iovec parts[] = {
			{ DWIDX_MAGIC, 8 },
			{ hdr, sizeof(hdr) },
			{ sorted, n * sizeof(*r) },
			{ cu, ncus * sizeof(*cu) },
			{ fdes, nfdes * sizeof(*fdes) },
			{ tab.text.s, tab.text.len },
		};
		int nparts = (int)(sizeof(parts) / sizeof(parts[0]));

		if (path && cache_save(path, parts, nparts))
			img = cache_map(path, size);
		if (!img) {	/* no cache: the image in memory */
			char *at = img = xmalloc(*size + 1);

			for (int i = 0; i < nparts; i++) {
				if (parts[i].iov_len)
					memcpy(at, parts[i].iov_base, parts[i].iov_len);
				at += parts[i].iov_len;
			}
		}
	}
	strtab_free(&tab);
	return img;
}

/* Use an image (kept: entries point into it); 0 if it is not a good
 * one.  Entries are made as lookups reach them: a kernel has half a
 * million, a script wants a few hundred. */
static int use_image(struct dwarf_file *f, const char *img, size_t size)
{
	uint32_t hdr[6];
	const struct rec *r;
	size_t head = 8 + sizeof(hdr);

	if (size < head || memcmp(img, DWIDX_MAGIC, 8))
		return 0;
	memcpy(hdr, img + 8, sizeof(hdr));
	if (hdr[0] != DWIDX_VERSION ||
	    size != head + (size_t)hdr[1] * sizeof(*r) + (size_t)hdr[3] * sizeof(uint64_t) +
			    (size_t)hdr[5] * sizeof(struct dw_fde) + hdr[2] ||
	    (hdr[2] && img[size - 1] != '\0'))
		return 0;
	r = (const struct rec *)(img + head);
	f->recs = r;
	f->cus = (const uint64_t *)(r + hdr[1]);
	f->ncus = (int)hdr[3];
	f->cross_refs = (int)hdr[4];
	f->fdes = (const struct dw_fde *)(f->cus + hdr[3]);
	f->nfdes = hdr[5];
	f->tab = (const char *)(f->fdes + hdr[5]);
	f->tab_size = hdr[2];
	f->nentries = (int)hdr[1];
	f->made = xcalloc((size_t)f->nentries + 1, sizeof(*f->made));
	return 1;
}

static struct dw_entry *entry_of(const struct dwarf_file *f, const struct rec *r,
				 const char *tab, uint32_t tab_size)
{
	struct dw_entry *e = ar_alloc(sizeof(*e));
	const char *name = str_at(f->dstr, f->dstr_size, tab, tab_size, r->name);

	e->name = name ? name : "";
	e->file = str_at(f->dstr, f->dstr_size, tab, tab_size, r->file);
	e->die = r->die;
	e->lowpc = r->lowpc;
	e->highpc = r->highpc;
	e->line = r->line;
	e->kind = r->kind;
	e->external = r->external;
	return e;
}

struct dw_entry *dw_entry_at(struct dwarf_file *f, int i)
{
	if (i < 0 || i >= f->nentries)
		return NULL;
	if (!f->made[i])
		f->made[i] = entry_of(f, (const struct rec *)f->recs + i, f->tab, f->tab_size);
	return f->made[i];
}

static const char *name_at(const struct dwarf_file *f, int i)
{
	const char *name = str_at(f->dstr, f->dstr_size, f->tab, f->tab_size,
				  ((const struct rec *)f->recs)[i].name);

	return name ? name : "";
}

const struct dw_entry *dw_function_at(struct dwarf_file *f, uint64_t pc)
{
	const struct rec *r = f->recs;
	int best = -1;

	for (int i = 0; i < f->nentries; i++)
		if (r[i].kind == DWK_FUNC && pc >= r[i].lowpc && pc < r[i].highpc &&
		    (best < 0 || r[i].lowpc > r[best].lowpc))
			best = i;
	return best < 0 ? NULL : dw_entry_at(f, best);
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

/* A directory and the files in it. */
static void remove_dir(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			unlinkat(dirfd(d), de->d_name, 0);
	closedir(d);
	rmdir(path);
}

/* Opened files, by path: a script may name the same program often. */
static struct pmap opened;

/* The ELF file and its DWARF (a module's relocated), into f; NULL and
 * *why when it has none. */
static struct dwarf_file *open_elf_dwarf(struct dwarf_file *f, const char *path,
					 const char *module, const char **why)
{
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
	return f;
}

/* Scan the DWARF and make the index (saved at cpath when not NULL):
 * its image and *size, or NULL and *why. */
static char *build_image(struct dwarf_file *f, const char *cpath, size_t *size,
			 const char **why)
{
	struct vec list = { 0 }, cus = { 0 };
	struct bigmem mem;
	int cross_refs = 0;
	const char *info;
	size_t info_size;
	char *img;

	/* what an earlier index's CUs were found to inline is the new
	 * one's to find again */
	if (f->bodies_path)
		remove_dir(f->bodies_path);
	/* the entries take a fraction of .debug_info's size */
	dw_section(f, ".debug_info", &info, &info_size);
	if (!bigmem_init(&mem, 2 * info_size + ((size_t)64 << 20)) ||
	    !dw_scan(f, &list, &mem, &cus, &cross_refs)) {
		bigmem_free(&mem);
		*why = ar_printf("cannot read the DWARF of %s (an unsupported form or a damaged "
				 "file)", f->path);
		free(list.v);
		free(cus.v);
		return NULL;
	}
	/* .debug_info, _abbrev, _line as the scan left them: no longer
	 * wanted */
	dw_release(f);
	img = make_image(f, &list, &cus, cross_refs, &mem, cpath, size);
	free(list.v);
	free(cus.v);
	bigmem_free(&mem);
	/* the names were read from .debug_str until now */
	dw_release(f);
	dw_advise(f, MADV_RANDOM);
	return img;
}

/* The index: the cached one when it fits, else made anew. */
static int load_index(struct dwarf_file *f, const char **why)
{
	const char *dir = cache_dir(), *cpath = NULL;
	size_t size = 0;
	char *img;

	if (dir && f->build_id) {
		cpath = ar_printf("%s/dwarf/%s-%d.idx", dir, f->build_id, DWIDX_VERSION);
		f->bodies_path = ar_printf("%s/dwarf/%s-%d.body", dir, f->build_id, DWIDX_VERSION);
	}
	img = cpath ? cache_map(cpath, &size) : NULL;
	if (img && use_image(f, img, size))
		return 1;
	if (img)
		munmap(img, size);
	img = build_image(f, cpath, &size, why);
	if (!img)
		return 0;
	if (!use_image(f, img, size)) {
		*why = ar_printf("cannot index the DWARF of %s", f->path);
		return 0;
	}
	return 2;
}

/*
 * After the scan that made the index, the file opened anew for libdw.
 * The scan reads the sections through the Elf libdw reads, and in a file
 * whose sections come compressed (libc6-dbg's) libdw's walk of the CUs
 * then went astray: every DIE looked up by offset failed, and with it a
 * function's variables, in the run that made the index only.  The old
 * handles stay open: the index's names point into their .debug_str.
 */
static int reopen(struct dwarf_file *f, const char *path, const char *module,
		  const char **why)
{
	struct dwarf_file fresh = *f;

	if (!open_elf_dwarf(&fresh, path, module, why))
		return 0;
	f->fd = fresh.fd;
	f->elf = fresh.elf;
	f->dw = fresh.dw;
	f->walked = 0;
	f->cfi = dwarf_getcfi(f->dw);
	if (!f->cfi)
		f->cfi = dwarf_getcfi_elf(f->elf);
	return 1;
}

struct dwarf_file *dw_open(const char *path, const char *module, int user,
			      const char **why)
{
	const char *key = intern(path, strlen(path));
	struct dwarf_file *f = pmap_get(&opened, key);

	if (f)
		return f;
	f = ar_alloc(sizeof(*f));
	f->path = key;
	f->module = module;
	f->user = user;
	if (!open_elf_dwarf(f, path, module, why))
		return NULL;
	/* Elaboration reads the file here and there: without this the
	 * kernel maps 16 pages around each one it reads, and the process's
	 * size counts them all. */
	dw_advise(f, MADV_RANDOM);
	f->cfi = dwarf_getcfi(f->dw);
	if (!f->cfi)
		f->cfi = dwarf_getcfi_elf(f->elf);
	f->build_id = dw_build_id(f->elf);
	dw_section(f, ".debug_str", &f->dstr, &f->dstr_size);
	switch (load_index(f, why)) {
	case 0:
		return NULL;
	case 2:
		if (!f->relocated && !reopen(f, path, module, why))
			return NULL;
	}
	pmap_put(&opened, key, f);
	return f;
}

/* ---- inlined copies, a CU at a time ----
 *
 * The first lookup that wants a CU's copies scans its body and saves
 * them as BUILDID-8.body/CU (the CU's offset in hex): a header,
 * records, strings.  Later runs map the files of the CUs they want. */

struct body_head {
	char magic[8];
	uint64_t cu;
	uint32_t n, tab;	/* records; bytes of strings, padded to 8 */
};

struct dw_body {
	int n;
	struct dw_entry **v;
};

/* The CU that holds the DIE at off. */
static uint64_t cu_of(const struct dwarf_file *f, uint64_t off)
{
	int lo = 0, hi = f->ncus;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (f->cus[mid] <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? f->cus[lo - 1] : 0;
}

/* The size of the block at p (len bytes left), 0 if it is not a whole,
 * good block; *cu its CU. */
static size_t body_block(const char *p, size_t len, uint64_t *cu)
{
	struct body_head h;
	size_t size;

	if (len < sizeof(h))
		return 0;
	memcpy(&h, p, sizeof(h));
	size = sizeof(h) + (size_t)h.n * sizeof(struct rec) + h.tab;
	if (memcmp(h.magic, DWBODY_MAGIC, 8) || h.tab % 8 || h.n > len / sizeof(struct rec) ||
	    size > len || (h.tab && p[size - 1] != '\0'))
		return 0;
	*cu = h.cu;
	return size;
}

/* A good block's entries (they point into it). */
static struct dw_body *body_entries(const struct dwarf_file *f, const char *p)
{
	struct body_head h;
	const struct rec *r = (const struct rec *)(p + sizeof(h));
	struct dw_body *b = ar_alloc(sizeof(*b));

	memcpy(&h, p, sizeof(h));
	b->n = (int)h.n;
	b->v = ar_alloc((h.n + 1) * sizeof(*b->v));
	for (uint32_t i = 0; i < h.n; i++)
		b->v[i] = entry_of(f, &r[i], (const char *)(r + h.n), h.tab);
	return b;
}

/* The CU's copies as a block (malloc'd), scanned now. */
static char *scan_body(struct dwarf_file *f, uint64_t cu, size_t *size)
{
	struct vec list = { 0 };
	struct strtab tab;
	struct body_head h = { DWBODY_MAGIC, cu, 0, 0 };
	struct rec *r;
	char *blk;

	/* the scans of one file share their memory, one at a time */
	if (!f->body_mem.base && !bigmem_init(&f->body_mem, (size_t)256 << 20))
		return NULL;
	bigmem_reset(&f->body_mem);
	/* a CU that cannot be read has no copies to offer */
	dw_scan_body(f, cu, &list, &f->body_mem);
	r = to_recs(f, &list, &f->body_mem, &tab);
	while (tab.text.len % 8)
		sb_putn(&tab.text, "", 1);
	h.n = (uint32_t)list.len;
	h.tab = (uint32_t)tab.text.len;
	*size = sizeof(h) + h.n * sizeof(*r) + h.tab;
	blk = xmalloc(*size);
	memcpy(blk, &h, sizeof(h));
	memcpy(blk + sizeof(h), r, h.n * sizeof(*r));
	if (h.tab)
		memcpy(blk + sizeof(h) + h.n * sizeof(*r), tab.text.s, h.tab);
	strtab_free(&tab);
	free(list.v);
	return blk;
}

static const struct dw_body *body_of(struct dwarf_file *f, uint64_t cu)
{
	static const struct dw_body none;
	const char *path = f->bodies_path ?
			   ar_printf("%s/%llx", f->bodies_path, (unsigned long long)cu) : NULL;
	struct dw_body *b = pmap_get(&f->bodies, (void *)(uintptr_t)(cu + 1));
	size_t size = 0;
	uint64_t got;
	char *blk;

	if (b)
		return b;
	blk = path ? cache_map(path, &size) : NULL;
	if (!blk || !body_block(blk, size, &got) || got != cu) {
		if (blk)
			munmap(blk, size);
		blk = scan_body(f, cu, &size);
		if (!blk)
			return &none;
		if (path)
			cache_save(path, &(struct iovec){ blk, size }, 1);
	}
	if (!body_block(blk, size, &got))
		return &none;
	b = body_entries(f, blk);
	pmap_put(&f->bodies, (void *)(uintptr_t)(cu + 1), b);
	return b;
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
const char *dw_module_symbol(struct dwarf_file *f, uint64_t pc, uint64_t *off)
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
 * A CU of f alone, as libdw sees it: a second handle on the file whose
 * .debug_info section is cut down to that CU.  libdw finds a DIE's CU
 * by reading every CU header before it (a thousand, for a function in
 * the middle of a kernel); in a view there is one.  Not for files
 * whose DIEs refer across units, or modules (libdwfl relocated them).
 */
static Dwarf *view_of(struct dwarf_file *f, uint64_t cu)
{
	Dwarf *dw = pmap_get(&f->views, (void *)(uintptr_t)(cu + 1));
	Elf *elf;
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (dw || f->cross_refs || f->relocated || !f->ncus)
		return dw;
	elf = elf_begin(f->fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_getshdrstrndx(elf, &shstrndx))
		goto fail;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *d;
		const unsigned char *p;
		uint64_t len;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstrndx, sh.sh_name)) ||
		    strcmp(name, ".debug_info"))
			continue;
		if ((sh.sh_flags & SHF_COMPRESSED) || !(d = elf_getdata(scn, NULL)) ||
		    cu + 12 > d->d_size)
			goto fail;
		p = (const unsigned char *)d->d_buf + cu;
		len = (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
		      (uint64_t)p[3] << 24;
		len += 4;
		if (len == 0xffffffffULL + 4) {
			len = 12;
			for (int i = 0; i < 8; i++)
				len += (uint64_t)p[4 + i] << (8 * i);
		}
		if (len > d->d_size - cu)
			goto fail;
		/* libdw reads the section through this descriptor */
		d->d_buf = (char *)d->d_buf + cu;
		d->d_size = len;
		dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
		if (!dw)
			goto fail;
		pmap_put(&f->views, (void *)(uintptr_t)(cu + 1), dw);
		return dw;
	}
fail:
	if (elf)
		elf_end(elf);
	f->cross_refs = 1;	/* no views, then: the whole file */
	return NULL;
}

/*
 * The DIE at offset off: from the view of its CU, else from the whole
 * file, where libdw reads every CU header before it, and with them
 * touches some 35 MB of a kernel's DWARF at once; done here 64 CUs at
 * a time, the pages given back after each step.
 */
Dwarf_Die *dw_die(struct dwarf_file *f, uint64_t off, Dwarf_Die *out)
{
	size_t hsize;
	Dwarf_Off next;
	int n = 0;
	uint64_t cu = cu_of(f, off);
	Dwarf *view = view_of(f, cu);

	if (view) {
		/* its pages are given back with the file's (dw_release) */
		if (!pmap_get(&f->views_used, view)) {
			pmap_put(&f->views_used, view, (void *)1);
			vec_push(&f->views_to_release, dwarf_getelf(view));
		}
		return dwarf_offdie(view, off - cu, out);
	}
	while (f->walked <= off &&
	       dwarf_nextcu(f->dw, f->walked, &next, &hsize, NULL, NULL, NULL) == 0) {
		if (next > off || ++n % 64 == 0) {
			Dwarf_Die cu_die;

			dwarf_offdie(f->dw, f->walked + hsize, &cu_die);
			dw_release(f);
		}
		f->walked = next;
		if (next > off)
			break;
	}
	return dwarf_offdie(f->dw, off, out);
}

static void advise_elf(Elf *elf, int how)
{
	size_t size;
	char *base = elf_rawfile(elf, &size);
	long page = sysconf(_SC_PAGESIZE);

	if (base && page > 0 && !((uintptr_t)base % (uintptr_t)page))
		madvise(base, size, how);
}

/* Map [p, p + n) of the file at once: the file is advised
 * MADV_RANDOM, and reading it page by page costs a fault a page. */
void dw_populate(const void *p, size_t n)
{
#ifdef MADV_POPULATE_READ
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t lo = (uintptr_t)p & ~(page - 1);

	if (p && n)
		madvise((void *)lo, (uintptr_t)p + n - lo, MADV_POPULATE_READ);
#else
	(void)p;
	(void)n;
#endif
}

/* madvise() over the whole mapped file. */
void dw_advise(struct dwarf_file *f, int how)
{
	advise_elf(f->elf, how);
}

/* Give back the file pages reading the DWARF mapped: they are the
 * page cache's, and read again if wanted, but count as this process's
 * size while mapped.  Not a module's: relocating it wrote to them. */
void dw_release(struct dwarf_file *f)
{
	if (f->relocated)
		return;
	dw_advise(f, MADV_DONTNEED);
	/* and each view's mapping read since the last time, a few at once:
	 * each is a mapping of the whole file to go over */
	if (f->views_to_release.len < 8)
		return;
	for (int i = 0; i < f->views_to_release.len; i++)
		advise_elf(f->views_to_release.v[i], MADV_DONTNEED);
	f->views_to_release.len = 0;
	free(f->views_used.keys);
	free(f->views_used.vals);
	memset(&f->views_used, 0, sizeof(f->views_used));
}

const struct dw_entry *dw_lookup(struct dwarf_file *f, const char *name)
{
	int i = lower_bound(f, name, 0);

	return i < f->nentries && !strcmp(name_at(f, i), name) ? dw_entry_at(f, i) : NULL;
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

static int name_matches(const char *glob, size_t pre, const char *name)
{
	return !(glob[pre] ? fnmatch(glob, name, 0) : strcmp(glob, name));
}

static int cmp_entry(const void *pa, const void *pb)
{
	const struct dw_entry *a = *(const struct dw_entry *const *)pa;
	const struct dw_entry *b = *(const struct dw_entry *const *)pb;
	int c = a->name == b->name ? 0 : strcmp(a->name, b->name);

	if (c)
		return c;
	if (a->lowpc != b->lowpc)
		return a->lowpc < b->lowpc ? -1 : 1;
	return a->die < b->die ? -1 : a->die > b->die;
}

void dw_match(struct dwarf_file *f, const char *glob, const char *file_glob,
		 struct vec *out)
{
	/* the names a glob can match start with its literal prefix */
	size_t pre = strcspn(glob, "*?[\\");
	int i = lower_bound(f, glob, pre), from = out->len;
	struct vec cus = { 0 };

	for (; i < f->nentries && !strncmp(name_at(f, i), glob, pre); i++) {
		struct dw_entry *e;

		if (!name_matches(glob, pre, name_at(f, i)))
			continue;
		e = dw_entry_at(f, i);
		if (file_glob && !file_matches(file_glob, e->file))
			continue;
		vec_push(out, e);
		/* its inlined copies are in its CU */
		if (e->kind == DWK_INLINE) {
			uint64_t cu = cu_of(f, e->die);
			int seen = 0;

			for (int k = 0; k < cus.len && !seen; k++)
				seen = (uint64_t)(uintptr_t)cus.v[k] == cu;
			if (!seen)
				vec_push(&cus, (void *)(uintptr_t)cu);
		}
	}
	for (int k = 0; k < cus.len; k++) {
		const struct dw_body *b = body_of(f, (uint64_t)(uintptr_t)cus.v[k]);

		for (int j = 0; j < b->n; j++) {
			struct dw_entry *e = b->v[j];

			if (name_matches(glob, pre, e->name) &&
			    (!file_glob || file_matches(file_glob, e->file)))
				vec_push(out, e);
		}
	}
	if (cus.len)
		qsort(out->v + from, (size_t)(out->len - from), sizeof(*out->v), cmp_entry);
	free(cus.v);
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
int dw_find_type(struct dwarf_file *f, const char *name, Dwarf_Die *out)
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
int dw_find_decl(struct dwarf_file *f, const char *name, Dwarf_Die *out)
{
	return first_top_die(f, variable_named, name, out);
}

/* A symbol's address from the ELF symbol table. */
int dw_symbol(struct dwarf_file *f, const char *name, uint64_t *addr)
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
