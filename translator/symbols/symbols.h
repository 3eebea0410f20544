/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * translator/symbols/: what elaboration reads of the target besides its
 * debuginfo, and where it keeps what it derives.
 *
 *   ksyms.c      the kernel's function symbols (System.map, kallsyms)
 *   modsyms.c    a module's functions, from its .ko
 *   elfsec.c     an ELF file's section by name (elfsec.h)
 *   cache.c      the cache directory (STP_CACHE, ~/.cache/stp)
 *   cache_key.c  a build's cache key, for both backends (cache_key.h)
 *   bigmem.c     memory for indexing's big, short-lived arrays (bigmem.h)
 */
#ifndef STP_SYMBOLS_H
#define STP_SYMBOLS_H

#include <stddef.h>

struct session;
struct vec;
struct ksyms;

/* ksyms.c */
struct ksyms *ksyms_load(const struct session *s, const char **why);
/* The target kernel's System.map file (a real one, not Debian's stub),
 * or NULL: link-time addresses, as the kernel's image has them. */
const char *ksyms_map_file(const struct session *s);
/* Why kprobes cannot take a symbol. */
enum ksym_refusal {
	KSYM_PROBEABLE,
	KSYM_REFUSED,		/* NOKPROBE_SYMBOL, entry or noinstr code */
	KSYM_BOOT_ONLY,		/* .init.text: freed once the kernel is up */
};
enum ksym_refusal ksyms_refusal(const struct ksyms *k, const char *name);
/* Symbols matching a glob, sorted; skipped counts blacklisted ones. */
void ksyms_match(const struct ksyms *k, const char *glob, struct vec *out,
		 int *skipped);

const char *ksyms_at(const struct ksyms *k, unsigned long long addr,
		     unsigned long long *off);
int ksyms_exported(const struct ksyms *k, const char *name);

/* cache.c: STP_CACHE or ~/.cache/stp, NULL without either */
const char *cache_dir(void);
void cache_make_dirs(const char *path);
char *cache_map(const char *path, size_t *size);
struct iovec;
int cache_save(const char *path, const struct iovec *parts, int n);

/* modsyms.c */
const char *modsyms_path(const struct session *s, const char *module);
int modsyms_match(const char *ko, const char *glob, struct vec *out);

#endif
