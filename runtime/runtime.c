// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The runtime, included whole by each generated module after its own
 * declarations (one translation unit: the compiler sees every call).
 */
#include "compat.h"
#include "out.c"
#include "map.c"
#include "stat.c"
#include "format.c"
#include "transport.c"
#include "display.c"
#include "regex.c"
#include "stack.c"
#include "timer.c"
#include "kprobes.c"
#include "uprobes.c"
#include "process.c"
#include "tracepoints.c"
#include "sysdispatch.c"
#include "netfilter.c"
#include "procfs.c"
#include "perf.c"
#include "perf_task.c"
#include "throttle.c"
#ifdef STP_SKETCH	/* the script uses tapsets/chopstix.stp */
#include "sketch.c"
#include "vitals.c"
#else
static inline int stp_cx_init(void) { return 0; }
static inline void stp_cx_exit(void) { }
static inline void stp_cx_session_end(void) { }
#endif
#include "session.c"
