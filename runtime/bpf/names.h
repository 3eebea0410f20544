/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The names of error numbers and signals, for errno_str() and
 * signal_str() on both sides of a --runtime=bpf script: the kernel side
 * (tapset.h) and user space (staprun/bpf/names.c, for begin and end
 * probes).  Arrays of characters, not pointers: BPF's data cannot hold
 * pointers.  The includer brings the errno and SIG* macros (the UAPI
 * headers in the kernel side, the C library's in user space: the same
 * numbers, the kernel's ABI).
 */
#ifndef STP_BPF_NAMES_H
#define STP_BPF_NAMES_H

#include <linux/errno.h>

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

/* The names of signals 0-31 (SIGKILL), from the UAPI macros, for
 * _signal_name() and signal_str() (which drops the SIG). */
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

#endif
