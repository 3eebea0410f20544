// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A shared library without debuginfo (built without -g and stripped:
 * only its .dynsym names its functions), for the uprobe tests that find
 * functions by symbol table: /files/libstpsym.so, which /files/allocs
 * links against.
 */
#include <stdlib.h>

void *sym_alloc(unsigned long n);
void sym_free(void *p);

void *sym_alloc(unsigned long n)
{
	return malloc(n);
}

void sym_free(void *p)
{
	free(p);
}
