// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Chopstix sketch's kernel memory, for tests/bench/footprint.sh and
 * vitals_guest.sh: everything the sampler uses is one struct cx_sketch,
 * preallocated (no allocation in probe context), so its size is the
 * sketch's memory; struct cx_cpu is the per-CPU part (each event's
 * count and weight, runtime/vitals.h).  Built like the runtime's host
 * tests (-DSTP_HOST) with sketch.h's settings, or others given as
 * -DCX_HCA_BYTES=... and the like.
 * Prints: BYTES VITALS HCA_BYTES SAMPLES SEEN_SLOTS CPU_BYTES
 */
#include <stdio.h>
#include "sketch.h"

int main(void)
{
	printf("%zu %d %d %d %d %zu\n", sizeof(struct cx_sketch), CX_VITALS_MAX,
	       CX_HCA_BYTES, CX_SAMPLES, CX_SEEN_SLOTS, sizeof(struct cx_cpu));
	return 0;
}
