/*
 * SDT markers for the sdt_* guest tests (built static, -O0):
 *   test:pair     three times: $arg1 = 10, 20, 30 (8 bytes, from a
 *                 register), $arg2 = -1, -2, -3 (4 bytes, signed, from
 *                 the stack)
 *   test:global   $arg1 = 7, 8, 9: a global, named %rip-relative
 *   test:guarded  is-enabled: fired only when its semaphore says a
 *                 probe is armed, with $arg1 the semaphore (1 under one)
 * sdt.h with semaphores wants one for each marker.
 */
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>

#define SEMAPHORE(name) unsigned short name __attribute__((section(".probes")))
SEMAPHORE(test_pair_semaphore);
SEMAPHORE(test_global_semaphore);
SEMAPHORE(test_guarded_semaphore);

long counter = 6;

/* optimized: the operand is then counter's memory, not a register */
__attribute__((optimize("O1"), noinline)) static void bump(void)
{
	counter++;
	__asm__ volatile("" ::: "memory");
	STAP_PROBE1(test, global, counter);
}

int main(void)
{
	for (int i = 1; i <= 3; i++) {
		int neg = -i;

		STAP_PROBE2(test, pair, (long)i * 10, neg);
		bump();
		if (test_guarded_semaphore)
			STAP_PROBE1(test, guarded, test_guarded_semaphore);
	}
	return 0;
}
