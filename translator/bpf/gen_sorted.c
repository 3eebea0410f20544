// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A sorted foreach, or one with a limit, in a kernel probe:
 * foreach (k in a- limit 5).  A BPF map has no order, so a walk of the
 * map (bpf_for_each_map_elem) inserts each element into a buffer kept
 * in order, per CPU (a map of its own for each such loop), holding at
 * most the limit's number of elements; the body then runs over the
 * buffer as bpf_loop's callback (Linux 5.17).  The order is
 * user space's (staprun/bpf/maps.c): by the value or the key column the
 * loop marks, ties by the keys ascending; with a limit and no mark, by
 * the keys ascending.
 *
 * Arrays of numbers, strings and statistics (by an aggregate of their
 * CPUs' shares, @count unless the loop names one), with keys of numbers
 * or strings; strings are compared 8 bytes at a time, zero-filled past
 * their end (keys are, bx_key; values are copied so).  The
 * buffer is a per-CPU map value (at most 32 KiB), which bounds the
 * elements a loop without a limit can sort (512 with number keys, 64
 * with a string key): more is an error at run time.
 *
 * The insertion's steps are a bpf_loop callback too, not a C loop: the
 * verifier walks a C loop round by round, and its index is a known
 * number each round, so no round's state prunes another's (the 512
 * rounds of sorted_stats.stp's two loops without a limit took more
 * than 420,000 of the million instructions it may check, Linux 6.18);
 * a callback is checked until its state stops changing, once or twice.
 */
#include "bpf.h"

#include <stdlib.h>
#include <string.h>

#define PERCPU_VALUE_MAX (30 * 1024)
#define SORT_CAP_MAX 512
#define STRLEN 256		/* gen.c's MAXSTRINGLEN */

static struct sbuf decls;	/* the buffers' types and maps */

/* MAXSTRINGLEN: gen.c's default, or -D MAXSTRINGLEN=N's. */
int bx_string_len(const struct elab *e)
{
	const struct vec *d = &e->s->defines;
	int n = STRLEN;

	for (int i = 0; i < d->len; i++)
		if (!strncmp(d->v[i], "MAXSTRINGLEN=", 13))
			n = atoi((const char *)d->v[i] + 13);
	return n > 0 ? n : STRLEN;
}

/* An element's bytes: the value, the key struct. */
static int esize_of(const struct bx *x, const struct symbol *s)
{
	int esize = 8;

	for (int i = 0; i < s->arity; i++)
		esize += s->keys[i] != T_STRING ? 8 : bx_key_bytes(x->e, s, i);
	return esize + (s->type == T_STRING ? bx_string_len(x->e) : 0);
}

/* The buffer's slots, a power of two (indexes are masked for the
 * verifier): what fits in a per-CPU value. */
static int slots(const struct bx *x, const struct symbol *s)
{
	int fit = PERCPU_VALUE_MAX / esize_of(x, s), p = 1;

	while (p * 2 <= fit && p * 2 <= SORT_CAP_MAX)
		p *= 2;
	return p;
}

/* The elements kept: the limit when it is a number that small. */
static int capacity(const struct foreach *fe, int size)
{
	if (fe->limit && fe->limit->kind == N_NUM && fe->limit->num >= 0 && fe->limit->num < size)
		return fe->limit->num > 0 ? (int)fe->limit->num : 1;
	return size;
}

/* The key column the loop sorts by, or -1 for the value; *dir: +1
 * ascending, -1 descending. */
static int sort_column(const struct foreach *fe, int *dir)
{
	int col = -1;

	*dir = fe->value_sort;
	for (int i = 0; i < fe->keys.len; i++)
		if (fe->key_sort[i]) {
			col = i;
			*dir = fe->key_sort[i];
		}
	if (!*dir && col < 0) {	/* a limit alone: key order */
		col = 0;
		*dir = 1;
	}
	return col;
}

/* C comparing element a with b (pointers to struct srt_N_e): < 0 when a
 * comes first. */
static void comparator(const struct foreach *fe, const struct symbol *s, int id, int g)
{
	int dir, col = sort_column(fe, &dir);

	sb_printf(&decls, "STP_INLINE int srt%d_cmp(const struct srt%d_e *a, const struct srt%d_e *b)\n"
		  "{\n\tint c;\n\n", id, id, id);
	if (col >= 0 && s->keys[col] == T_STRING)
		sb_printf(&decls, "\tc = stp_srt_strcmp(a->k.k%d, b->k.k%d, sizeof(a->k.k%d) / 8);\n",
			  col, col, col);
	else if (col < 0 && s->type == T_STRING)
		sb_puts(&decls, "\tc = stp_srt_strcmp(a->s, b->s, MAXSTRINGLEN / 8);\n");
	else
		sb_printf(&decls, "\tc = %s < %s ? -1 : %s > %s;\n",
			  col < 0 ? "a->v" : ar_printf("a->k.k%d", col),
			  col < 0 ? "b->v" : ar_printf("b->k.k%d", col),
			  col < 0 ? "a->v" : ar_printf("a->k.k%d", col),
			  col < 0 ? "b->v" : ar_printf("b->k.k%d", col));
	sb_printf(&decls, "\tif (c)\n\t\treturn %sc;\n", dir < 0 ? "-" : "");
	for (int i = 0; i < s->arity; i++)
		if (s->keys[i] == T_STRING)
			sb_printf(&decls, "\tc = stp_srt_strcmp(a->k.k%d, b->k.k%d, sizeof(a->k.k%d) / 8);\n"
				  "\tif (c)\n\t\treturn c;\n", i, i, i);
		else
			sb_printf(&decls, "\tif (a->k.k%d != b->k.k%d)\n"
				  "\t\treturn a->k.k%d < b->k.k%d ? -1 : 1;\n", i, i, i, i);
	sb_puts(&decls, "\treturn 0;\n}\n\n");
	(void)g;
}

/* C setting b->in.v, what the loop sorts by when it sorts by value: a
 * number, or a statistic's aggregate over its CPUs' shares; nothing
 * when it sorts by a key and has no value variable. */
static const char *in_value(const struct foreach *fe, const struct symbol *s)
{
	static const char *const of[] = { "st.count", "st.sum", "st.min", "st.max",
					  "(st.count ? stp_div(st.sum, st.count) : 0)" };
	int agg = 0, dir;

	if (sort_column(fe, &dir) >= 0 && !fe->value_sym)
		return "";
	if (s->type == T_STRING)	/* zero-filled past its end, as keys are */
		return "\tfor (int w = 0; w < MAXSTRINGLEN / 8; w++)\n"
		       "\t\t((u64 *)b->in.s)[w] = 0;\n"
		       "\tbpf_probe_read_kernel_str(b->in.s, MAXSTRINGLEN, val);\n";
	if (s->type != T_STATS)
		return "\tb->in.v = *(int64_t *)val;\n";
	if (bx_agg_index(fe->sort_at) >= 0)
		agg = bx_agg_index(fe->sort_at);	/* of[] is in that order */
	return ar_printf("\t{\n\t\tstruct stp_bstat st;\n\n\t\tstp_stat_read(map, key, &st);\n"
			 "\t\tb->in.v = %s;\n\t}\n", of[agg]);
}

/* One step of an insertion, as bpf_loop's callback: element i - 1
 * moves up a slot unless the new one goes after it.  The indexes
 * pass through an empty asm: clang would otherwise address e[i] from
 * e[i - 1], in a way the verifier cannot bound. */
static void step(int id, int cap, int size)
{
	sb_printf(&decls, "struct srt%d_x { struct srt%d *b; int64_t i; };\n\n"
		  "static long srt%d_step(u32 step, struct srt%d_x *x)\n{\n"
		  "\tstruct srt%d *b = x->b;\n\tint64_t i = x->i;\n\tu32 pi, qi;\n\n"
		  "\t(void)step;\n\tif (i <= 0 || i > %d)\n\t\treturn 1;\n"
		  "\tpi = i - 1;\n\tqi = i;\n"
		  "\tasm volatile(\"\" : \"+r\"(pi));\n\tasm volatile(\"\" : \"+r\"(qi));\n"
		  "\tif (srt%d_cmp(&b->in, &b->e[pi & %d]) >= 0)\n\t\treturn 1;\n"
		  "\tif (i < %d)\n\t\tsrt%d_copy(&b->e[qi & %d], &b->e[pi & %d]);\n"
		  "\tx->i = i - 1;\n\treturn 0;\n}\n\n",
		  id, id, id, id, id, cap, id, size - 1, cap, id, size - 1, size - 1);
}

/* The buffer, its map, and the walk's callback: insertion, from the end. */
static void buffer(const struct bx *x, const struct foreach *fe, const struct symbol *s, int id,
		   int g, int cap, int size)
{
	/* keys are zero-filled past their NUL (bx_key), so 8 bytes at a
	 * time, big-endian, order them as strcmp does */
	if (!decls.s)
		sb_puts(&decls, "STP_INLINE int stp_srt_strcmp(const char *a, const char *b, int words)\n{\n"
			"\tconst u64 *x = (const void *)a, *y = (const void *)b;\n\n"
			"\tfor (int w = 0; w < words; w++) {\n"
			"\t\tu64 p = __builtin_bswap64(x[w]), q = __builtin_bswap64(y[w]);\n\n"
			"\t\tif (p != q)\n\t\t\treturn p < q ? -1 : 1;\n\t}\n\treturn 0;\n}\n\n");
	/* one slot more than the mask reaches: clang may address e[i] as
	 * e[(i - 1) & mask] + 1, which the verifier bounds by the mask */
	sb_printf(&decls, "struct srt%d_e { int64_t v;%s struct k_%d k; };\n"
		  "struct srt%d { int64_t n, over; struct srt%d_e in, e[%d]; };\n"
		  "struct {\n\t__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);\n\t__uint(max_entries, 1);\n"
		  "\t__type(key, u32);\n\t__type(value, struct srt%d);\n} m_srt%d SEC(\".maps\");\n\n",
		  id, s->type == T_STRING ? " char s[MAXSTRINGLEN];" : "", g, id, id, size + 1, id, id);
	comparator(fe, s, id, g);
	/* an element: copied inline when small, else by a helper (clang
	 * has no inline copy that big for BPF, and no memcpy to call) */
	if (esize_of(x, s) <= 256)
		sb_printf(&decls, "#define srt%d_copy(d, s) (*(d) = *(s))\n\n", id);
	else
		sb_printf(&decls, "#define srt%d_copy(d, s) bpf_probe_read_kernel((d), "
			  "sizeof(*(d)), (s))\n\n", id);
	step(id, cap, size);
	sb_printf(&decls, "static long srt%d_add(void *map, struct k_%d *key, void *val, "
		  "struct srt%d **bp)\n{\n\tstruct srt%d *b = *bp;\n"
		  "\tstruct srt%d_x x = { b, b->n };\n\tint64_t have = x.i;\n\n"
		  "\tif (have < 0 || have > %d)\n\t\treturn 1;\n"
		  "%s\tbpf_probe_read_kernel(&b->in.k, sizeof(b->in.k), key);\n"
		  "\tbpf_loop(have, srt%d_step, &x, 0);\n"
		  "\tif (x.i >= 0 && x.i < %d) {\n\t\tu32 qi = x.i;\n\n"
		  "\t\tasm volatile(\"\" : \"+r\"(qi));\n"
		  "\t\tsrt%d_copy(&b->e[qi & %d], &b->in);\n\t}\n"
		  "\tif (have < %d)\n\t\tb->n = have + 1;\n\telse\n\t\tb->over = 1;\n"
		  "\treturn 0;\n}\n\n",
		  id, g, id, id, id, cap, in_value(fe, s), id, cap, id, size - 1, cap);
}

/* The loop's body, as bpf_loop's callback over the buffer's elements
 * (its hoisted code verified once, not once an element): break and
 * continue are its returns, an error stops the loop, as for
 * gen_foreach.c's callbacks. */
static void body_callback(struct bx *x, struct node *n, const struct symbol *s, int id, int size)
{
	struct foreach *fe = n->fe;
	struct sbuf outer = x->code;

	memset(&x->code, 0, sizeof(x->code));
	sb_printf(&x->code, "static long srtb%d(u32 i, struct stp_cb *cb)\n{\n"
		  "\tstruct stp_ctx *c = cb->c;\n\tstruct stp_kctx *stp_k = cb->k;\n"
		  "\tu32 z = 0;\n\tstruct srt%d *b = bpf_map_lookup_elem(&m_srt%d, &z);\n"
		  "\tstruct srt%d_e *_e;\n\n\tif (!b)\n\t\treturn 1;\n"
		  "\t_e = &b->e[i & %d];\n", id, id, id, id, size - 1);
	for (int i = 0; i < fe->keys.len; i++)
		sb_printf(&x->code, s->keys[i] == T_STRING ? "\tstp_strcpy(%s, _e->k.k%d);\n" :
			  "\t%s = _e->k.k%d;\n", bx_local(x, ((struct node *)fe->keys.v[i])->ref), i);
	if (fe->value_sym)
		sb_printf(&x->code, s->type == T_STRING ? "\tstp_strcpy(%s, _e->s);\n" :
			  "\t%s = _e->v;\n", bx_local(x, fe->value_sym));
	bx_callback_body(x, n->body, outer);
}

/* A foreach's limit as the runtime takes it: -1 for none; a limit of 0
 * or less runs the body no times (SystemTap's PR24811), so 0. */
const char *bx_limit(struct bx *x, const struct foreach *fe)
{
	if (!fe->limit)
		return "-1";
	return ar_printf("({ int64_t _l = %s; _l < 0 ? 0 : _l; })", bx_long(x, fe->limit));
}

void bx_kern_sorted_foreach(struct bx *x, struct node *n)
{
	static int counter;
	struct foreach *fe = n->fe;
	const struct symbol *s = fe->array->ref;
	int g = bx_global_index(x, s), id = counter++, cap, size, over;

	size = slots(x, s);
	cap = capacity(fe, size);
	buffer(x, fe, s, id, g, cap, size);
	over = bx_error_site(x, &n->loc, ar_printf("a sorted foreach in a kernel probe holds at "
						   "most %d elements of '%s' (give it a limit of "
						   "at most %d, or sort in an end probe)",
						   cap, s->name, cap));
	sb_printf(&x->code, "{ u32 _z%d = 0; struct srt%d *_b%d = bpf_map_lookup_elem(&m_srt%d, "
		  "&_z%d);\n", id, id, id, id, id);
	sb_printf(&x->code, "if (_b%d) { int64_t _lim%d = %s, _cnt%d;\n_b%d->n = _b%d->over = 0;\n"
		  "bpf_for_each_map_elem(%s, srt%d_add, &_b%d, 0);\n"
		  "if (_b%d->over && (_lim%d < 0 || _lim%d > %d)) stp_error(stp_k, %d);\n"
		  "_cnt%d = _lim%d >= 0 && _lim%d < _b%d->n ? _lim%d : _b%d->n;\n"
		  "if (!stp_k->err && _cnt%d > 0) { struct stp_cb _cb%d = { c, stp_k }; "
		  "bpf_loop(_cnt%d, srtb%d, &_cb%d, 0); } } }\n",
		  id, id, bx_limit(x, fe), id, id, id,
		  bx_mapref(x, s), id, id, id, id, id, cap, over,
		  id, id, id, id, id, id, id, id, id, id, id);
	body_callback(x, n, s, id, size);
}

void bx_sorted_decls(struct sbuf *o)
{
	if (decls.s)
		sb_puts(o, decls.s);
	free(decls.s);	/* a later script (stp -i) starts afresh */
	memset(&decls, 0, sizeof(decls));
}
