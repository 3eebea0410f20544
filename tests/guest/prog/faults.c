// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * faults N: maps N fresh anonymous pages (no huge pages: one fault each)
 * and writes one byte to each, so it takes at least N page faults
 * (tests/guest/e2e/perf_page_faults).  Built static into the guest's
 * /files/faults.
 */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000, page = sysconf(_SC_PAGESIZE);
	volatile char *p;

	p = mmap(NULL, n * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	madvise((void *)p, n * page, MADV_NOHUGEPAGE);
	for (long i = 0; i < n; i++)
		p[i * page] = 1;
	return 0;
}
