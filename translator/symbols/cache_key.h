/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Pass 4's shared part: where builds are cached and under which key
 * (cache_key.c), for the kmod and the BPF backends. */
#ifndef STP_CACHE_KEY_H
#define STP_CACHE_KEY_H

#include "../front/session.h"

/* STP_CACHE, else ~/.cache/stp (/tmp/.cache/stp without a home). */
const char *build_cache_root(void);
const char *build_kernel_dir(const struct session *s);
/* Directory holding runtime/: the build tree, or the installed copy. */
const char *build_runtime_parent(const struct session *s);
/* Append "path:hash;" of a file, or of every file under a directory
 * (sorted, 4 levels deep), to h. */
void build_hash_file(struct sbuf *h, const char *path);
void build_hash_dir(struct sbuf *h, const char *dir, int depth);
/* The cache directory for this script, options, tapsets, runtime, kernel. */
const char *build_cache_key(const struct session *s, const char *module);

#endif
