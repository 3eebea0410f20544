/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The preprocessor's view of the target for parser unit tests: Debian's
 * 6.1 kernel, x86_64, no script arguments.
 */
#ifndef STP_TEST_PARSE_ENV_H
#define STP_TEST_PARSE_ENV_H

#include "preprocess.h"

static char *no_argv[] = { NULL };

static struct pp_env env = {
	.kernel_v = "6.1.0",
	.kernel_vr = "6.1.0-42-amd64",
	.arch = "x86_64",
	.runtime = "kernel",
	.systemtap_v = "5.0",
	.privilege = "stapdev",
	.argv = no_argv,
};

#endif
