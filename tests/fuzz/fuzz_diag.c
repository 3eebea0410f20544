// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * parser/diag.c plus a reset, for the fuzz targets.
 *
 * diag.c counts errors for the whole process and, once the cap is
 * reached, stays "too many errors" for good: right for one stp run,
 * wrong for a fuzzer that runs millions of inputs in one process (a
 * global cap would be reached after a while and every later input would
 * stop at its first token; no cap at all lets a recursive macro that
 * reports an error per expansion run for 2^64 steps, which stp stops
 * after 20 errors).  So each input starts from zero, like one stp run.
 *
 * run.sh compiles this instead of parser/diag.c; FUZZ_DIAG_C names that
 * file (a copy of parser/ may be fuzzed instead).
 */
#ifndef FUZZ_DIAG_C
#define FUZZ_DIAG_C "../../parser/diag.c"
#endif
#include FUZZ_DIAG_C

void fuzz_diag_reset(void);

void fuzz_diag_reset(void)
{
	n_errors = 0;
	n_warnings = 0;
	capped = 0;
}
