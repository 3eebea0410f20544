// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pagesleep PAGES SLEEPS EXIT [READY]: writes one byte to each of PAGES
 * fresh anonymous pages mapped at PAGESLEEP_BASE (no huge pages: one
 * fault each, at addresses a script can tell from any other), creates
 * the file READY if given (so a shell knows it is running), sleeps
 * SLEEPS times for 10 ms (each sleep a switch out), unmaps the pages
 * (one munmap of them all), and exits with EXIT:
 * the workload of the tapsets' guest test (procvm_tapsets).  Built
 * static into the guest's /files/pagesleep.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define PAGESLEEP_BASE 0x100000000000UL

static volatile char *touch(long n, long page)
{
	volatile char *p = mmap((void *)PAGESLEEP_BASE, n * page, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	madvise((void *)p, n * page, MADV_NOHUGEPAGE);
	for (long i = 0; i < n; i++)
		p[i * page] = 1;
	return p;
}

int main(int argc, char **argv)
{
	struct timespec ten_ms = { 0, 10000000 };
	long pages, sleeps, page = sysconf(_SC_PAGESIZE);
	volatile char *p = NULL;

	if (argc < 4)
		return 2;
	pages = atol(argv[1]);
	sleeps = atol(argv[2]);
	if (pages > 0 && !(p = touch(pages, page)))
		return 2;
	if (argc > 4)
		close(open(argv[4], O_WRONLY | O_CREAT, 0644));
	for (long i = 0; i < sleeps; i++)
		nanosleep(&ten_ms, NULL);
	if (p)
		munmap((void *)p, pages * page);
	return atoi(argv[3]);
}
