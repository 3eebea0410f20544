// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The runner's side of a script's arrays and statistics: BPF maps read
 * and written by file descriptor, the CPUs' shares of a statistic added
 * up, foreach's sorted keys, and the globals shown at the end (written,
 * never read: by value, largest first, as the kmod runtime shows them).
 */
#include "run.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A key's bytes: 'l' a number, 's' a string, 'c' a string no longer
 * than execname()'s (translator/bpf/keywidth.c). */
static size_t key_width(char k)
{
	return k == 's' ? (size_t)stp_prog.strlen : k == 'c' ? 16 : 8;
}

static size_t key_size(const struct stp_u_global *g)
{
	size_t n = 0;

	for (const char *k = g->keys; *k; k++)
		n += key_width(*k);
	return n ? n : 4;	/* a scalar statistic: u32 0 */
}

int stp_u_ncpus(void)
{
	static int n;

	if (!n)
		n = libbpf_num_possible_cpus();
	return n;
}

int64_t stp_get_long(stp_map_t m, const void *k)
{
	int64_t v = 0;

	if (bpf_map_lookup_elem(m, k, &v))
		return 0;
	return v;
}

void stp_get_str(stp_map_t m, const void *k, char *dst)
{
	if (bpf_map_lookup_elem(m, k, dst))
		dst[0] = 0;
}

int stp_in(stp_map_t m, const void *k)
{
	/* a per-CPU value is a share per CPU: room for all of them */
	char *v = calloc(stp_u_ncpus(), stp_u_stride(m) < 8192 ? 8192 : stp_u_stride(m));
	int in = v && !bpf_map_lookup_elem(m, k, v);

	free(v);
	return in;
}

int stp_put(stp_map_t m, const void *k, const void *v)
{
	return bpf_map_update_elem(m, k, v, BPF_ANY) ? -errno : 0;
}

int stp_add_long(stp_map_t m, const void *k, int64_t d, int64_t *out)
{
	*out = stp_get_long(m, k) + d;
	return stp_put(m, k, out);
}

int stp_delete(stp_map_t m, const void *k)
{
	return bpf_map_delete_elem(m, k);
}

/* An array map's entries cannot be deleted: they become zeros. */
static int clear_array(stp_map_t m)
{
	struct bpf_map_info info = { 0 };
	__u32 len = sizeof(info);
	size_t size;
	void *zero;

	if (bpf_obj_get_info_by_fd(m, &info, &len))
		return 0;
	if (info.type != BPF_MAP_TYPE_ARRAY && info.type != BPF_MAP_TYPE_PERCPU_ARRAY)
		return 0;
	size = info.type == BPF_MAP_TYPE_PERCPU_ARRAY ?
		((info.value_size + 7) & ~7u) * (size_t)stp_u_ncpus() : info.value_size;
	zero = calloc(1, size);
	for (__u32 k = 0; zero && k < info.max_entries; k++)
		bpf_map_update_elem(m, &k, zero, BPF_ANY);
	free(zero);
	return 1;
}

void stp_clear(stp_map_t m)
{
	char k[4096 * 2], next[4096 * 2];

	if (clear_array(m))
		return;

	while (!bpf_map_get_next_key(m, NULL, next)) {
		memcpy(k, next, sizeof(k));
		if (bpf_map_delete_elem(m, k))
			break;
	}
}

static void stat_combine(const char *per, size_t stride, struct stp_bstat *out)
{
	memset(out, 0, sizeof(*out));
	for (int c = 0; c < stp_u_ncpus(); c++)
		stp_bstat_add(out, (const struct stp_bstat *)(per + stride * c));
}

/* A per-CPU map's value: one CPU's share, 8-byte aligned (a statistic
 * with a histogram has its buckets after the struct stp_bstat). */
size_t stp_u_stride(stp_map_t m)
{
	struct bpf_map_info info = { 0 };
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(m, &info, &len))
		return sizeof(struct stp_bstat);
	return (info.value_size + 7) & ~7u;
}

void stp_stat_read(stp_map_t m, const void *k, struct stp_bstat *out)
{
	size_t stride = stp_u_stride(m);
	char *per = calloc(stp_u_ncpus(), stride);

	memset(out, 0, sizeof(*out));
	if (per && !bpf_map_lookup_elem(m, k, per))
		stat_combine(per, stride, out);
	free(per);
}

/* s <<< v from user space: into the first CPU's share. */
int stp_stat_add(stp_map_t m, const void *k, int64_t v)
{
	return stp_hstat_add(m, k, v, -1);
}

/* ... and with a histogram, v in bucket b (-1: none). */
int stp_hstat_add(stp_map_t m, const void *k, int64_t v, int b)
{
	size_t stride = stp_u_stride(m);
	char *per = calloc(stp_u_ncpus(), stride);
	struct stp_bstat *s;
	int rc;

	if (!per)
		return -ENOMEM;
	bpf_map_lookup_elem(m, k, per);
	s = (struct stp_bstat *)per;
	if (b >= 0 && b < STP_BHIST_BUCKETS && stride >= sizeof(struct stp_bhist))
		((struct stp_bhist *)per)->h[b]++;
	if (!s->count || v < s->min)
		s->min = v;
	if (!s->count || v > s->max)
		s->max = v;
	s->count++;
	s->sum += v;
	rc = bpf_map_update_elem(m, k, per, BPF_ANY) ? -errno : 0;
	free(per);
	return rc;
}

/* ---- sorting: foreach and the display ---- */

struct entry {
	char *key;
	int64_t val;		/* a long, or the statistic's aggregate */
	const char *str;	/* a string value */
	struct stp_bstat st;
};

static const struct stp_u_global *sort_g;
static int sort_col, sort_dir;

static int64_t agg_of(const struct stp_bstat *s, int agg)
{
	switch (agg) {
	case 1: return s->sum;
	case 2: return s->min;
	case 3: return s->max;
	case 4: return s->count ? s->sum / s->count : 0;
	default: return s->count;
	}
}

static int cmp_key_col(const struct entry *a, const struct entry *b, int col)
{
	size_t off = 0;

	for (int i = 0; i < col; i++)
		off += key_width(sort_g->keys[i]);
	if (sort_g->keys[col] != 'l')
		return strcmp(a->key + off, b->key + off);
	int64_t x, y;

	memcpy(&x, a->key + off, 8);
	memcpy(&y, b->key + off, 8);
	return x < y ? -1 : x > y;
}

static int cmp_entry(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;
	int c;

	if (sort_col < 0)
		c = sort_g->type == 's' ? strcmp(a->str, b->str)
			: (a->val < b->val ? -1 : a->val > b->val);
	else
		c = cmp_key_col(a, b, sort_col);
	if (!c) {
		/* ties: by the keys, first to last, ascending */
		for (int i = 0; sort_g->keys[i] && !c; i++)
			c = cmp_key_col(a, b, i);
		return c;
	}
	return sort_dir < 0 ? -c : c;
}

/* Every entry of global g, with its value. */
static int collect(int g, int agg, struct entry **out)
{
	const struct stp_u_global *gl = &stp_prog.globals[g];
	size_t ks = key_size(gl), cap = 0, n = 0;
	struct entry *v = NULL;
	char *prev = NULL, *cur;

	for (;;) {
		cur = malloc(ks);
		if (bpf_map_get_next_key(stp_fd[g], prev, cur)) {
			free(cur);
			break;
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			v = realloc(v, cap * sizeof(*v));
		}
		memset(&v[n], 0, sizeof(v[n]));
		v[n].key = cur;
		if (gl->type == 'S') {
			stp_stat_read(stp_fd[g], cur, &v[n].st);
			v[n].val = agg_of(&v[n].st, agg);
		} else if (gl->type == 's') {
			char *s = calloc(1, stp_prog.strlen);

			stp_get_str(stp_fd[g], cur, s);
			v[n].str = s;
		} else {
			v[n].val = stp_get_long(stp_fd[g], cur);
		}
		n++;
		prev = cur;
	}
	*out = v;
	return (int)n;
}

static int sorted(int g, int col, int dir, int agg, struct entry **out)
{
	int n = collect(g, agg, out);

	sort_g = &stp_prog.globals[g];
	sort_col = col;
	sort_dir = dir;
	if (n > 1)
		qsort(*out, n, sizeof(**out), cmp_entry);
	return n;
}

int stp_sorted_keys(int g, int col, int dir, int agg, int64_t limit, void **keys)
{
	struct entry *v;
	int n = sorted(g, col, dir ? dir : 1, agg, &v);
	size_t ks = key_size(&stp_prog.globals[g]);
	char *k;

	if (!dir && col < 0)
		sorted(g, 0, 1, agg, &v);	/* unsorted: key order, stably */
	if (limit >= 0 && limit < n)	/* -1: no limit */
		n = limit > 0 ? (int)limit : 0;
	k = malloc(ks * (n ? n : 1));
	for (int i = 0; i < n; i++)
		memcpy(k + i * ks, v[i].key, ks);
	*keys = k;
	return n;
}

static void display_stat(const struct stp_bstat *s, int lead)
{
	if (!s->count) {
		puts(" @count=0x0" + !lead);
		return;
	}
	printf("%s@count=%lld @min=%lld @max=%lld @sum=%lld @avg=%lld\n", lead ? " " : "",
	       s->count, s->min, s->max, s->sum, s->sum / s->count);
}

static void display_key(const struct stp_u_global *g, const char *key)
{
	size_t off = 0;

	printf("%s[", g->name);
	for (int i = 0; g->keys[i]; i++) {
		int64_t x;

		if (i)
			putchar(',');
		if (g->keys[i] != 'l') {
			printf("\"%s\"", key + off);
			off += key_width(g->keys[i]);
		} else {
			memcpy(&x, key + off, 8);
			printf("%lld", (long long)x);
			off += 8;
		}
	}
	putchar(']');
}

static void display_array(int gi)
{
	const struct stp_u_global *g = &stp_prog.globals[gi];
	struct entry *v;
	int n = sorted(gi, -1, -1, 0, &v);

	for (int i = 0; i < n; i++) {
		display_key(g, v[i].key);
		if (g->type == 'S')
			display_stat(&v[i].st, 1);
		else if (g->type == 's')
			printf("=\"%s\"\n", v[i].str);
		else
			printf("=%lld\n", (long long)v[i].val);
	}
}

static void display_scalar(int gi)
{
	const struct stp_u_global *g = &stp_prog.globals[gi];
	const char *p = (const char *)stp_gp + g->off;
	struct stp_bstat st;
	unsigned zero = 0;
	int64_t x;

	fputs(g->name, stdout);
	if (g->type == 'S') {
		stp_stat_read(stp_fd[gi], &zero, &st);
		display_stat(&st, 1);
	} else if (g->type == 's') {
		printf("=\"%s\"\n", p);
	} else {
		memcpy(&x, p, 8);
		printf("=%lld\n", (long long)x);
	}
}

void stp_u_display(void)
{
	for (int i = 0; i < stp_prog.nglobals; i++) {
		const struct stp_u_global *g = &stp_prog.globals[i];

		if (!g->display)
			continue;
		if (g->keys[0])
			display_array(i);
		else
			display_scalar(i);
	}
}
