// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The guest benchmarks' workload, linked statically into the initramfs:
 *
 *   loop spin N      N turns of a loop that does nothing but count
 *   loop getppid N   N getppid() system calls
 *   loop ppoll N     N ppoll() calls on no files, each with a timeout of
 *                    12345 ns (the kernel adds it to the time with
 *                    timespec64_add_safe(): a guest DWARF test's)
 *
 * prints "ns_per_iter TOTAL_NS": the wall time (CLOCK_MONOTONIC) divided
 * by N.  Under QEMU's -icount the clock counts executed instructions, so
 * the same run gives the same figure every time.  With LOOP_QUIET in its
 * environment it prints nothing: the -c tests run it without a shell
 * (nor a redirection) and compare their output exactly.
 */
#define _GNU_SOURCE	/* ppoll */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	volatile long sink = 0;
	long long t0, t1, n;

	if (argc != 3) {
		fprintf(stderr, "usage: loop spin|getppid|ppoll N\n");
		return 2;
	}
	n = atoll(argv[2]);
	t0 = now_ns();
	if (!strcmp(argv[1], "spin")) {
		for (long long i = 0; i < n; i++)
			sink += i;
	} else if (!strcmp(argv[1], "getppid")) {
		for (long long i = 0; i < n; i++)
			sink += syscall(SYS_getppid);
	} else if (!strcmp(argv[1], "ppoll")) {
		struct timespec timeout = { 0, 12345 };

		for (long long i = 0; i < n; i++)
			sink += ppoll(NULL, 0, &timeout, NULL);
	} else {
		fprintf(stderr, "loop: unknown mode %s\n", argv[1]);
		return 2;
	}
	t1 = now_ns();
	if (!getenv("LOOP_QUIET"))
		printf("%.1f %lld\n", (double)(t1 - t0) / n, t1 - t0);
	return 0;
}
