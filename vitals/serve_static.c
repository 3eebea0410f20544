// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stp-vitals serve in the static stp-vitals that guests run: that one
 * links no HTTP library (libmicrohttpd's static link pulls in GnuTLS and
 * its dependencies), and a guest's store is served from the host.
 */
#include "cmd.h"

int vcmd_serve(const struct vcmd *c, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return vcmd_fail("%s: not in the static stp-vitals; run build/stp-vitals",
			 c->name);
}
