// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The target kernel's function symbols, for probe points resolved by
 * name (kprobe.function, and kernel.function without $variables).
 * They come from System.map (under --sysroot, /boot, or the build
 * tree), or from /proc/kallsyms when the target is the running kernel.
 *
 * Functions kprobes refuse are marked: those the kernel lists with
 * NOKPROBE_SYMBOL (each leaves a _kbl_addr_NAME variable behind), and
 * those in the sections kprobes never touch (.kprobes.text, .noinstr.text,
 * the entry code), found by the section marker symbols around them.
 */
#include "../elab/elab.h"
#include "bigmem.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fnmatch.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <unistd.h>

/*
 * What stp keeps of the symbols is an image: records, a hash table of
 * their names, the unique names by address, the exported names and the
 * names' text.  It is made from the map once and saved in the cache,
 * where later runs map it and read only the pages lookups touch.
 */
struct ksym {
	uint64_t addr;
	uint32_t name;		/* offset in the text */
	uint8_t blacklisted;	/* enum ksym_refusal */
	uint8_t dup;		/* its name is another symbol's too */
	uint8_t pad[2];
};

struct ksyms_head {
	char magic[8];
	uint32_t n, nslots, nby_addr, nexported, text, pad;
};

#define KSYMS_MAGIC "STPKSYM4"

struct ksyms {
	const struct ksym *v;
	int n;
	const int32_t *slots;	/* open addressing: index into v, or -1 */
	size_t nslots;
	const uint32_t *by_addr;	/* unique names, by address (ksyms_at) */
	int nby_addr;
	const uint32_t *exported;	/* names of EXPORT_SYMBOLs */
	int nexported;
	const char *text;
	uint32_t text_size;
	const char *path;
	struct pmap exported_set;	/* interned, once asked */
};

static const char *name_of(const struct ksyms *k, const struct ksym *sym)
{
	return k->text + sym->name;
}

static const struct ksym *lookup(const struct ksyms *k, const char *name)
{
	size_t j = util_hash(name, strlen(name)) & (k->nslots - 1);

	for (; k->slots[j] >= 0; j = (j + 1) & (k->nslots - 1))
		if (!strcmp(name_of(k, &k->v[k->slots[j]]), name))
			return &k->v[k->slots[j]];
	return NULL;
}

static const char *const no_probe_sections[][2] = {
	{ "__kprobes_text_start", "__kprobes_text_end" },
	{ "__noinstr_text_start", "__noinstr_text_end" },
	{ "__entry_text_start", "__entry_text_end" },
	{ "__irqentry_text_start", "__irqentry_text_end" },
	{ "__softirqentry_text_start", "__softirqentry_text_end" },
	{ "__indirect_thunk_start", "__indirect_thunk_end" },
	{ "_sinittext", "_einittext" },		/* freed once booted */
};

/* Bumped when what the cache holds changes (the sections above). */
#define KSYMS_CACHE_VERSION 4

#define NSECTIONS (sizeof(no_probe_sections) / sizeof(no_probe_sections[0]))

const char *ksyms_map_file(const struct session *s)
{
	const char *rel = s->kernel_release;
	const char *root = s->sysroot ? s->sysroot : "";
	const char *cands[] = {
		ar_printf("%s/boot/System.map-%s", root, rel),
		ar_printf("%s/lib/modules/%s/build/System.map", root, rel),
		ar_printf("%s/lib/modules/%s/System.map", root, rel),
	};

	for (size_t i = 0; i < sizeof(cands) / sizeof(cands[0]); i++) {
		FILE *f = fopen(cands[i], "r");
		char line[256];
		int real;

		if (!f)
			continue;
		/* Debian ships a one-line stub in place of the real map. */
		real = fgets(line, sizeof(line), f) && !strstr(line, "real System.map");
		fclose(f);
		if (real)
			return cands[i];
	}
	return NULL;
}

static const char *find_map(const struct session *s)
{
	const char *map = ksyms_map_file(s);
	struct utsname u;

	if (!map && !s->sysroot && !uname(&u) && !strcmp(u.release, s->kernel_release))
		return "/proc/kallsyms";
	return map;
}

enum ksym_refusal ksyms_refusal(const struct ksyms *k, const char *name)
{
	const struct ksym *sym = lookup(k, name);

	return sym ? sym->blacklisted : KSYM_PROBEABLE;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* One "ADDR TYPE NAME[\t[MODULE]]" line; returns the next line. */
static const char *map_line(const char *p, const char *end,
			    unsigned long long *addr, char *type,
			    const char **name, size_t *len)
{
	const char *nl = memchr(p, '\n', end - p);
	int v;

	if (!nl)
		nl = end;
	*addr = 0;
	*name = NULL;
	while (p < nl && (v = hexval((unsigned char)*p)) >= 0) {
		*addr = *addr << 4 | (unsigned)v;
		p++;
	}
	if (p + 3 > nl || p[0] != ' ' || p[2] != ' ')
		return nl + 1;
	*type = p[1];
	*name = p + 3;
	/* the map is mapped: nothing past nl is to be read */
	*len = (size_t)(nl - *name);
	if ((p = memchr(*name, '\t', *len)))
		*len = (size_t)(p - *name);
	if ((p = memchr(*name, ' ', *len)))
		*len = (size_t)(p - *name);
	return nl + 1;
}

/* ---- making the image from a map ---- */

/* The parts of an image, made in m: sized from the map's, so that
 * nothing is grown (and copied) while the map is read. */
struct building {
	struct bigmem m;
	struct ksym *v;
	uint32_t n, max;
	char *text;
	uint32_t tlen;
	int32_t *slots;
	uint32_t nslots;
	uint32_t *by_addr, nby_addr;
	uint32_t *exported, nexported;
	const char **kbl;	/* NOKPROBE_SYMBOLs' names, in the text */
	uint32_t nkbl;
};

static uint32_t add_text(struct building *b, const char *name, size_t len)
{
	uint32_t off = b->tlen;

	memcpy(b->text + off, name, len);
	b->text[off + len] = '\0';
	b->tlen += (uint32_t)len + 1;
	return off;
}

static const struct ksym *find(const struct building *b, const char *name)
{
	struct ksyms k = { .v = b->v, .slots = b->slots, .nslots = b->nslots, .text = b->text };

	return lookup(&k, name);
}

/* The hash table, and which names are more than one symbol's. */
static void build_index(struct building *b)
{
	b->nslots = 1024;
	while (b->nslots < 2 * b->n)
		b->nslots *= 2;
	b->slots = bigmem_alloc(&b->m, b->nslots * sizeof(*b->slots));
	memset(b->slots, 0xff, b->nslots * sizeof(*b->slots));
	for (uint32_t i = 0; i < b->n; i++) {
		const char *name = b->text + b->v[i].name;
		size_t j = util_hash(name, strlen(name)) & (b->nslots - 1);
		int dup = 0;

		for (; b->slots[j] >= 0; j = (j + 1) & (b->nslots - 1))
			if (!strcmp(b->text + b->v[b->slots[j]].name, name)) {
				dup = 1;
				b->v[b->slots[j]].dup = 1;
				b->v[i].dup = 1;
				break;
			}
		if (!dup)
			b->slots[j] = (int32_t)i;
	}
}

static void mark_blacklist(struct building *b)
{
	for (uint32_t i = 0; i < b->nkbl; i++) {
		struct ksym *sym = (struct ksym *)find(b, b->kbl[i]);

		if (sym)
			sym->blacklisted = KSYM_REFUSED;
	}
	for (size_t r = 0; r < NSECTIONS; r++) {
		const struct ksym *lo = find(b, no_probe_sections[r][0]);
		const struct ksym *hi = find(b, no_probe_sections[r][1]);

		if (!lo || !hi)
			continue;
		for (uint32_t i = 0; i < b->n; i++)
			if (b->v[i].addr >= lo->addr && b->v[i].addr < hi->addr)
				b->v[i].blacklisted =
					!strcmp(no_probe_sections[r][0], "_sinittext") ?
					KSYM_BOOT_ONLY : KSYM_REFUSED;
	}
}

static const struct ksym *sort_v;

static int cmp_addr(const void *pa, const void *pb)
{
	const struct ksym *a = &sort_v[*(const uint32_t *)pa];
	const struct ksym *b = &sort_v[*(const uint32_t *)pb];

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	/* the first in the map first: the order is the same every time */
	return *(const uint32_t *)pa < *(const uint32_t *)pb ? -1 : 1;
}

/* The map's text [p, end) into b's parts; 0 when b cannot be had. */
static int build(struct building *b, const char *p, const char *end)
{
	size_t size = (size_t)(end - p);

	memset(b, 0, sizeof(*b));
	/* a line is at least 20 bytes: "ADDR T NAME\n" */
	b->max = (uint32_t)(size / 20 + 1);
	if (size > UINT32_MAX / 2 || !bigmem_init(&b->m, 4 * size + 64 * (size_t)b->max))
		return 0;
	b->v = bigmem_alloc(&b->m, b->max * sizeof(*b->v));
	b->exported = bigmem_alloc(&b->m, b->max * sizeof(*b->exported));
	b->kbl = bigmem_alloc(&b->m, b->max * sizeof(*b->kbl));
	b->text = bigmem_alloc(&b->m, size + 1);
	while (p < end) {
		unsigned long long addr;
		const char *name;
		size_t len;
		char type;
		const char *next = map_line(p, end, &addr, &type, &name, &len);

		if (name && len && b->n < b->max) {
			if (type == 't' || type == 'T')
				b->v[b->n++] = (struct ksym){ .addr = addr,
							      .name = add_text(b, name, len) };
			else if (len > 10 && !memcmp(name, "_kbl_addr_", 10))
				b->kbl[b->nkbl++] = b->text + add_text(b, name + 10, len - 10);
			else if (len > 10 && !memcmp(name, "__ksymtab_", 10))
				b->exported[b->nexported++] = add_text(b, name + 10, len - 10);
		}
		p = next;
	}
	build_index(b);
	mark_blacklist(b);
	b->by_addr = bigmem_alloc(&b->m, (b->n + 1) * sizeof(*b->by_addr));
	for (uint32_t i = 0; i < b->n; i++)
		if (!b->v[i].dup)
			b->by_addr[b->nby_addr++] = i;
	sort_v = b->v;
	qsort(b->by_addr, b->nby_addr, sizeof(*b->by_addr), cmp_addr);
	return 1;
}

static void use_parts(struct ksyms *k, const struct building *b)
{
	k->v = b->v;
	k->n = (int)b->n;
	k->slots = b->slots;
	k->nslots = b->nslots;
	k->by_addr = b->by_addr;
	k->nby_addr = (int)b->nby_addr;
	k->exported = b->exported;
	k->nexported = (int)b->nexported;
	k->text = b->text;
	k->text_size = b->tlen;
}

/* b's parts as an image, into the cache file path. */
static void save_cache(const char *path, const struct building *b)
{
	struct ksyms_head h = { KSYMS_MAGIC, b->n, b->nslots, b->nby_addr, b->nexported,
				b->tlen, 0 };
	struct iovec parts[] = {
		{ &h, sizeof(h) },
		{ b->v, b->n * sizeof(*b->v) },
		{ b->slots, b->nslots * sizeof(*b->slots) },
		{ b->by_addr, b->nby_addr * sizeof(*b->by_addr) },
		{ b->exported, b->nexported * sizeof(*b->exported) },
		{ b->text, b->tlen },
	};

	cache_save(path, parts, (int)(sizeof(parts) / sizeof(parts[0])));
}

/* Use an image (kept: the symbols point into it); 0 if it is not a
 * good one. */
static int use_image(struct ksyms *k, const char *img, size_t size)
{
	struct ksyms_head h;
	size_t want;

	if (size < sizeof(h))
		return 0;
	memcpy(&h, img, sizeof(h));
	want = sizeof(h) + (size_t)h.n * sizeof(*k->v) + (size_t)h.nslots * sizeof(*k->slots) +
	       ((size_t)h.nby_addr + h.nexported) * sizeof(uint32_t) + h.text;
	if (memcmp(h.magic, KSYMS_MAGIC, 8) || want != size || !h.nslots ||
	    (h.nslots & (h.nslots - 1)) || h.n >= h.nslots || (h.text && img[size - 1]))
		return 0;
	k->v = (const struct ksym *)(img + sizeof(h));
	k->n = (int)h.n;
	k->slots = (const int32_t *)(k->v + h.n);
	k->nslots = h.nslots;
	k->by_addr = (const uint32_t *)(k->slots + h.nslots);
	k->nby_addr = (int)h.nby_addr;
	k->exported = k->by_addr + h.nby_addr;
	k->nexported = (int)h.nexported;
	k->text = (const char *)(k->exported + h.nexported);
	k->text_size = h.text;
	return 1;
}

/*
 * A System.map is mostly data symbols; the part stp reads (functions,
 * the blacklist) is a fifth of it.  The image of that part is kept in
 * the cache, keyed by the map's path, size and time.
 */
static const char *cache_path(const char *map, const struct stat *st)
{
	const char *dir = cache_dir();

	if (!dir)
		return NULL;
	return ar_printf("%s/ksyms%d-%zx-%llx-%llx", dir, KSYMS_CACHE_VERSION,
			 util_hash(map, strlen(map)),
			 (unsigned long long)st->st_size,
			 (unsigned long long)st->st_mtime);
}

struct ksyms *ksyms_load(const struct session *s, const char **why)
{
	const char *path = find_map(s), *cache = NULL;
	struct ksyms *k = ar_alloc(sizeof(*k));
	char *img = NULL, *text;
	size_t size = 0, tsize;
	struct stat st;

	if (path && strcmp(path, "/proc/kallsyms") && !stat(path, &st)) {
		cache = cache_path(path, &st);
		img = cache ? cache_map(cache, &size) : NULL;
		if (img && !use_image(k, img, size)) {
			munmap(img, size);
			img = NULL;
		}
	}
	if (!img) {
		struct building *b = ar_alloc(sizeof(*b));	/* kept: k points in */
		int ok;

		/* /proc/kallsyms has no size to map: read */
		text = !path ? NULL : strcmp(path, "/proc/kallsyms") ? cache_map(path, &tsize) :
		       util_read_file(path, &tsize);
		if (!text) {
			*why = ar_printf("no symbol table for kernel %s: looked for "
					 "%s/boot/System.map-%s (stp's make deps makes one from "
					 "linux-image-%s-dbg)",
					 s->kernel_release, s->sysroot ? s->sysroot : "",
					 s->kernel_release, s->kernel_release);
			return NULL;
		}
		ok = build(b, text, text + tsize);
		if (strcmp(path, "/proc/kallsyms"))
			munmap(text, tsize);
		else
			free(text);
		if (!ok) {
			*why = ar_printf("cannot read the symbol table %s", path);
			return NULL;
		}
		use_parts(k, b);
		if (cache)
			save_cache(cache, b);
	}
	k->path = path;
	return k;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void ksyms_match(const struct ksyms *k, const char *glob, struct vec *out,
		 int *skipped)
{
	int wild = strpbrk(glob, "*?[") != NULL;
	int first = out->len;

	if (!wild) {
		const struct ksym *sym = lookup(k, glob);

		if (sym && sym->blacklisted)
			(*skipped)++;
		else if (sym)
			vec_push(out, (void *)intern(glob, strlen(glob)));
		return;
	}
	for (int i = 0; i < k->n; i++) {
		const struct ksym *sym = &k->v[i];
		const char *name = name_of(k, sym);

		/* "foo.cold", "foo.isra.0": parts of a function, not one */
		if (strchr(name, '.') || fnmatch(glob, name, 0))
			continue;
		if (sym->blacklisted) {
			(*skipped)++;
			continue;
		}
		vec_push(out, (void *)intern(name, strlen(name)));
	}
	if (out->len - first > 1)
		qsort(out->v + first, out->len - first, sizeof(void *), cmp_name);
}

/* The symbol a kprobe can name to reach addr: the nearest at or before
 * it whose name is unique (kprobes look names up, and take the first
 * of several), with the offset from it.  NULL when none is. */
const char *ksyms_at(const struct ksyms *k, unsigned long long addr,
		     unsigned long long *off)
{
	int lo = 0, hi = k->nby_addr;
	const char *name;

	while (lo < hi) {	/* the first above addr */
		int mid = (lo + hi) / 2;

		if (k->v[k->by_addr[mid]].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	*off = addr - k->v[k->by_addr[lo - 1]].addr;
	name = name_of(k, &k->v[k->by_addr[lo - 1]]);
	return intern(name, strlen(name));
}

/* Whether EXPORT_SYMBOL exports name (it leaves __ksymtab_NAME). */
int ksyms_exported(const struct ksyms *k, const char *name)
{
	struct ksyms *m = (struct ksyms *)k;

	/* made when first asked: most scripts never use .exported */
	if (!m->exported_set.len)
		for (int i = 0; i < m->nexported; i++) {
			const char *n = m->text + m->exported[i];

			pmap_put(&m->exported_set, intern(n, strlen(n)), (void *)1);
		}
	return pmap_get(&m->exported_set, intern(name, strlen(name))) != NULL;
}
