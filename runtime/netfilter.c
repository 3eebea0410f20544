// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Netfilter hooks, registered in every network namespace: a pernet
 * subsystem registers stp_nf_ops[] in each namespace there is when the
 * session starts (and in each one made later), and unregisters them
 * from each when the session stops.  Unregistering does not wait for a
 * hook running on another CPU (the kernel frees the old hook list after
 * an RCU grace period), so the session waits for one itself before the
 * module's memory can go.
 */
static int stp_nf_net_init(struct net *net)
{
	return nf_register_net_hooks(net, stp_nf_ops, STP_NNETFILTER);
}

static void stp_nf_net_exit(struct net *net)
{
	nf_unregister_net_hooks(net, stp_nf_ops, STP_NNETFILTER);
}

static struct pernet_operations stp_nf_pernet = {
	.init = stp_nf_net_init,
	.exit = stp_nf_net_exit,
};

static int stp_nf_registered;

static int stp_netfilter_arm(void)
{
	int rc;

	if (!STP_NNETFILTER)
		return 0;
	rc = register_pernet_subsys(&stp_nf_pernet);
	if (rc) {
		stp_ctl_printf(STP_MSG_ERROR,
			       "ERROR: cannot register netfilter hooks (error %d)\n",
			       rc);
		return rc;
	}
	stp_nf_registered = 1;
	return 0;
}

static void stp_netfilter_disarm(void)
{
	if (!stp_nf_registered)
		return;
	unregister_pernet_subsys(&stp_nf_pernet);
	stp_nf_registered = 0;
	synchronize_net();
}
