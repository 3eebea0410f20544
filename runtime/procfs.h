/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * procfs("PATH").read/.write probes (procfs.c): the files the generated
 * code lists (translator/families/procfs/procfs_kmod.c), and the buffer a hit's $value
 * reads or fills (translator/families/procfs/procfs_points.c).
 */
#ifndef STP_PROCFS_H
#define STP_PROCFS_H

#include <linux/proc_fs.h>

/* What a reader gets when the read probe has no .maxsize(N). */
#ifndef STP_PROCFS_BUFSIZE
#define STP_PROCFS_BUFSIZE MAXSTRINGLEN
#endif

/* A hit's $value: CONTEXT->entry. */
struct stp_procfs_data {
	char *buf;		/* NUL-terminated */
	size_t size;		/* bytes buf holds, its NUL included */
	size_t len;		/* strlen(buf) */
};

struct stp_procfs_file {
	const char *path;		/* "a/x" in /proc/systemtap/MODULE */
	const struct stp_probe *read;	/* or NULL */
	const struct stp_probe *const *writes;
	int nwrites;
	size_t bufsize;			/* what a read gives, with a NUL */
	umode_t mode;
};

/*
 * $value = s (append 0) or $value .= s (append 1): 0, or when s does
 * not fit (it is cut), the .maxsize() that would hold it.
 */
static inline long stp_procfs_put(void *entry, const char *s, int append)
{
	struct stp_procfs_data *d = entry;
	size_t have = append ? d->len : 0, n = strlen(s);

	if (have + n < d->size) {
		memcpy(d->buf + have, s, n + 1);
		d->len = have + n;
		return 0;
	}
	memcpy(d->buf + have, s, d->size - 1 - have);
	d->len = d->size - 1;
	d->buf[d->len] = '\0';
	return (long)(have + n + 1);
}

#endif
