#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make bench's "native: BPF runtime" section (issue 17): the added cost
# per hit of kernel.trace("sys_enter") one-liners under --runtime=bpf
# against bpftrace's same one-liners and no probe, during a getppid loop,
# on this machine's own kernel (tests/bpf/bench.sh); and the start-up,
# command to first event, cold and cached, against bpftrace.
set -euo pipefail
export LC_ALL=C
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
OUT=build/bench/bpf
RESULTS=tests/bench/results.txt
REV=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
HYPERFINE=
NO_HF_WHY="interleaved rounds"
WARMUP=0
RUNS=${RUNS:-3}
mkdir -p "$OUT"
command -v bpftrace >/dev/null || die "no bpftrace (make deps installs it)"
[ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true

say "native: BPF runtime, per-hit cost against bpftrace ($RUNS rounds)"
tests/bpf/bench.sh "$RUNS" >"$OUT/hits.txt" || die "tests/bpf/bench.sh failed"

# start-up: from the command to its first event (a system call of its own)
first='probe kernel.trace("sys_enter") { printf("first\n"); exit() }'
ms() { local t0 t1; t0=$(date +%s%N); "$@" >/dev/null 2>&1; t1=$(date +%s%N); echo $(((t1 - t0) / 1000000)); }
rm -rf "$OUT/cache" && mkdir -p "$OUT/cache"
cold=$(STP_CACHE=$PWD/$OUT/cache ms ./stp --runtime=bpf -e "$first")
cached=$(STP_CACHE=$PWD/$OUT/cache ms ./stp --runtime=bpf -e "$first")
bt=$(ms bpftrace -e 'tracepoint:raw_syscalls:sys_enter { printf("first\n"); exit(); }')

base=$(awk '$1 == "none" { print $2 }' "$OUT/hits.txt")
SECTION=$OUT/section.txt
{
	section_head "native: BPF runtime" "$RUNS rounds" \
		"kernel:   this machine's own ($(uname -r)), no modules: stp picks --runtime=bpf" \
		"workload: a getppid loop (2,000,000 calls) under each one-liner, rounds interleaved"
	echo "  target: per hit at most bpftrace's added cost on each one-liner"
	echo
	printf '  %-34s %9s %9s\n' "" "ns/call" "+ns/hit"
	sort "$OUT/hits.txt" | awk -v b="$base" '{ n = $NF; $NF = ""; printf "  %-34s %9.1f %9.1f\n", $0, n, n - b }'
	echo
	for k in 'n++' 'n[execname()]++' 's<<<gettimeofday_ns()'; do
		awk -v k="$k" -v b="$base" '
			$1 == "stp" && $2 == k { s = $3 - b }
			$1 == "bpftrace" && $2 == k { t = $3 - b }
			END { printf "  %-24s stp +%.0f ns, bpftrace +%.0f ns: %.2fx (target <= 1x: %s)\n", k, s, t, s / t, s <= t ? "met" : "NOT met" }' "$OUT/hits.txt"
	done
	echo
	echo "  start-up to the first event: stp cold ${cold} ms, cached ${cached} ms; bpftrace ${bt} ms"
	echo
} >"$SECTION"
publish_section "native: BPF runtime" "$SECTION" always
