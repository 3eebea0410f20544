// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The runner's output: printf records from the ring buffer formatted
 * by their format id (runtime/format.c, built for the host), errors by
 * their site's message, the end-of-run warnings, and the context
 * functions user-space probes call.
 */
#include "run.h"

#include <bpf/libbpf.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

/* runtime/format.h's, whose map.h names clash with user.h's map
 * operations (stp_stat_add): ORDER: as union stp_val in runtime/map.h */
union stp_val {
	int64_t l;
	const char *s;
};
int stp_format(char *dst, size_t size, const char *fmt,
	       const union stp_val *args, int nargs, const char **err);

int stp_u_errors;
static int map_full;	/* insertions refused at MAXMAPENTRIES */

/* One format's arguments from a record: longs and strings in order. */
static void print_args(unsigned id, const char *p, const char *end)
{
	const struct stp_u_fmt *f = &stp_prog.fmts[id];
	union stp_val args[32];
	int n = 0;

	for (const char *t = f->types; *t && n < 32; t++, n++) {
		if (*t == 's') {
			if (p + stp_prog.strlen > end)
				return;
			args[n].s = p;
			p += stp_prog.strlen;
		} else {
			if (p + 8 > end)
				return;
			memcpy(&args[n].l, p, 8);
			p += 8;
		}
	}
	stp_u_format(f->fmt, args, n);
}

void stp_u_format(const char *fmt, const union stp_val *args, int n)
{
	char buf[8192];
	const char *err = NULL;
	int len = stp_format(buf, sizeof(buf), fmt, args, n, &err);

	if (len < 0) {
		fprintf(stderr, "ERROR: %s\n", err ? err : "bad format");
		return;
	}
	stp_u_symwrite(buf, (size_t)len < sizeof(buf) ? (size_t)len : sizeof(buf) - 1, stdout);
}

/* Format id's arguments, in its order, from the longs and the strings
 * the user side passes apart; their number. */
static int gather_args(const struct stp_u_fmt *f, const int64_t *longs,
		       const char *const *strs, union stp_val args[32])
{
	int n = 0, nl = 0, ns = 0;

	for (const char *t = f->types; *t && n < 32; t++, n++) {
		if (*t == 's')
			args[n].s = strs[ns++];
		else
			args[n].l = longs[nl++];
	}
	return n;
}

void stp_printf(unsigned id, const int64_t *longs, const char *const *strs)
{
	const struct stp_u_fmt *f = &stp_prog.fmts[id];
	union stp_val args[32];
	int n = gather_args(f, longs, strs, args);

	stp_u_format(f->fmt, args, n);
}

void stp_sprintf(char *dst, unsigned id, const int64_t *longs, const char *const *strs)
{
	const struct stp_u_fmt *f = &stp_prog.fmts[id];
	union stp_val args[32];
	int n = gather_args(f, longs, strs, args);

	if (stp_format(dst, stp_prog.strlen, f->fmt, args, n, NULL) < 0)
		dst[0] = 0;
}

int stp_k_stopped(void)
{
	return stp_u_errors > 0 || stp_u_stop;
}

int64_t stp_u_strlen(const char *s)
{
	return (int64_t)strlen(s);
}

void stp_u_substr(char *dst, const char *s, int64_t start, int64_t len)
{
	int64_t n = (int64_t)strlen(s);

	if (start < 0 || start >= n || len <= 0) {
		dst[0] = 0;
		return;
	}
	if (len > n - start)
		len = n - start;
	if (len > stp_prog.strlen - 1)
		len = stp_prog.strlen - 1;
	memmove(dst, s + start, len);
	dst[len] = 0;
}

int64_t stp_u_isinstr(const char *a, const char *b)
{
	return strstr(a, b) != NULL;
}

void stp_error(struct stp_kctx *k, unsigned id)
{
	if (k && k->in_try) {
		snprintf(k->msg, sizeof(k->msg), "%s", stp_prog.whats[id]);
		k->err = 1;
		return;
	}
	fflush(stdout);
	fprintf(stderr, "ERROR: %s\n", stp_prog.errors[id]);
	stp_u_errors++;
	if (!strncmp(stp_prog.errors[id], "Array overflow", 14))
		map_full++;
	stp_u_stop = 1;
	if (k)
		k->err = 1;
}

/* error(msg): "msg (probe PP)", errors[id] holding "(probe PP)" */
void stp_error_msg(struct stp_kctx *k, unsigned id, const char *msg)
{
	if (k && k->in_try) {
		snprintf(k->msg, sizeof(k->msg), "%s", msg);
		k->err = 1;
		return;
	}
	fflush(stdout);
	fprintf(stderr, "ERROR: %s %s\n", msg, stp_prog.errors[id]);
	stp_u_errors++;
	stp_u_stop = 1;
	if (k)
		k->err = 1;
}

void stp_exit(void)
{
	stp_u_stop = 1;
}

void stp_u_record(const void *data, size_t size)
{
	const struct stp_rec *r = data;

	if (size < sizeof(*r))
		return;
	switch (r->kind) {
	case STP_REC_PRINT:
		print_args(r->id, (const char *)(r + 1), (const char *)data + size);
		break;
	case STP_REC_ERROR_MSG:
		if (!stp_u_errors && size >= sizeof(*r) + (size_t)stp_prog.strlen)
			stp_error_msg(NULL, r->id, (const char *)(r + 1));
		break;
	case STP_REC_EXIT:
		stp_u_stop = 1;
		break;
	case STP_REC_HIST:
		if (size >= sizeof(struct stp_hist_rec))
			stp_u_hist_rec(&((const struct stp_hist_rec *)data)->b,
				       stp_prog.fmts[r->id].types);
		break;
	case STP_REC_ERROR:
		if (!stp_u_errors)
			stp_error(NULL, r->id);
		break;
	}
}

/* ORDER: the head of struct stp_globals (translator/bpf/gen.c) */
struct stp_globals_head {
	long long stp_lost;
	long long stp_wall_off;
	int stp_stopping;
	unsigned stp_ncpus;
	long long stp_reentered;
	long long stp_target;
};

void stp_u_report(void)
{
	const struct stp_globals_head *h = stp_gp;

	if (h && h->stp_lost)
		fprintf(stderr, "WARNING: %lld records lost (ring buffer full)\n", h->stp_lost);
	if (stp_u_errors)
		fprintf(stderr, "WARNING: Number of errors: %d, skipped probes: 0\n", stp_u_errors);
	if (h && h->stp_reentered)
		fprintf(stderr, "WARNING: %lld probes skipped (reentrant hit)\n", h->stp_reentered);
	if (map_full)
		fprintf(stderr, "WARNING: %d map insertions failed (map full at MAXMAPENTRIES); "
			"raise with -D MAXMAPENTRIES=N\n", map_full);
}

void stp_u_set_target(long long pid)
{
	((struct stp_globals_head *)stp_gp)->stp_target = pid;
}

void stp_u_stopping(void)
{
	((struct stp_globals_head *)stp_gp)->stp_stopping = 1;
}

/* gettimeofday_ns() in BPF: boot time plus this offset to the wall clock. */
void stp_u_time_init(void)
{
	struct stp_globals_head *h = stp_gp;
	struct timespec b, r;

	clock_gettime(CLOCK_BOOTTIME, &b);
	clock_gettime(CLOCK_REALTIME, &r);
	h->stp_ncpus = libbpf_num_possible_cpus();
	h->stp_wall_off = (r.tv_sec - b.tv_sec) * 1000000000LL + (r.tv_nsec - b.tv_nsec);
}

void stp_strcpy(char *dst, const char *src)
{
	snprintf(dst, stp_prog.strlen, "%s", src);
}

void stp_strncpy(char *dst, const char *src, size_t n)
{
	snprintf(dst, n, "%s", src);
}

int stp_strcmp(const char *a, const char *b)
{
	int c = strcmp(a, b);

	return c < 0 ? -1 : c > 0;
}

void stp_concat(char *dst, const char *a, const char *b)
{
	char tmp[4096];

	snprintf(tmp, sizeof(tmp), "%s%s", a, b);
	snprintf(dst, stp_prog.strlen, "%s", tmp);
}

void stp_execname(char *dst)
{
	char comm[17] = "";

	prctl(PR_GET_NAME, comm);
	stp_strcpy(dst, comm);
}

int64_t stp_pid(void) { return getpid(); }
int64_t stp_tid(void) { return gettid(); }
int64_t stp_uid(void) { return getuid(); }
int64_t stp_gid(void) { return getgid(); }
int64_t stp_cpu(void) { return sched_getcpu(); }

int64_t stp_time_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* the clock bpf_ktime_get_ns() reads: CLOCK_MONOTONIC */
int64_t stp_ktime_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static char *vlog;
static size_t vlog_len;

void stp_u_log_append(const char *text)
{
	size_t n = strlen(text);
	char *p = realloc(vlog, vlog_len + n + 1);

	if (!p)
		return;
	vlog = p;
	memcpy(vlog + vlog_len, text, n + 1);
	vlog_len += n;
}

/* The script position of the last kernel-file line the log quotes
 * ("; TEXT @ prog.bpf.c:LINE"): the nearest marker at or before it. */
static const char *last_script_pos(void)
{
	const char *pos = NULL;

	for (char *p = vlog; p && (p = strstr(p, " @ prog.bpf.c:")); p += 3) {
		int line = atoi(p + 14);

		for (const struct stp_u_line *l = stp_prog.lines; l && l->pos; l++)
			if (l->line <= line)
				pos = l->pos;
	}
	return pos;
}

/* The last non-empty line before "processed N insns" or the log's end. */
static const char *reason(void)
{
	static char r[512];
	char *end = vlog ? strstr(vlog, "\nprocessed ") : NULL;
	char *start;

	if (!vlog)
		return "no log";
	if (!end) {
		/* no verdict line: libbpf's own "load failed: WHY" */
		start = strstr(vlog, "load failed: ");
		if (start) {
			snprintf(r, sizeof(r), "%.*s", (int)strcspn(start + 13, "\n"), start + 13);
			return r;
		}
		end = vlog + vlog_len;
	}
	while (end > vlog && (end[-1] == '\n' || end[-1] == ' '))
		end--;
	start = end;
	while (start > vlog && start[-1] != '\n')
		start--;
	snprintf(r, sizeof(r), "%.*s", (int)(end - start), start);
	return r;
}

/* FILE's line, and a caret under col. */
static void show_source_line(const char *file, int line, int col)
{
	FILE *f = fopen(file, "r");
	char buf[1024];
	int n = 0;

	if (!f)
		return;
	while (fgets(buf, sizeof(buf), f))
		if (++n == line) {
			fputs(buf, stderr);
			for (int i = 0; i < col - 1 && buf[i]; i++)
				fputc(buf[i] == '\t' ? '\t' : ' ', stderr);
			fputs("^\n", stderr);
			break;
		}
	fclose(f);
}

/* The verifier's refusal, at the script line its line info names; its
 * whole log with -v. */
void stp_u_verifier_error(struct bpf_object *obj, int rc)
{
	char file[512];
	int line, col;
	const char *pos = last_script_pos();
	const char *map = vlog ? strstr(vlog, "failed to create: ") : NULL;

	(void)obj;
	if (stp_u_core_error(vlog)) {	/* not the verifier: libbpf's CO-RE */
	} else if (map) {	/* not the verifier: a map the kernel would not make */
		const char *start = map;

		while (start > vlog && start[-1] != '\n')
			start--;
		if (!strncmp(start, "libbpf: ", 8))
			start += 8;
		fprintf(stderr, "ERROR: the kernel refused a BPF map: %.*s%s\n",
			(int)strcspn(start, "\n"), start, strstr(start, "stp_ctxmap") ?
			" (the probes' locals and string temporaries, per CPU: a smaller "
			"MAXSTRINGLEN makes it smaller)" : "");
	} else if (pos && sscanf(pos, "%511[^:]:%d:%d", file, &line, &col) == 3) {
		const char *why = reason();

		if (!strcmp(why, "Argument list too long") ||	/* E2BIG */
		    !strncmp(why, "BPF program is too large", 24))
			why = "the program is too large (the verifier checks at most a million "
			      "instructions; smaller loops or a lower MAXACTION make it smaller)";
		fprintf(stderr, "%s: error: the kernel's BPF verifier refused this: %s\n", pos, why);
		show_source_line(file, line, col);
	} else {
		fprintf(stderr, "ERROR: the kernel's BPF verifier refused the program (%s): %s\n",
			strerror(-rc), reason());
	}
	if (getenv("STP_BPF_VERBOSE"))
		fputs(vlog ? vlog : "", stderr);
}
