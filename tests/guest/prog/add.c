// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The uprobe tests' workload (tests/guest/e2e/uprobe_*): built with
 * -g -O0 -static into the guest's /files/add.  It calls add() exactly
 * twice, add(3, 4) then add(10, 20), and keeps their sum in a local of
 * main() that the line marked "sum:" reads.  Keep the line numbers the
 * tests name: add() is declared on line 14, its body is line 16, the
 * "sum:" line is 23.
 */
#include <stdio.h>

int add(int a, int b);

int add(int a, int b)
{
	return a + b;
}

int main(void)
{
	int sum = add(3, 4);

	sum += add(10, 20);	/* sum: */
	printf("%d\n", sum);
	return 0;
}
