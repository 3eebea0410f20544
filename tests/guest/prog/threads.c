// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The process.thread.* tests' workload.  Static, so that it needs
 * nothing from the guest.
 *
 *   threads N      N threads one after the other (each is joined before
 *                  the next starts), each making one getppid() call;
 *                  then two close(-1) calls (EBADF) in the main thread
 *   threads N S    N threads at once, each sleeping S seconds, then
 *                  making one getppid() call: threads that are running
 *                  when a session starts
 */
#include <pthread.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static unsigned int nap;	/* seconds each thread sleeps first */

static void *work(void *arg)
{
	/* the nanosleep call itself (libc's sleep makes clock_nanosleep,
	 * which the guest's other programs make too): the
	 * drop_sd_entry_full test's probe sees only these */
	struct timespec ts = { nap, 0 };

	(void)arg;
	if (nap)
		syscall(SYS_nanosleep, &ts, NULL);
	syscall(SYS_getppid);
	return NULL;
}

static int at_once(int n)
{
	pthread_t t[64];

	if (n > 64)
		n = 64;
	for (int i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, work, NULL))
			return 1;
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	return 0;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1;

	if (argc > 2) {
		nap = (unsigned int)atoi(argv[2]);
		return at_once(n);
	}
	for (int i = 0; i < n; i++) {
		pthread_t t;

		if (pthread_create(&t, NULL, work, NULL) || pthread_join(t, NULL))
			return 1;
	}
	syscall(SYS_close, -1);
	syscall(SYS_close, -1);
	return 0;
}
