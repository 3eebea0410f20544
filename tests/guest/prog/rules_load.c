// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rules_load: the guest workloads that provoke stp-vitals' diagnosis
 * rules (issues 16, 27).  build.sh installs it under one name per workload,
 * and the name picks it, so each is its own program in the store:
 *
 *   rules_leak S     touches 64 fresh pages every 100 ms for S seconds
 *                    and never frees them: user memory rising (rule 2)
 *   rules_starve S   three spinners pinned to CPU 0 for S seconds, one of
 *                    them at nice 19: it waits, runnable, while the others
 *                    run (rule 7)
 *   rules_send S     send() on a TCP connection whose peer has closed,
 *                    with MSG_NOSIGNAL, in a loop for S seconds: every
 *                    call fails at once (EPIPE), a busy loop around a
 *                    system call (rule 8)
 *   rules_segv S     a system call every 10 ms for S seconds, then a
 *                    write through a null pointer: dies of SIGSEGV (10)
 *   rules_victim     a system call every 10 ms until killed (the test
 *                    sends SIGKILL: rule 10)
 *   rules_exit S     a system call every 50 ms for S seconds, then returns
 *                    from main: libc's exit_group (rule 10, exited)
 *   rules_stop       a system call every 50 ms until killed (the test
 *                    stops it with SIGSTOP first: rule 10, stopped)
 *   rules_badio S DEV  reads the 64 KB at 4 MB of block device DEV with
 *                    O_DIRECT every 100 ms for S seconds; the test marks
 *                    its sectors bad (null_blk), so each read must fail
 *                    with EIO: requests answered with no data (rule 3)
 *   rules_goodio S DEV  the same of the 64 KB at 0, which must succeed
 *
 * A failed step says what on stderr; the exit status is then 1.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int fail(const char *what)
{
	fprintf(stderr, "rules_load: %s: %s\n", what, strerror(errno));
	return 1;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };

	nanosleep(&ts, NULL);
}

static int leak(long s)
{
	long page = sysconf(_SC_PAGESIZE), end = now_ms() + s * 1000;

	while (now_ms() < end) {
		char *p = mmap(NULL, 64 * page, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			return fail("mmap");
		for (int i = 0; i < 64; i++)
			p[i * page] = 1;
		nap_ms(100);
	}
	return 0;
}

static void spin_until(long end)
{
	volatile long x = 0;

	while (now_ms() < end)
		for (int i = 0; i < 10000; i++)
			x += i;
}

static int starve(long s)
{
	long end = now_ms() + s * 1000;
	cpu_set_t one;
	pid_t kid[2];

	CPU_ZERO(&one);
	CPU_SET(0, &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		return fail("sched_setaffinity");
	for (int i = 0; i < 2; i++) {
		kid[i] = fork();
		if (kid[i] < 0)
			return fail("fork");
		if (kid[i] == 0) {
			/* the first child is the one held from running */
			if (i == 0 && setpriority(PRIO_PROCESS, 0, 19))
				_exit(1);
			spin_until(end);
			_exit(0);
		}
	}
	spin_until(end);
	for (int i = 0; i < 2; i++)
		waitpid(kid[i], NULL, 0);
	return 0;
}

/* The guest's initramfs leaves lo down. */
static void lo_up(void)
{
	struct ifreq ifr = { 0 };
	int s = socket(AF_INET, SOCK_DGRAM, 0);

	if (s < 0)
		return;
	strcpy(ifr.ifr_name, "lo");
	if (ioctl(s, SIOCGIFFLAGS, &ifr) == 0 && !(ifr.ifr_flags & IFF_UP)) {
		ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
		ioctl(s, SIOCSIFFLAGS, &ifr);
	}
	close(s);
}

static int send_loop(long s)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(7778) };
	long end = now_ms() + s * 1000, failed = 0;
	int one = 1, l, c, p;
	char b = 'x';

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	lo_up();
	l = socket(AF_INET, SOCK_STREAM, 0);
	setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (l < 0 || bind(l, (void *)&a, sizeof(a)) || listen(l, 1))
		return fail("listen on 127.0.0.1:7778");
	c = socket(AF_INET, SOCK_STREAM, 0);
	if (c < 0 || connect(c, (void *)&a, sizeof(a)))
		return fail("connect to 127.0.0.1:7778");
	p = accept(l, NULL, NULL);
	if (p < 0)
		return fail("accept");
	close(p);
	close(l);
	while (now_ms() < end)
		for (int i = 0; i < 100; i++)
			failed += send(c, &b, 1, MSG_NOSIGNAL) < 0;
	close(c);
	return failed ? 0 : (errno = 0, fail("no send failed"));
}

static int segv(long s)
{
	long end = now_ms() + s * 1000;

	while (now_ms() < end)
		nap_ms(10);
	/* a null pointer the compiler cannot see is one */
	*(volatile int *)((long)getppid() * 0) = 1;
	return 1;
}

static int victim(long ms)
{
	for (;;)
		nap_ms(ms);
	return 0;
}

static int ends(long s)
{
	long end = now_ms() + s * 1000;

	while (now_ms() < end)
		nap_ms(50);
	return 0;
}

/* 64 KB at offset off of dev, S seconds, every 100 ms; bad: each read
 * must fail with EIO, else succeed. */
static int blk_read(long s, const char *dev, long off, int bad)
{
	enum { BS = 64 * 1024 };
	long end = now_ms() + s * 1000;
	void *buf;
	ssize_t n;
	int fd;

	fd = dev ? open(dev, O_RDONLY | O_DIRECT) : -1;
	if (fd < 0)
		return fail(dev ? dev : "no device named");
	if (posix_memalign(&buf, 4096, BS))
		return fail("posix_memalign");
	while (now_ms() < end) {
		n = pread(fd, buf, BS, off);
		if (bad && (n >= 0 || errno != EIO))
			return n >= 0 ? (errno = 0, fail("a bad block was read"))
				      : fail("a bad block's read");
		if (!bad && n != BS)
			return fail("a good block's read");
		nap_ms(100);
	}
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	const char *name = strrchr(argv[0], '/');
	long s = argc > 1 ? atol(argv[1]) : 4;

	name = name ? name + 1 : argv[0];
	if (!strcmp(name, "rules_leak"))
		return leak(s);
	if (!strcmp(name, "rules_starve"))
		return starve(s);
	if (!strcmp(name, "rules_send"))
		return send_loop(s);
	if (!strcmp(name, "rules_segv"))
		return segv(s);
	if (!strcmp(name, "rules_victim"))
		return victim(10);
	if (!strcmp(name, "rules_exit"))
		return ends(s);
	if (!strcmp(name, "rules_stop"))
		return victim(50);
	if (!strcmp(name, "rules_badio"))
		return blk_read(s, argc > 2 ? argv[2] : NULL, 4 << 20, 1);
	if (!strcmp(name, "rules_goodio"))
		return blk_read(s, argc > 2 ? argv[2] : NULL, 0, 0);
	fprintf(stderr, "rules_load: run as rules_leak, rules_starve, "
		"rules_send, rules_segv, rules_victim, rules_exit, rules_stop, "
		"rules_badio or rules_goodio, not '%s'\n", name);
	return 2;
}
