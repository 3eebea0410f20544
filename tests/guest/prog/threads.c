// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The process.thread.* tests' workload: "threads N" runs N threads one
 * after the other (each is joined before the next starts), each making
 * one getppid() call, then makes two close(-1) calls (EBADF) in the
 * main thread.  Static, so that it needs nothing from the guest.
 */
#include <pthread.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

static void *work(void *arg)
{
	(void)arg;
	syscall(SYS_getppid);
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1;

	for (int i = 0; i < n; i++) {
		pthread_t t;

		if (pthread_create(&t, NULL, work, NULL) || pthread_join(t, NULL))
			return 1;
	}
	syscall(SYS_close, -1);
	syscall(SYS_close, -1);
	return 0;
}
