// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kernel.syscall(NR) and kernel.syscall(NR).return: one callback on the
 * raw_syscalls sys_enter tracepoint when some entry probe exists, one
 * on sys_exit when some return probe does, however many probes; each
 * hit is dispatched by number (syscall_kmod.c's bitmap, then
 * switch).  Only native x86-64 calls fire them: a 32-bit (ia32) call
 * and an x32 one (whose number has __X32_SYSCALL_BIT set) are skipped,
 * as their numbers name other calls.
 *
 * The tracepoints are found by name (modules cannot name them), as
 * process.c's are; each callback here is ours, beside any of process.c.
 * The pt_regs are the user's, saved at entry: $argN read the argument
 * registers (di, si, dx, r10, r8, r9) there, and the return's number is
 * orig_ax.  TS_COMPAT, which in_compat_syscall() reads, is cleared only
 * on the way back to user space, after sys_exit.
 */
#include <linux/compat.h>
#include <asm/syscall.h>

static struct tracepoint *stp_sd_enter_tp, *stp_sd_exit_tp;
static int stp_sd_enter_on, stp_sd_exit_on;

static __always_inline bool stp_sd_native(long nr,
					  const unsigned long *wanted)
{
	return nr >= 0 && nr < STP_SD_MAX_NR && test_bit(nr, wanted) &&
	       !in_compat_syscall();
}

static __always_inline void stp_sd_args(u64 *a, struct pt_regs *regs,
					long nr, long ret)
{
	a[STP_SD_ID] = nr;
	a[STP_SD_ARG1] = regs->di;
	a[STP_SD_ARG1 + 1] = regs->si;
	a[STP_SD_ARG1 + 2] = regs->dx;
	a[STP_SD_ARG1 + 3] = regs->r10;
	a[STP_SD_ARG1 + 4] = regs->r8;
	a[STP_SD_ARG1 + 5] = regs->r9;
	a[STP_SD_REGS] = (unsigned long)regs;
	a[STP_SD_RET] = ret;
}

#if STP_SD_NENTER
static STP_HANDLER void stp_sd_enter(void *data, struct pt_regs *regs,
				  long id)
{
	u64 a[STP_SD_SLOTS];

	if (!stp_sd_native(id, stp_sd_enter_nrs))
		return;
	if (STP_SD_ENTER_ARGS)
		stp_sd_args(a, regs, id, 0);
	stp_sd_enter_hit(id, regs, a);
}
NOKPROBE_SYMBOL(stp_sd_enter);
#endif

#if STP_SD_NEXIT
static STP_HANDLER void stp_sd_exit(void *data, struct pt_regs *regs,
				 long ret)
{
	long nr = syscall_get_nr(current, regs);
	u64 a[STP_SD_SLOTS];

	if (!stp_sd_native(nr, stp_sd_exit_nrs))
		return;
	if (STP_SD_EXIT_ARGS)
		stp_sd_args(a, regs, nr, ret);
	stp_sd_exit_hit(nr, regs, a);
}
NOKPROBE_SYMBOL(stp_sd_exit);
#endif

static void stp_sd_find(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sys_enter"))
		stp_sd_enter_tp = tp;
	else if (!strcmp(tp->name, "sys_exit"))
		stp_sd_exit_tp = tp;
}

/* cb on tp (what names it), *on set when attached; 0 or the error. */
static int stp_sd_attach(struct tracepoint *tp, const char *what, void *cb,
			 int *on)
{
	int rc = tp ? tracepoint_probe_register(tp, cb, NULL) : -ENOENT;

	*on = !rc;
	if (rc)
		stp_ctl_printf(STP_MSG_ERROR,
			       "ERROR: kernel.syscall probes: cannot attach "
			       "to tracepoint %s (error %d)\n", what, rc);
	return rc;
}

static void stp_sysdispatch_disarm(void)
{
#if STP_SD_NENTER
	if (stp_sd_enter_on)
		tracepoint_probe_unregister(stp_sd_enter_tp,
					    (void *)stp_sd_enter, NULL);
#endif
#if STP_SD_NEXIT
	if (stp_sd_exit_on)
		tracepoint_probe_unregister(stp_sd_exit_tp,
					    (void *)stp_sd_exit, NULL);
#endif
	if (stp_sd_enter_on || stp_sd_exit_on)
		tracepoint_synchronize_unregister();
	stp_sd_enter_on = stp_sd_exit_on = 0;
}

static int stp_sysdispatch_arm(void)
{
	int rc = 0;

	if (!STP_SD_NENTER && !STP_SD_NEXIT)
		return 0;
	for_each_kernel_tracepoint(stp_sd_find, NULL);
#if STP_SD_NENTER
	rc = stp_sd_attach(stp_sd_enter_tp, "sys_enter", (void *)stp_sd_enter,
			   &stp_sd_enter_on);
#endif
#if STP_SD_NEXIT
	if (!rc)
		rc = stp_sd_attach(stp_sd_exit_tp, "sys_exit",
				   (void *)stp_sd_exit, &stp_sd_exit_on);
#endif
	if (rc)
		stp_sysdispatch_disarm();
	return rc;
}
