/*
 * 100 getppid() calls through the 32-bit entry (int $0x80, ia32 number
 * 64), then exit (ia32 number 1): compat calls, which kernel.syscall(NR)
 * must not see (sysd_compat).  No libc: the host has no 32-bit one.
 */
void _start(void)
{
	for (int i = 0; i < 100; i++) {
		int r;

		__asm__ volatile("int $0x80" : "=a"(r) : "a"(64) : "memory");
	}
	__asm__ volatile("int $0x80" : : "a"(1), "b"(0));
	for (;;)
		;
}
