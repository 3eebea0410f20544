// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kprobes and kretprobes, registered by symbol when the session starts,
 * unregistered in one batch (a single RCU grace period for all of them)
 * when it stops.  A point kprobes refuse is an error when the script
 * named it, and is skipped, counted and (with -v) named when a wildcard
 * matched it.  Missed kretprobe returns (more concurrent calls than
 * .maxactive) and hits kprobes themselves dropped are counted.
 */
#include <linux/kprobes.h>

static struct kprobe **stp_kp_list;
static struct kretprobe **stp_krp_list;
static int stp_nkp, stp_nkrp;

/* @entry's saves; a non-zero return drops this call's return probe. */
static notrace int stp_kretprobe_entry(struct kretprobe_instance *ri,
				       struct pt_regs *regs)
{
	struct stp_kprobe *k = container_of(get_kretprobe(ri), struct stp_kprobe, u.krp);

	return stp_run_probe(k->entry, regs, ri->data) ? 1 : 0;
}
NOKPROBE_SYMBOL(stp_kretprobe_entry);

static notrace int stp_kretprobe_hit(struct kretprobe_instance *ri,
				     struct pt_regs *regs)
{
	struct stp_kprobe *k = container_of(get_kretprobe(ri), struct stp_kprobe, u.krp);

	stp_run_probe(k->probe, regs, ri->data);
	return 0;
}
NOKPROBE_SYMBOL(stp_kretprobe_hit);

static int stp_kprobe_register(struct stp_kprobe *k)
{
	if (k->is_return) {
		struct kretprobe *rp = &k->u.krp;

		memset(rp, 0, sizeof(*rp));
		rp->kp.symbol_name = k->symbol;
		rp->kp.offset = k->offset;
		rp->handler = stp_kretprobe_hit;
		if (k->entry) {
			rp->entry_handler = stp_kretprobe_entry;
			rp->data_size = k->entry_size;
		}
		rp->maxactive = k->maxactive;
		return register_kretprobe(rp);
	}
	memset(&k->u.kp, 0, sizeof(k->u.kp));
	k->u.kp.symbol_name = k->symbol;
	k->u.kp.offset = k->offset;
	k->u.kp.pre_handler = k->hit;
	return register_kprobe(&k->u.kp);
}

static long stp_kprobes_disarm(void);

static int stp_kprobes_arm(void)
{
	int i, rc, skipped = 0;

	if (!STP_NKPROBES)
		return 0;
	stp_kp_list = kcalloc(STP_NKPROBES, sizeof(*stp_kp_list), GFP_KERNEL);
	stp_krp_list = kcalloc(STP_NKPROBES, sizeof(*stp_krp_list), GFP_KERNEL);
	if (!stp_kp_list || !stp_krp_list)
		return -ENOMEM;
	for (i = 0; i < STP_NKPROBES; i++) {
		struct stp_kprobe *k = &stp_kprobes[i];

		rc = stp_kprobe_register(k);
		if (rc) {
			if (k->required) {
				stp_ctl_printf(STP_MSG_ERROR,
					       "ERROR: kprobes refused probe point %s (%s, error %d)\n",
					       k->probe->pp, k->symbol, rc);
				stp_kprobes_disarm();
				return rc;
			}
			skipped++;
			if (stp_verbose)
				stp_ctl_printf(STP_MSG_WARNING,
					       "WARNING: skipped %s: kprobes refused it (error %d)\n",
					       k->probe->pp, rc);
			continue;
		}
		k->registered = 1;
		if (k->is_return)
			stp_krp_list[stp_nkrp++] = &k->u.krp;
		else
			stp_kp_list[stp_nkp++] = &k->u.kp;
	}
	if (skipped)
		stp_count_n(STP_EV_KPROBE_SKIPPED, skipped);
	return 0;
}

/* Unregister everything; returns the hits kprobes dropped (reentrant). */
static long stp_kprobes_disarm(void)
{
	long missed = 0;
	int i;

	if (stp_nkp)
		unregister_kprobes(stp_kp_list, stp_nkp);
	if (stp_nkrp)
		unregister_kretprobes(stp_krp_list, stp_nkrp);
	for (i = 0; i < STP_NKPROBES; i++) {
		struct stp_kprobe *k = &stp_kprobes[i];

		if (!k->registered)
			continue;
		k->registered = 0;
		if (k->is_return) {
			stp_count_n(STP_EV_KRET_MISSED, k->u.krp.nmissed);
			missed += k->u.krp.kp.nmissed;
		} else {
			missed += k->u.kp.nmissed;
		}
	}
	if (missed)
		stp_count_n(STP_EV_SKIP_REENTER, missed);
	stp_nkp = stp_nkrp = 0;
	kfree(stp_kp_list);
	kfree(stp_krp_list);
	stp_kp_list = NULL;
	stp_krp_list = NULL;
	return missed;
}
