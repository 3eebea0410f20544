/*
 * An i386 program (-m32, no libc: the host has no 32-bit one) for
 * process probes of 32-bit programs (compat32_probes): run() calls
 * work(a, b) three times, its arguments on the stack as i386 passes
 * them; work's SDT marker c32:hit has both as operands.  Built with
 * frame pointers, and _start clears %ebp, so a backtrace from work is
 * work, run, _start and ends there.  Exit is ia32 system call 1.
 */
#include <sys/sdt.h>

static volatile int sink;

__attribute__((noinline)) int work(int a, int b)
{
	STAP_PROBE2(c32, hit, a, b);
	sink += a;
	return a * b;
}

__attribute__((noinline, used)) void run(void)
{
	for (int i = 1; i <= 3; i++)
		sink += work(i, -10 * i);
	__asm__ volatile("int $0x80" : : "a"(1), "b"(0));
	for (;;)
		;
}

__asm__(".text\n.globl _start\n_start:\n\txorl %ebp, %ebp\n\tcall run\n\thlt\n");
