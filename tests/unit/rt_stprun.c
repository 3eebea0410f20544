// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of stprun's merge of the per-CPU trace files
 * (staprun/trace.c): records come out in sequence order across the
 * files, and a number that never comes (a broken module) is given up on
 * at the end, its record counted and reported, never dropped without a
 * word; nor is what waits behind the gap.  And of the report at the end
 * (staprun/report.c): one line per counter that is not zero, with the
 * setting that raises its limit; quiet counters only with -v.
 */
#include <stdarg.h>
#include <sys/stat.h>
#include "unit.h"
#include "../../staprun/trace.c"
#include "../../staprun/report.c"

int stprun_verbose;

void warnx_(const char *fmt, ...)
{
	va_list ap;

	fputs("stprun: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void usym_write(const char *p, size_t n, FILE *out)
{
	fwrite(p, 1, n, out);
}

/* dir/name holding records "seq:text" for each (seq, text) given. */
static void trace_file(const char *dir, const char *name, int n, ...)
{
	char path[512];
	struct stp_rec_hdr h;
	const char *text;
	va_list ap;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		exit(2);
	va_start(ap, n);
	while (n--) {
		h.seq = va_arg(ap, int);
		text = va_arg(ap, const char *);
		h.len = strlen(text);
		fwrite(&h, sizeof(h), 1, f);
		fwrite(text, 1, h.len, f);
	}
	va_end(ap);
	fclose(f);
}

/* The whole output of a drain of dir's files; *err gets stderr. */
static char *drain(const char *dir, char **err)
{
	struct traces *t;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	unit_capture_begin();
	t = traces_open(dir);
	if (t)
		traces_pump(t, out, 1);
	traces_close(t);
	*err = unit_capture_end();
	fclose(out);
	return buf;
}

static char *tmpdir(void)
{
	static char d[64];

	snprintf(d, sizeof(d), "/tmp/rt_trace.XXXXXX");
	if (!mkdtemp(d))
		exit(2);
	return d;
}

static void rmdir_files(const char *d)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", d);
	if (system(cmd))
		exit(2);
}

TEST(trace_merges_cpus_in_order)
{
	char *d = tmpdir(), *err, *out;

	trace_file(d, "trace0", 2, 1, "a\n", 3, "c\n");
	trace_file(d, "trace1", 2, 2, "b\n", 4, "d\n");
	out = drain(d, &err);
	CHECK_EQ_STR(out, "a\nb\nc\nd\n");
	CHECK_EQ_STR(err, "");
	free(out);
	free(err);
	rmdir_files(d);
}

TEST(trace_gap_reported_at_end)
{
	char *d = tmpdir(), *err, *out;

	/* 3 and 4 never come: 5 and 6 still go out, after the gap */
	trace_file(d, "trace0", 2, 1, "a\n", 5, "e\n");
	trace_file(d, "trace1", 2, 2, "b\n", 6, "f\n");
	out = drain(d, &err);
	CHECK_EQ_STR(out, "a\nb\ne\nf\n");
	CHECK_EQ_STR(err, "WARNING: 2 output records lost (missing from the trace files' sequence)\n");
	free(out);
	free(err);
	rmdir_files(d);
}

/* report_done's stderr for a DONE with these counters (index, value). */
static char *report(int verbose, int errors, int n, ...)
{
	struct {
		struct stp_msg_done d;
		int64_t ev[STP_EV_COUNT];
	} m;
	va_list ap;
	int rc;

	memset(&m, 0, sizeof(m));
	m.d.errors = errors;
	m.d.nevents = STP_EV_COUNT;
	va_start(ap, n);
	while (n--) {
		int i = va_arg(ap, int);

		m.ev[i] = va_arg(ap, int);
	}
	va_end(ap);
	stprun_verbose = verbose;
	unit_capture_begin();
	rc = report_done(&m.d, sizeof(m));
	stprun_verbose = 0;
	CHECK_EQ_INT(rc, errors != 0);
	return unit_capture_end();
}

TEST(report_drops_with_their_settings)
{
	char *err = report(0, 0, 4, STP_EV_UENTRY_EVICTED, 3, STP_EV_UENTRY_MISSED, 2,
			   STP_EV_MSG_TRUNC, 1, STP_EV_OUT_OFFLINE, 40);

	CHECK_EQ_STR(err,
		     "WARNING: 3 @entry saves lost (more calls in flight than STP_UCALLS); raise with -D STP_UCALLS=N\n"
		     "WARNING: 2 process return probes skipped: no @entry saves (lost, or the call began before the session)\n"
		     "WARNING: 1 error and warning messages truncated at STP_CTL_TEXT; raise with -D STP_CTL_TEXT=N\n"
		     "WARNING: 40 output bytes lost on CPUs taken offline\n");
	free(err);
}

TEST(report_skip_state_only_verbose)
{
	char *err = report(0, 0, 1, STP_EV_SKIP_STATE, 7);

	CHECK_EQ_STR(err, "");
	free(err);
	err = report(1, 0, 1, STP_EV_SKIP_STATE, 7);
	CHECK_EQ_STR(err, "WARNING: 7 probe hits ignored (session not running: before start or after exit)\n");
	free(err);
}

int main(int argc, char **argv)
{
	return unit_main(argc, argv);
}
