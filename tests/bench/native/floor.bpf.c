// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The floor for `stp --runtime=bpf vitals.stp` (tests/bench/vitals_bpf.sh):
 * programs that only count, attached by floor_load.c to every point the
 * script's BPF object attaches to, the same way: raw tracepoints
 * (raw_tp, as stp attaches kernel.trace) and sampling perf events (the
 * perf_event program type, as stp attaches perf.*).
 *
 * A hit is one per-CPU array lookup and increment: the least a BPF
 * program that keeps anything per event does (the published figure for
 * a raw_tp that bumps a per-CPU counter is about 8 ns).  Point i of
 * floor_load.c's list runs program tp<i> or pe<i>, which counts in slot
 * i, so that each point's hits can be told apart; raw_tp programs carry
 * no attach cookie on every kernel the benchmark may meet, hence one
 * program per point rather than one program attached many times.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define FLOOR_TP_MAX 16		/* ORDER: floor_load.c */
#define FLOOR_PE_MAX 4
#define FLOOR_MAX (FLOOR_TP_MAX + FLOOR_PE_MAX)

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, FLOOR_MAX);
	__type(key, __u32);
	__type(value, __u64);
} hits SEC(".maps");

static __always_inline int count(__u32 i)
{
	__u64 *n = bpf_map_lookup_elem(&hits, &i);

	if (n)
		(*n)++;
	return 0;
}

/* One program per slot; the section names no tracepoint: floor_load.c
 * attaches each where the script's object attaches. */
#define TP(i) SEC("raw_tp") int tp##i(void *ctx) { return count(i); }
#define PE(i) \
	SEC("perf_event") int pe##i(void *ctx) { return count(FLOOR_TP_MAX + i); }

TP(0) TP(1) TP(2) TP(3) TP(4) TP(5) TP(6) TP(7)
TP(8) TP(9) TP(10) TP(11) TP(12) TP(13) TP(14) TP(15)
PE(0) PE(1) PE(2) PE(3)

char LICENSE[] SEC("license") = "GPL";
