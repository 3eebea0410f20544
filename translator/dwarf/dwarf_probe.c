// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe points found in DWARF: the functions a pattern
 * "name[@file[:line|:N-M|:*|+N]]" names, where each one's body starts
 * (after the prologue, so that the parameters are where its DWARF says
 * they are), the copies the compiler inlined, and the addresses of
 * source lines (.statement).
 */
#include "dw.h"
#include "../elab/elab.h"

#include <fnmatch.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

int dw_parse_pattern(const char *pattern, struct dw_pattern *p)
{
	const char *at = strchr(pattern, '@'), *colon, *plus;

	memset(p, 0, sizeof(*p));
	p->line_lo = p->line_hi = -1;
	if (!at) {
		p->name = pattern;
		return strpbrk(pattern, ":+") ? 0 : 1;
	}
	p->name = ar_strndup(pattern, (size_t)(at - pattern));
	colon = strchr(at + 1, ':');
	plus = strchr(at + 1, '+');
	if (colon && plus)
		return 0;
	if (!colon && !plus) {
		p->file = at + 1;
		return *p->file != '\0';
	}
	if (!colon)
		colon = plus;
	p->file = ar_strndup(at + 1, (size_t)(colon - at - 1));
	p->relative = *colon == '+';
	if (!strcmp(colon + 1, "*")) {
		p->all_lines = 1;
		return *p->file != '\0' && !p->relative;
	}
	{
		char *end;
		long lo = strtol(colon + 1, &end, 10), hi = lo;

		if (end == colon + 1 || lo < 0)
			return 0;
		if (*end == '-') {
			const char *h = end + 1;

			hi = strtol(h, &end, 10);
			if (end == h || hi < lo || p->relative)
				return 0;
		}
		if (*end)
			return 0;
		p->line_lo = (int)lo;
		p->line_hi = (int)hi;
	}
	return *p->file != '\0';
}

static int cu_of(struct dwarf_file *f, uint64_t die_off, Dwarf_Die *cu)
{
	Dwarf_Die die;

	return dw_die(f, die_off, &die) && dwarf_diecu(&die, cu, NULL, NULL);
}

/* Line rows of fn's CU inside [lo, hi), in address order. */
static Dwarf_Lines *cu_lines(struct dwarf_file *f, uint64_t die_off, size_t *n)
{
	Dwarf_Die cu;
	Dwarf_Lines *lines;

	if (!cu_of(f, die_off, &cu) || dwarf_getsrclines(&cu, &lines, n))
		return NULL;
	return lines;
}

/*
 * Where a function's body starts: the first row the compiler marked
 * prologue_end, else the first statement row past the entry whose line
 * is not the function's own declaration line (GCC starts the body's
 * first line there), else the entry itself.
 */
/*
 * Optimized code describes its parameters with location lists, valid
 * from the first instruction: the probe goes on the entry, where the
 * arguments are all still in their registers (SystemTap's
 * --prologue-searching=auto).  Code built without optimization keeps
 * them in the frame, which the prologue sets up first.
 */
static int has_location_lists(struct dwarf_file *f, const struct dw_entry *e)
{
	Dwarf_Die fn, child;

	if (!dw_die(f, e->die, &fn) || dwarf_child(&fn, &child) != 0)
		return 1;
	do {
		Dwarf_Attribute a;
		int tag = dwarf_tag(&child);

		if ((tag == DW_TAG_formal_parameter || tag == DW_TAG_variable) &&
		    dwarf_attr(&child, DW_AT_location, &a) &&
		    (dwarf_whatform(&a) == DW_FORM_sec_offset ||
		     dwarf_whatform(&a) == DW_FORM_loclistx))
			return 1;
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

int dw_prologue_searching;

uint64_t dw_prologue_end(struct dwarf_file *f, const struct dw_entry *e)
{
	size_t n;
	Dwarf_Lines *lines;
	uint64_t best = 0;

	if (e->highpc <= e->lowpc || dw_prologue_searching < 0 ||
	    (!dw_prologue_searching && has_location_lists(f, e)))
		return e->lowpc;
	lines = cu_lines(f, e->die, &n);
	if (!lines)
		return e->lowpc;
	for (size_t i = 0; i < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Addr a;
		bool pe = false, stmt = false;
		int line = 0;

		if (dwarf_lineaddr(l, &a) || a <= e->lowpc || a >= e->highpc)
			continue;
		dwarf_lineprologueend(l, &pe);
		if (pe)
			return a;
		dwarf_linebeginstatement(l, &stmt);
		dwarf_lineno(l, &line);
		if (stmt && line != e->line && (!best || a < best))
			best = a;
	}
	return best ? best : e->lowpc;
}

static int ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), k = strlen(tail);

	return n >= k && !strcmp(s + n - k, tail);
}

struct line_addr {
	int line;
	uint64_t addr;
};

static int cmp_line_addr(const void *pa, const void *pb)
{
	const struct line_addr *a = pa, *b = pb;

	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* Where a copy's code is: [lowpc, highpc) of an out-of-line function,
 * an inlined copy's ranges; the number of them (at most max). */
static int code_ranges(struct dwarf_file *f, const struct dw_entry *e, uint64_t (*r)[2],
		       int max)
{
	Dwarf_Die die;
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;
	int n = 0;

	if (e->kind == DWK_FUNC) {
		r[0][0] = e->lowpc;
		r[0][1] = e->highpc;
		return 1;
	}
	if (!dw_die(f, e->die, &die))
		return 0;
	while (n < max && (off = dwarf_ranges(&die, off, &base, &lo, &hi)) > 0) {
		r[n][0] = lo;
		r[n++][1] = hi;
	}
	return n;
}

static int in_ranges(uint64_t (*r)[2], int n, uint64_t a)
{
	for (int i = 0; i < n; i++)
		if (a >= r[i][0] && a < r[i][1])
			return 1;
	return 0;
}

/*
 * The line after e's last: the next function declared in e's file (in
 * e's CU), else none.  An inlined copy's code holds rows of its caller's
 * lines too (where the call is), which are no lines of e.
 */
static int next_decl_line(struct dwarf_file *f, const struct dw_entry *e)
{
	Dwarf_Die cu, child;
	int next = INT_MAX;

	if (!cu_of(f, e->die, &cu) || dwarf_child(&cu, &child) != 0)
		return next;
	do {
		int line;
		const char *file;

		/* declarations too are subprograms: __compiletime_assert_N
		 * is declared inside the body whose BUILD_BUG_ON made it */
		if (dwarf_tag(&child) != DW_TAG_subprogram ||
		    dwarf_hasattr(&child, DW_AT_declaration) || dwarf_decl_line(&child, &line) ||
		    line <= e->line || line >= next)
			continue;
		file = dwarf_decl_file(&child);
		if (file && ends_with(file, e->file))
			next = line;
	} while (dwarf_siblingof(&child, &child) == 0);
	return next;
}

/*
 * The lowest address of each line of [lo, hi] in e's code, into out
 * (pairs: line, address), by line: one pass over the CU's rows.
 * Every row counts, is_stmt or not, as in SystemTap: a row's address
 * is an instruction's first byte, where a kprobe can go, and GCC marks
 * no is_stmt row on a line like "if (!(file->f_mode & FMODE_READ))"
 * whose code starts mid-expression (6 of vfs_read's 21 lines in 6.1).
 */
static void line_addrs(struct dwarf_file *f, const struct dw_entry *e, int lo, int hi,
		       struct vec *out)
{
	size_t n, k = 0;
	Dwarf_Lines *lines = cu_lines(f, e->die, &n);
	struct line_addr *found;
	uint64_t r[16][2];
	int nr = code_ranges(f, e, r, 16);

	if (!lines || !e->file || !nr)
		return;
	found = xmalloc((n + 1) * sizeof(*found));
	for (size_t i = 0; i < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Addr a;
		int line = 0;
		const char *src = dwarf_linesrc(l, NULL, NULL);

		if (dwarf_lineaddr(l, &a) || !in_ranges(r, nr, a))
			continue;
		dwarf_lineno(l, &line);
		/* a line of an inlined header is no line of this file */
		if (line < lo || line > hi || !src || !ends_with(src, e->file))
			continue;
		found[k].line = line;
		found[k++].addr = a;
	}
	qsort(found, k, sizeof(*found), cmp_line_addr);
	for (size_t i = 0; i < k; i++)
		if (!i || found[i].line != found[i - 1].line) {
			vec_push(out, (void *)(intptr_t)found[i].line);
			vec_push(out, (void *)(uintptr_t)found[i].addr);
		}
	free(found);
}

int dw_cmp_point(const void *pa, const void *pb)
{
	const struct dw_point *a = *(const struct dw_point *const *)pa;
	const struct dw_point *b = *(const struct dw_point *const *)pb;
	int c = strcmp(a->fn->name, b->fn->name);

	if (c)
		return c;
	return a->pc < b->pc ? -1 : a->pc > b->pc;
}

/* Statements in source order, as SystemTap lists them. */
static int cmp_statement(const void *pa, const void *pb)
{
	const struct dw_point *a = *(const struct dw_point *const *)pa;
	const struct dw_point *b = *(const struct dw_point *const *)pb;
	int c = strcmp(a->fn->name, b->fn->name);

	if (c)
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return a->pc < b->pc ? -1 : a->pc > b->pc;
}

/* The points of .statement(p) in e, a function or an inlined copy: a
 * line's lowest address there, one point per address (the lowest line
 * at it). */
static void statement_points(struct dwarf_file *f, const struct dw_entry *e,
			     const struct dw_pattern *p, struct pmap *seen_pc, struct vec *out)
{
	struct vec la = { 0 };
	/* an inlined copy's first row is on the declaration line: where
	 * the call starts, not a line of the body */
	int first = e->line + (e->kind == DWK_INSTANCE), next = INT_MAX;
	int lo = p->all_lines ? first : p->line_lo + (p->relative ? e->line : 0);
	int hi = p->all_lines ? INT_MAX : p->line_hi + (p->relative ? e->line : 0);

	if (lo < first)
		lo = first;
	if (lo > hi)
		return;
	line_addrs(f, e, lo, hi, &la);
	/* only a function with rows there pays for its last line */
	if (la.len)
		next = next_decl_line(f, e);
	for (int k = 0; k + 1 < la.len; k += 2) {
		struct dw_point *pt;
		uint64_t pc = (uint64_t)(uintptr_t)la.v[k + 1];

		if ((int)(intptr_t)la.v[k] >= next || pmap_get(seen_pc, (void *)(uintptr_t)pc))
			continue;
		pt = ar_alloc(sizeof(*pt));
		pmap_put(seen_pc, (void *)(uintptr_t)pc, pt);
		pt->fn = e;
		pt->die = e->die;
		pt->pc = pc;
		pt->entry_pc = e->lowpc;
		pt->line = (int)(intptr_t)la.v[k];
		pt->inlined = e->kind == DWK_INSTANCE;
		vec_push(out, pt);
	}
	free(la.v);
}

/* The point of .function(p) at e, or NULL (no code, or not wanted by
 * flags). */
static struct dw_point *function_point(struct dwarf_file *f, const struct dw_entry *e,
				       int flags)
{
	struct dw_point *pt;

	if (e->kind == DWK_FUNC && !(flags & DWP_NO_CALL)) {
		pt = ar_alloc(sizeof(*pt));
		pt->entry_pc = e->lowpc;
		pt->pc = (flags & DWP_AT_ENTRY) ? e->lowpc : dw_prologue_end(f, e);
	} else if (e->kind == DWK_INSTANCE && !(flags & DWP_NO_INLINE)) {
		pt = ar_alloc(sizeof(*pt));
		pt->pc = pt->entry_pc = e->lowpc;
		pt->inlined = 1;
	} else {
		return NULL;
	}
	pt->fn = e;
	pt->die = e->die;
	pt->line = e->line;
	return pt;
}

void dw_points(struct dwarf_file *f, const struct dw_pattern *p, int flags,
		  struct vec *out)
{
	struct vec found = { 0 };
	int first = out->len;
	struct pmap seen_pc = { 0 };

	dw_match(f, p->name, p->file, &found);
	for (int i = 0; i < found.len; i++) {
		const struct dw_entry *e = found.v[i];
		int lo = p->line_lo + (p->relative ? e->line : 0);
		int hi = p->line_hi + (p->relative ? e->line : 0);
		struct dw_point *pt;

		if (flags & DWP_STATEMENT) {
			/* the out-of-line copy and each inlined one */
			if (e->kind == DWK_FUNC || e->kind == DWK_INSTANCE)
				statement_points(f, e, p, &seen_pc, out);
			continue;
		}
		/* .function("f@file:N"): functions declared on those lines */
		if (p->line_lo >= 0 && (e->line < lo || e->line > hi))
			continue;
		pt = function_point(f, e, flags);
		if (pt)
			vec_push(out, pt);
	}
	free(found.v);
	free(seen_pc.keys);
	free(seen_pc.vals);
	if (out->len - first > 1)
		qsort(out->v + first, (size_t)(out->len - first), sizeof(void *),
		      (flags & DWP_STATEMENT) ? cmp_statement : dw_cmp_point);
}

const char *dw_point_text(const struct dw_point *pt, int statement)
{
	const char *file = pt->fn->file ? pt->fn->file : "?";

	if (!strncmp(file, "./", 2))
		file += 2;
	return ar_printf("%s@%s:%d", pt->fn->name, file, statement ? pt->line : pt->fn->line);
}

void dw_point_place(struct derived_probe *d, const struct dw_point *pt)
{
	d->die = pt->die;
	d->pc = pt->pc;
	d->entry_pc = pt->entry_pc;
	d->inlined = pt->inlined;
}
