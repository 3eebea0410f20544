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
#include "netfilter.c"
#include "procfs.c"
#include "perf.c"
#include "perf_task.c"
#include "throttle.c"
#include "session.c"
