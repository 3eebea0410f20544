// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The summary printed at the end of a run, from STP_MSG_DONE: script
 * errors and skipped probes in SystemTap's wording, then one line for
 * each limit that was hit, with the setting that raises it
 * (runtime/counters.h holds the list).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "stprun.h"

#define STP_COUNTERS_TABLE_ONLY
#include "counters.h"

static const struct {
	const char *what, *knob;
	int quiet;		/* only with -v */
} events[] = {
#define EV_ROW(name, what, knob, quiet) { what, knob, quiet },
	STP_EVENTS(EV_ROW)
#undef EV_ROW
};

/* 1 if the run had errors, else 0. */
int report_done(const struct stp_msg_done *d, size_t len)
{
	uint32_t i, n;
	int64_t v;

	if (len < sizeof(*d)) {
		warnx_("short STP_MSG_DONE (%zu bytes)", len);
		return 1;
	}
	if (d->errors || d->skipped)
		fprintf(stderr, "WARNING: Number of errors: %" PRId64
			", skipped probes: %" PRId64 "\n",
			(int64_t)d->errors, (int64_t)d->skipped);
	n = d->nevents;
	if (n > (len - sizeof(*d)) / sizeof(d->events[0]))
		n = (len - sizeof(*d)) / sizeof(d->events[0]);
	for (i = 0; i < n; i++) {
		memcpy(&v, &d->events[i], sizeof(v));
		if (!v || (i < STP_EV_COUNT && events[i].quiet &&
			   !stprun_verbose))
			continue;
		if (i >= STP_EV_COUNT)
			fprintf(stderr, "WARNING: %" PRId64
				" events of kind %u (unknown to this stprun)\n",
				v, i);
		else if (events[i].knob)
			fprintf(stderr, "WARNING: %" PRId64 " %s; raise with %s\n",
				v, events[i].what, events[i].knob);
		else
			fprintf(stderr, "WARNING: %" PRId64 " %s\n", v,
				events[i].what);
	}
	return d->errors != 0;
}

/* Records the module numbered but that never came (trace.c). */
void report_lost_records(uint64_t n)
{
	if (n)
		fprintf(stderr, "WARNING: %" PRIu64 " output records lost "
			"(missing from the trace files' sequence)\n", n);
}
