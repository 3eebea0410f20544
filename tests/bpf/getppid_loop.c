// SPDX-License-Identifier: GPL-2.0-or-later
/* The tests' workload: getppid in a loop, N times (0: until killed). */
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 0;

	for (long i = 0; !n || i < n; i++)
		syscall(SYS_getppid);
	return 0;
}
