// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vitals_load: a guest workload that makes each of tapsets/vitals.stp's
 * vital signs fire, from a process named vitals_load (its comm).
 *
 *   vitals_load MODE [N]    one part; with no MODE, all of them (N each)
 *
 *   spin MS      burns MS ms of CPU in vitals_spin(), which is linked at
 *                VITALS_SPIN_ADDR (build.sh: --section-start), so a test
 *                can tell its samples' PCs (cpuu, l2mi)
 *   fork N       forks N children that exec "vitals_load nop" (kmem, sched)
 *   sched MS     two spinners pinned to CPU 0 for MS ms: each waits,
 *                runnable, while the other runs (sched)
 *   sleep N      sleeps 20 ms N times (blck)
 *   blio N       writes N 64 KB blocks with O_DIRECT to /dev/ram0 (brd:
 *                insmod /files/brd.ko first), or to the device VITALS_BLK
 *                names, and reads them back (blio)
 *   kmem N       maps, touches and unmaps 1 MB N times (kmem)
 *   umem N       touches N fresh anonymous pages (umem, kmem)
 *   syscall N    calls close(123456) N times: EBADF (syscall)
 *   sig N        sends itself SIGUSR1 N times, caught by on_usr1 (sig)
 *   sock N       a loopback TCP connection (brings lo up), N round trips
 *                of 1000 bytes to port 7777 (sock)
 *   lock N       two processes append 256 KB N times each to one tmpfs
 *                file: the inode's rwsem is contended (lock)
 *   pingpong N   two processes pass a byte back and forth over pipes N
 *                times: two context switches a round trip on one CPU
 *   nop          nothing
 *
 * Prints nothing on success; a failed step says what failed on stderr
 * and the exit status is 1.  With VITALS_TIME in the environment, a mode
 * prints its wall time divided by N, in ns (the benchmarks' figure: under
 * QEMU's -icount, instructions).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *self;

static int fail(const char *what)
{
	fprintf(stderr, "vitals_load: %s: %s\n", what, strerror(errno));
	return 1;
}

static long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

static long now_ms(void)
{
	return now_ns() / 1000000;
}

/* In a section of its own at a fixed address (build.sh): cpuu's test
 * checks that samples of this program fall in it. */
__attribute__((noinline, section(".vitals_spin")))
long vitals_spin(long ms)
{
	volatile long x = 0;
	long end = now_ms() + ms;

	while (now_ms() < end)
		for (int i = 0; i < 100000; i++)
			x += i;
	return x;
}

static int do_fork(long n)
{
	for (long i = 0; i < n; i++) {
		pid_t p = fork();

		if (p < 0)
			return fail("fork");
		if (p == 0) {
			execl(self, "vitals_load", "nop", (char *)NULL);
			_exit(127);
		}
		if (waitpid(p, NULL, 0) < 0)
			return fail("waitpid");
	}
	return 0;
}

static int do_sched(long ms)
{
	cpu_set_t one;
	pid_t p;

	CPU_ZERO(&one);
	CPU_SET(0, &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		return fail("sched_setaffinity");
	p = fork();
	if (p < 0)
		return fail("fork");
	vitals_spin(ms);
	if (p == 0)
		_exit(0);
	return waitpid(p, NULL, 0) < 0 ? fail("waitpid") : 0;
}

static int do_sleep(long n)
{
	struct timespec ts = { 0, 20 * 1000000 };

	for (long i = 0; i < n; i++)
		nanosleep(&ts, NULL);
	return 0;
}

static int do_blio(long n)
{
	enum { BS = 64 * 1024 };
	const char *dev = getenv("VITALS_BLK") ? getenv("VITALS_BLK") : "/dev/ram0";
	void *buf;
	int fd = open(dev, O_RDWR | O_DIRECT);

	if (fd < 0)
		return fail(dev);
	if (posix_memalign(&buf, 4096, BS))
		return fail("posix_memalign");
	memset(buf, 0x5a, BS);
	for (long i = 0; i < n; i++)
		if (pwrite(fd, buf, BS, i * BS) != BS)
			return fail("write");
	for (long i = 0; i < n; i++)
		if (pread(fd, buf, BS, i * BS) != BS)
			return fail("read");
	free(buf);
	close(fd);
	return 0;
}

static int do_kmem(long n)
{
	for (long i = 0; i < n; i++) {
		char *p = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

		if (p == MAP_FAILED)
			return fail("mmap");
		munmap(p, 1 << 20);
	}
	return 0;
}

static int do_umem(long n)
{
	long page = sysconf(_SC_PAGESIZE);
	volatile char *p = mmap(NULL, n * page, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return fail("mmap");
	madvise((void *)p, n * page, MADV_NOHUGEPAGE);
	for (long i = 0; i < n; i++)
		p[i * page] = 1;
	return 0;
}

static int do_syscall(long n)
{
	for (long i = 0; i < n; i++)
		close(123456);
	return 0;
}

static volatile long usr1;

static void on_usr1(int sig)
{
	(void)sig;
	usr1++;
}

static int do_sig(long n)
{
	struct sigaction sa = { .sa_handler = on_usr1 };

	if (sigaction(SIGUSR1, &sa, NULL))
		return fail("sigaction");
	for (long i = 0; i < n; i++)
		kill(getpid(), SIGUSR1);
	return usr1 == n ? 0 : (errno = EINTR, fail("SIGUSR1 count"));
}

/* The guest's initramfs leaves lo down. */
static int lo_up(void)
{
	struct ifreq ifr = { 0 };
	int s = socket(AF_INET, SOCK_DGRAM, 0);

	if (s < 0)
		return -1;
	strcpy(ifr.ifr_name, "lo");
	if (ioctl(s, SIOCGIFFLAGS, &ifr) == 0 && !(ifr.ifr_flags & IFF_UP)) {
		ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
		ioctl(s, SIOCSIFFLAGS, &ifr);
	}
	close(s);
	return 0;
}

static int do_sock(long n)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(7777) };
	char buf[1000];
	int one = 1, l, c, s;

	memset(buf, 'v', sizeof(buf));
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (lo_up())
		return fail("lo up");
	l = socket(AF_INET, SOCK_STREAM, 0);
	setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (l < 0 || bind(l, (void *)&a, sizeof(a)) || listen(l, 1))
		return fail("listen on 127.0.0.1:7777");
	c = socket(AF_INET, SOCK_STREAM, 0);
	if (c < 0 || connect(c, (void *)&a, sizeof(a)))
		return fail("connect to 127.0.0.1:7777");
	s = accept(l, NULL, NULL);
	if (s < 0)
		return fail("accept");
	for (long i = 0; i < n; i++) {
		if (write(c, buf, sizeof(buf)) != sizeof(buf) ||
		    recv(s, buf, sizeof(buf), MSG_WAITALL) != sizeof(buf) ||
		    send(s, buf, sizeof(buf), 0) != sizeof(buf) ||
		    read(c, buf, sizeof(buf)) <= 0)
			return fail("round trip");
	}
	close(s);
	close(c);
	close(l);
	return 0;
}

static int do_lock(long n)
{
	enum { BS = 256 * 1024 };
	char *buf = malloc(BS);
	pid_t p;
	int fd;

	if (!buf)
		return fail("malloc");
	memset(buf, 'l', BS);
	fd = open("/tmp/vitals_lock", O_WRONLY | O_CREAT | O_APPEND | O_TRUNC, 0600);
	if (fd < 0)
		return fail("open /tmp/vitals_lock");
	p = fork();
	if (p < 0)
		return fail("fork");
	for (long i = 0; i < n; i++) {
		if (write(fd, buf, BS) != BS)
			return fail("write /tmp/vitals_lock");
		if (i % 16 == 15 && p)
			ftruncate(fd, 0);
	}
	if (p == 0)
		_exit(0);
	waitpid(p, NULL, 0);
	close(fd);
	unlink("/tmp/vitals_lock");
	free(buf);
	return 0;
}

static int do_pingpong(long n)
{
	int ab[2], ba[2];
	char c = 'p';
	pid_t p;

	if (pipe(ab) || pipe(ba))
		return fail("pipe");
	p = fork();
	if (p < 0)
		return fail("fork");
	for (long i = 0; i < n; i++) {
		if (p == 0) {
			if (read(ab[0], &c, 1) != 1 || write(ba[1], &c, 1) != 1)
				_exit(1);
		} else if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1) {
			return fail("ping");
		}
	}
	if (p == 0)
		_exit(0);
	return waitpid(p, NULL, 0) < 0 ? fail("waitpid") : 0;
}

static int run(const char *mode, long n)
{
	static const struct {
		const char *name;
		int (*fn)(long);
		long dflt;
	} modes[] = {
		{ "spin", NULL, 500 }, { "fork", do_fork, 10 }, { "sched", do_sched, 200 },
		{ "sleep", do_sleep, 5 }, { "blio", do_blio, 16 }, { "kmem", do_kmem, 8 },
		{ "umem", do_umem, 1000 }, { "syscall", do_syscall, 10 },
		{ "sig", do_sig, 5 }, { "sock", do_sock, 10 }, { "lock", do_lock, 64 },
		{ "pingpong", do_pingpong, 0 },
	};
	int rc = 0;

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		long k = n > 0 ? n : modes[i].dflt;

		/* only when asked: the clock is no part of the vital signs' tests */
		long t0 = getenv("VITALS_TIME") ? now_ns() : 0;

		if (mode && strcmp(mode, modes[i].name))
			continue;
		if (!mode && !modes[i].dflt)	/* all: not the benchmarks */
			continue;
		/* all: block I/O only where the test loaded brd */
		if (!mode && modes[i].fn == do_blio && access("/dev/ram0", W_OK))
			continue;
		if (!modes[i].fn)
			vitals_spin(k);
		else
			rc |= modes[i].fn(k);
		if (mode && getenv("VITALS_TIME"))
			printf("%s: %.1f ns\n", mode, (double)(now_ns() - t0) / (k ? k : 1));
		if (mode)
			return rc;
	}
	if (!mode)
		return rc;
	fprintf(stderr, "vitals_load: unknown mode '%s'\n", mode);
	return 2;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : NULL;

	self = argv[0];
	if (mode && !strcmp(mode, "nop"))
		return 0;
	if (mode && !strcmp(mode, "all"))
		mode = NULL;
	return run(mode, argc > 2 ? atol(argv[2]) : 0);
}
