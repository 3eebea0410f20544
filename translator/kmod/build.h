/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Pass 4: kbuild, the feature tests, the module cache (build.c). */
#ifndef STP_BUILD_H
#define STP_BUILD_H

#include "../symbols/cache_key.h"

int build_cached(const char *key, const char *module);
/* Build csrc into KEY/MODULE.ko (and keep KEY/MODULE.c); 0 or -1. */
int build_module(const struct session *s, const char *module, const char *csrc,
		 size_t clen, const char *key);
int build_install(const char *key, const char *module, const char *dest);

/* Pass 5 (run.c): stprun here, or in a guest with --remote=qemu. */
int run_pass5(struct session *s, const char *ko);

/* After a script's embedded C in the generated file (emit.c's "#line"
 * to the script): write_generated() makes it a "#line" back. */
#define BUILD_LINE_BACK "#line 1 \"<stp generated>\"\n"

#endif
