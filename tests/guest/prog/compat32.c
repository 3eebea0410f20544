/*
 * An i386 program (-m32, no libc: the host has no 32-bit one) for
 * process probes of 32-bit programs (compat32): work(a, b) is called
 * three times, its arguments on the stack as i386 passes them, and
 * its SDT marker c32:hit has both as operands; then exit (ia32 number 1).
 */
#include <sys/sdt.h>

static volatile int sink;

__attribute__((noinline)) int work(int a, int b)
{
	STAP_PROBE2(c32, hit, a, b);
	sink += a;
	return a * b;
}

void _start(void)
{
	for (int i = 1; i <= 3; i++)
		sink += work(i, -10 * i);
	__asm__ volatile("int $0x80" : : "a"(1), "b"(0));
	for (;;)
		;
}
