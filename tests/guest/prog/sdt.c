/*
 * SDT markers for the sdt_* guest tests (built static, -O0):
 *   test:pair     three times: $arg1 = 10, 20, 30 (8 bytes, from a
 *                 register), $arg2 = -1, -2, -3 (4 bytes, signed, from
 *                 the stack)
 *   test:global   $arg1 = 7, 8, 9: a global, named %rip-relative
 *   test:elem     $arg1 = 5, -6, 7 (an array through base and index
 *                 registers), $arg2 = 1, 2, 3 (the stack, base + index *
 *                 scale + displacement)
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
SEMAPHORE(test_elem_semaphore);

long counter = 6;
int arr[4] = { 5, -6, 7, -8 };

/* optimized: the operand is then counter's memory, not a register */
__attribute__((optimize("O1"), noinline)) static void bump(void)
{
	counter++;
	__asm__ volatile("" ::: "memory");
	STAP_PROBE1(test, global, counter);
}

/* -4@(%rax,%rdi,4) -4@-24(%rsp,%rdi,4) */
__attribute__((optimize("O1"), noinline)) static void elem(long i)
{
	int loc[4] = { 1, 2, 3, 4 };

	__asm__ volatile("" ::: "memory");
	STAP_PROBE2(test, elem, arr[i], loc[i]);
	__asm__ volatile("" :: "r"(loc) : "memory");
}

int main(void)
{
	for (int i = 1; i <= 3; i++) {
		int neg = -i;

		STAP_PROBE2(test, pair, (long)i * 10, neg);
		bump();
		elem(i - 1);
		if (test_guarded_semaphore)
			STAP_PROBE1(test, guarded, test_guarded_semaphore);
	}
	return 0;
}
