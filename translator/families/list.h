/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Every probe family, one row each: FAMILY(ID, name), whose operations
 * are name_family (family.h) and whose probes are PF_ID.  Adding a
 * family is its folder and a row here.  The order is the one the kmod
 * backend writes the families' tables in, and the one pass 2 tries the
 * matchers in.  No include guard: family.h includes it once per use.
 */
FAMILY(BEGIN, begin)
FAMILY(END, end)
FAMILY(ERROR, error)
FAMILY(TIMER, timer)
FAMILY(PROFILE, profile)
FAMILY(KPROBE, kprobe)
FAMILY(UPROBE, uprobe)
FAMILY(TRACE, trace)
FAMILY(NETFILTER, netfilter)
FAMILY(PROCFS, procfs)
FAMILY(PERF, perf)
FAMILY(HWBKPT, hwbkpt)
FAMILY(PROCESS, process)
FAMILY(SYSCALL, syscall)
FAMILY(CPUHP, cpuhp)
FAMILY(NEVER, never)
