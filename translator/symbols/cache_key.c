// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What both backends' pass 4 share: the cache key of a script's build
 * (a hash of everything that goes into it: stp itself, the script, its
 * options, tapsets, runtime and the kernel's configuration), where the
 * runtime and the kernel's build tree are.  kmod/build.c keys modules
 * with it, bpf/build.c objects.
 */
#include "cache_key.h"

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *build_cache_root(void)
{
	const char *c = getenv("STP_CACHE");
	const char *home = getenv("HOME");

	if (c && *c)
		return c;
	return ar_printf("%s/.cache/stp", home && *home ? home : "/tmp");
}

const char *build_kernel_dir(const struct session *s)
{
	return ar_printf("%s/lib/modules/%s/build", s->sysroot ? s->sysroot : "",
			 s->kernel_release);
}

/* Directory holding runtime/: the build tree, or the installed copy. */
const char *build_runtime_parent(const struct session *s)
{
	const char *t = s->tapset_root;
	const char *slash = t ? strrchr(t, '/') : NULL;

	if (getenv("STP_RUNTIME_PARENT"))
		return getenv("STP_RUNTIME_PARENT");
	if (slash)
		return ar_printf("%.*s", (int)(slash - t), t);
	return ".";
}

void build_hash_file(struct sbuf *h, const char *path)
{
	size_t n;
	char *data = util_read_file(path, &n);

	if (!data)
		return;
	sb_printf(h, "%s:%zx;", path, util_hash(data, n));
	free(data);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void build_hash_dir(struct sbuf *h, const char *dir, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct vec names = { 0 };

	if (!d)
		return;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			vec_push(&names, ar_printf("%s/%s", dir, de->d_name));
	closedir(d);
	if (names.len)
		qsort(names.v, names.len, sizeof(void *), cmp_str);
	for (int i = 0; i < names.len; i++) {
		struct stat st;

		if (stat(names.v[i], &st))
			continue;
		if (S_ISDIR(st.st_mode) && depth < 4)
			build_hash_dir(h, names.v[i], depth + 1);
		else if (S_ISREG(st.st_mode))
			build_hash_file(h, names.v[i]);
	}
	free(names.v);
}

const char *build_cache_key(const struct session *s, const char *module)
{
	struct sbuf h = { 0 };
	const char *parent = build_runtime_parent(s);
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	struct stat st;
	size_t key;

	if (n > 0) {
		exe[n] = '\0';
		if (!stat(exe, &st))
			sb_printf(&h, "exe:%ld.%ld:%ld;", (long)st.st_mtim.tv_sec,
				  (long)st.st_mtim.tv_nsec, (long)st.st_size);
	}
	if (s->script_file)
		build_hash_file(&h, s->script_file);
	for (int i = 0; i < s->user_files.len; i++)	/* uprobes' offsets */
		build_hash_file(&h, s->user_files.v[i]);
	if (s->script_text)
		sb_printf(&h, "e:%zx;", util_hash(s->script_text, strlen(s->script_text)));
	for (int i = 0; i < s->argc; i++)
		sb_printf(&h, "arg:%s;", s->argv[i]);
	for (int i = 0; i < s->defines.len; i++)
		sb_printf(&h, "D:%s;", (const char *)s->defines.v[i]);
	for (int i = 0; i < s->include_dirs.len; i++)
		build_hash_dir(&h, s->include_dirs.v[i], 0);
	/* -T adds a probe (pass1_timeout_probe) */
	sb_printf(&h, "g:%d;u:%d;T:%ld;m:%s;r:%s;", s->guru, s->unoptimized, s->timeout_ms,
		  module, s->kernel_release);
	if (s->tapset_root)
		build_hash_dir(&h, s->tapset_root, 0);
	build_hash_dir(&h, ar_printf("%s/runtime", parent), 0);
	build_hash_file(&h, ar_printf("%s/.config", build_kernel_dir(s)));
	key = util_hash(h.s ? h.s : "", h.len);
	/* a second, differently seeded hash makes collisions unlikely */
	sb_puts(&h, "#");
	key ^= util_hash(h.s, h.len) << 1;
	free(h.s);
	return ar_printf("%s/modules/%016zx", build_cache_root(), key);
}
