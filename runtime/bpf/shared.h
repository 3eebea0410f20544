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
	STP_REC_HIST,		/* print(@hist_*(s)) in a kernel probe: id is the
				 * site (its format's types: "hLINEAR START STOP
				 * INTERVAL"); the CPUs' struct stp_bhist, added
				 * up, follows */
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

/* Adds one CPU's share s into out (out zeroed first): the kernel side's
 * and the user side's way of combining a statistic's CPUs. */
static inline __attribute__((always_inline)) void stp_bstat_add(struct stp_bstat *out,
								const struct stp_bstat *s)
{
	if (!s->count)
		return;
	if (!out->count || s->min < out->min)
		out->min = s->min;
	if (!out->count || s->max > out->max)
		out->max = s->max;
	out->count += s->count;
	out->sum += s->sum;
}

/* A statistic with a histogram (@hist_log or @hist_linear): its
 * buckets follow, as runtime/stat.c numbers them (a log histogram's
 * value 0 in bucket 64; a linear one's underflow first). */
#define STP_BHIST_BUCKETS 128
struct stp_bhist {
	struct stp_bstat s;
	long long h[STP_BHIST_BUCKETS];
};

/* One halving step of the bit length: u < 2^(2w) on entry; when its
 * high half is not 0, w bits counted and u shifted down by them.  No
 * comparison (BPF has none that is not a branch, and the verifier walks
 * every path of each <<< of a handler). */
#define STP_BITS_STEP(u, bits, w) do { \
	unsigned long long t_ = (((u) >> (w)) + ((1ULL << (w)) - 1)) >> (w); \
	(bits) += t_ * (w); \
	(u) >>= t_ * (w); \
} while (0)

/* print(@hist_*(s))'s record: a snapshot, so a delete after it in the
 * same probe does not empty what user space draws. */
struct stp_hist_rec {
	struct stp_rec h;
	struct stp_bhist b;
};

/* A log histogram's bucket of v (runtime/stat.c's numbering): 64 + the
 * bit length of |v|, or 64 - it for a negative v; branch-free. */
static inline int stp_log_bucket(long long v)
{
	long long sign = v >> 63;	/* -1 or 0 */
	unsigned long long u = (unsigned long long)((v ^ sign) - sign), bits = 0;

	if (u >> 63)			/* |INT64_MIN| */
		return 0;
	STP_BITS_STEP(u, bits, 32);
	STP_BITS_STEP(u, bits, 16);
	STP_BITS_STEP(u, bits, 8);
	STP_BITS_STEP(u, bits, 4);
	STP_BITS_STEP(u, bits, 2);
	STP_BITS_STEP(u, bits, 1);
	bits += u;
	return 64 + (int)(((long long)bits ^ sign) - sign);
}

/* A linear histogram's: 0 below start, nb - 1 at or past the end. */
static inline int stp_lin_bucket(long long v, long long start, long long interval, int nb)
{
	unsigned long long i;

	if (v < start)
		return 0;
	i = ((unsigned long long)v - (unsigned long long)start) / (unsigned long long)interval + 1;
	return i >= (unsigned long long)nb - 1 ? nb - 1 : (int)i;
}

#endif
