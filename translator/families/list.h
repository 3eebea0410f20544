/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Every probe family, one row each: FAMILY(ID, name), whose operations
 * are name_family (family.h) and whose probes are PF_ID.  Adding a
 * family is its folder and a row here.  The order is the one the kmod
 * backend writes the families' tables in, and the one pass 2 tries the
 * matchers in.  No include guard: family.h includes it once per use.
 */
FAMILY(BEGIN, begin)		/* session/: begin, end, error, never */
FAMILY(END, end)
FAMILY(ERROR, error)
FAMILY(TIMER, timer)		/* timer/: timer.ms(N) and its kin */
FAMILY(PROFILE, profile)	/* timer/: timer.profile */
FAMILY(KPROBE, kprobe)		/* kprobe/: kernel.function, kprobe.* */
FAMILY(UPROBE, uprobe)		/* uprobe/: process("PATH").function ... */
FAMILY(TRACE, trace)		/* trace/: kernel.trace("NAME") */
FAMILY(NETFILTER, netfilter)	/* netfilter/: netfilter.hook().pf() */
FAMILY(PROCFS, procfs)		/* procfs/: procfs("PATH").read, .write */
FAMILY(PERF, perf)		/* perf/: perf.* */
FAMILY(HWBKPT, hwbkpt)		/* hwbkpt/: kernel.data(...).write */
FAMILY(PROCESS, process)	/* process/: process.begin, .syscall ... */
FAMILY(SYSCALL, syscall)	/* syscall/: kernel.syscall(NR) */
FAMILY(CPUHP, cpuhp)		/* cpuhp/: kernel.cpu.online, .offline */
FAMILY(NEVER, never)		/* session/ */
