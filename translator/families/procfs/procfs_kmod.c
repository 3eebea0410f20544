// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Pass 3 for procfs("PATH").read/.write: one entry per file in
 * stp_procfs_files[], with its read probe, its write probes, the size
 * of what a read gives and the file's mode; and stp_procfs_dirs[], the
 * directories the paths hold, each after its parent.  runtime/procfs.c
 * makes them under /proc/systemtap/MODULE/ when the probes are armed.
 * A hit passes the file's buffer (struct stp_procfs_data) in
 * CONTEXT->entry, which $value's functions use (procfs_points.c).
 */
#include "../../kmod/emit.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void em_procfs_entry(struct emit *m, int idx, const struct derived_probe *d)
{
	vec_push(&m->procfs, (void *)d);
	vec_push(&m->procfs_idx, (void *)(intptr_t)idx);
}

/* The bits probe d gives its file's mode. */
static int mode_bits(const struct derived_probe *d)
{
	int all = d->procfs.write ? 0222 : 0444;

	if (d->procfs.umask < 0)
		return d->procfs.write ? 0200 : 0400;
	return all & ~(int)d->procfs.umask;
}

/* The entry of the file of procfs probe `first`, from it on. */
static void file_entry(struct emit *m, int first, struct sbuf *writes, struct sbuf *files)
{
	const char *path = ((const struct derived_probe *)m->procfs.v[first])->procfs.path;
	const struct derived_probe *rd = NULL;
	int mode = 0, nw = 0, ridx = 0;

	sb_printf(writes, "static const struct stp_probe *const stp_pfw_%d[] = { ", first);
	for (int i = first; i < m->procfs.len; i++) {
		const struct derived_probe *d = m->procfs.v[i];
		int idx = (int)(intptr_t)m->procfs_idx.v[i];

		if (strcmp(d->procfs.path, path))
			continue;
		mode |= mode_bits(d);
		if (d->procfs.write) {
			sb_printf(writes, "&stp_probe_%d, ", idx);
			nw++;
		} else {
			rd = d;
			ridx = idx;
		}
	}
	sb_puts(writes, "NULL };\n");
	sb_printf(files, "\t{ .path = %s, .read = %s, .writes = stp_pfw_%d, .nwrites = %d, "
		  ".bufsize = %s, .mode = 0%o },\n", em_cstr_raw(path),
		  rd ? ar_printf("&stp_probe_%d", ridx) : "NULL", first, nw,
		  rd && rd->procfs.maxsize ? ar_printf("%lld", (long long)rd->procfs.maxsize) :
		  "STP_PROCFS_BUFSIZE", mode);
}

/* Whether probe i's file is one an earlier probe has. */
static int seen_file(struct emit *m, int i)
{
	const struct derived_probe *d = m->procfs.v[i];

	for (int k = 0; k < i; k++)
		if (!strcmp(((const struct derived_probe *)m->procfs.v[k])->procfs.path,
			    d->procfs.path))
			return 1;
	return 0;
}

/* Each directory of path ("a" and "a/b" of "a/b/c") not in dirs yet. */
static void add_dirs(struct vec *dirs, const char *path)
{
	for (const char *s = strchr(path, '/'); s; s = strchr(s + 1, '/')) {
		const char *dir = ar_strndup(path, (size_t)(s - path));
		int have = 0;

		for (int i = 0; i < dirs->len && !have; i++)
			have = !strcmp(dirs->v[i], dir);
		if (!have)
			vec_push(dirs, (void *)dir);
	}
}

void em_procfs_tables(struct emit *m, struct sbuf *o)
{
	struct sbuf writes = { 0 }, files = { 0 };
	struct vec dirs = { 0 };
	int nfiles = 0;

	for (int i = 0; i < m->procfs.len; i++) {
		if (seen_file(m, i))
			continue;
		file_entry(m, i, &writes, &files);
		add_dirs(&dirs, ((const struct derived_probe *)m->procfs.v[i])->procfs.path);
		nfiles++;
	}
	sb_printf(o, "%s", writes.s ? writes.s : "");
	em_array(o, "stp_procfs_file", "stp_procfs_files", &files, "STP_NPROCFS", nfiles);
	sb_puts(o, "static const char *const stp_procfs_dirs[] = {\n");
	for (int i = 0; i < dirs.len; i++)
		sb_printf(o, "\t%s,\n", em_cstr_raw(dirs.v[i]));
	sb_printf(o, "\tNULL,\n};\n#define STP_NPROCFS_DIRS %d\n\n", dirs.len);
	free(writes.s);
	free(dirs.v);
	free(m->procfs.v);
	free(m->procfs_idx.v);
}
