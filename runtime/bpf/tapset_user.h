/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Tapset functions of embedded C that user space (begin, end and error
 * probes) runs under --runtime=bpf, in staprun/bpf/names.c; the tapsets'
 * flavours marked bpf-user call them (user.h names them as kern.h
 * does).  Strings go to dst (MAXSTRINGLEN bytes).
 */
#ifndef STP_BPF_TAPSET_USER_H
#define STP_BPF_TAPSET_USER_H

#include <stdint.h>

void stp_u_errno_str(char *dst, int64_t err);
int64_t stp_u_errno_known(int64_t err);
void stp_u_signal_name(char *dst, int64_t sig);	/* _signal_name */
void stp_u_signal_str(char *dst, int64_t sig);	/* signal_str */

#endif
