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

/* errno_str(): the names of the error numbers, as in the kmod tapset
 * (tapsets/linux/errno.stp), but as arrays of characters: BPF's data
 * cannot hold pointers.  The kernel-internal numbers (512 and up, not in
 * the UAPI headers) by number. */
#define STP_E(x) [x] = #x
static const char stp_errno_names[134][16] = {
	STP_E(EPERM), STP_E(ENOENT), STP_E(ESRCH), STP_E(EINTR), STP_E(EIO),
	STP_E(ENXIO), STP_E(E2BIG), STP_E(ENOEXEC), STP_E(EBADF), STP_E(ECHILD),
	STP_E(EAGAIN), STP_E(ENOMEM), STP_E(EACCES), STP_E(EFAULT), STP_E(ENOTBLK),
	STP_E(EBUSY), STP_E(EEXIST), STP_E(EXDEV), STP_E(ENODEV), STP_E(ENOTDIR),
	STP_E(EISDIR), STP_E(EINVAL), STP_E(ENFILE), STP_E(EMFILE), STP_E(ENOTTY),
	STP_E(ETXTBSY), STP_E(EFBIG), STP_E(ENOSPC), STP_E(ESPIPE), STP_E(EROFS),
	STP_E(EMLINK), STP_E(EPIPE), STP_E(EDOM), STP_E(ERANGE), STP_E(EDEADLK),
	STP_E(ENAMETOOLONG), STP_E(ENOLCK), STP_E(ENOSYS), STP_E(ENOTEMPTY),
	STP_E(ELOOP), STP_E(ENOMSG), STP_E(EIDRM), STP_E(ECHRNG), STP_E(EL2NSYNC),
	STP_E(EL3HLT), STP_E(EL3RST), STP_E(ELNRNG), STP_E(EUNATCH), STP_E(ENOCSI),
	STP_E(EL2HLT), STP_E(EBADE), STP_E(EBADR), STP_E(EXFULL), STP_E(ENOANO),
	STP_E(EBADRQC), STP_E(EBADSLT), STP_E(EBFONT), STP_E(ENOSTR), STP_E(ENODATA),
	STP_E(ETIME), STP_E(ENOSR), STP_E(ENONET), STP_E(ENOPKG), STP_E(EREMOTE),
	STP_E(ENOLINK), STP_E(EADV), STP_E(ESRMNT), STP_E(ECOMM), STP_E(EPROTO),
	STP_E(EMULTIHOP), STP_E(EDOTDOT), STP_E(EBADMSG), STP_E(EOVERFLOW),
	STP_E(ENOTUNIQ), STP_E(EBADFD), STP_E(EREMCHG), STP_E(ELIBACC),
	STP_E(ELIBBAD), STP_E(ELIBSCN), STP_E(ELIBMAX), STP_E(ELIBEXEC),
	STP_E(EILSEQ), STP_E(ERESTART), STP_E(ESTRPIPE), STP_E(EUSERS),
	STP_E(ENOTSOCK), STP_E(EDESTADDRREQ), STP_E(EMSGSIZE), STP_E(EPROTOTYPE),
	STP_E(ENOPROTOOPT), STP_E(EPROTONOSUPPORT), STP_E(ESOCKTNOSUPPORT),
	STP_E(EOPNOTSUPP), STP_E(EPFNOSUPPORT), STP_E(EAFNOSUPPORT),
	STP_E(EADDRINUSE), STP_E(EADDRNOTAVAIL), STP_E(ENETDOWN), STP_E(ENETUNREACH),
	STP_E(ENETRESET), STP_E(ECONNABORTED), STP_E(ECONNRESET), STP_E(ENOBUFS),
	STP_E(EISCONN), STP_E(ENOTCONN), STP_E(ESHUTDOWN), STP_E(ETOOMANYREFS),
	STP_E(ETIMEDOUT), STP_E(ECONNREFUSED), STP_E(EHOSTDOWN), STP_E(EHOSTUNREACH),
	STP_E(EALREADY), STP_E(EINPROGRESS), STP_E(ESTALE), STP_E(EUCLEAN),
	STP_E(ENOTNAM), STP_E(ENAVAIL), STP_E(EISNAM), STP_E(EREMOTEIO),
	STP_E(EDQUOT), STP_E(ENOMEDIUM), STP_E(EMEDIUMTYPE), STP_E(ECANCELED),
	STP_E(ENOKEY), STP_E(EKEYEXPIRED), STP_E(EKEYREVOKED), STP_E(EKEYREJECTED),
	STP_E(EOWNERDEAD), STP_E(ENOTRECOVERABLE), STP_E(ERFKILL), STP_E(EHWPOISON),
};
#undef STP_E

static const char stp_errno_kernel_names[19][24] = {
	[512 - 512] = "ERESTARTSYS",
	[513 - 512] = "ERESTARTNOINTR",
	[514 - 512] = "ERESTARTNOHAND",
	[515 - 512] = "ENOIOCTLCMD",
	[516 - 512] = "ERESTART_RESTARTBLOCK",
	[517 - 512] = "EPROBE_DEFER",
	[518 - 512] = "EOPENSTALE",
	[521 - 512] = "EBADHANDLE",
	[522 - 512] = "ENOTSYNC",
	[523 - 512] = "EBADCOOKIE",
	[524 - 512] = "ENOTSUPP",
	[525 - 512] = "ETOOSMALL",
	[526 - 512] = "ESERVERFAULT",
	[527 - 512] = "EBADTYPE",
	[528 - 512] = "EJUKEBOX",
	[529 - 512] = "EIOCBQUEUED",
	[530 - 512] = "ERECALLCONFLICT",
};

/* The name of error number e (positive or negative), or NULL. */
STP_INLINE const char *stp_errno_name(int64_t e)
{
	const char *n = 0;

	if (e < 0)
		e = -e;
	if (e < 134)
		n = stp_errno_names[e];
	else if (e >= 512 && e < 512 + 19)
		n = stp_errno_kernel_names[e - 512];
	return n && n[0] ? n : 0;
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

/* signal_str(): the names of signals 1-31 (SIGKILL), SIGRTMIN and
 * SIGRTMIN+N up to the kernel's _NSIG (64 on x86-64, not in the UAPI
 * headers), else SIG_UNKNOWN(N); from the UAPI macros. */
#define STP_S(x) [x] = #x
static const char stp_signal_names[32][24] = {
	[0] = "SIG_0",
	STP_S(SIGHUP), STP_S(SIGINT), STP_S(SIGQUIT), STP_S(SIGILL),
	STP_S(SIGTRAP), STP_S(SIGABRT), STP_S(SIGBUS), STP_S(SIGFPE),
	STP_S(SIGKILL), STP_S(SIGUSR1), STP_S(SIGSEGV), STP_S(SIGUSR2),
	STP_S(SIGPIPE), STP_S(SIGALRM), STP_S(SIGTERM), STP_S(SIGSTKFLT),
	STP_S(SIGCHLD), STP_S(SIGCONT), STP_S(SIGSTOP), STP_S(SIGTSTP),
	STP_S(SIGTTIN), STP_S(SIGTTOU), STP_S(SIGURG), STP_S(SIGXCPU),
	STP_S(SIGXFSZ), STP_S(SIGVTALRM), STP_S(SIGPROF), STP_S(SIGWINCH),
	STP_S(SIGIO), STP_S(SIGPWR), STP_S(SIGSYS),
};
#undef STP_S

STP_INLINE void stp_signal_name(char *dst, int64_t sig)
{
	u64 d[1] = { (u64)(sig - SIGRTMIN) }, k = (u64)sig;

	/* opaque: clang would index by a copy of sig the check missed */
	asm volatile("" : "+r"(k));
	if (k < 32 && stp_signal_names[k][0]) {
		stp_kend(dst, stp_kcat(dst, 0, stp_signal_names[k]));
	} else if (sig == SIGRTMIN) {
		stp_kend(dst, stp_kcat(dst, 0, "SIGRTMIN"));
	} else if (sig > SIGRTMIN && sig <= 64) {
		bpf_snprintf(dst, MAXSTRINGLEN, "SIGRTMIN+%lld", d, sizeof(d));
	} else {
		d[0] = (u64)sig;
		bpf_snprintf(dst, MAXSTRINGLEN, "SIG_UNKNOWN(%lld)", d, sizeof(d));
	}
}

#endif
