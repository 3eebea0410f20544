// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tests/bpf/vitals_store's workload: for each of the vital signs a
 * machine without a PMU has, events of its own, over and over until it
 * is killed: system calls, signals to a handler, page faults and page
 * allocations, socket writes and reads, sleeps (blocked), a file
 * written and synced (block I/O), three threads busy on two CPUs
 * (sched), three threads writing one pipe (its mutex) that a fourth
 * drains, and two threads writing one terminal (lock).
 *
 * The pipe's mutex is contended only when two of its users overlap, a
 * matter of timing (a CI run saw none in three seconds).  A terminal's
 * writer holds the terminal's write mutex while it waits for room, and
 * the master side is read only a little, every 2 ms: the other writer
 * is then always waiting on that mutex, a wait of each drain's period.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static int pipe_fd[2];
static volatile sig_atomic_t got;

static void on_usr1(int sig)
{
	(void)sig;
	got++;
}

static void *busy(void *arg)
{
	(void)arg;
	for (;;)
		for (volatile int i = 0; i < 2000000; i++)
			;
	return NULL;
}

static void *writer(void *arg)
{
	static char buf[65536];

	(void)arg;
	while (write(pipe_fd[1], buf, sizeof(buf)) >= 0)
		;
	return NULL;
}

static void *drain(void *arg)
{
	static char buf[65536];

	(void)arg;
	while (read(pipe_fd[0], buf, sizeof(buf)) > 0)
		;
	return NULL;
}

static void *tty_writer(void *arg)
{
	static char buf[65536];
	int fd = *(int *)arg;

	while (write(fd, buf, sizeof(buf)) >= 0)
		;
	return NULL;
}

static void *tty_drain(void *arg)
{
	struct timespec ms2 = { 0, 2000000 };
	char buf[512];
	int fd = *(int *)arg;

	while (read(fd, buf, sizeof(buf)) > 0)
		nanosleep(&ms2, NULL);
	return NULL;
}

/* A terminal in raw mode (no echo, no output processing), its slave
 * written by two threads, its master drained slowly by a third. */
static void tty_start(void)
{
	static int master, slave;
	struct termios raw;
	pthread_t t;

	master = posix_openpt(O_RDWR | O_NOCTTY);
	if (master < 0 || grantpt(master) || unlockpt(master))
		return;
	slave = open(ptsname(master), O_RDWR | O_NOCTTY);
	if (slave < 0 || tcgetattr(slave, &raw))
		return;
	cfmakeraw(&raw);
	tcsetattr(slave, TCSANOW, &raw);
	pthread_create(&t, NULL, tty_drain, &master);
	for (int i = 0; i < 2; i++)
		pthread_create(&t, NULL, tty_writer, &slave);
}

static void round_once(const char *file)
{
	struct timespec ms20 = { 0, 20000000 };
	char buf[4096] = { 0 }, *m;
	int sv[2], fd;

	for (int i = 0; i < 2000; i++)
		getppid();
	for (int i = 0; i < 3; i++)
		raise(SIGUSR1);
	m = mmap(NULL, 8 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m != MAP_FAILED) {
		for (int i = 0; i < 8 << 20; i += 4096)
			m[i] = 1;
		munmap(m, 8 << 20);
	}
	if (!socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
		for (int i = 0; i < 10; i++)
			if (write(sv[0], buf, sizeof(buf)) < 0 || read(sv[1], buf, sizeof(buf)) < 0)
				break;
		close(sv[0]);
		close(sv[1]);
	}
	fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd >= 0) {
		for (int i = 0; i < 16; i++)
			if (write(fd, buf, sizeof(buf)) < 0)
				break;
		fsync(fd);
		close(fd);
	}
	nanosleep(&ms20, NULL);
}

int main(int argc, char **argv)
{
	pthread_t t;

	if (argc != 2 || pipe(pipe_fd))
		return 2;
	signal(SIGUSR1, on_usr1);
	pthread_create(&t, NULL, drain, NULL);
	for (int i = 0; i < 3; i++) {
		pthread_create(&t, NULL, busy, NULL);
		pthread_create(&t, NULL, writer, NULL);
	}
	tty_start();
	for (;;)
		round_once(argv[1]);
}
