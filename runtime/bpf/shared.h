/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the BPF side and the user side of a --runtime=bpf script agree
 * on: the ring buffer's records and a statistic's per-CPU value.  Both
 * compilers (clang -target bpf and the host's cc) lay these out alike.
 */
#ifndef STP_BPF_SHARED_H
#define STP_BPF_SHARED_H

#ifdef __bpf__
typedef long long int64_t;
#else
#include <stdint.h>
#endif

enum stp_rec_kind {
	STP_REC_PRINT = 1,	/* id: the format; its arguments follow */
	STP_REC_EXIT,		/* exit() in a kernel probe */
	STP_REC_ERROR,		/* id: the error site (its message) */
	STP_REC_ERROR_MSG,	/* error(msg): id names the probe; msg follows */
};

/* Every record starts so; a print's arguments follow, each a long
 * (8 bytes) or a string (MAXSTRINGLEN bytes), in the format's order. */
struct stp_rec {
	unsigned int kind, id;
};

/* One CPU's share of a statistic; user space adds the CPUs up. */
struct stp_bstat {
	long long count, sum, min, max;
};

#endif
