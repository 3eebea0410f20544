// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What runtime/'s host build (format.c, out.c in libstprt-host.a)
 * expects its environment to define, for the runner's printf.
 */
#include "../../runtime/shim.h"

stp_atomic_t stp_events[STP_EV_COUNT];
int (*stp_host_read_hook)(void *dst, const void *src, size_t n);
int stp_host_cpu, stp_host_ncpus = 1;
