// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Tracepoints, registered by name when the session starts: the kernel's
 * struct tracepoint is found with for_each_kernel_tracepoint(), and the
 * generated callback attached with tracepoint_probe_register().  When
 * the session stops, every callback is detached, then
 * tracepoint_synchronize_unregister() waits until no CPU can still be
 * running one, before the module's memory can go.
 *
 * One the kernel lacks (or refuses) is an error when the script named
 * it, and is skipped (with -v, named) when a wildcard matched it.
 *
 * A module's tracepoints come and go with it.  The tracepoint module
 * notifier tells of each module that has tracepoints, those loaded
 * already when it is registered, then each as it loads; a callback is
 * attached then, and the module is held (try_module_get) for as long as
 * it is, so that it cannot be unloaded under the callback: rmmod says it
 * is in use until the session ends.  A module's tracepoint is never
 * required: the session runs whether or not the module is loaded.
 */
/*
 * t's callback on tp (NULL: the kernel has no such tracepoint), module
 * mod held while it is, or NULL for the core kernel's.  0, also when it
 * is attached already or mod is on its way out; else the error.
 */
static int stp_tracepoint_attach(struct stp_tracepoint *t, struct tracepoint *tp, struct module *mod)
{
	int rc;

	if (!tp)
		return -ENOENT;
	if (t->registered || (mod && !try_module_get(mod)))
		return 0;
	rc = tracepoint_probe_register(tp, t->cb, NULL);
	if (rc) {
		if (mod)
			module_put(mod);
		return rc;
	}
	t->tp = tp;
	t->mod = mod;
	t->registered = 1;
	return 0;
}

static void stp_tracepoint_skipped(struct stp_tracepoint *t, int rc)
{
	if (stp_verbose)
		stp_ctl_printf(STP_MSG_WARNING, "WARNING: skipped %s: cannot attach (error %d)\n",
			       t->probe->pp, rc);
}

static void stp_tracepoint_detach(struct stp_tracepoint *t)
{
	tracepoint_probe_unregister(t->tp, t->cb, NULL);
	t->registered = 0;
}

/* Module mod's tracepoints that the script names, attached. */
static void stp_tracepoints_of(struct module *mod)
{
	tracepoint_ptr_t *p = mod->tracepoints_ptrs;
	unsigned int i, k;
	int rc;

	for (k = 0; k < mod->num_tracepoints; k++) {
		struct tracepoint *tp = tracepoint_ptr_deref(&p[k]);

		for (i = 0; i < STP_NTRACEPOINTS; i++) {
			struct stp_tracepoint *t = &stp_tracepoints[i];

			if (t->module && !strcmp(t->module, mod->name) &&
			    !strcmp(t->name, tp->name) && (rc = stp_tracepoint_attach(t, tp, mod)))
				stp_tracepoint_skipped(t, rc);
		}
	}
}

static int stp_tracepoint_module(struct notifier_block *nb, unsigned long what, void *data)
{
	struct tp_module *tpm = data;
	int i;

	if (what == MODULE_STATE_COMING) {
		stp_tracepoints_of(tpm->mod);
		return NOTIFY_OK;
	}
	/* held, it goes only when its init failed: let it go */
	for (i = 0; what == MODULE_STATE_GOING && i < STP_NTRACEPOINTS; i++) {
		struct stp_tracepoint *t = &stp_tracepoints[i];

		if (t->registered && t->mod == tpm->mod) {
			stp_tracepoint_detach(t);
			tracepoint_synchronize_unregister();
			module_put(t->mod);
			t->mod = NULL;
		}
	}
	return NOTIFY_OK;
}

static struct notifier_block stp_tracepoint_nb = {
	.notifier_call = stp_tracepoint_module,
};
static int stp_tracepoint_nb_on;

static int stp_tracepoints_modules(void)
{
	int i, rc;

	for (i = 0; i < STP_NTRACEPOINTS; i++)
		if (stp_tracepoints[i].module)
			break;
	if (i == STP_NTRACEPOINTS)
		return 0;
	rc = register_tracepoint_module_notifier(&stp_tracepoint_nb);
	if (rc) {
		stp_ctl_printf(STP_MSG_ERROR, "ERROR: cannot follow modules' tracepoints (error %d)\n", rc);
		return rc;
	}
	stp_tracepoint_nb_on = 1;
	return 0;
}

static void stp_tracepoint_found(struct tracepoint *tp, void *priv)
{
	int i;

	for (i = 0; i < STP_NTRACEPOINTS; i++)
		if (!stp_tracepoints[i].module && !stp_tracepoints[i].tp &&
		    !strcmp(tp->name, stp_tracepoints[i].name))
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

		if (t->module)
			continue;
		rc = stp_tracepoint_attach(t, t->tp, NULL);
		if (!rc)
			continue;
		if (t->required) {
			stp_ctl_printf(STP_MSG_ERROR,
				       "ERROR: cannot attach to tracepoint %s (%s, error %d)\n",
				       t->probe->pp, t->name, rc);
			stp_tracepoints_disarm();
			return rc;
		}
		stp_tracepoint_skipped(t, rc);
	}
	rc = stp_tracepoints_modules();
	if (rc)
		stp_tracepoints_disarm();
	return rc;
}

static void stp_tracepoints_disarm(void)
{
	int i, any = 0;

	/* no module callback after this; the modules held stay loaded */
	if (stp_tracepoint_nb_on)
		unregister_tracepoint_module_notifier(&stp_tracepoint_nb);
	stp_tracepoint_nb_on = 0;
	for (i = 0; i < STP_NTRACEPOINTS; i++) {
		struct stp_tracepoint *t = &stp_tracepoints[i];

		if (!t->registered)
			continue;
		stp_tracepoint_detach(t);
		any = 1;
	}
	if (any)
		tracepoint_synchronize_unregister();
	for (i = 0; i < STP_NTRACEPOINTS; i++) {
		if (stp_tracepoints[i].mod)
			module_put(stp_tracepoints[i].mod);
		stp_tracepoints[i].mod = NULL;
	}
}
