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

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"

RUNS=${BENCH_RUNS:-20}
STAP_RUNS=${BENCH_STAP_RUNS:-5}
WARMUP=${BENCH_WARMUP:-2}
MEM_RUNS=${BENCH_MEM_RUNS:-3}
OUT=build/bench/pass2
RESULTS=tests/bench/results.txt
ONE='probe kprobe.function("vfs_read") { printf("%d\n", 1) }'

say() { echo "bench: $*" >&2; }
die() { echo "bench: $*" >&2; exit 1; }
need_deps() {
	echo "bench: $*" >&2
	echo "bench: run \`make deps\` (installs systemtap, linux-headers-amd64, the kernel sysroot, hyperfine, time), then \`make bench\` again" >&2
	exit 1
}

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

HYPERFINE=
NO_HF_WHY="hyperfine not found"
[ -z "${BENCH_NO_HYPERFINE:-}" ] || NO_HF_WHY="BENCH_NO_HYPERFINE set"
if [ -z "${BENCH_NO_HYPERFINE:-}" ] && command -v hyperfine >/dev/null 2>&1; then
	HYPERFINE=$(command -v hyperfine)
fi

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
MIN_LINES=$(wc -l "$TAPSET"/*.stp | grep -v ' total$' | sort -n | head -n 1 | awk '{ print $1 }')
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
check() {
	local what=$1
	shift
	if ! "$@" >"$OUT/check.out" 2>"$OUT/check.err"; then
		echo "bench: $what failed: $*" >&2
		tail -n 20 "$OUT/check.err" >&2
		exit 1
	fi
}
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
if [ -n "${EPOCHREALTIME:-}" ]; then
	now_us() { NOW=${EPOCHREALTIME/./}; }
else
	now_us() { NOW=$(($(date +%s%N) / 1000)); }
fi

# median of the numbers on stdin
median() {
	sort -n | awk '{ v[NR] = $1 }
		END { if (NR == 0) { print 0; exit }
		      if (NR % 2) print v[(NR + 1) / 2];
		      else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# time_loop N CMD...: run CMD N times (output discarded); print the median
# wall time in ms.
time_loop() {
	local n=$1 i t0 t1
	shift
	for ((i = 0; i < n; i++)); do
		now_us
		t0=$NOW
		"$@" >/dev/null 2>&1 || die "command failed: $*"
		now_us
		t1=$NOW
		echo $((t1 - t0))
	done | median | awk '{ printf "%.3f\n", $1 / 1000 }'
}

# measure NAME RUNS CMD...: median wall time of CMD in ms, after warm-up.
measure() {
	local name=$1 runs=$2 cmd="" a
	shift 2
	say "timing $name: $WARMUP warm-up + $runs runs"
	if [ -n "$HYPERFINE" ]; then
		for a in "$@"; do cmd+=$(printf '%q ' "$a"); done
		"$HYPERFINE" -N --style none --warmup "$WARMUP" --runs "$runs" \
			--command-name "$name" --export-csv "$OUT/$name.csv" \
			-- "$cmd" >/dev/null 2>"$OUT/$name.err" ||
			{ cat "$OUT/$name.err" >&2; die "hyperfine failed on $*"; }
		# command,mean,stddev,median,user,system,min,max (seconds)
		awk -F, 'NR == 2 { printf "%.3f\n", $(NF - 4) * 1000 }' "$OUT/$name.csv"
	else
		time_loop "$WARMUP" "$@" >/dev/null
		time_loop "$runs" "$@"
	fi
}

# peak_kb CMD...: median over MEM_RUNS runs of the maximum resident set
# size, in KB.
peak_kb() {
	local i
	for ((i = 0; i < MEM_RUNS; i++)); do
		/usr/bin/time -f %M -o "$OUT/time.out" "$@" >/dev/null 2>&1 ||
			die "command failed: $*"
		tail -n 1 "$OUT/time.out"
	done | median | awk '{ printf "%d\n", $1 }'
}

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
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0) printf "%.1fx", b / a; else print "-" }'; }
frac() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
row() { # label stp stap
	printf '  %-44s %10.2f %10.2f %9s\n' "$1" "$2" "$3" "$(ratio "$2" "$3")"
}
mrow() { # label stp-kb stap-kb
	printf '  %-44s %10.1f %10.1f %9s\n' "$1" "$(mb "$2")" "$(mb "$3")" "$(frac "$2" "$3")"
}
mb() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
met() { # cond-as-awk-expr
	awk "BEGIN { exit !($1) }" && echo "met" || echo "NOT met"
}

if [ -n "$HYPERFINE" ]; then
	METHOD="$("$HYPERFINE" --version) -N, $WARMUP warm-up + $RUNS runs (stp) / $STAP_RUNS runs (stap), median"
else
	METHOD="bash loop ($NO_HF_WHY), $WARMUP warm-up + $RUNS runs (stp) / $STAP_RUNS runs (stap), median"
fi
CPU=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
SPEEDUP=$(awk -v a="$T_A_STP" -v b="$T_A_STAP" 'BEGIN { printf "%.2fx", b / a }')
MEMFRAC=$(frac "$M_A_STP" "$M_A_STAP")

SECTION=$OUT/pass2-section.txt
{
	echo "## pass 2 (elaborate)"
	echo
	echo "date:     $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "machine:  $(nproc) CPUs, ${CPU:-unknown CPU}, $(uname -sr)"
	echo "stp:      git $REV"
	echo "stap:     $(stap -V 2>&1 | head -n 1)"
	echo "target:   --sysroot=$SYSROOT -r $KREL"
	echo "load:     $LOAD_START at start, $(cut -d' ' -f1-3 /proc/loadavg) at end (1/5/15-min load average)"
	echo "timing:   $METHOD; wall time in ms"
	echo
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
if [ -f "$RESULTS" ]; then
	awk -v new="$SECTION" '
		BEGIN { while ((getline l < new) > 0) sec = sec l "\n" }
		/^## pass 2 \(elaborate\)/ { printf "%s", sec; skip = 1; done = 1; next }
		skip && /^## / { skip = 0 }
		!skip { print; last = $0 }
		END { if (!done) printf "%s%s", (last == "" ? "" : "\n"), sec }' "$RESULTS" >"$OUT/results.tmp"
else
	{
		echo "# stp benchmarks (make bench: tests/bench/run.sh)"
		echo
		cat "$SECTION"
	} >"$OUT/results.tmp"
fi
mv "$OUT/results.tmp" "$RESULTS"

cat "$SECTION"
say "written to $RESULTS"
