// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * parser/diag.c with per-input state, for the fuzz targets.
 *
 * diag.c keeps state for the whole process, which is right for one stp
 * run and wrong for a fuzzer that runs millions of inputs in one:
 *
 *  - the error count and the cap: once reached, every later input would
 *    stop at its first token; with no cap at all, a script that reports
 *    an error per step of an exponential expansion runs for ever, where
 *    stp stops after 20 errors.  So each input starts from zero, like
 *    one stp run, with a cap set by fuzz_parse.c.
 *
 *  - the set of messages already reported (seen_before(): a static pmap
 *    of interned "source-pointer:line:col:label:message" keys).  Its
 *    tables would be reclaimed with the input that created them, the
 *    interned keys would pile up for ever, and a later input whose
 *    source happens to get the same address would have its errors
 *    silently dropped as "seen".  So diag.c's pmap_get, pmap_put and
 *    intern are redirected to a set that lives for one input.
 *
 * run.sh compiles this instead of parser/diag.c; FUZZ_DIAG_C names that
 * file (a copy of parser/ may be fuzzed instead).
 */
#include <stddef.h>

#define pmap_get fuzz_seen_get
#define pmap_put fuzz_seen_put
#define intern fuzz_seen_intern

#ifndef FUZZ_DIAG_C
#define FUZZ_DIAG_C "../../parser/diag.c"
#endif
#include FUZZ_DIAG_C

#undef pmap_get
#undef pmap_put
#undef intern

#include "fuzz_alloc.h"

/* ---- the per-input "seen" set: keys compared by contents ---- */

static const char **seen_keys;
static void **seen_vals;
static size_t seen_cap, seen_len;

static size_t seen_hash(const char *s)
{
	size_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static size_t seen_slot(const char *key)
{
	size_t j = seen_hash(key) & (seen_cap - 1);

	while (seen_keys[j] && strcmp(seen_keys[j], key))
		j = (j + 1) & (seen_cap - 1);
	return j;
}

const char *fuzz_seen_intern(const char *s, size_t n)
{
	return ar_strndup(s, n);	/* reclaimed with the input */
}

void *fuzz_seen_get(const struct pmap *m, const void *key)
{
	(void)m;
	if (!seen_cap)
		return NULL;
	return seen_vals[seen_slot(key)];
}

void fuzz_seen_put(struct pmap *m, const void *key, void *val)
{
	size_t j;

	(void)m;
	if (2 * (seen_len + 1) > seen_cap) {
		const char **ok = seen_keys;
		void **ov = seen_vals;
		size_t ocap = seen_cap;

		seen_cap = ocap ? ocap * 2 : 64;
		seen_keys = xcalloc(seen_cap, sizeof(*seen_keys));
		seen_vals = xcalloc(seen_cap, sizeof(*seen_vals));
		for (size_t i = 0; i < ocap; i++)
			if (ok[i]) {
				j = seen_slot(ok[i]);
				seen_keys[j] = ok[i];
				seen_vals[j] = ov[i];
			}
		free(ok);
		free(ov);
	}
	j = seen_slot(key);
	if (!seen_keys[j])
		seen_len++;
	seen_keys[j] = key;
	seen_vals[j] = val;
}

void fuzz_diag_reset(void)
{
	n_errors = 0;
	n_warnings = 0;
	capped = 0;
	seen_keys = NULL;	/* the old set went with its input */
	seen_vals = NULL;
	seen_cap = seen_len = 0;
}
