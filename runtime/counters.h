/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Every limit the runtime hits is counted here, never dropped silently;
 * stprun reports each non-zero counter at exit together with the setting
 * that raises it (staprun/report.c prints them from this same table).
 *
 * User space (stprun) defines STP_COUNTERS_TABLE_ONLY and gets the table
 * and the enum without the kernel's atomic counters.
 */
#ifndef STP_COUNTERS_H
#define STP_COUNTERS_H

/*
 * X(name, what was counted, how to raise the limit or NULL, quiet).
 * stprun prints "WARNING: N <what>; raise with <how>"; a quiet counter
 * (hits that came after exit(), the normal wind-down) only with -v.
 */
#define STP_EVENTS(X)							\
	X(STR_TRUNC,	"strings truncated at MAXSTRINGLEN",		\
			"-D MAXSTRINGLEN=N", 0)				\
	X(MAP_FULL,	"map insertions failed (map full at MAXMAPENTRIES)", \
			"-D MAXMAPENTRIES=N", 0)			\
	X(SKIP_LOCK,	"probes skipped (global lock contention)",	\
			"-D MAXTRYLOCK=N", 0)				\
	X(SKIP_REENTER,	"probes skipped (reentrant hit)", NULL, 0)	\
	X(SKIP_STATE,	"probe hits ignored (session not running: before start or after exit)", \
			NULL, 1)					\
	X(OUT_DROPPED,	"output bytes dropped (transport buffers full)", \
			"-b MB (buffer size per CPU)", 0)		\
	X(OUT_TRUNC,	"output bytes dropped (print buffer full)",	\
			"-D STP_BUFFER_SIZE=N", 0)			\
	X(MSG_DROPPED,	"control messages dropped (queue full or busy)", NULL, 0) \
	X(KRET_MISSED,	"kretprobe returns missed", ".maxactive(N)", 0)	\
	X(KPROBE_SKIPPED, "probe points skipped: kprobes refused them (stp -v names them)", NULL, 0) \
	X(UPROBE_SKIPPED, "probe points skipped: uprobes refused them (stp -v names them)", NULL, 0) \
	X(UENTRY_EVICTED, "@entry saves lost (more calls in flight than STP_UCALLS)", \
			"-D STP_UCALLS=N", 0)				\
	X(UENTRY_MISSED, "process return probes skipped: no @entry saves (lost, or the call began before the session)", \
			NULL, 0)					\
	X(SD_ENTRY_FULL, "@entry saves lost (more threads inside one probe's system call than STP_SD_CALLS)", \
			"-D STP_SD_CALLS=N", 0)				\
	X(MSG_TRUNC,	"error and warning messages truncated at STP_CTL_TEXT", \
			"-D STP_CTL_TEXT=N", 0)				\
	X(OUT_OFFLINE,	"output bytes lost on CPUs taken offline", NULL, 0) \
	X(SKIP_OVERLOAD, "probes skipped (CPU overloaded: more than STP_OVERLOAD_THRESHOLD cycles of STP_OVERLOAD_INTERVAL in handlers)", \
			"-D STP_OVERLOAD_THRESHOLD=N", 0)			\
	X(PERF_TASKS_FULL, "processes started without their perf event (more at once than STP_PERF_TASKS)", \
			"-D STP_PERF_TASKS=N", 0)			\
	X(CX_NO_VITAL,	"sampler events of vital signs beyond CX_VITALS_MAX dropped", \
			"-D CX_VITALS_MAX=N", 0)

enum stp_event {
#define STP_EV_ENUM(name, what, knob, quiet) STP_EV_##name,
	STP_EVENTS(STP_EV_ENUM)
#undef STP_EV_ENUM
	STP_EV_COUNT
};

#ifndef STP_COUNTERS_TABLE_ONLY

extern stp_atomic_t stp_events[STP_EV_COUNT];

static inline void stp_count(enum stp_event ev)
{
	stp_atomic_inc(&stp_events[ev]);
}

static inline void stp_count_n(enum stp_event ev, long n)
{
	stp_atomic_add(&stp_events[ev], n);
}

#endif /* STP_COUNTERS_TABLE_ONLY */

#endif
