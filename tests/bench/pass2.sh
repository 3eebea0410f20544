#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The pass-2 (elaborate) benchmark, run by tests/bench/run.sh after pass 1
# (make bench), or alone.  stp -p2 against Debian's stap -p2 on
#   a. a script using 20 probe aliases and 20 functions of a generated
#      tapset directory of 200 files given with -I
#      (tests/bench/gen_tapset200.py -> build/bench/pass2/),
#   b. a one-probe script (kprobe.function("vfs_read")), no -I: the fixed
#      costs (start-up, the kernel's symbol table, stap's own library),
# both for the same target kernel (--sysroot=$(tests/kernel.sh)
# -r $(tests/kernel.sh release)), plus the peak memory of each.  The
# figures (median wall times, ms; median peak RSS) and the ratios go to the
# "## pass 2 (elaborate)" section of tests/bench/results.txt and to stdout.
#
# Reports only: nothing here fails because something is slow.  It fails if
# a tool is missing or a command errors.
#
# Knobs (environment): BENCH_RUNS (timed stp runs, default 20),
# BENCH_STAP_RUNS (timed stap runs, default 5), BENCH_WARMUP (default 2),
# BENCH_MEM_RUNS (peak-memory runs per command, median, default 3),
# BENCH_NO_HYPERFINE=1 (use the bash timing loop even with hyperfine).
set -euo pipefail
export LC_ALL=C
# say, die, need_deps, check, measure, peak_kb, row, ... (shared with run.sh)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"

RUNS=${BENCH_RUNS:-20}
STAP_RUNS=${BENCH_STAP_RUNS:-5}
WARMUP=${BENCH_WARMUP:-2}
MEM_RUNS=${BENCH_MEM_RUNS:-3}
OUT=build/bench/pass2
RESULTS=tests/bench/results.txt
ONE='probe kprobe.function("vfs_read") { printf("%d\n", 1) }'
DEPS="systemtap, linux-headers-amd64, the kernel sysroot, hyperfine, time"

# ---- tools and target kernel ----------------------------------------------
command -v stap >/dev/null 2>&1 || need_deps "stap (Debian's systemtap) is not installed"
[ -x /usr/bin/time ] || need_deps "/usr/bin/time is missing (package time)"
command -v python3 >/dev/null 2>&1 || die "python3 is needed to generate the tapset directory"
KREL=$(tests/kernel.sh release) || need_deps "no target kernel release (linux-headers-amd64)"
SYSROOT=$(tests/kernel.sh) || need_deps "cannot prepare the kernel sysroot (tests/kernel.sh)"
MAP=$SYSROOT/boot/System.map-$KREL
[ -s "$MAP" ] || need_deps "no System.map at $MAP"
[ -f "/lib/modules/$KREL/build/.config" ] ||
	need_deps "no kernel headers for $KREL (stap -r needs /lib/modules/$KREL/build)"
KOPTS=(--sysroot="$SYSROOT" -r "$KREL")

pick_hyperfine

mkdir -p "$OUT"
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
make -s stp >&2
REV=$(git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)
STP=./stp

# ---- inputs -----------------------------------------------------------------
python3 tests/bench/gen_tapset200.py "$OUT"
TAPSET=$OUT/tapset
SCRIPT=$OUT/script20.stp
NFILES=$(find "$TAPSET" -maxdepth 1 -name '*.stp' | wc -l)
[ "$NFILES" -eq 200 ] || die "$TAPSET has $NFILES .stp files, not 200"
TAPSET_LINES=$(cat "$TAPSET"/*.stp | wc -l)
MIN_LINES=$(wc -l "$TAPSET"/*.stp | awk '$2 != "total" && (m == "" || $1 < m) { m = $1 } END { print m }')
MAX_LINES=$(wc -l "$TAPSET"/*.stp | grep -v ' total$' | sort -n | tail -n 1 | awk '{ print $1 }')
N_ALIASES=$(cat "$TAPSET"/*.stp | grep -c '^probe bx_[0-9]*\.[a-z.]* +\?=') || true
N_FUNCS=$(cat "$TAPSET"/*.stp | grep -c '^function ') || true
USED_ALIASES=$(grep -c '^probe bx_' "$SCRIPT") || true
USED_FUNCS=$(grep -o 'bx_[0-9]*_[a-z]*(' "$SCRIPT" | sort -u | wc -l)

# Every kernel function the tapsets name must be a text symbol of the map.
: >"$OUT/missing.txt"
grep -ho 'kprobe\.function("[^"]*")' "$TAPSET"/*.stp | sed 's/.*("\(.*\)")/\1/' | sort -u >"$OUT/kfuncs.txt"
awk '$2 == "t" || $2 == "T" { print $3 }' "$MAP" | sort -u | comm -23 "$OUT/kfuncs.txt" - >"$OUT/missing.txt"
# sys_* only appears in the %( arch != "x86_64" %) branches, never taken.
grep -v '^sys_' "$OUT/missing.txt" >"$OUT/missing-x86.txt" || true
[ ! -s "$OUT/missing-x86.txt" ] ||
	die "kernel functions not in $MAP: $(tr '\n' ' ' <"$OUT/missing-x86.txt")"

# Every measured command must succeed once before it is timed.
check "stp -p2 on the 20-alias script" $STP "${KOPTS[@]}" -I "$TAPSET" -v -p2 "$SCRIPT"
STP_KPROBES=$(grep -c '^kprobe\.' "$OUT/check.out") || true
STP_SUMMARY=$(sed -n 's/^Pass 2: analyzed script: \([^ ]* probes, [^ ]* functions, [^ ]* globals\).*/\1/p' "$OUT/check.err")
cp "$OUT/check.out" "$OUT/stp-p2.out"
check "stap -p2 on the 20-alias script" stap "${KOPTS[@]}" -I "$TAPSET" -v -p2 "$SCRIPT"
STAP_KPROBES=$(grep -c '^kprobe\.' "$OUT/check.out") || true
STAP_SUMMARY=$(sed -n 's/^Pass 2: analyzed script: \([^ ]* probes, [^ ]* functions, [^ ]* embeds, [^ ]* globals\).*/\1/p' "$OUT/check.err")
STAP_LIB=$(sed -n 's/.*parsed user script and \([0-9]*\) library scripts.*/\1/p' "$OUT/check.err")
cp "$OUT/check.out" "$OUT/stap-p2.out"
[ "$STP_KPROBES" -gt 0 ] || die "stp resolves no kprobes (see $OUT/stp-p2.out)"
[ "$STP_KPROBES" = "$STAP_KPROBES" ] ||
	die "stp resolves $STP_KPROBES kprobes, stap $STAP_KPROBES (see $OUT/stp-p2.out, $OUT/stap-p2.out)"
check "stp -p2 one probe" $STP "${KOPTS[@]}" -p2 -e "$ONE"
check "stap -p2 one probe" stap "${KOPTS[@]}" -p2 -e "$ONE"

# ---- timing ---------------------------------------------------------------
T_A_STP=$(measure p2a-stp "$RUNS" $STP "${KOPTS[@]}" -I "$TAPSET" -p2 "$SCRIPT")
T_A_STAP=$(measure p2a-stap "$STAP_RUNS" stap "${KOPTS[@]}" -I "$TAPSET" -p2 "$SCRIPT")
T_B_STP=$(measure p2b-stp "$RUNS" $STP "${KOPTS[@]}" -p2 -e "$ONE")
T_B_STAP=$(measure p2b-stap "$STAP_RUNS" stap "${KOPTS[@]}" -p2 -e "$ONE")
T_TRUE=$(measure true "$RUNS" /bin/true)

say "peak memory ($MEM_RUNS runs each, median)"
M_A_STP=$(peak_kb $STP "${KOPTS[@]}" -I "$TAPSET" -p2 "$SCRIPT")
M_A_STAP=$(peak_kb stap "${KOPTS[@]}" -I "$TAPSET" -p2 "$SCRIPT")
M_B_STP=$(peak_kb $STP "${KOPTS[@]}" -p2 -e "$ONE")
M_B_STAP=$(peak_kb stap "${KOPTS[@]}" -p2 -e "$ONE")

# ---- report ----------------------------------------------------------------
frac() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
mrow() { # label stp-kb stap-kb
	printf '  %-44s %10.1f %10.1f %9s\n' "$1" "$(mb "$2")" "$(mb "$3")" "$(frac "$2" "$3")"
}

SPEEDUP=$(awk -v a="$T_A_STP" -v b="$T_A_STAP" 'BEGIN { printf "%.2fx", b / a }')
MEMFRAC=$(frac "$M_A_STP" "$M_A_STAP")

SECTION=$OUT/pass2-section.txt
{
	section_head "pass 2 (elaborate)" "$RUNS runs (stp) / $STAP_RUNS runs (stap)" \
		"stap:     $(stap -V 2>&1 | head -n 1)" \
		"target:   --sysroot=$SYSROOT -r $KREL"
	printf '  %-44s %10s %10s %9s\n' "" "stp ms" "stap ms" "stap/stp"
	row "a. 20 aliases+functions, 200-file -I, -p2" "$T_A_STP" "$T_A_STAP"
	row "b. one kprobe, no -I, -p2 (fixed costs)" "$T_B_STP" "$T_B_STAP"
	printf '  %-44s %10.2f\n' "(baseline: /bin/true, process start-up)" "$T_TRUE"
	echo
	printf '  %-44s %10s %10s %9s\n' "peak memory (max RSS, median of $MEM_RUNS)" "stp MB" "stap MB" "stp/stap"
	mrow "a. 20 aliases+functions, 200-file -I, -p2" "$M_A_STP" "$M_A_STAP"
	mrow "b. one kprobe, no -I, -p2" "$M_B_STP" "$M_B_STAP"
	echo
	echo "targets (a.):"
	echo "  at least 10x faster than stap -p2:         $SPEEDUP ($T_A_STAP / $T_A_STP ms) -> $(met "$T_A_STAP >= 10 * $T_A_STP")"
	echo "  under a quarter of stap -p2's peak memory: $MEMFRAC ($(mb "$M_A_STP") / $(mb "$M_A_STAP") MB) -> $(met "$M_A_STP * 4 < $M_A_STAP")"
	echo
	echo "what each figure measures:"
	echo "  a. \`stp -p2 --sysroot=S -r $KREL -I $TAPSET $SCRIPT\`"
	echo "     vs the same \`stap\` command (stdout to /dev/null).  $TAPSET:"
	echo "     $NFILES files of $MIN_LINES-$MAX_LINES lines ($TAPSET_LINES in all) from tests/bench/gen_tapset200.py,"
	echo "     $N_ALIASES probe alias definitions over kprobe.function() of real $KREL functions"
	echo "     (entry, .return, optional lists, aliases of aliases, epilogue aliases,"
	echo "     %( kernel_v %) / %( arch %) alternatives), $N_FUNCS functions (overloads with"
	echo "     next, embedded C), globals, a begin probe per file.  The script uses"
	echo "     $USED_ALIASES aliases and $USED_FUNCS functions, with arrays, statistics, printf,"
	echo "     foreach, timer.s and end probes."
	echo "     stp -v:  $STP_SUMMARY; $STP_KPROBES kprobes"
	echo "     stap -v: $STAP_SUMMARY; $STAP_KPROBES kprobes;"
	echo "     stap also parses its own library (${STAP_LIB:-?} library scripts with the 200)."
	echo "  b. \`-p2 --sysroot=S -r $KREL -e '$ONE'\`"
	echo "     for each tool: start-up, the target's System.map, stap's library."
	echo "  S = $SYSROOT (Debian's vmlinux-$KREL System.map)."
	echo "  outputs of the checking runs: $OUT/stp-p2.out, $OUT/stap-p2.out"
	echo
} >"$SECTION"

# Replace the pass-2 section of results.txt (or add it), keep the others.
publish_section "pass 2 (elaborate)" "$SECTION" once
