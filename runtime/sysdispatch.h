/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kernel.syscall(NR)[.return] (sysdispatch.c): the generated code gives,
 * for entry and return, the count of probes (STP_SD_NENTER,
 * STP_SD_NEXIT) and, when there are some, a bitmap of the numbers they
 * want and a dispatch function (translator/families/syscall/syscall_kmod.c).
 */
#ifndef STP_SYSDISPATCH_H
#define STP_SYSDISPATCH_H

#include <linux/tracepoint.h>

/* ORDER: translator/families/syscall/syscall_family.h's SD_MAX_NR */
#define STP_SD_MAX_NR	1024

/*
 * What a probe's handler reads through CONTEXT->entry: $id, $arg1..$arg6,
 * $regs, and $ret (.return only).  ORDER: translator/families/syscall/syscall_family.h's SD_*
 */
enum { STP_SD_ID, STP_SD_ARG1, STP_SD_REGS = 7, STP_SD_RET, STP_SD_SLOTS };

#endif
