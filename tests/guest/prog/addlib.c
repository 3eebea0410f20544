// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The .library() uprobe tests' workload: a dynamically linked program
 * (its interpreter, libc and libstpadd.so all in the guest's /files, see
 * build.sh) that calls lib_add() from libstpadd.so three times.
 */
#include <stdio.h>

int lib_add(int a, int b);

int main(void)
{
	int sum = 0;

	for (int i = 1; i <= 3; i++)
		sum += lib_add(i, i);
	printf("%d\n", sum);
	return 0;
}
