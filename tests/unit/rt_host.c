/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the kernel provides to the runtime's .c files and host builds must define:
 * the event counters, the CPU the code pretends to run on, and the hook
 * through which "kernel" memory is read (tests make reads fail with it).
 */
#include "shim.h"

stp_atomic_t stp_events[STP_EV_COUNT];
int stp_host_cpu;
int stp_host_ncpus = 1;
int (*stp_host_read_hook)(void *dst, const void *src, size_t n);
