// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The per-CPU trace files.  Every record carries a global sequence
 * number that the module takes only for records it stored, so the
 * numbers have no gaps: records are written strictly in order, each
 * waiting until its predecessor has arrived from whichever CPU wrote
 * it.  A predecessor that stays missing for STALL_ROUNDS rounds (it
 * cannot, unless the module is broken) is given up on, so that output
 * never stalls for good; the records given up on are counted and
 * reported when the output is drained at the end.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "stprun.h"

#define STALL_ROUNDS	40	/* rounds of up to ~50 ms each */

struct cpu_buf {
	int fd;
	char *buf;
	size_t off, len, cap;	/* unread bytes are [off, len) */
};

struct traces {
	struct cpu_buf *cpu;
	int n;
	uint32_t next;		/* the sequence number to write next */
	int stalled;		/* rounds without progress */
	uint64_t lost;		/* numbers given up on, never seen */
};

struct traces *traces_open(const char *dir)
{
	struct traces *t = calloc(1, sizeof(*t));
	char path[4096];
	struct dirent *e;
	DIR *d;
	int fd;

	if (!t || !(d = opendir(dir)))
		goto fail;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "trace", 5))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0) {
			warnx_("cannot open %s: %s", path, strerror(errno));
			closedir(d);
			goto fail;
		}
		t->cpu = realloc(t->cpu, (t->n + 1) * sizeof(*t->cpu));
		if (!t->cpu)
			abort();
		memset(&t->cpu[t->n], 0, sizeof(t->cpu[0]));
		t->cpu[t->n++].fd = fd;
	}
	closedir(d);
	if (t->n)
		return t;
	warnx_("no trace files in %s", dir);
fail:
	free(t);
	return NULL;
}

/* Read what the file has; 1 if anything came, -1 on error. */
static int fill(struct cpu_buf *c)
{
	int got = 0;
	ssize_t r;

	for (;;) {
		if (c->off) {
			memmove(c->buf, c->buf + c->off, c->len - c->off);
			c->len -= c->off;
			c->off = 0;
		}
		if (c->cap - c->len < 65536) {
			c->cap = c->cap * 2 + 65536;
			c->buf = realloc(c->buf, c->cap);
			if (!c->buf)
				abort();
		}
		r = read(c->fd, c->buf + c->len, c->cap - c->len);
		if (r > 0) {
			c->len += r;
			got = 1;
			continue;
		}
		if (r == 0 || errno == EAGAIN)
			return got;
		if (errno != EINTR) {
			warnx_("reading output: %s", strerror(errno));
			return -1;
		}
	}
}

/* The head record of c, if it is whole. */
static int head(const struct cpu_buf *c, struct stp_rec_hdr *h)
{
	if (c->len - c->off < sizeof(*h))
		return 0;
	memcpy(h, c->buf + c->off, sizeof(*h));
	return c->len - c->off - sizeof(*h) >= h->len;
}

/*
 * Write the record numbered t->next, or with force the lowest numbered
 * one there is; 0 when there is none.
 */
static int write_one(struct traces *t, FILE *out, int force)
{
	struct stp_rec_hdr h, best_h = { 0, 0 };
	struct cpu_buf *best = NULL, *c;
	int i;

	for (i = 0; i < t->n; i++) {
		c = &t->cpu[i];
		if (!head(c, &h))
			continue;
		if (h.seq == t->next) {
			best = c;
			best_h = h;
			break;
		}
		if (force && (!best || (int32_t)(h.seq - best_h.seq) < 0)) {
			best = c;
			best_h = h;
		}
	}
	if (!best)
		return 0;
	usym_write(best->buf + best->off + sizeof(h), best_h.len, out);
	best->off += sizeof(h) + best_h.len;
	if ((int32_t)(best_h.seq - t->next) > 0)
		t->lost += best_h.seq - t->next;	/* a gap given up on */
	else if (best_h.seq != t->next && t->lost)
		t->lost--;	/* one given up on came late after all */
	if ((int32_t)(best_h.seq + 1 - t->next) > 0)
		t->next = best_h.seq + 1;
	return 1;
}

int traces_pump(struct traces *t, FILE *out, int drain)
{
	int i, got, wrote = 0, pending = 0, rc = 0;
	struct stp_rec_hdr h;

	if (!t->next)
		t->next = 1;	/* the module counts from 1 */
	do {
		got = 0;
		for (i = 0; i < t->n; i++) {
			int r = fill(&t->cpu[i]);

			if (r < 0)
				rc = -1;
			got |= r > 0;
		}
		while (write_one(t, out, 0))
			wrote = 1;
	} while (drain && got);
	for (i = 0; i < t->n; i++)
		pending |= head(&t->cpu[i], &h);
	if (wrote || !pending)
		t->stalled = 0;
	/* at the end, what waits behind a gap goes out too */
	if (pending && (drain || (!wrote && ++t->stalled >= STALL_ROUNDS)))
		while (write_one(t, out, 1))	/* give up on the gap */
			while (write_one(t, out, 0))
				;
	fflush(out);
	if (drain) {
		report_lost_records(t->lost);
		t->lost = 0;
	}
	return rc;
}

int traces_held(const struct traces *t)
{
	struct stp_rec_hdr h;

	for (int i = 0; i < t->n; i++)
		if (head(&t->cpu[i], &h))
			return 1;
	return 0;
}

uint32_t traces_next(const struct traces *t)
{
	return t->next ? t->next : 1;
}

void traces_resume(struct traces *t, uint32_t next)
{
	t->next = next;
}

void traces_close(struct traces *t)
{
	int i;

	if (!t)
		return;
	for (i = 0; i < t->n; i++) {
		close(t->cpu[i].fd);
		free(t->cpu[i].buf);
	}
	free(t->cpu);
	free(t);
}
