// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * errno_str(), errno_known() and signal_str() in user space (begin, end
 * and error probes), from the tables the kernel side has too
 * (runtime/bpf/names.h), written as the kmod tapset writes them.
 */
#include "run.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "../../runtime/bpf/names.h"

void stp_u_errno_str(char *dst, int64_t err)
{
	const char *n = stp_errno_name(err);

	if (n)
		snprintf(dst, (size_t)stp_prog.strlen, "%s", n);
	else
		snprintf(dst, (size_t)stp_prog.strlen, "E#%lld",
			 (long long)(err < 0 ? -err : err));
}

int64_t stp_u_errno_known(int64_t err)
{
	return stp_errno_name(err) != NULL;
}

/* SystemTap's _signal_name: SIGKILL, SIG_0, SIGIO/SIGPOLL, TRACESYSGOOD,
 * else the number in hex (SIGSTKFLT and real-time signals too). */
void stp_u_signal_name(char *dst, int64_t sig)
{
	size_t len = (size_t)stp_prog.strlen;

	if (sig == SIGIO)
		snprintf(dst, len, "SIGIO/SIGPOLL");
	else if (sig == (SIGTRAP | 0x80))
		snprintf(dst, len, "TRACESYSGOOD");
	else if (sig >= 0 && sig < 32 && sig != SIGSTKFLT && stp_signal_names[sig][0])
		snprintf(dst, len, "%s", stp_signal_names[sig]);
	else
		snprintf(dst, len, "0x%x", (unsigned int)sig);
}

/* SystemTap's signal_str: without SIG, "IO/POLL" for SIGIO, "" for a
 * number no signal has. */
void stp_u_signal_str(char *dst, int64_t sig)
{
	size_t len = (size_t)stp_prog.strlen;

	dst[0] = 0;
	if (sig == SIGIO)
		snprintf(dst, len, "IO/POLL");
	else if (sig > 0 && sig < 32 && stp_signal_names[sig][0])
		snprintf(dst, len, "%s", stp_signal_names[sig] + 3);
	else if (sig == 32)
		snprintf(dst, len, "RTMIN");
	else if (sig > 32 && sig <= 64)
		snprintf(dst, len, "RTMIN+%lld", (long long)(sig - 32));
}
