// SPDX-License-Identifier: GPL-2.0-or-later
/* The program tests/bpf/uprobe*.stp probe: a function with arguments
 * and a result, and two SDT markers, "gated" behind a semaphore (set
 * only while a probe is attached, so its line shows the attach counted
 * it up).  Prints nothing: its output would race the probes'. */
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>

unsigned short stptest_step_semaphore __attribute__((section(".probes")));
unsigned short stptest_gated_semaphore __attribute__((section(".probes")));

__attribute__((noinline)) long add(long a, long b)
{
	return a + b;
}

int main(void)
{
	long s = 0;

	for (long i = 1; i <= 3; i++) {
		s = add(s, i);
		STAP_PROBE2(stptest, step, i, s);
		if (stptest_gated_semaphore)
			STAP_PROBE1(stptest, gated, i * 10);
	}
	return s == 6 ? 0 : 1;
}
