/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kernel.syscall(NR)[.return] (sysdispatch.c): the generated code gives,
 * for entry and return, the count of probes (STP_SD_NENTER,
 * STP_SD_NEXIT) and, when there are some, a bitmap of the numbers they
 * want and a dispatch function (translator/families/syscall/syscall_kmod.c).
 */
#ifndef STP_SYSDISPATCH_H
#define STP_SYSDISPATCH_H

#include <linux/tracepoint.h>

/* ORDER: translator/families/syscall/syscall_family.h's SD_MAX_NR */
#define STP_SD_MAX_NR	1024

/*
 * What a probe's handler reads through CONTEXT->entry: $id, $arg1..$arg6,
 * $regs, and $ret (.return only).  ORDER: translator/families/syscall/syscall_family.h's SD_*
 */
enum { STP_SD_ID, STP_SD_ARG1, STP_SD_REGS = 7, STP_SD_RET, STP_SD_SLOTS };

/*
 * A return probe's @entry saves (syscall_kmod.c's stp_sd_save_N and
 * _restore_N): one slot a thread inside the call, claimed at sys_enter
 * by writing its tid into the probe's table, found again at sys_exit
 * and freed.  A thread makes one system call at a time, so a slot is
 * only ever touched by its owner between claim and release.  The claim
 * takes the first slot from the tid's own place that is free or
 * already the thread's (one its last call left: an exec by another
 * thread of the group changed its tid), so the take, searching from
 * the same place, meets the new claim first.
 */
#ifndef STP_SD_CALLS
#define STP_SD_CALLS 256	/* threads inside one probe's call at once */
#endif

static __always_inline int stp_sd_claim(int *tids)
{
	int tid = current->pid, k;

	for (k = 0; k < STP_SD_CALLS; k++) {
		int i = (unsigned int)(tid + k) % STP_SD_CALLS;
		int t = READ_ONCE(tids[i]);

		if (t == tid || (!t && cmpxchg(&tids[i], 0, tid) == 0))
			return i;
	}
	stp_count(STP_EV_SD_ENTRY_FULL);
	return -1;
}

/*
 * The calling thread's slot, or -1: none was claimed for this call.
 * That is no loss to count (a full table was counted at the claim, a
 * skipped entry part by its hit): the call began before the session,
 * or this is a new process's return from the call that made it, and a
 * kretprobe's return does not fire for either.
 */
static __always_inline int stp_sd_take(int *tids)
{
	int tid = current->pid, k;

	for (k = 0; k < STP_SD_CALLS; k++) {
		int i = (unsigned int)(tid + k) % STP_SD_CALLS;

		if (READ_ONCE(tids[i]) == tid)
			return i;
	}
	return -1;
}

static __always_inline void stp_sd_release(int *tids, int i)
{
	smp_store_release(&tids[i], 0);
}

#endif
