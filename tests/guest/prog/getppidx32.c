/*
 * 100 x32 getppid() calls (__X32_SYSCALL_BIT | 110: -ENOSYS where the
 * kernel leaves x32 off), then a native exit_group(0): calls
 * kernel.syscall(110) must not see (sysd_compat).  No libc.
 */
void _start(void)
{
	for (int i = 0; i < 100; i++) {
		long r;

		__asm__ volatile("syscall" : "=a"(r) : "a"(0x40000000L | 110)
				 : "rcx", "r11", "memory");
	}
	__asm__ volatile("syscall" : : "a"(231L), "D"(0L) : "rcx", "r11");
	for (;;)
		;
}
