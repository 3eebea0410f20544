#!/bin/bash
# Per-hit cost of kernel.trace("sys_enter") under --runtime=bpf against
# bpftrace's same one-liners and no probe, during a getppid loop (issue
# 17's benchmark; not part of make check).  Rounds interleave the tracers
# so that load from elsewhere hits all alike; each line is the median of
# ROUNDS, in ns per getppid call.
#
#   tests/bpf/bench.sh [ROUNDS] [CALLS]
cd "$(dirname "$0")" || exit 1
stp=$(cd ../.. && pwd)/stp
loop=/tmp/stp-bench-ppid
rounds=${1:-5} calls=${2:-2000000}
cat > $loop.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	long n = atol(argv[1]);
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.1f\n", ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / n);
	return 0;
}
C
cc -O2 -o $loop $loop.c || exit 1

declare -A STP=(
	[n++]='global n; probe kernel.trace("sys_enter") { n++ }'
	[n[execname()]++]='global n; probe kernel.trace("sys_enter") { n[execname()]++ }'
	[s<<<gettimeofday_ns()]='global s; probe kernel.trace("sys_enter") { s <<< gettimeofday_ns() }'
)
declare -A BT=(
	[n++]='tracepoint:raw_syscalls:sys_enter { @n = count() }'
	[n[execname()]++]='tracepoint:raw_syscalls:sys_enter { @n[comm] = count() }'
	[s<<<gettimeofday_ns()]='tracepoint:raw_syscalls:sys_enter { @s = stats(nsecs) }'
)

under() {	# command...: the loop's ns/call while it runs
	"$@" >/dev/null 2>&1 & local pid=$!
	sleep 3
	$loop $calls
	kill -INT $pid 2>/dev/null; wait $pid 2>/dev/null
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

for k in "${!STP[@]}"; do $stp --runtime=bpf -w -p4 -e "${STP[$k]}" >/dev/null || exit 1; done
declare -A res
for ((r = 0; r < rounds; r++)); do
	res[none]+="$($loop $calls) "
	for k in "${!STP[@]}"; do
		res["stp $k"]+="$(under $stp --runtime=bpf -w -e "${STP[$k]}") "
		res["bpftrace $k"]+="$(under bpftrace -e "${BT[$k]}") "
	done
done
for k in "${!res[@]}"; do
	printf '%-32s %s\n' "$k" "$(echo ${res[$k]} | tr ' ' '\n' | median)"
done | sort
