#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The pass-4 (build) benchmark, run by tests/bench/run.sh (make bench) or
# alone:
#   a. stp -p4 of a 20-probe script (tests/bench/gen_script20.py), cold:
#      the module cache emptied before each run (the kernel feature tests
#      stay cached: they run once per kernel);
#   b. the floor kbuild sets: a minimal hand-written module
#      (tests/guest/hello) built with the same kbuild command;
#   c. the same stp -p4 with the module cached (passes 3-4 skipped);
# for the target kernel (tests/kernel.sh).  Medians go to the
# "## pass 4 (build)" section of tests/bench/results.txt.
#
# Knobs: BENCH_RUNS (default 5 for builds, 20 for the cached run).
set -euo pipefail
export LC_ALL=C
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
RUNS=${BENCH_RUNS:-5}
CACHED_RUNS=$((RUNS * 4))
WARMUP=1
OUT=build/bench/pass4
RESULTS=tests/bench/results.txt
REV=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
mkdir -p "$OUT"
pick_hyperfine

SYSROOT=$(tests/kernel.sh)
KREL=$(tests/kernel.sh release)
KDIR=/lib/modules/$KREL/build
export STP_CACHE="$ROOT/$OUT/cache"
python3 tests/bench/gen_script20.py >"$OUT/script20.stp"
STP=(./stp -p4 --sysroot="$SYSROOT" -r "$KREL" -m bench20 "$OUT/script20.stp")

# the feature tests once, outside the timing
check "stp -p4" "${STP[@]}"
rm -rf "$OUT/floor" && mkdir -p "$OUT/floor" && cp tests/guest/hello/hello.c tests/guest/hello/Kbuild "$OUT/floor/"
check "floor build" make -s -C "$KDIR" M="$ROOT/$OUT/floor" modules

cold() { rm -rf "$STP_CACHE/modules" && "${STP[@]}"; }
floor() { make -s -C "$KDIR" M="$ROOT/$OUT/floor" clean >/dev/null && make -s -C "$KDIR" M="$ROOT/$OUT/floor" modules; }
export -f cold floor
export SYSROOT KREL KDIR ROOT OUT
t_cold=$(HYPERFINE= measure stp-cold "$RUNS" bash -c "$(declare -p STP); cold")
t_floor=$(HYPERFINE= measure floor "$RUNS" bash -c "$(declare -p KDIR ROOT OUT); floor")
"${STP[@]}" >/dev/null
t_cached=$(measure stp-cached "$CACHED_RUNS" "${STP[@]}")
rm -f bench20.ko

SECTION=$OUT/section.txt
{
	section_head "pass 4 (build)" "$RUNS builds" "target:   $KREL ($KDIR)"
	printf '  %-52s %10s\n' "" "ms"
	printf '  %-52s %10.0f\n' "a. stp -p4, 20-probe script, cold" "$t_cold"
	printf '  %-52s %10.0f\n' "b. floor: minimal hand-written module, same kbuild" "$t_floor"
	printf '  %-52s %10.1f\n' "c. stp -p4, same script, cached" "$t_cached"
	echo
	echo "  cold / floor: $(awk -v a="$t_cold" -v b="$t_floor" 'BEGIN { printf "%.2fx", a / b }') (target <= 1.5x: $(met "$t_cold <= 1.5 * $t_floor"))"
	echo "  cached: ${t_cached} ms (target < 100 ms: $(met "$t_cached < 100"))"
	echo
} >"$SECTION"
publish_section "pass 4 (build)" "$SECTION" always
