/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Per-input memory for the fuzz targets: see fuzz_alloc.c. */
#ifndef STP_FUZZ_ALLOC_H
#define STP_FUZZ_ALLOC_H

#include <stddef.h>

void fuzz_alloc_init(void);
/* Everything heap-allocated between these two calls is freed by the
 * second one. */
void fuzz_iter_begin(void);
void fuzz_iter_end(void);
size_t fuzz_untracked(void);

/* fuzz_diag.c: forget the errors counted so far (and the cap). */
void fuzz_diag_reset(void);

#endif
