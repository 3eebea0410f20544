// SPDX-License-Identifier: GPL-2.0-or-later
/* warn(msg) in begin, end and error probes: stderr, as stprun prints a
 * module's warnings. */
#include "run.h"

#include <stdio.h>

int64_t stp_u_warn(const char *msg)
{
	fflush(stdout);
	fprintf(stderr, "WARNING: %s\n", msg);
	return 0;
}
