// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Chopstix sketch's kernel memory, for tests/bench/footprint.sh and
 * run.sh's "sketch coverage": everything the sampler uses is one struct
 * cx_sketch, preallocated (no allocation in probe context), so its size
 * is the sketch's memory.
 * Built like the runtime's host tests (-DSTP_HOST) with cx_core.h's
 * settings, or others given as -DCX_HCA_BYTES=... and the like.
 * Prints: BYTES VITALS HCA_BYTES SAMPLES
 */
#include <stdio.h>
#include "sketch.h"

int main(void)
{
	printf("%zu %d %d %d\n", sizeof(struct cx_sketch), CX_VITALS_MAX,
	       CX_HCA_BYTES, CX_SAMPLES);
	return 0;
}
