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
#include "elab.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fnmatch.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

struct ksym {
	const char *name;
	unsigned long long addr;
	int blacklisted;	/* enum ksym_refusal */
	int dup;		/* its name is another symbol's too */
};

/* Names point into the map's text, kept in memory and cut into
 * strings in place: interning 50,000 names would cost more than the
 * rest of elaboration. */
struct ksyms {
	struct ksym *v;
	int n, cap;
	int *slots;		/* open addressing: index into v, or -1 */
	size_t nslots;
	char *text;
	const char *path;
	struct vec exported;	/* names of EXPORT_SYMBOLs, in the text */
	struct pmap exported_set;	/* the same, interned, once asked */
	const struct ksym **by_addr;	/* unique names, by address (ksyms_at) */
	int nby_addr;
};

static int cmp_addr(const void *pa, const void *pb)
{
	const struct ksym *a = *(const struct ksym *const *)pa;
	const struct ksym *b = *(const struct ksym *const *)pb;

	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

static struct ksym *lookup(const struct ksyms *k, const char *name)
{
	size_t j = util_hash(name, strlen(name)) & (k->nslots - 1);

	for (; k->slots[j] >= 0; j = (j + 1) & (k->nslots - 1))
		if (!strcmp(k->v[k->slots[j]].name, name))
			return &k->v[k->slots[j]];
	return NULL;
}

static void build_index(struct ksyms *k)
{
	k->nslots = 1024;
	while (k->nslots < 2 * (size_t)k->n)
		k->nslots *= 2;
	k->slots = xmalloc(k->nslots * sizeof(*k->slots));
	memset(k->slots, 0xff, k->nslots * sizeof(*k->slots));
	for (int i = 0; i < k->n; i++) {
		size_t j = util_hash(k->v[i].name, strlen(k->v[i].name)) & (k->nslots - 1);
		int dup = 0;

		for (; k->slots[j] >= 0; j = (j + 1) & (k->nslots - 1))
			if (!strcmp(k->v[k->slots[j]].name, k->v[i].name)) {
				dup = 1;
				k->v[k->slots[j]].dup = 1;
				k->v[i].dup = 1;
				break;
			}
		if (!dup)
			k->slots[j] = i;
	}
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
#define KSYMS_CACHE_VERSION 3

#define NSECTIONS (sizeof(no_probe_sections) / sizeof(no_probe_sections[0]))

static const char *find_map(const struct session *s)
{
	const char *rel = s->kernel_release;
	const char *root = s->sysroot ? s->sysroot : "";
	const char *cands[] = {
		ar_printf("%s/boot/System.map-%s", root, rel),
		ar_printf("%s/lib/modules/%s/build/System.map", root, rel),
		ar_printf("%s/lib/modules/%s/System.map", root, rel),
	};
	struct utsname u;

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
	if (!s->sysroot && !uname(&u) && !strcmp(u.release, rel))
		return "/proc/kallsyms";
	return NULL;
}

static void add(struct ksyms *k, const char *name, unsigned long long addr)
{
	if (k->n == k->cap) {
		k->cap = k->cap ? k->cap * 2 : 65536;
		k->v = xrealloc(k->v, k->cap * sizeof(*k->v));
	}
	k->v[k->n].name = name;
	k->v[k->n].addr = addr;
	k->v[k->n].blacklisted = 0;
	k->v[k->n].dup = 0;
	k->n++;
}

static void mark_blacklist(struct ksyms *k, struct vec *kbl)
{
	for (int i = 0; i < kbl->len; i++) {
		struct ksym *sym = lookup(k, kbl->v[i]);

		if (sym)
			sym->blacklisted = KSYM_REFUSED;
	}
	for (size_t r = 0; r < NSECTIONS; r++) {
		struct ksym *lo = lookup(k, no_probe_sections[r][0]);
		struct ksym *hi = lookup(k, no_probe_sections[r][1]);

		if (!lo || !hi)
			continue;
		for (int i = 0; i < k->n; i++)
			if (k->v[i].addr >= lo->addr && k->v[i].addr < hi->addr)
				k->v[i].blacklisted =
					!strcmp(no_probe_sections[r][0], "_sinittext") ?
					KSYM_BOOT_ONLY : KSYM_REFUSED;
	}
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
	*len = strcspn(*name, " \t\n");
	if (*name + *len > nl)
		*len = nl - *name;
	return nl + 1;
}

/*
 * A System.map is mostly data symbols; the part stp reads (functions,
 * the blacklist) is a fifth of it.  That part is kept in the cache,
 * keyed by the map's path, size and time, so later runs read less.
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

static void save_cache(const char *path, const struct ksyms *k,
		       const struct vec *kbl)
{
	char *tmp = ar_printf("%s.%d", path, (int)getpid());
	FILE *f = fopen(tmp, "w");

	if (!f)
		return;
	for (int i = 0; i < k->n; i++)
		fprintf(f, "%llx t %s\n", k->v[i].addr, k->v[i].name);
	for (int i = 0; i < kbl->len; i++)
		fprintf(f, "0 d _kbl_addr_%s\n", (char *)kbl->v[i]);
	for (int i = 0; i < k->exported.len; i++)
		fprintf(f, "0 r __ksymtab_%s\n", (const char *)k->exported.v[i]);
	if (fclose(f) || rename(tmp, path))
		unlink(tmp);
}

struct ksyms *ksyms_load(const struct session *s, const char **why)
{
	const char *path = find_map(s), *cache = NULL;
	struct ksyms *k;
	struct vec kbl = { 0 };
	char *p, *end, *text = NULL;
	size_t size;
	struct stat st;
	int cached = 0;

	if (path && strcmp(path, "/proc/kallsyms") && !stat(path, &st)) {
		cache = cache_path(path, &st);
		if (cache && (text = util_read_file(cache, &size)))
			cached = 1;
	}
	if (!path || (!text && !(text = util_read_file(path, &size)))) {
		*why = ar_printf("no symbol table for kernel %s: looked for %s/boot/System.map-%s "
				 "(stp's make deps makes one from linux-image-%s-dbg)",
				 s->kernel_release, s->sysroot ? s->sysroot : "",
				 s->kernel_release, s->kernel_release);
		return NULL;
	}
	k = ar_alloc(sizeof(*k));
	k->path = path;
	k->text = text;
	for (p = text, end = text + size; p < end;) {
		unsigned long long addr;
		const char *name;
		size_t len;
		char type;
		char *next = (char *)map_line(p, end, &addr, &type, &name, &len);

		if (name && len) {
			((char *)name)[len] = '\0';	/* cut in place */
			if (type == 't' || type == 'T')
				add(k, name, addr);
			else if (len > 10 && !memcmp(name, "_kbl_addr_", 10))
				vec_push(&kbl, (void *)(name + 10));
			else if (len > 10 && !memcmp(name, "__ksymtab_", 10))
				vec_push(&k->exported, (void *)(name + 10));
		}
		p = next;
	}
	build_index(k);
	mark_blacklist(k, &kbl);
	if (cache && !cached) {
		cache_make_dirs(cache);
		save_cache(cache, k, &kbl);
	}
	free(kbl.v);
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
		struct ksym *sym = lookup(k, glob);

		if (sym && sym->blacklisted)
			(*skipped)++;
		else if (sym)
			vec_push(out, (void *)intern(sym->name, strlen(sym->name)));
		return;
	}
	for (int i = 0; i < k->n; i++) {
		const struct ksym *sym = &k->v[i];

		/* "foo.cold", "foo.isra.0": parts of a function, not one */
		if (strchr(sym->name, '.') || fnmatch(glob, sym->name, 0))
			continue;
		if (sym->blacklisted) {
			(*skipped)++;
			continue;
		}
		vec_push(out, (void *)intern(sym->name, strlen(sym->name)));
	}
	qsort(out->v + first, out->len - first, sizeof(void *), cmp_name);
}

/* The symbol a kprobe can name to reach addr: the nearest at or before
 * it whose name is unique (kprobes look names up, and take the first
 * of several), with the offset from it.  NULL when none is. */
const char *ksyms_at(const struct ksyms *k, unsigned long long addr,
		     unsigned long long *off)
{
	struct ksyms *m = (struct ksyms *)k;
	int lo = 0, hi;

	/* once: the symbols kprobes can name, by address */
	if (!m->by_addr) {
		m->by_addr = xmalloc((size_t)(k->n + 1) * sizeof(*m->by_addr));
		for (int i = 0; i < k->n; i++)
			if (!k->v[i].dup)
				m->by_addr[m->nby_addr++] = &k->v[i];
		qsort(m->by_addr, (size_t)m->nby_addr, sizeof(*m->by_addr), cmp_addr);
	}
	hi = m->nby_addr;
	while (lo < hi) {	/* the first above addr */
		int mid = (lo + hi) / 2;

		if (m->by_addr[mid]->addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	*off = addr - m->by_addr[lo - 1]->addr;
	return intern(m->by_addr[lo - 1]->name, strlen(m->by_addr[lo - 1]->name));
}

/* Whether EXPORT_SYMBOL exports name (it leaves __ksymtab_NAME). */
int ksyms_exported(const struct ksyms *k, const char *name)
{
	struct ksyms *m = (struct ksyms *)k;

	/* made when first asked: most scripts never use .exported */
	if (!m->exported_set.len)
		for (int i = 0; i < m->exported.len; i++) {
			const char *n = m->exported.v[i];

			pmap_put(&m->exported_set, intern(n, strlen(n)), (void *)1);
		}
	return pmap_get(&m->exported_set, intern(name, strlen(name))) != NULL;
}
