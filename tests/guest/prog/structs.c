// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tests/guest/e2e/syscall_structs's workload: system calls that pass
 * structs by address with known contents (a nanosleep of 1 us, then
 * one of a bad address; setrlimit of NOFILE to 64/128; setitimer of
 * 5.25 s, cancelled; timerfd_settime of 3.5 s; utime of a file to
 * 1000/2000; times and sysinfo), each once; then a child that exits
 * at once (it executes sh -c :), waited for (syscall_entry's clone and
 * wait4, syscall_letter's execve); ptrace
 * requests that fail (no such process), a sched_setparam that fails
 * (syscall_letter's get_mmap_args), prctls, and two mknods
 * (syscall_letter's argstr).
 */
#include <fcntl.h>
#include <asm/prctl.h>
#include <elf.h>
#include <linux/capability.h>
#include <linux/securebits.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/xattr.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <utime.h>

/* A key added to the process's keyring (gone with the process) and one
 * looked for that is not there; the strings on the stack */
static void key_calls(void)
{
	char type[] = "user", desc[] = "stp_test", missing[] = "stp_missing", payload[] = "abc";

	syscall(SYS_add_key, type, desc, payload, 3, -2);	/* KEY_SPEC_PROCESS_KEYRING */
	syscall(SYS_request_key, type, missing, NULL, 0);
}

/* Calls that pass structs SystemTap's argstr shows (each returns at
 * once or fails): syscall_letter */
static void struct_calls(void)
{
	struct timeval tv[2] = { { 1, 0 }, { 2, 0 } };
	struct timespec zero = { 0, 0 }, us = { 0, 1000 };
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(9),
				  .sin_addr = { htonl(INADDR_LOOPBACK) } };
	unsigned long set = 1UL << (SIGUSR1 - 1);
	char hi[] = "hi";

	syscall(SYS_futimesat, AT_FDCWD, "/tmp/structs_f", tv);
	syscall(SYS_rt_sigtimedwait, &set, NULL, &zero, 8);
	syscall(SYS_ppoll, NULL, 0, &zero, NULL, 8);
	syscall(SYS_pselect6, 0, NULL, NULL, NULL, &us, NULL);
	syscall(SYS_sendto, -1, hi, 2, 0, &to, sizeof(to));
	/* -1: "no change", which SystemTap shows as -1 */
	syscall(SYS_chown, "/tmp/structs_f", -1, -1);
	syscall(SYS_setresuid, -1, -1, -1);
	key_calls();
	syscall(SYS_io_getevents, 0, 0, 0, NULL, &zero);
}

/* Extended attributes set on the file (they may fail: tmpfs before
 * 6.6 has no user.* attributes); syscall_letter shows the values. */
static void xattr_calls(void)
{
	char v1[] = "v1", v2[] = { 1, 'a', 0x7f }, path[] = "/tmp/structs_f", n[] = "user.k";

	syscall(SYS_setxattr, path, n, v1, 3, XATTR_CREATE);
	syscall(SYS_lsetxattr, path, n, v2, 3, 0);
}

/* prctl options as syscall_letter shows them (each harmless here) */
static void prctl_calls(void)
{
	syscall(SYS_prctl, PR_GET_DUMPABLE, 0, 0, 0, 0);
	syscall(SYS_prctl, PR_SET_DUMPABLE, 1, 0, 0, 0);
	syscall(SYS_prctl, PR_CAPBSET_READ, CAP_SYS_ADMIN, 0, 0, 0);
	syscall(SYS_prctl, PR_SET_SECUREBITS, SECBIT_NOROOT | SECBIT_KEEP_CAPS, 0, 0, 0);
	syscall(SYS_prctl, PR_MCE_KILL, PR_MCE_KILL_SET, PR_MCE_KILL_EARLY, 0, 0);
	syscall(SYS_prctl, PR_SET_PTRACER, -1L, 0, 0, 0);
	syscall(SYS_prctl, PR_SET_PTRACER, 1234, 0, 0, 0);
	syscall(SYS_prctl, 0x7777, 1, 2, 3, 4);
}

static unsigned int mmap_block[6] = { 0x8000, 4096, 1, 2, 3, 0 };

/* Requests on a process that is not there: each fails, its arguments
 * are what the probe shows. */
static void ptrace_calls(void)
{
	struct iovec iov = { (void *)0x1000, 216 };

	syscall(SYS_ptrace, PTRACE_PEEKDATA, 1, 0x1000, 0);
	syscall(SYS_ptrace, PTRACE_CONT, 99999, 0, 18);
	syscall(SYS_ptrace, PTRACE_SETOPTIONS, 99999, 0, PTRACE_O_TRACESYSGOOD);
	syscall(SYS_ptrace, PTRACE_GETREGSET, 99999, NT_PRSTATUS, &iov);
	syscall(SYS_ptrace, PTRACE_ARCH_PRCTL, 99999, 0x2000, ARCH_GET_FS);
}

int main(void)
{
	struct timespec us = { 0, 1000 };
	struct rlimit rl = { 64, 128 };
	struct itimerval itv = { { 0, 0 }, { 5, 250000 } }, off = { { 0, 0 }, { 0, 0 } };
	struct itimerspec its = { { 0, 0 }, { 3, 500000000 } };
	struct utimbuf ub = { 1000, 2000 };
	struct tms t;
	struct sysinfo si;
	int fd;

	/* the system calls themselves: libc makes nanosleep, setrlimit
	 * and utime other calls (clock_nanosleep, prlimit64, utimensat) */
	syscall(SYS_nanosleep, &us, NULL);
	syscall(SYS_nanosleep, (void *)1, NULL);
	syscall(SYS_setrlimit, RLIMIT_NOFILE, &rl);
	setitimer(ITIMER_REAL, &itv, NULL);
	setitimer(ITIMER_REAL, &off, NULL);
	fd = timerfd_create(CLOCK_MONOTONIC, 0);
	if (fd >= 0)
		timerfd_settime(fd, 0, &its, NULL);
	close(open("/tmp/structs_f", O_WRONLY | O_CREAT, 0600));
	syscall(SYS_utime, "/tmp/structs_f", &ub);
	xattr_calls();
	struct_calls();
	unlink("/tmp/structs_f");
	times(&t);
	sysinfo(&si);
	if (fork() == 0) {
		/* on the stack: its pages are there (after fork the program's
		 * constants may not be mapped yet, and a probe reads without
		 * faulting them in) */
		char a0[] = "sh", a1[] = "-c", a2[] = ":";
		char *argv[] = { a0, a1, a2, NULL };

		execv("/bin/sh", argv);
		_exit(3);
	}
	wait(NULL);
	ptrace_calls();
	prctl_calls();
	/* an old mmap's argument block, shown by get_mmap_args; the call
	 * fails (a priority SCHED_OTHER refuses) */
	syscall(SYS_sched_setparam, 0, mmap_block);
	syscall(SYS_mknodat, AT_FDCWD, "/tmp/structs_fifo", S_IFIFO | 0600, 0);
	unlink("/tmp/structs_fifo");
	syscall(SYS_mknod, "/tmp/structs_file", S_IFREG | 0644, 0);
	unlink("/tmp/structs_file");
	return 0;
}
