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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fnmatch.h>
#include <sys/utsname.h>

struct ksym {
	const char *name;
	unsigned long long addr;
	int blacklisted;
};

struct ksyms {
	struct ksym *v;
	int n, cap;
	struct pmap index;	/* interned name -> struct ksym * */
	const char *path;
};

static const char *const no_probe_sections[][2] = {
	{ "__kprobes_text_start", "__kprobes_text_end" },
	{ "__noinstr_text_start", "__noinstr_text_end" },
	{ "__entry_text_start", "__entry_text_end" },
	{ "__irqentry_text_start", "__irqentry_text_end" },
	{ "__softirqentry_text_start", "__softirqentry_text_end" },
	{ "__indirect_thunk_start", "__indirect_thunk_end" },
};

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
	k->n++;
}

static void mark_blacklist(struct ksyms *k, struct pmap *all,
			   struct vec *kbl)
{
	for (int i = 0; i < kbl->len; i++) {
		struct ksym *sym = pmap_get(&k->index, kbl->v[i]);

		if (sym)
			sym->blacklisted = 1;
	}
	for (size_t r = 0; r < NSECTIONS; r++) {
		unsigned long long *lo = pmap_get(all, intern(no_probe_sections[r][0],
							     strlen(no_probe_sections[r][0])));
		unsigned long long *hi = pmap_get(all, intern(no_probe_sections[r][1],
							     strlen(no_probe_sections[r][1])));

		if (!lo || !hi)
			continue;
		for (int i = 0; i < k->n; i++)
			if (k->v[i].addr >= *lo && k->v[i].addr < *hi)
				k->v[i].blacklisted = 1;
	}
}

struct ksyms *ksyms_load(const struct session *s, const char **why)
{
	const char *path = find_map(s);
	struct ksyms *k;
	struct pmap all = { 0 };
	struct vec kbl = { 0 };
	char line[512];
	FILE *f;

	if (!path || !(f = fopen(path, "r"))) {
		*why = ar_printf("no symbol table for kernel %s: looked for %s/boot/System.map-%s "
				 "(stp's make deps makes one from linux-image-%s-dbg)",
				 s->kernel_release, s->sysroot ? s->sysroot : "",
				 s->kernel_release, s->kernel_release);
		return NULL;
	}
	k = ar_alloc(sizeof(*k));
	k->path = path;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char type, name[256];
		const char *iname;

		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		iname = intern(name, strlen(name));
		if (!strncmp(name, "_kbl_addr_", 10))
			vec_push(&kbl, (void *)intern(name + 10, strlen(name + 10)));
		if (name[0] == '_' && name[1] == '_' && strstr(name, "text_")) {
			unsigned long long *a = ar_alloc(sizeof(*a));

			*a = addr;
			pmap_put(&all, iname, a);
		}
		if ((type == 't' || type == 'T') && !pmap_get(&k->index, iname)) {
			add(k, iname, addr);
		}
	}
	fclose(f);
	for (int i = 0; i < k->n; i++)
		pmap_put(&k->index, k->v[i].name, &k->v[i]);
	mark_blacklist(k, &all, &kbl);
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
		struct ksym *sym = pmap_get(&k->index, intern(glob, strlen(glob)));

		if (sym && sym->blacklisted)
			(*skipped)++;
		else if (sym)
			vec_push(out, (void *)sym->name);
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
		vec_push(out, (void *)sym->name);
	}
	qsort(out->v + first, out->len - first, sizeof(void *), cmp_name);
}

int ksyms_blacklisted(const struct ksyms *k, const char *name)
{
	struct ksym *sym = pmap_get(&k->index, intern(name, strlen(name)));

	return sym && sym->blacklisted;
}

int ksyms_has(const struct ksyms *k, const char *name)
{
	return pmap_get(&k->index, intern(name, strlen(name))) != NULL;
}
