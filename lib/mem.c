// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Memory and string helpers.  Out of memory is fatal: a translator that
 * cannot allocate has nothing useful left to do.
 */
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>

void util_die(const char *fmt, ...)
{
	va_list ap;

	fputs("stp: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		util_die("out of memory (%zu bytes)", n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		util_die("out of memory (%zu x %zu bytes)", n, size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		util_die("out of memory (%zu bytes)", n);
	return p;
}

/*
 * Arena chunks are large and backed by transparent huge pages where the
 * kernel offers them: parsing a whole tapset library touches tens of
 * megabytes, and with 4 KiB pages the page faults cost more than the
 * parsing itself.
 */
#define ARENA_CHUNK (16 << 20)
#define HUGE_PAGE (2 << 20)

static void *chunk_alloc(size_t sz)
{
	char *p = mmap(NULL, sz + HUGE_PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uintptr_t a;

	if (p == MAP_FAILED)
		util_die("out of memory (%zu bytes)", sz);
	a = ((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
	madvise((void *)a, sz, MADV_HUGEPAGE);
	return (void *)a;
}

static char *ar_cur, *ar_end;

/* Weak, so that a fuzzer can give every object its own heap block
 * (tests/fuzz/fuzz_alloc.c); stp itself uses this arena. */
__attribute__((weak)) void *ar_alloc(size_t n)
{
	char *p;

	n = (n + 15) & ~(size_t)15;
	if ((size_t)(ar_end - ar_cur) < n) {
		size_t sz = n > ARENA_CHUNK / 4 ? n : ARENA_CHUNK;

		p = chunk_alloc(sz);
		if (n > ARENA_CHUNK / 4)
			return p;	/* big blocks stand alone */
		ar_cur = p;
		ar_end = p + sz;
	}
	p = ar_cur;
	ar_cur += n;
	return p;
}

char *ar_strndup(const char *s, size_t n)
{
	char *p = ar_alloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *ar_strdup(const char *s)
{
	return ar_strndup(s, strlen(s));
}

char *ar_printf(const char *fmt, ...)
{
	struct sbuf sb = { 0 };
	va_list ap;
	char *p;

	va_start(ap, fmt);
	sb_vprintf(&sb, fmt, ap);
	va_end(ap);
	p = ar_strndup(sb.s ? sb.s : "", sb.len);
	free(sb.s);
	return p;
}

static const char **itab;
static size_t icap, icount;
static void *(*permanent_alloc)(size_t n);

void util_set_permanent_alloc(void *(*alloc)(size_t n))
{
	permanent_alloc = alloc;
}

size_t util_hash(const char *s, size_t n)
{
	size_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static void intern_resize(size_t ncap)
{
	const char **nt = permanent_alloc ? permanent_alloc(ncap * sizeof(*nt)) :
					    xcalloc(ncap, sizeof(*nt));

	for (size_t i = 0; i < icap; i++) {
		size_t j;

		if (!itab[i])
			continue;
		j = util_hash(itab[i], strlen(itab[i])) & (ncap - 1);
		while (nt[j])
			j = (j + 1) & (ncap - 1);
		nt[j] = itab[i];
	}
	if (!permanent_alloc)
		free(itab);
	itab = nt;
	icap = ncap;
}

static void intern_grow(void)
{
	intern_resize(icap ? icap * 2 : 4096);
}

const char *intern(const char *s, size_t n)
{
	size_t j;

	if (2 * (icount + 1) > icap)
		intern_grow();
	j = util_hash(s, n) & (icap - 1);
	while (itab[j]) {
		if (!strncmp(itab[j], s, n) && !itab[j][n])
			return itab[j];
		j = (j + 1) & (icap - 1);
	}
	icount++;
	if (permanent_alloc) {
		char *copy = permanent_alloc(n + 1);

		memcpy(copy, s, n);
		copy[n] = '\0';
		return itab[j] = copy;
	}
	return itab[j] = ar_strndup(s, n);
}

static size_t ptr_hash(const void *p, size_t cap)
{
	uintptr_t x = (uintptr_t)p;

	x ^= x >> 17;
	x *= 0x9e3779b97f4a7c15ull;
	return (size_t)(x >> 20) & (cap - 1);
}

void *pmap_get(const struct pmap *m, const void *key)
{
	size_t j;

	if (!m->cap)
		return NULL;
	for (j = ptr_hash(key, m->cap); m->keys[j]; j = (j + 1) & (m->cap - 1))
		if (m->keys[j] == key)
			return m->vals[j];
	return NULL;
}

static void pmap_resize(struct pmap *m, size_t ncap)
{
	struct pmap old = *m;

	m->cap = ncap;
	m->keys = xcalloc(m->cap, sizeof(*m->keys));
	m->vals = xcalloc(m->cap, sizeof(*m->vals));
	m->len = 0;
	for (size_t i = 0; i < old.cap; i++)
		if (old.keys[i])
			pmap_put(m, old.keys[i], old.vals[i]);
	free(old.keys);
	free(old.vals);
}

void pmap_reserve(struct pmap *m, size_t n)
{
	size_t cap = 64;

	while (cap < 2 * n + 2)
		cap *= 2;
	if (cap > m->cap)
		pmap_resize(m, cap);
}

void pmap_put(struct pmap *m, const void *key, void *val)
{
	size_t j;

	if (2 * (m->len + 1) > m->cap)
		pmap_resize(m, m->cap ? m->cap * 2 : 64);
	for (j = ptr_hash(key, m->cap); m->keys[j]; j = (j + 1) & (m->cap - 1))
		if (m->keys[j] == key) {
			m->vals[j] = val;
			return;
		}
	m->keys[j] = key;
	m->vals[j] = val;
	m->len++;
}

void vec_push_ar(struct vec *vec, void *p)
{
	if (vec->len == vec->cap) {
		int cap = vec->cap ? vec->cap * 2 : 2;
		void **v = ar_alloc(cap * sizeof(*v));

		if (vec->len)
			memcpy(v, vec->v, vec->len * sizeof(*v));
		vec->v = v;
		vec->cap = cap;
	}
	vec->v[vec->len++] = p;
}

void vec_push(struct vec *vec, void *p)
{
	if (vec->len == vec->cap) {
		vec->cap = vec->cap ? vec->cap * 2 : 4;
		vec->v = xrealloc(vec->v, vec->cap * sizeof(*vec->v));
	}
	vec->v[vec->len++] = p;
}

static void sb_grow(struct sbuf *sb, size_t extra)
{
	if (sb->len + extra + 1 <= sb->cap)
		return;
	while (sb->len + extra + 1 > sb->cap)
		sb->cap = sb->cap ? sb->cap * 2 : 64;
	sb->s = xrealloc(sb->s, sb->cap);
}

void sb_putn(struct sbuf *sb, const char *s, size_t n)
{
	sb_grow(sb, n);
	memcpy(sb->s + sb->len, s, n);
	sb->len += n;
	sb->s[sb->len] = '\0';
}

void sb_putc(struct sbuf *sb, char c)
{
	sb_putn(sb, &c, 1);
}

void sb_puts(struct sbuf *sb, const char *s)
{
	sb_putn(sb, s, strlen(s));
}

void sb_vprintf(struct sbuf *sb, const char *fmt, va_list ap)
{
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		return;
	sb_grow(sb, n);
	vsnprintf(sb->s + sb->len, n + 1, fmt, ap);
	sb->len += n;
}

void sb_printf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sb_vprintf(sb, fmt, ap);
	va_end(ap);
}

/* Regular files are read in one go at their size; /proc files and
 * pipes, whose size says nothing, in growing chunks. */
char *util_read_file(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct sbuf sb = { 0 };
	struct stat st;
	ssize_t n;

	if (fd < 0)
		return NULL;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0) {
		sb.cap = (size_t)st.st_size + 1;
		sb.s = xmalloc(sb.cap);
	}
	for (;;) {
		if (sb.cap - sb.len < 2) {
			sb.cap = sb.cap ? sb.cap * 2 : 65536;
			sb.s = xrealloc(sb.s, sb.cap);
		}
		n = read(fd, sb.s + sb.len, sb.cap - sb.len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		sb.len += (size_t)n;
	}
	if (n < 0) {
		int e = errno;

		close(fd);
		free(sb.s);
		errno = e;
		return NULL;
	}
	close(fd);
	if (!sb.s)
		sb.s = xmalloc(1);
	sb.s[sb.len] = '\0';
	*len = sb.len;
	return sb.s;
}

int util_edit_distance(const char *a, const char *b)
{
	int la = (int)strlen(a), lb = (int)strlen(b), prev[128], cur[128];

	if (la > 120 || lb > 120)
		return 99;
	for (int j = 0; j <= lb; j++)
		prev[j] = j;
	for (int i = 1; i <= la; i++) {
		cur[0] = i;
		for (int j = 1; j <= lb; j++) {
			int sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
			int del = prev[j] + 1, ins = cur[j - 1] + 1;

			cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
		}
		memcpy(prev, cur, (size_t)(lb + 1) * sizeof(int));
	}
	return prev[lb];
}
