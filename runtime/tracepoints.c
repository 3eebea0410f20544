// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Tracepoints, registered by name when the session starts: the kernel's
 * struct tracepoint is found with for_each_kernel_tracepoint(), and the
 * generated callback attached with tracepoint_probe_register().  When
 * the session stops, every callback is detached, then
 * tracepoint_synchronize_unregister() waits until no CPU can still be
 * running one, before the module's memory can go.
 *
 * Only the core kernel's tracepoints are found; those of modules are not
 * yet.  One the kernel lacks (or refuses) is an error when the script
 * named it, and is skipped (with -v, named) when a wildcard matched it.
 */
static void stp_tracepoint_found(struct tracepoint *tp, void *priv)
{
	int i;

	for (i = 0; i < STP_NTRACEPOINTS; i++)
		if (!stp_tracepoints[i].tp && !strcmp(tp->name, stp_tracepoints[i].name))
			stp_tracepoints[i].tp = tp;
}

static void stp_tracepoints_disarm(void);

static int stp_tracepoints_arm(void)
{
	int i, rc;

	if (!STP_NTRACEPOINTS)
		return 0;
	for_each_kernel_tracepoint(stp_tracepoint_found, NULL);
	for (i = 0; i < STP_NTRACEPOINTS; i++) {
		struct stp_tracepoint *t = &stp_tracepoints[i];

		rc = t->tp ? tracepoint_probe_register(t->tp, t->cb, NULL) : -ENOENT;
		if (!rc) {
			t->registered = 1;
			continue;
		}
		if (t->required) {
			stp_ctl_printf(STP_MSG_ERROR,
				       "ERROR: cannot attach to tracepoint %s (%s, error %d)\n",
				       t->probe->pp, t->name, rc);
			stp_tracepoints_disarm();
			return rc;
		}
		if (stp_verbose)
			stp_ctl_printf(STP_MSG_WARNING,
				       "WARNING: skipped %s: cannot attach (error %d)\n",
				       t->probe->pp, rc);
	}
	return 0;
}

static void stp_tracepoints_disarm(void)
{
	int i, any = 0;

	for (i = 0; i < STP_NTRACEPOINTS; i++) {
		struct stp_tracepoint *t = &stp_tracepoints[i];

		if (!t->registered)
			continue;
		tracepoint_probe_unregister(t->tp, t->cb, NULL);
		t->registered = 0;
		any = 1;
	}
	if (any)
		tracepoint_synchronize_unregister();
}
