// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A workload whose calls nest: down(5) calls down(4) ... down(0), six
 * calls of down() in flight at the deepest point, each returning its
 * argument (tests/guest/e2e/drop_uentry_evicted).  Built with -g -O0
 * -static into the guest's /files/depth.
 */
#include <stdio.h>

int down(int n);

int down(int n)
{
	return n ? down(n - 1) + 1 : 0;
}

int main(void)
{
	printf("%d\n", down(5));
	return 0;
}
