#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Reading a per-CPU statistics array element by element (make bench, or
# on its own): 10,000 keys written, then, in the end probe,
#     foreach (k in s) n += @count(s[k])
# timed with gettimeofday_ns() in one boot of a 2-vCPU guest.  Plain
# TCG, not -icount: with 2 vCPUs and -icount shift=0,sleep=off the guest
# did not finish booting in 6 minutes here.  Plain TCG timings wander
# from one boot to the next, so compare figures of the same boot only
# (the ratio).  staprun/stp-qemu runs a guest of more than one vCPU on
# single-threaded TCG; the script arms no kprobe, the case that needs it.
#
#   tests/bench/statread.sh [REV]
#
# With REV (a git revision, e.g. the one before a change to the emitter
# or runtime/map.c), its stp is built from `git archive REV` and the
# same script is timed under both; the "## guest: statistics array
# read" section of results.txt gets the figures and their ratio.
set -euo pipefail
export LC_ALL=C
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
OUT=build/bench/statread
RESULTS=tests/bench/results.txt
REV=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
HYPERFINE=
NO_HF_WHY="one guest boot; compare within it"
WARMUP=0
KEYS=${BENCH_KEYS:-10000}
BEFORE=${1:-}
rm -rf "$OUT" && mkdir -p "$OUT/files"

SYSROOT=$(tests/kernel.sh)
KREL=$(tests/kernel.sh release)
SCRIPT="global s
probe begin { for (i = 0; i < $KEYS; i++) s[i] <<< i; exit() }
probe end {
	t0 = gettimeofday_ns()
	foreach (k in s) n += @count(s[k])
	t1 = gettimeofday_ns()
	printf(\"read %d ns %d\\n\", n, t1 - t0)
}"
OPTS=(--sysroot="$SYSROOT" -r "$KREL" -p4 -D MAXACTION=1000000 -D MAXMAPENTRIES=$((KEYS + 16)))

mods=(after)
(cd "$OUT/files" && "$ROOT/stp" "${OPTS[@]}" -m sr_after -e "$SCRIPT" >/dev/null) ||
	die "stp -p4 failed"
if [ -n "$BEFORE" ]; then
	say "building stp at $BEFORE"
	mkdir -p "$OUT/before"
	git archive "$BEFORE" | tar -x -C "$OUT/before"
	make -s -C "$OUT/before" stp >"$OUT/before.log" 2>&1 || die "building stp at $BEFORE failed"
	(cd "$OUT/files" && "$ROOT/$OUT/before/stp" "${OPTS[@]}" -m sr_before -e "$SCRIPT" >/dev/null) ||
		die "stp -p4 at $BEFORE failed"
	mods=(before after)
fi

{
	for m in "${mods[@]}"; do
		echo "echo \"$m \$(stprun sr_$m.ko 2>&1)\""
	done
} >"$OUT/files/run.sh"
say "booting a 2-vCPU guest"
staprun/stp-qemu --smp 2 --timeout 1200 --kernel "$SYSROOT/boot/vmlinuz-$KREL" \
	"$OUT/files/run.sh" "$OUT"/files/*.ko >"$OUT/guest.out" ||
	die "the guest run failed: $(tail "$OUT/guest.out")"
cat "$OUT/guest.out" >&2

ns() { awk -v k="$1" '$1 == k && $2 == "read" && $4 == "ns" { print $5 }' "$OUT/guest.out"; }
after=$(ns after)
[ -n "$after" ] || die "no figure from the guest"
SECTION=$OUT/section.txt
{
	section_head "guest: statistics array read" "1 run" \
		"target:   $KREL under qemu-system-x86_64 -accel tcg,thread=single -smp 2 (one boot)" \
		"workload: $KEYS keys s[i] <<< i, then foreach (k in s) n += @count(s[k]) in the end probe"
	printf '  %-40s %14s %12s\n' "" "foreach ms" "ns/key"
	if [ -n "$BEFORE" ]; then
		before=$(ns before)
		printf '  %-40s %14.1f %12.0f\n' "before ($BEFORE)" "$(awk -v t="$before" 'BEGIN { print t / 1e6 }')" \
			"$(awk -v t="$before" -v k="$KEYS" 'BEGIN { print t / k }')"
	fi
	printf '  %-40s %14.1f %12.0f\n' "after ($REV)" "$(awk -v t="$after" 'BEGIN { print t / 1e6 }')" \
		"$(awk -v t="$after" -v k="$KEYS" 'BEGIN { print t / k }')"
	if [ -n "$BEFORE" ]; then
		echo
		echo "  before / after: $(awk -v a="$before" -v b="$after" 'BEGIN { printf "%.1fx", a / b }')"
	fi
	echo
	echo "  ms: the guest's gettimeofday_ns() around the foreach, both runs in one boot."
	echo
} >"$SECTION"
publish_section "guest: statistics array read" "$SECTION" always
