// SPDX-License-Identifier: GPL-2.0-or-later
/* The program tests/bpf/entry_return.stp probes: a recursive function
 * (built -O0, so that it stays recursive and has a frame-pointer
 * prologue the @entry program is placed past). */
__attribute__((noinline)) long fact(long n)
{
	return n <= 1 ? 1 : n * fact(n - 1);
}

int main(void)
{
	return fact(4) == 24 ? 0 : 1;
}
