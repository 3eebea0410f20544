// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * allocs N: N calls of sym_alloc(1000 + i) from libstpsym.so (no
 * debuginfo), each a malloc() in libc of that many bytes, freed at once
 * with sym_free().  No stdio, so that nothing else in the process calls
 * malloc: the uprobe tests count exactly N.  Dynamic, its interpreter
 * and libraries in the guest's /files (see build.sh).
 */
#include <stdlib.h>

void *sym_alloc(unsigned long n);
void sym_free(void *p);

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 0;

	for (int i = 0; i < n; i++) {
		void *p = sym_alloc(1000 + (unsigned long)i);

		if (!p)
			return 1;
		sym_free(p);
	}
	return 0;
}
