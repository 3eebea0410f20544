// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lmbench-style microbenchmarks of the kernel's common paths, linked
 * statically into the bench guest's initramfs (tests/bench/footprint.sh):
 * what a script that watches the whole system costs every program.
 *
 *   lmb [-s SCALE] [-x PROGRAM] [TEST...]
 *
 * Each test runs a tenth of its iterations untimed (warm-up), then its
 * fixed count (times SCALE, default 1) timed as one loop, and prints
 *
 *   NAME NS_PER_OP ITERATIONS
 *
 * NS_PER_OP is the loop's CLOCK_MONOTONIC time over its iterations: every
 * cost of the loop, interrupts and the tracer's periodic work included.
 * Under QEMU's -icount the clock counts executed instructions, so figures
 * repeat from run to run.  The counts keep the whole set near 6 s of
 * guest time.  -x names the program fork_exec runs (default
 * ./lmb_nop, a static program that only returns).  With TEST names only
 * those run.  Exit status 0, or 1 (with a message) when a test cannot
 * set up.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define STAT_DIR "/tmp/lmb"
#define STAT_FILE STAT_DIR "/file"
#define SELECT_MAX 500

/* What the tests set up and their loops use. */
static struct {
	int zero, null;		/* /dev/zero, /dev/null */
	int file;		/* STAT_FILE */
	int nfds;		/* select: fds 0..nfds-1 watched */
	fd_set watch;
	int quiet;		/* select: the watched pipe's write end */
	int ping[2], pong[2];	/* pipe_lat: parent -> child, back */
	pid_t child;
	char *page;		/* prot_fault's page */
	long pagesz;
	const char *exec;	/* fork_exec's program */
	volatile long sink;
} st;

static void die(const char *what)
{
	fprintf(stderr, "lmb: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void op_getpid(void)
{
	st.sink += syscall(SYS_getpid);	/* the system call, never a library's copy */
}

static void op_read(void)
{
	char c;

	if (read(st.zero, &c, 1) != 1)
		die("read /dev/zero");
}

static void op_write(void)
{
	char c = 0;

	if (write(st.null, &c, 1) != 1)
		die("write /dev/null");
}

static void op_stat(void)
{
	struct stat sb;

	if (stat(STAT_FILE, &sb))
		die("stat " STAT_FILE);
}

static void op_fstat(void)
{
	struct stat sb;

	if (fstat(st.file, &sb))
		die("fstat " STAT_FILE);
}

static void op_open_close(void)
{
	int fd = open(STAT_FILE, O_RDONLY);

	if (fd < 0)
		die("open " STAT_FILE);
	close(fd);
}

/* Every watched fd is a pipe's read end with nothing in it: select polls
 * them all and returns 0. */
static void op_select(void)
{
	fd_set r = st.watch;
	struct timeval tv = { 0, 0 };

	if (select(st.nfds, &r, NULL, NULL, &tv) != 0)
		die("select");
}

static void on_usr1(int sig)
{
	st.sink += sig;
}

static void op_sig_install(void)
{
	struct sigaction sa = { .sa_handler = on_usr1 };

	if (sigaction(SIGUSR1, &sa, NULL))
		die("sigaction");
}

static void op_sig_catch(void)
{
	kill(getpid(), SIGUSR1);
}

/* The write below faults; the handler opens the page and the write is
 * retried.  One operation: mprotect, the fault, the signal's delivery and
 * return, the handler's mprotect. */
static void on_segv(int sig)
{
	(void)sig;
	if (mprotect(st.page, st.pagesz, PROT_READ | PROT_WRITE))
		_exit(3);
}

static void op_prot_fault(void)
{
	if (mprotect(st.page, st.pagesz, PROT_READ))
		die("mprotect");
	*(volatile char *)st.page = 1;
}

/* One round trip of a byte between this process and the child. */
static void op_pipe_lat(void)
{
	char c = 0;

	if (write(st.ping[1], &c, 1) != 1 || read(st.pong[0], &c, 1) != 1)
		die("pipe round trip");
}

static void op_fork_exit(void)
{
	pid_t p = fork();

	if (p < 0)
		die("fork");
	if (p == 0)
		_exit(0);
	waitpid(p, NULL, 0);
}

static void op_fork_exec(void)
{
	char *argv[] = { (char *)st.exec, NULL };
	char *envp[] = { NULL };
	int status;
	pid_t p = fork();

	if (p < 0)
		die("fork");
	if (p == 0) {
		execve(st.exec, argv, envp);
		_exit(127);
	}
	waitpid(p, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "lmb: %s did not exit with 0\n", st.exec);
		exit(1);
	}
}

static void watch_pipe(int n)
{
	int p[2], fd;

	if (pipe(p))
		die("pipe");
	st.quiet = p[1];	/* open, or the read ends would be at EOF */
	FD_ZERO(&st.watch);
	FD_SET(p[0], &st.watch);
	st.nfds = p[0] + 1;
	while (--n > 0) {
		fd = dup(p[0]);
		if (fd < 0 || fd >= FD_SETSIZE)
			die("dup of a pipe for select");
		FD_SET(fd, &st.watch);
		if (fd >= st.nfds)
			st.nfds = fd + 1;
	}
}

static void set_select_10(void)
{
	watch_pipe(10);
}

static void set_select_500(void)
{
	struct rlimit rl;

	/* 500 fds and the few open before them pass the soft limit where
	 * it is 512; raise it to the hard one */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	watch_pipe(SELECT_MAX);
}

static void end_select(void)
{
	for (int fd = 0; fd < st.nfds; fd++)
		if (FD_ISSET(fd, &st.watch))
			close(fd);
	close(st.quiet);
}

static void set_sig_catch(void)
{
	op_sig_install();
}

static void set_prot_fault(void)
{
	struct sigaction sa = { .sa_handler = on_segv };

	st.pagesz = sysconf(_SC_PAGESIZE);
	st.page = mmap(NULL, st.pagesz, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (st.page == MAP_FAILED)
		die("mmap");
	if (sigaction(SIGSEGV, &sa, NULL))
		die("sigaction SIGSEGV");
}

static void end_prot_fault(void)
{
	signal(SIGSEGV, SIG_DFL);
	munmap(st.page, st.pagesz);
}

/* The child echoes each byte until the parent closes its end. */
static void set_pipe_lat(void)
{
	char c;

	if (pipe(st.ping) || pipe(st.pong))
		die("pipe");
	st.child = fork();
	if (st.child < 0)
		die("fork");
	if (st.child == 0) {
		close(st.ping[1]);
		close(st.pong[0]);
		while (read(st.ping[0], &c, 1) == 1)
			if (write(st.pong[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	close(st.ping[0]);
	close(st.pong[1]);
}

static void end_pipe_lat(void)
{
	close(st.ping[1]);
	close(st.pong[0]);
	waitpid(st.child, NULL, 0);
}

static void set_fork_exec(void)
{
	if (access(st.exec, X_OK))
		die(st.exec);
}

/* Opened once for the tests that read, write or stat a file. */
static void open_files(void)
{
	st.zero = open("/dev/zero", O_RDONLY);
	st.null = open("/dev/null", O_WRONLY);
	if (st.zero < 0 || st.null < 0)
		die("/dev/zero or /dev/null");
	if (mkdir(STAT_DIR, 0755) && errno != EEXIST)
		die("mkdir " STAT_DIR);
	st.file = open(STAT_FILE, O_RDWR | O_CREAT, 0644);
	if (st.file < 0)
		die(STAT_FILE);
}

/* Counts for about 0.4 s of 6.1's guest time each under -icount
 * (1 ns = 1 instruction), so that a timer tick's work or one
 * epoch's end weighs little against a loop. */
struct test {
	const char *name;
	long iters;		/* at SCALE 1 */
	void (*setup)(void);	/* NULL: none */
	void (*op)(void);
	void (*end)(void);	/* NULL: none */
};

static const struct test tests[] = {
	{ "getpid", 1000000, NULL, op_getpid, NULL },
	{ "read", 500000, NULL, op_read, NULL },
	{ "write", 500000, NULL, op_write, NULL },
	{ "stat", 100000, NULL, op_stat, NULL },
	{ "fstat", 150000, NULL, op_fstat, NULL },
	{ "open_close", 50000, NULL, op_open_close, NULL },
	{ "select_10", 150000, set_select_10, op_select, end_select },
	{ "select_500", 5000, set_select_500, op_select, end_select },
	{ "sig_install", 800000, NULL, op_sig_install, NULL },
	{ "sig_catch", 100000, set_sig_catch, op_sig_catch, NULL },
	{ "prot_fault", 40000, set_prot_fault, op_prot_fault, end_prot_fault },
	{ "pipe_lat", 20000, set_pipe_lat, op_pipe_lat, end_pipe_lat },
	{ "fork_exit", 2000, NULL, op_fork_exit, NULL },
	{ "fork_exec", 600, set_fork_exec, op_fork_exec, NULL },
};

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void run(const struct test *t, double scale)
{
	long n = (long)(t->iters * scale), i;
	long long t0, t1;

	if (n < 10)
		n = 10;
	if (t->setup)
		t->setup();
	for (i = 0; i < n / 10; i++)
		t->op();
	t0 = now_ns();
	for (i = 0; i < n; i++)
		t->op();
	t1 = now_ns();
	if (t->end)
		t->end();
	printf("%s %.1f %ld\n", t->name, (double)(t1 - t0) / n, n);
	fflush(stdout);
}

static int wanted(const char *name, char **names, int n)
{
	if (n == 0)
		return 1;
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	double scale = 1;
	size_t i;
	int opt;

	st.exec = "./lmb_nop";
	while ((opt = getopt(argc, argv, "s:x:")) != -1) {
		if (opt == 's' && atof(optarg) > 0)
			scale = atof(optarg);
		else if (opt == 'x')
			st.exec = optarg;
		else {
			fprintf(stderr, "usage: lmb [-s SCALE] [-x PROGRAM] [TEST...]\n");
			return 2;
		}
	}
	for (int a = optind; a < argc; a++) {
		for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
			if (!strcmp(tests[i].name, argv[a]))
				break;
		if (i == sizeof(tests) / sizeof(tests[0])) {
			fprintf(stderr, "lmb: no test %s\n", argv[a]);
			return 2;
		}
	}
	open_files();
	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
		if (wanted(tests[i].name, argv + optind, argc - optind))
			run(&tests[i], scale);
	return 0;
}
