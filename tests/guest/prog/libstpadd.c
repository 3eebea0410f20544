// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A shared library for the .library() uprobe tests: built with -g into
 * the guest's /files/libstpadd.so, which /files/addlib links against.
 */
int lib_add(int a, int b);

int lib_add(int a, int b)
{
	return a + b;
}
