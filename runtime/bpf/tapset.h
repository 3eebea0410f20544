/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the tapsets' BPF flavours of functions (embedded C with the
 * pragma bpf) use in the kernel side, included by kern.h.
 *
 * Kernel structures are read through CO-RE: the few fields used are
 * declared here in structures named NAME___stp, which libbpf matches to
 * the target kernel's NAME by its BTF when it loads the program, so no
 * offset is fixed at build time.  The ___stp suffix keeps them apart
 * from any full kernel type a script's own @cast brings in.
 *
 * Some kmod bodies compile here as they are (they carry both the pure
 * and the bpf pragma): the kernel's names they use are mapped onto the
 * BPF helpers below.  A fault sets the error STAP_ERROR raises, as in
 * kmod; its message is the site's ("fault in NAME").
 */
#ifndef STP_BPF_TAPSET_H
#define STP_BPF_TAPSET_H

#include <bpf/bpf_core_read.h>
#include "ksprintf.h"
#include "sc_args.h"
#include <asm/signal.h>
#include <asm/siginfo.h>
#include "names.h"

typedef int pid_t;

struct thread_info___stp {
	u32 cpu;
} __attribute__((preserve_access_index));

struct kuid___stp {
	u32 val;
} __attribute__((preserve_access_index));

struct cred___stp {
	struct kuid___stp uid, gid, euid, egid;
} __attribute__((preserve_access_index));

struct task_struct___stp {
	struct thread_info___stp thread_info;
	unsigned int __state;
	int prio, static_prio, exit_code;
	pid_t pid, tgid;
	struct task_struct___stp *real_parent;
	u64 utime, stime, start_time;
	const struct cred___stp *real_cred, *cred;
	char comm[16];
} __attribute__((preserve_access_index));

struct upid___stp {
	int nr;
} __attribute__((preserve_access_index));

struct pid___stp {
	struct upid___stp numbers[1];
} __attribute__((preserve_access_index));

struct work_struct___stp {
	void *func;
} __attribute__((preserve_access_index));

struct net_device___stp {
	char name[16];
} __attribute__((preserve_access_index));

/* flat: libbpf finds each field inside the kernel's anonymous unions */
struct sk_buff___stp {
	struct net_device___stp *dev;
	unsigned int len, truesize;
	u16 protocol, transport_header, network_header;
	unsigned char *head;
} __attribute__((preserve_access_index));

/* its members in an anonymous struct, as the kernel has them */
struct kernel_siginfo___stp {
	struct {
		int si_signo, si_errno, si_code;
	};
} __attribute__((preserve_access_index));

#define TASK_COMM_LEN 16
#define MAX_RT_PRIO 100
#define PRIO_TO_NICE(p) ((p) - MAX_RT_PRIO - 20)

/* the kernel's names, as the kmod bodies call them: 0 or -EFAULT */
#define copy_from_kernel_nofault(dst, src, n) \
	bpf_probe_read_kernel((dst), (n), (const void *)(src))
#define copy_from_user_nofault(dst, src, n) \
	bpf_probe_read_user((dst), (n), (const void *)(src))
#define strscpy(dst, src, n) bpf_probe_read_kernel_str((dst), (n), (src))
#define __user

/* dst = task->field, CO-RE relocated; non-zero on a fault.  The
 * pointer first, apart: inside the relocated expression the access to
 * task's own variable (a field of struct stp_ctx) would be relocated too. */
#define STP_TASK_READ(task, field, dst) ({ \
	struct task_struct___stp *_t = (void *)(uintptr_t)(task); \
	bpf_core_read(&(dst), sizeof(dst), &_t->field); })

/* An id of task's cred (real_cred when real, else cred): which 0 uid,
 * 1 gid, 2 euid, 3 egid; -1 on a fault. */
STP_INLINE int64_t stp_task_cred_id(int64_t task, int real, int which)
{
	struct task_struct___stp *t = (struct task_struct___stp *)(uintptr_t)task;
	const struct cred___stp *cr;
	u32 v;
	int rc;

	if (real ? bpf_core_read(&cr, sizeof(cr), &t->real_cred)
		 : bpf_core_read(&cr, sizeof(cr), &t->cred))
		return -1;
	switch (which) {
	case 0: rc = bpf_core_read(&v, sizeof(v), &cr->uid.val); break;
	case 1: rc = bpf_core_read(&v, sizeof(v), &cr->gid.val); break;
	case 2: rc = bpf_core_read(&v, sizeof(v), &cr->euid.val); break;
	default: rc = bpf_core_read(&v, sizeof(v), &cr->egid.val); break;
	}
	return rc ? -1 : (int64_t)v;
}

/* memory as the kmod tapset's stp_user_read and stp_kernel_read, without
 * the warning (the helpers zero dst on a fault): 0 or -EFAULT */
#define stp_user_read(dst, addr, size, name, warn) \
	(bpf_probe_read_user((dst), (size), (const void *)(uintptr_t)(addr)) ? -EFAULT : 0)
#define stp_kernel_read(dst, addr, size) \
	(bpf_probe_read_kernel((dst), (size), (const void *)(uintptr_t)(addr)) ? -EFAULT : 0)

/* A string of this probe's: pp(), pn(), probefunc(). */
STP_INLINE void stp_probe_str(char *dst, const char *s)
{
	bpf_probe_read_kernel_str(dst, MAXSTRINGLEN, s ? s : "");
}

/* errno_str(err) into dst: the name, else "E#" and the number. */
STP_INLINE void stp_errno_str(char *dst, int64_t e)
{
	const char *n = stp_errno_name(e);
	char d[24];
	int i = 0;

	if (n) {
		bpf_probe_read_kernel_str(dst, MAXSTRINGLEN, n);
		return;
	}
	if (e < 0)
		e = -e;
	/* the digits backwards, then forwards after "E#" */
	do {
		d[i++] = '0' + (char)(e % 10);
		e /= 10;
	} while (e && i < 20);
	dst[0] = 'E';
	dst[1] = '#';
	for (int j = 0; j < 20 && j < i; j++)
		dst[2 + j] = d[i - 1 - j];
	dst[2 + (i & 31)] = 0;
}

/* SystemTap's _signal_name: SIGKILL, SIG_0, SIGIO/SIGPOLL, TRACESYSGOOD,
 * else the number in hex (SIGSTKFLT and real-time signals too). */
STP_INLINE void stp_signal_name(char *dst, int64_t sig)
{
	u64 d[1] = { (u64)(u32)sig }, k = (u64)sig;

	/* opaque: clang would index by a copy of sig the check missed */
	asm volatile("" : "+r"(k));
	if (sig == SIGIO)
		stp_kend(dst, stp_kcat(dst, 0, "SIGIO/SIGPOLL"));
	else if (sig == (SIGTRAP | 0x80))
		stp_kend(dst, stp_kcat(dst, 0, "TRACESYSGOOD"));
	else if (k < 32 && k != SIGSTKFLT && stp_signal_names[k][0])
		stp_kend(dst, stp_kcat(dst, 0, stp_signal_names[k]));
	else
		bpf_snprintf(dst, MAXSTRINGLEN, "0x%llx", d, sizeof(d));
}

/* SystemTap's signal_str: the name without SIG, "IO/POLL" for SIGIO,
 * "" for a number no signal has. */
STP_INLINE void stp_signal_str(char *dst, int64_t sig)
{
	u64 d[1] = { (u64)(sig - SIGRTMIN) }, k = (u64)sig;

	dst[0] = 0;
	/* opaque: clang would index by a copy of sig the check missed */
	asm volatile("" : "+r"(k));
	if (sig == SIGIO)
		stp_kend(dst, stp_kcat(dst, 0, "IO/POLL"));
	else if (k > 0 && k < 32 && stp_signal_names[k][0])
		stp_kend(dst, stp_kcat(dst, 0, stp_signal_names[k] + 3));
	else if (sig == SIGRTMIN)
		stp_kend(dst, stp_kcat(dst, 0, "RTMIN"));
	else if (sig > SIGRTMIN && sig <= 64)
		bpf_snprintf(dst, MAXSTRINGLEN, "RTMIN+%lld", d, sizeof(d));
}

#endif
