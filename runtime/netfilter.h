/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * netfilter.hook(...).pf(...) probes (netfilter.c); the generated code
 * fills stp_nf_ops[] with a hook function each
 * (translator/families/netfilter/netfilter_kmod.c).
 */
#ifndef STP_NETFILTER_H
#define STP_NETFILTER_H

#include <linux/netfilter.h>
#include <linux/skbuff.h>
#include <net/net_namespace.h>

#endif
