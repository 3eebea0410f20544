// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tests/guest/e2e/syscall_structs2's workload: system calls that pass
 * sockaddrs, sigactions, stacks, siginfos, timexes, a user_desc and
 * quota structs with known contents.  Most are made to fail before they
 * act (a bad descriptor, a bad size, an absent process, a bad tick), so
 * that the structs can hold any values, and those laid out as a 32-bit
 * process's are only read by the probes.  Raw system calls throughout:
 * libc would make them other calls or check their arguments first.
 */
#include <asm/ldt.h>
#include <linux/quota.h>
#include <netinet/in.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/timex.h>
#include <sys/un.h>
#include <unistd.h>

#define NOPID 0x7ffffffe	/* a process that is not there */
#ifndef SA_RESTORER
#define SA_RESTORER 0x04000000	/* the kernel's; libc keeps it to itself */
#endif

/* the kernel's struct sigaction and a 32-bit process's two */
struct ksigaction {
	unsigned long handler, flags, restorer, mask;
};
struct sigaction32 {
	uint32_t handler, flags, restorer, mask[2];
};
struct old_sigaction32 {
	uint32_t handler, mask, flags, restorer;
};

/* a 32-bit process's stack_t and timex (the fields SystemTap shows) */
struct stack32 {
	uint32_t sp;
	int32_t flags;
	uint32_t size;
};
struct timex32 {
	uint32_t modes;
	int32_t offset, freq, maxerror, esterror, status, constant, precision, tolerance;
	int32_t rest[20];
};

/* siginfo's first words and the ones after them, 64-bit and 32-bit */
struct siginfo64 {
	int signo, errno_, code, pad;
	int f[28];
};
struct siginfo32 {
	int signo, errno_, code;
	int f[29];
};

static void sockaddrs(void)
{
	struct sockaddr_in in = { .sin_family = AF_INET, .sin_port = htons(9),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct sockaddr_in6 in6 = { .sin6_family = AF_INET6, .sin6_port = htons(7),
				    .sin6_flowinfo = htonl(0x12345), .sin6_scope_id = 3,
				    .sin6_addr = IN6ADDR_LOOPBACK_INIT };
	struct sockaddr_un un = { .sun_family = AF_UNIX, .sun_path = "/tmp/structs2.sock" };
	struct sockaddr_un abs = { .sun_family = AF_UNIX, .sun_path = "\0stp\tx" };

	/* descriptor -1: each fails with EBADF, its address read first */
	syscall(SYS_connect, -1, &in, sizeof(in));
	syscall(SYS_connect, -1, &in6, sizeof(in6));
	syscall(SYS_bind, -1, &un, offsetof(struct sockaddr_un, sun_path) + 19);
	syscall(SYS_bind, -1, &abs, offsetof(struct sockaddr_un, sun_path) + 6);
	syscall(SYS_connect, -1, &in, 8);
	syscall(SYS_connect, -1, NULL, 0);
	syscall(SYS_connect, -1, (void *)1, sizeof(in));
}

static void sigactions(void)
{
	struct ksigaction act = { 0x12345678, SA_RESTART | SA_SIGINFO | SA_RESTORER, 0x87654321,
				  1UL << (SIGINT - 1) | 1UL << (SIGTERM - 1) };
	struct ksigaction ign = { (unsigned long)SIG_IGN, 0, 0, 0 };
	struct sigaction32 act32 = { 0x8048000,
				     SA_NOCLDSTOP | SA_ONSTACK | SA_NODEFER | 0x100, 0x8049000,
				     { 1U << (SIGHUP - 1) | 1U << (SIGUSR1 - 1), 0 } };
	struct old_sigaction32 old32 = { 0x8048100, 1U << (SIGALRM - 1), SA_RESETHAND, 0x8049100 };

	/* SIGUSR2's handler is never run: the signal is never sent */
	syscall(SYS_rt_sigaction, SIGUSR2, &act, NULL, 8);
	syscall(SYS_rt_sigaction, SIGUSR1, &ign, NULL, 8);
	/* sigset sizes 0 and 1: EINVAL, the 32-bit layouts are only read */
	syscall(SYS_rt_sigaction, SIGUSR2, &act32, NULL, 0);
	syscall(SYS_rt_sigaction, SIGUSR2, &old32, NULL, 1);
}

static void stacks(void)
{
	stack_t off = { .ss_sp = (void *)0x12340000, .ss_flags = SS_DISABLE, .ss_size = 8192 };
	struct stack32 st32 = { 0x5000, SS_ONSTACK, 4096 };
	stack_t old;

	syscall(SYS_sigaltstack, &off, NULL);
	/* read as this process's: flags 4096, EINVAL */
	syscall(SYS_sigaltstack, &st32, NULL);
	syscall(SYS_sigaltstack, NULL, &old);
}

static void siginfos(void)
{
	struct siginfo64 q = { SIGUSR1, 0, SI_QUEUE, 0, { 4242, 1000 } };
	struct siginfo64 chld = { SIGCHLD, 0, CLD_KILLED, 0, { 4242, 1000, SIGKILL } };
	struct siginfo32 timer = { SIGUSR2, 0, SI_TIMER, { 7, 3 } };

	/* SIGUSR1 is ignored (sigactions): queued to itself, dropped */
	syscall(SYS_rt_sigqueueinfo, getpid(), SIGUSR1, &q);
	syscall(SYS_rt_sigqueueinfo, NOPID, SIGCHLD, &chld);
	syscall(SYS_rt_sigqueueinfo, NOPID, SIGUSR2, &timer);
	syscall(SYS_rt_sigqueueinfo, NOPID, SIGUSR2, NULL);
}

static void timexes(void)
{
	struct timex now = { .modes = 0 };
	/* tick 1 is out of range: EINVAL (EPERM unprivileged), nothing set */
	struct timex bad = { .modes = ADJ_OFFSET | ADJ_STATUS | ADJ_TICK, .offset = 5,
			     .freq = -1, .maxerror = 8, .esterror = 9, .status = STA_PLL,
			     .constant = 2, .precision = 3, .tolerance = 4, .tick = 1 };
	/* read as this process's: ADJ_TICK, tick 0, EINVAL */
	struct timex32 bad32 = { ADJ_TICK, 5, -1, 8, 9, STA_PLL, 2, 3, 4, { 0 } };

	syscall(SYS_adjtimex, &now);
	syscall(SYS_adjtimex, &bad);
	syscall(SYS_adjtimex, &bad32);
}

static void others(void)
{
	/* entry 5 is no TLS entry: EINVAL */
	struct user_desc ud = { .entry_number = 5, .base_addr = 0x1000, .limit = 0xfff,
				.seg_32bit = 1, .limit_in_pages = 1, .useable = 1 };
	struct if_dqblk dq = { .dqb_bhardlimit = 100, .dqb_bsoftlimit = 50,
			       .dqb_ihardlimit = 10, .dqb_isoftlimit = 5 };
	struct if_dqinfo di = { .dqi_bgrace = 604800, .dqi_igrace = 86400, .dqi_valid = 3 };

	syscall(SYS_set_thread_area, &ud);
	syscall(SYS_set_thread_area, (void *)1);
	/* no such device: ENOENT */
	syscall(SYS_quotactl, QCMD(Q_SETQUOTA, USRQUOTA), "/nonexistent", 0, &dq);
	syscall(SYS_quotactl, QCMD(Q_SETINFO, USRQUOTA), "/nonexistent", 0, &di);
}

int main(void)
{
	sockaddrs();
	sigactions();
	stacks();
	siginfos();
	timexes();
	others();
	return 0;
}
