/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lib/: the base library, memory and string helpers that the parser,
 * every pass of the translator and the tests share (none of it knows
 * the AST):
 *
 *   mem.c     checked malloc, the arena, util_die
 *   intern.c  interned strings, util_hash
 *   pmap.c    maps keyed by pointer
 *   vec.c     growable arrays of pointers
 *   sbuf.c    growable string buffers
 *   text.c    a whole file read in; the edit distance of "did you mean"
 *   tmp.c     temporary directories and files under $TMPDIR
 *
 * The translator is a short-lived batch program: everything it allocates
 * lives until exit, so allocation goes through one checked wrapper and
 * an arena, and nothing is freed node by node (chibicc's rule).
 */
#ifndef STP_BASE_H
#define STP_BASE_H

#include <stdarg.h>
#include <stddef.h>


void util_die(const char *fmt, ...) __attribute__((noreturn))
	__attribute__((format(printf, 1, 2)));

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);

/* Arena: bump allocation from large chunks, never freed. */
void *ar_alloc(size_t n);
char *ar_strndup(const char *s, size_t n);
char *ar_strdup(const char *s);
char *ar_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* One copy of each distinct string: names repeat thousands of times
 * across a tapset library. */
const char *intern(const char *s, size_t n);
/* FNV-1a over n bytes: the hash of every table here. */
size_t util_hash(const char *s, size_t n);
/* Where interned names and their table live, for a fuzzer that frees
 * everything else after each input: zeroed memory, never freed. */
void util_set_permanent_alloc(void *(*alloc)(size_t n));

/* Map from pointers (interned names) to pointers. */
struct pmap {
	const void **keys;
	void **vals;
	size_t cap, len;
};
void *pmap_get(const struct pmap *m, const void *key);
void pmap_put(struct pmap *m, const void *key, void *val);
/* Room for n keys without growing (a big table built at once). */
void pmap_reserve(struct pmap *m, size_t n);

/* Growable vector of pointers. */
struct vec {
	void **v;
	int len;
	int cap;
};
void vec_push(struct vec *vec, void *p);
/* The same for vectors that live as long as the AST: their storage comes
 * from the arena (never free them). */
void vec_push_ar(struct vec *vec, void *p);

/* Growable string buffer. */
struct sbuf {
	char *s;
	size_t len;
	size_t cap;
};
void sb_putc(struct sbuf *sb, char c);
void sb_puts(struct sbuf *sb, const char *s);
void sb_putn(struct sbuf *sb, const char *s, size_t n);
void sb_printf(struct sbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sb_vprintf(struct sbuf *sb, const char *fmt, va_list ap);

/* Whole file into memory, NUL-terminated; NULL with errno set on failure. */
char *util_read_file(const char *path, size_t *len);
/* Levenshtein distance of a and b (99 for names over 120 bytes): how
 * far a misspelt name is from a known one, for "did you mean". */
int util_edit_distance(const char *a, const char *b);

/* A new directory $TMPDIR/NAMEXXXXXX (TMPDIR unset or empty: /tmp), or
 * NULL when it cannot be made, said on stderr with TMPDIR's name;
 * for_make: the path goes to the kernel's build, and a TMPDIR with
 * white space is refused. */
const char *tmp_dir(const char *name, int for_make);
/* A new file $TMPDIR/NAMEXXXXXXSUFFIX, open for reading and writing: its
 * descriptor and *path, or -1 said on stderr. */
int tmp_file(const char *name, const char *suffix, const char **path);

#endif
