#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Guest benchmarks (make bench), in one boot of the target kernel under
# QEMU with -icount shift=0,sleep=off: the guest clock counts executed
# instructions, so a run gives the same figures every time.
#
# Timer-probe throughput: a CPU-bound loop (tests/bench/guest/loop.c) runs
# for a fixed number of turns
#   a. alone,
#   b. with the floor: a hand-written module whose 100 us hrtimer only
#      counts (tests/bench/guest/floor_timer.c),
#   c. under stp: probe timer.us(100) { n++ },
#   d. under stp: probe timer.us(100) { m[cpu()]++ } (a map update),
# and the cost of one timer hit is the loop's slow-down divided by the
# hits.  Results: the "## guest: timer probes" section of results.txt.
#
# Kprobe cost, in the same boot: N getppid() calls (loop getppid N) timed
#   a. with no probe (at the start, and again at the end),
#   b. with the floor: a hand-written kprobe on __x64_sys_getppid whose
#      pre_handler only counts (tests/bench/guest/floor_kprobe.c),
#   c. under stp: kernel.function("__x64_sys_getppid") { n++ },
#   d. under stp: ... { n[execname()]++ } (a map update),
#   e. under stp: ... { s <<< gettimeofday_ns() } (a statistic),
# and tracepoint cost the same way, each getppid() one sys_enter hit:
#   b. with the floor: a hand-written tracepoint callback that only counts
#      (tests/bench/guest/floor_tracepoint.c),
#   c. under stp: kernel.trace("sys_enter") { n++ },
#   d. under stp: kernel.trace("raw_syscalls:sys_enter") { if ($id == 999) n++ },
#      a filter that always fails, which runs before the context
#      (translator/elab/hoist.c: the hit never takes it),
#   e. the same built with -u (no hoisting): the generic path for it,
# and the cost a probe adds to one call is the difference from (a) in ns
# per call: each of the loop's N calls is one hit (the hit counts the
# modules report also hold the few calls outside the timed loop).
# Results: the "## guest: kprobe cost" section; the targets are stp's
# added cost at most 1.5x the floor's for the counter, 2x for the map
# update and the statistic.
set -euo pipefail
export LC_ALL=C
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
OUT=build/bench/guest
RESULTS=tests/bench/results.txt
REV=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
TURNS=${BENCH_TURNS:-100000000}
PERIOD_US=100
CALLS=${BENCH_CALLS:-200000}
HYPERFINE=
NO_HF_WHY="one guest boot; -icount makes each figure exact"
WARMUP=0
rm -rf "$OUT" && mkdir -p "$OUT/files" "$OUT/floor"

SYSROOT=$(tests/kernel.sh)
KREL=$(tests/kernel.sh release)
gcc -O2 -static -o "$OUT/files/loop" tests/bench/guest/loop.c
cp tests/bench/guest/floor_timer.c tests/bench/guest/floor_kprobe.c tests/bench/guest/floor_tracepoint.c \
	tests/bench/guest/Kbuild "$OUT/floor/"
make -s -C "/lib/modules/$KREL/build" M="$ROOT/$OUT/floor" modules >"$OUT/floor.log" 2>&1 ||
	die "building the floor module failed: $(tail -5 "$OUT/floor.log")"
cp "$OUT/floor/floor_timer.ko" "$OUT/floor/floor_kprobe.ko" "$OUT/floor/floor_tracepoint.ko" "$OUT/files/"
K=(--sysroot="$SYSROOT" -r "$KREL")
# $id is never 999: every hit ends at the filter (hits: 0)
# shellcheck disable=SC2016 # the script's $id
FILTER='global n; probe kernel.trace("raw_syscalls:sys_enter") { if ($id == 999) n++ }
	probe end { printf("hits %d\n", n) }'
(cd "$OUT/files" &&
	"$ROOT/stp" "${K[@]}" -p4 -m bt_count -e "global n; probe timer.us($PERIOD_US) { n++ } probe end { printf(\"hits %d\\n\", n) }" >/dev/null &&
	"$ROOT/stp" "${K[@]}" -p4 -m bt_map -e "global m; probe timer.us($PERIOD_US) { m[cpu()]++ } probe end { printf(\"hits %d\\n\", m[0]) }" >/dev/null &&
	"$ROOT/stp" "${K[@]}" -p4 -m bk_count -e "global n; probe kernel.function(\"__x64_sys_getppid\") { n++ } probe end { printf(\"hits %d\\n\", n) }" >/dev/null &&
	"$ROOT/stp" "${K[@]}" -p4 -m bk_map -e "global n; probe kernel.function(\"__x64_sys_getppid\") { n[execname()]++ } probe end { t = 0; foreach (k in n) t += n[k]; printf(\"hits %d\\n\", t) }" >/dev/null &&
	"$ROOT/stp" "${K[@]}" -p4 -m bk_stat -e "global s; probe kernel.function(\"__x64_sys_getppid\") { s <<< gettimeofday_ns() } probe end { printf(\"hits %d\\n\", @count(s)) }" >/dev/null &&
	"$ROOT/stp" "${K[@]}" -p4 -m bt_trace -e "global n; probe kernel.trace(\"sys_enter\") { n++ } probe end { printf(\"hits %d\\n\", n) }" >/dev/null &&
	"$ROOT/stp" "${K[@]}" -p4 -m bt_filter -e "$FILTER" >/dev/null &&
	"$ROOT/stp" "${K[@]}" -u -p4 -m bt_filter_u -e "$FILTER" >/dev/null) ||
	die "stp -p4 failed"

# SystemTap's module for the same script, to run in the same boot if it
# builds for the target: stap 4.8's runtime does not build for Debian's
# 6.1 line (its task_work_cancel() takes a callback_head since a
# backport), and then the section says why instead.
STAP_WHY=
if ! command -v stap >/dev/null; then
	STAP_WHY="no stap on this machine"
else
	mkdir -p "$OUT/stap"
	say "building SystemTap's module (stap -p4; minutes)"
	if (cd "$OUT/stap" && timeout 900 stap -p4 -r "$KREL" -m st_trace \
		-e 'global n; probe kernel.trace("sys_enter") { n++ } probe end { printf("hits %d\n", n) }') \
		>"$OUT/stap/log" 2>&1; then
		STAP_WHY="stap -p4 built it, but the guest has no SystemTap staprun to run it"
	else
		STAP_WHY="stap -p4 fails: $(grep -m1 'error:' "$OUT/stap/log" | sed 's|^.*/runtime/|runtime/|' | cut -c1-140)"
	fi
fi

cat >"$OUT/files/run.sh" <<S
echo "base \$(./loop spin $TURNS)"
insmod floor_timer.ko period_ns=$((PERIOD_US * 1000))
echo "floor \$(./loop spin $TURNS)"
rmmod floor_timer
echo "floor hits \$(dmesg | sed -n 's/.*floor_timer: \([0-9]*\) hits/\1/p' | tail -1)"
for m in bt_count bt_map; do
	stprun -c "./loop spin $TURNS > \$m.loop" \$m.ko > \$m.out
	echo "\$m \$(cat \$m.loop)"
	echo "\$m \$(cat \$m.out)"
done
echo "kbase \$(./loop getppid $CALLS)"
insmod floor_kprobe.ko
echo "kfloor \$(./loop getppid $CALLS)"
rmmod floor_kprobe
echo "kfloor hits \$(dmesg | sed -n 's/.*floor_kprobe: \([0-9]*\) hits/\1/p' | tail -1)"
for m in bk_count bk_map bk_stat; do
	stprun -c "./loop getppid $CALLS > \$m.loop" \$m.ko > \$m.out
	echo "\$m \$(cat \$m.loop)"
	echo "\$m \$(cat \$m.out)"
done
echo "kbase2 \$(./loop getppid $CALLS)"
insmod floor_tracepoint.ko
echo "tfloor \$(./loop getppid $CALLS)"
rmmod floor_tracepoint
echo "tfloor hits \$(dmesg | sed -n 's/.*floor_tracepoint: \([0-9]*\) hits/\1/p' | tail -1)"
stprun -c "./loop getppid $CALLS > bt_trace.loop" bt_trace.ko > bt_trace.out
echo "bt_trace \$(cat bt_trace.loop)"
echo "bt_trace \$(cat bt_trace.out)"
for m in bt_filter bt_filter_u; do
	stprun -c "./loop getppid $CALLS > \$m.loop" \$m.ko > \$m.out
	echo "\$m \$(cat \$m.loop)"
	echo "\$m \$(cat \$m.out)"
done
echo "kbase3 \$(./loop getppid $CALLS)"
S
say "booting the guest with -icount shift=0,sleep=off"
staprun/stp-qemu --icount --timeout 600 --kernel "$SYSROOT/boot/vmlinuz-$KREL" \
	"$OUT/files/run.sh" "$OUT"/files/* >"$OUT/guest.out" || die "the guest run failed: $(tail "$OUT/guest.out")"
cat "$OUT/guest.out" >&2

total() { awk -v k="$1" '$1 == k && NF == 3 { print $3 }' "$OUT/guest.out"; }
hits() { awk -v k="$1" '$1 == k && $2 == "hits" { print $3 }' "$OUT/guest.out"; }
base=$(total base)
floor=$(total floor)
fhits=$(awk '$1 == "floor" && $2 == "hits" { print $3 }' "$OUT/guest.out")
per_hit() { awk -v t="$1" -v b="$base" -v h="$2" 'BEGIN { if (h > 0) printf "%.0f", (t - b) / h; else print "-" }'; }
f_ns=$(per_hit "$floor" "$fhits")
SECTION=$OUT/section.txt
{
	section_head "guest: timer probes" "1 run" "target:   $KREL under qemu-system-x86_64 -accel tcg -icount shift=0,sleep=off" \
		"workload: loop spin $TURNS (tests/bench/guest/loop.c); timers every $PERIOD_US us"
	printf '  %-44s %10s %10s %10s %8s\n' "" "loop ms" "hits" "ns/hit" "x floor"
	printf '  %-44s %10.1f %10s %10s %8s\n' "a. loop alone" "$(awk -v t="$base" 'BEGIN { print t / 1e6 }')" - - -
	printf '  %-44s %10.1f %10s %10s %8s\n' "b. floor: hand-written hrtimer, counts" "$(awk -v t="$floor" 'BEGIN { print t / 1e6 }')" "$fhits" "$f_ns" "1.00x"
	for m in bt_count bt_map; do
		t=$(total $m)
		h=$(hits $m)
		ns=$(per_hit "$t" "$h")
		label="c. stp: timer.us($PERIOD_US) { n++ }"
		[ $m = bt_map ] && label="d. stp: timer.us($PERIOD_US) { m[cpu()]++ }"
		printf '  %-44s %10.1f %10s %10s %8s\n' "$label" "$(awk -v t="$t" 'BEGIN { print t / 1e6 }')" "$h" "$ns" \
			"$(awk -v a="$ns" -v b="$f_ns" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "-" }')"
	done
	echo
	echo "  ns/hit: (loop time with the timer - loop time alone) / hits; throughput: the"
	echo "  timer kept its period when hits = loop time / $PERIOD_US us."
	echo
} >"$SECTION"
publish_section "guest: timer probes" "$SECTION" always

# ---- kprobe cost -----------------------------------------------------------
nspc() { awk -v k="$1" '$1 == k && $2 != "hits" && NF == 3 { print $2 }' "$OUT/guest.out"; }
minus() { awk -v t="$1" -v b="$2" 'BEGIN { printf "%.1f", t - b }'; }
# The rows of a cost table (kprobes, tracepoints): header, a plain ns/call
# row (no probe), the floor's row, and a module's row against BASE (ns/call
# with no probe) and FLOOR (the floor's +ns/hit) with its target's verdict.
COST_FMT='  %-52s %9s %9s %9s %8s %8s %8s\n'
cost_head() { printf "$COST_FMT" "" "ns/call" "+ns/hit" "hits" "x floor" "target" "met?"; }
cost_plain() { printf '  %-52s %9.1f %9s %9s %8s %8s %8s\n' "$1" "$2" - - - - -; }
cost_floor() {	# LABEL MODULE BASE
	printf '  %-52s %9.1f %9.1f %9s %8s %8s %8s\n' "$1" "$(nspc "$2")" "$(minus "$(nspc "$2")" "$3")" \
		"$(hits "$2")" "1.00x" - -
}
cost_row() {	# LABEL MODULE TARGET BASE FLOOR
	local t a r
	t=$(nspc "$2")
	if [ -z "$t" ]; then
		printf "$COST_FMT" "$1" "failed" - - - "${3}x" "NOT met"
		return
	fi
	a=$(minus "$t" "$4")
	r=$(awk -v a="$a" -v f="$5" 'BEGIN { if (f > 0) printf "%.2f", a / f; else print "-" }')
	printf '  %-52s %9.1f %9.1f %9s %8s %8s %8s\n' "$1" "$t" "$a" "$(hits "$2")" "${r}x" "${3}x" \
		"$(met "\"$r\" != \"-\" && $r <= $3")"
}
kbase=$(nspc kbase)
[ -n "$kbase" ] || die "no kprobe figures from the guest"
kf_added=$(minus "$(nspc kfloor)" "$kbase")
SECTION=$OUT/kprobe.txt
{
	section_head "guest: kprobe cost" "1 run" "target:   $KREL under qemu-system-x86_64 -accel tcg -icount shift=0,sleep=off" \
		"workload: loop getppid $CALLS (tests/bench/guest/loop.c): $CALLS getppid() calls, each a hit"
	cost_head
	cost_plain "a. no probe" "$kbase"
	cost_floor "b. floor: hand-written kprobe, counts" kfloor "$kbase"
	cost_row 'c. stp: kernel.function(...) { n++ }' bk_count 1.5 "$kbase" "$kf_added"
	cost_row 'd. stp: { n[execname()]++ }' bk_map 2 "$kbase" "$kf_added"
	cost_row 'e. stp: { s <<< gettimeofday_ns() }' bk_stat 2 "$kbase" "$kf_added"
	cost_plain "a'. no probe, again after the runs above" "$(nspc kbase2)"
	echo
	echo "  +ns/hit: ns/call with the probe - ns/call with none (a); x floor: that over the"
	echo "  floor's +ns/hit; hits: what each module counted in all (the loop's $CALLS and"
	echo "  the calls stprun's shell made before it ran the loop).  ns are the guest's"
	echo "  CLOCK_MONOTONIC under -icount (executed instructions), as loop.c reports them."
	echo
} >"$SECTION"
publish_section "guest: kprobe cost" "$SECTION" always

# ---- tracepoint cost -------------------------------------------------------
tbase=$(nspc kbase2)
[ -n "$(nspc tfloor)" ] && [ -n "$tbase" ] || die "no tracepoint figures from the guest"
tf_added=$(minus "$(nspc tfloor)" "$tbase")
SECTION=$OUT/trace.txt
{
	section_head "guest: tracepoint cost" "1 run" "target:   $KREL under qemu-system-x86_64 -accel tcg,thread=single -icount shift=0,sleep=off" \
		"workload: loop getppid $CALLS (tests/bench/guest/loop.c): each getppid() one sys_enter hit"
	cost_head
	cost_plain "a. no probe" "$tbase"
	cost_floor "b. floor: hand-written tracepoint callback, counts" tfloor "$tbase"
	cost_row 'c. stp: kernel.trace("sys_enter") { n++ }' bt_trace 1.5 "$tbase" "$tf_added"
	cost_row 'd. stp: { if ($id == 999) n++ }, filter hoisted' bt_filter 1.5 "$tbase" "$tf_added"
	cost_row 'e. stp -u: the same, generic path' bt_filter_u 1.5 "$tbase" "$tf_added"
	cost_plain "a'. no probe, again after the runs above" "$(nspc kbase3)"
	echo
	echo "  f. SystemTap 4.8, c's script: not run."
	echo "     $STAP_WHY"
	echo
	echo "  a: the kprobe section's a', just before these runs; +ns/hit and x floor as for"
	echo "  kprobes.  The floor's and stp's counts hold every system call the guest made"
	echo "  meanwhile, not only the loop's.  d and e count the hits whose \$id is 999:"
	echo "  none; d's filter runs in the callback before the context (translator/elab/hoist.c),"
	echo "  e (-u, no hoisting) takes the context for every hit to test it."
	echo
} >"$SECTION"
publish_section "guest: tracepoint cost" "$SECTION" always
