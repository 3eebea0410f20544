// SPDX-License-Identifier: GPL-2.0-or-later
/* lmb's fork_exec runs this: a static program that only returns 0. */
int main(void)
{
	return 0;
}
