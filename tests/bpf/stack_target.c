// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/bpf/stacks: a program whose user stack frame pointers can walk
 * (built with -fno-omit-frame-pointer): main -> outer -> inner, which
 * makes system calls for about a second. */
#include <time.h>
#include <unistd.h>

__attribute__((noinline)) static void inner(void)
{
	for (int i = 0; i < 1000; i++)
		getppid();
}

__attribute__((noinline)) static void outer(void)
{
	inner();
	asm volatile("");
}

int main(void)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		outer();
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000000000L + t.tv_nsec - t0.tv_nsec < 800000000L);
	return 0;
}
