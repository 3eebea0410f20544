// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kernel.data(...) probes: a hardware watchpoint on every CPU
 * (register_wide_hw_breakpoint), for each probe.  x86 has four debug
 * registers a CPU, shared with ptrace and perf users: a watchpoint the
 * kernel cannot place fails the session with the reason, never quietly.
 * The handler runs in the debug exception (NMI-like), as a perf probe's
 * overflow handler runs in NMI: stp_probe_hit() takes no sleeping lock.
 */
#include <linux/err.h>

static int stp_hwbkpt_len(int bytes)
{
	switch (bytes) {
	case 1: return HW_BREAKPOINT_LEN_1;
	case 2: return HW_BREAKPOINT_LEN_2;
	case 4: return HW_BREAKPOINT_LEN_4;
	default: return HW_BREAKPOINT_LEN_8;
	}
}

static void stp_hwbkpt_disarm(void)
{
	int i;

	for (i = 0; i < STP_NHWBKPTS; i++) {
		if (stp_hwbkpts[i].events)
			unregister_wide_hw_breakpoint(stp_hwbkpts[i].events);
		stp_hwbkpts[i].events = NULL;
	}
}

static int stp_hwbkpt_arm(void)
{
	struct perf_event_attr attr;
	int i;

	for (i = 0; i < STP_NHWBKPTS && stp_hwbkpts[i].probe; i++) {
		struct stp_hwbkpt *h = &stp_hwbkpts[i];
		struct perf_event * __percpu *ev;
		unsigned long addr = stp_hwbkpt_addr(i);

		hw_breakpoint_init(&attr);
		attr.bp_addr = addr;
		attr.bp_len = stp_hwbkpt_len(h->len);
		attr.bp_type = h->rw ? HW_BREAKPOINT_RW : HW_BREAKPOINT_W;
		ev = register_wide_hw_breakpoint(&attr, h->cb, NULL);
		if (IS_ERR(ev)) {
			stp_ctl_printf(STP_MSG_ERROR,
				       "ERROR: cannot set a hardware watchpoint for %s at 0x%lx "
				       "(error %ld%s)\n", h->probe->pp, addr, PTR_ERR(ev),
				       PTR_ERR(ev) == -ENOSPC ? ": the CPU's debug registers "
				       "are all in use" : PTR_ERR(ev) == -EINVAL ? ": the address "
				       "is not aligned to the length, or not the kernel's" : "");
			stp_hwbkpt_disarm();
			return PTR_ERR(ev);
		}
		h->events = ev;
	}
	return 0;
}
