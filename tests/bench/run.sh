#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make bench: the pass-1 (parse) benchmark.  stp -p1 against Debian's
# stap -p1 on
#   a. a generated 1,000-line script (build/bench/script1000.stp),
#   b. a one-line -e script,
#   c. the whole systemtap-common tapset tree,
#   d. ~40 tapset files, each parsed as a user script (-g),
# plus the peak memory of a. and c.  The figures (median wall times, ms)
# and the stap/stp ratios go to the "## pass 1 (parse)" section of
# tests/bench/results.txt and to stdout.
#
# Reports only: nothing here fails because something is slow.  It fails if
# a tool is missing or a command errors.
#
# Then tests/bench/pass2.sh, the pass-2 (elaborate) benchmark, writes its
# own "## pass 2 (elaborate)" section, and rt_bench (below) the
# "## runtime maps (host)" one: ns per map update and "<<<" on the host
# (BENCH_ONLY=runtime runs that one alone), and sketch_coverage (below) the
# "## sketch coverage" one: the Chopstix sampler's false negatives and
# stored samples on Zipf streams of structured labels, against exact
# counts and the paper's formula, at HCA sizes 512 B to 4 KB, issue 27's
# targets, and ns per event (BENCH_ONLY=sketch runs that one alone).
# tests/bench/footprint.sh (issue 15) writes "## guest: footprint":
# lmbench-style tests with and without a script in an -icount guest; it
# runs alone too.
# tests/bench/vitals_guest.sh and vitals_bpf.sh (issue 27) write "## guest:
# vitals.stp against its floor" and "## native: vitals.stp against its
# floor (BPF)": vitals.stp's added cost per lmb test as a multiple of a
# floor that hooks the same points and only counts, in an -icount guest
# per kernel line (with the sketch's memory and the store's bytes a day)
# and natively under --runtime=bpf; each runs alone too.
#
# Knobs (environment): BENCH_RUNS (timed runs per command, default 10),
# BENCH_WARMUP (default 2, after one checking run), BENCH_SAMPLES (files for d., default 40),
# BENCH_TAPSET (default /usr/share/systemtap/tapset), BENCH_KVER,
# BENCH_NO_HYPERFINE=1 (use the bash timing loop even with hyperfine).
set -euo pipefail
export LC_ALL=C
# say, die, need_deps, check, measure, peak_kb, row, ... (shared with pass2.sh)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"

RUNS=${BENCH_RUNS:-10}
WARMUP=${BENCH_WARMUP:-2}
SAMPLES=${BENCH_SAMPLES:-40}
TAPSET=${BENCH_TAPSET:-/usr/share/systemtap/tapset}
OUT=build/bench
RESULTS=tests/bench/results.txt
HELLO='probe begin { printf("hello\n") exit() }'
MEM_RUNS=1 # peak_kb: one run per command
DEPS="systemtap, linux-headers-amd64, hyperfine, time"

# ---- runtime data structures on the host --------------------------------
# tests/bench/rt_bench.c, built like the runtime's unit tests (-DSTP_HOST):
# ns per map update and per "<<<".  Needs neither stap nor a kernel, so
# BENCH_ONLY=runtime runs this section alone.
rt_bench() {
	local bin=$OUT/rt_bench section=$OUT/runtime-section.txt cpu load0
	mkdir -p "$OUT"
	load0=$(cut -d' ' -f1-3 /proc/loadavg)
	say "building $bin"
	${CC:-cc} -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -DSTP_HOST \
		-Iruntime -o "$bin" tests/bench/rt_bench.c tests/unit/rt_host.c \
		runtime/out.c runtime/map.c runtime/stat.c runtime/format.c ||
		die "rt_bench did not build"
	say "timing runtime operations"
	"$bin" "${BENCH_RT_OPS:-2000000}" >"$OUT/rt_bench.out" || die "rt_bench failed"
	cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
	{
		echo "## runtime maps (host)"
		echo
		echo "date:     $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
		echo "machine:  $(nproc) CPUs, ${cpu:-unknown CPU}, $(uname -sr)"
		echo "stp:      git $(git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)"
		echo "compiler: $(${CC:-cc} --version | head -n 1), -O2 -DSTP_HOST"
		echo "load:     $load0 at start, $(cut -d' ' -f1-3 /proc/loadavg) at end (1/5/15-min load average)"
		echo "timing:   in-process CLOCK_MONOTONIC, best of 5 rounds of ${BENCH_RT_OPS:-2000000} operations (after a warm-up tenth)"
		echo
		printf '  %-44s %8s\n' "" "ns/op"
		sed 's/^/  /' "$OUT/rt_bench.out"
		echo
		echo "what each figure measures:"
		echo "  a[k]++: stp_map_insert (find, or insert when absent) and an increment of"
		echo "     the long value, keys drawn at random from 1000 (or 2048) distinct ones"
		echo "     in a map of 2048 entries: long keys spread over 64 bits, string keys"
		echo "     \"process-NNNNN\" (13 bytes).  Every key is present after the first"
		echo "     round, so this is mostly the find path; \"full\" has every entry used."
		echo "  s <<< v: stp_stat_add (count, sum, min, max, Welford's running variance;"
		echo "     with @hist_log also the bucket)."
		echo "  a[k] <<< v: stp_pmap_add on this CPU's map, a log histogram per entry."
		echo "  Host figures: the kernel build adds no locking here (the generated code"
		echo "  holds the global's lock), but runs under a probe's other costs."
		echo
	} >"$section"
	publish_section "runtime maps (host)" "$section" once
}
# ---- the sketch's coverage on the host ------------------------------------
# tests/bench/sketch_coverage.c, built once per HCA size (512 B to 4 KB,
# the rest of the sketch as cx_core.h has it), and tests/bench/
# sketch_report.c for the tables and issue 27's targets 1 and 2; the
# sketch's size from tests/bench/sketch_size.c.  BENCH_ONLY=sketch runs
# this section alone; BENCH_SKETCH_EVENTS sets the events per vital and
# epoch, BENCH_SKETCH_TRIALS the epochs of the streams of 100 labels
# (fewer at more labels: see sketch_coverage.c).
SKETCH_SIZES="512 1024 2048 4096"
sketch_bench() {
	local raw=$OUT/sketch-raw.txt section=$OUT/sketch-section.txt
	local events=${BENCH_SKETCH_EVENTS:-1000000} trials=${BENCH_SKETCH_TRIALS:-30}
	local flags=(-O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror) load0 cpu h load
	local sk_bytes sk_vitals sk_hca sk_samples
	mkdir -p "$OUT"
	load0=$(cut -d' ' -f1-3 /proc/loadavg)
	${CC:-cc} "${flags[@]}" -o "$OUT/sketch_report" tests/bench/sketch_report.c -lm ||
		die "sketch_report did not build"
	${CC:-cc} "${flags[@]}" -DSTP_HOST -Iruntime -o "$OUT/sketch_size" \
		tests/bench/sketch_size.c || die "sketch_size did not build"
	read -r sk_bytes sk_vitals sk_hca sk_samples < <("$OUT/sketch_size")
	: >"$raw"
	for h in $SKETCH_SIZES; do
		say "sketch coverage: HCA of $h bytes"
		load=
		[ "$h" = "$sk_hca" ] && load=load # all vitals at once: the default only
		${CC:-cc} "${flags[@]}" -DSTP_HOST -DCX_HCA_BYTES="$h" \
			-Iruntime -o "$OUT/sketch_coverage_$h" tests/bench/sketch_coverage.c \
			runtime/sketch.c tests/unit/rt_host.c -lm || die "sketch_coverage did not build"
		"$OUT/sketch_coverage_$h" "$events" "$trials" $load >>"$raw" ||
			die "sketch_coverage failed"
	done
	cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
	{
		echo "## sketch coverage"
		echo
		echo "date:     $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
		echo "machine:  $(nproc) CPUs, ${cpu:-unknown CPU}, $(uname -sr)"
		echo "stp:      git $(git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)"
		echo "compiler: $(${CC:-cc} --version | head -n 1), -O2 -DSTP_HOST"
		echo "load:     $load0 at start, $(cut -d' ' -f1-3 /proc/loadavg) at end (1/5/15-min load average)"
		echo "sketch:   runtime/cx_core.h as it is, HCA sizes by -DCX_HCA_BYTES; $sk_samples sample slots"
		echo "          per vital and epoch; $sk_bytes bytes = $(awk -v b="$sk_bytes" 'BEGIN { printf "%.1f", b / 1024 }') KB at the defaults"
		echo "          (sizeof(struct cx_sketch), $sk_vitals vitals, $sk_hca-byte HCAs; target <= 256 KB: $(met "$sk_bytes <= 262144"))"
		echo "streams:  $events events of weight 1 per vital and epoch, ranks i.i.d. from a Zipf"
		echo "          law of exponent s over L labels; epochs (trials) of each: $trials at L = 100,"
		echo "          $((trials * 100 / 300 > 0 ? trials * 100 / 300 : 1)) at 300, $((trials * 100 / 1000 > 0 ? trials * 100 / 1000 : 1)) at 1000, 1 beyond; each stream counted once per shape"
		echo "          (random, pid, pc, syscall) and per t (2, 4, 16), t fixed; epochs closed"
		echo "          as the module closes them (cx_flip, cx_fold, cx_finish, cx_clear)"
		echo
		"$OUT/sketch_report" "$raw" "$sk_hca" 1e-4 1e-3 || die "sketch_report failed"
		echo "what the figures mean:"
		echo "  Ground truth: every event's label is counted here exactly, and every"
		echo "  label that occurred is checked, not a chosen few.  A label is the vital's"
		echo "  label and who the event is about (cx_who of 4 programs and users); shapes:"
		echo "  random 64-bit; pid 1, 2, 3, ...; pc 0xffffffff81000000 + (i << 8); syscall"
		echo "  (sp & ~0xff) << 8 ^ nr of 8 processes (2 per program), 24 calls, sites at"
		echo "  stack depths.  Each shape counts in its vital's slot (its hash multiplier)."
		echo "  Selected: cx_count decided to sample the event (it claimed a slot, whether"
		echo "  one was left or not); missed: a label none of whose events was selected."
		echo "  The HCA alone: an event is selected when its counter crosses a power of t"
		echo "  (read off the same counters), the paper's sampler without the first-"
		echo "  occurrence table.  The formula (Chopstix 5.3): P[unsampled | N-n, n] for"
		echo "  a label of n events in a counter that reached N, with k = floor(log_t N) + 1"
		echo "  sampling points (the paper's k = log2 N - t); exact form C(N-n,k)/C(N,k),"
		echo "  the paper's ((N-n)/N)^k draws the points with replacement; the estimate"
		echo "  sums it over the labels seen, N read from the counters at the close."
		echo "  95% bound: one-sided upper bound of the rate (Clopper-Pearson; with no"
		echo "  miss 1 - 0.05^(1/labels), about 3/labels)."
		echo "  Stored samples: a first occurrence is a label the first-occurrence table"
		echo "  had not seen this epoch; evicted: stored by taking a repeat's slot once"
		echo "  the list was full (cx_evict); unstored: labels selected, never stored."
		echo
	} >"$section"
	publish_section "sketch coverage" "$section" once
}
if [ "${BENCH_ONLY:-}" = runtime ]; then
	rt_bench
	exit 0
fi
if [ "${BENCH_ONLY:-}" = sketch ]; then
	sketch_bench
	exit 0
fi

# ---- tools ----------------------------------------------------------------
command -v stap >/dev/null 2>&1 || need_deps "stap (Debian's systemtap) is not installed"
[ -d "$TAPSET" ] || need_deps "no SystemTap tapset tree at $TAPSET (package systemtap-common)"
[ -x /usr/bin/time ] || need_deps "/usr/bin/time is missing (package time)"
command -v python3 >/dev/null 2>&1 || die "python3 is needed to generate the benchmark script"
KVER=${BENCH_KVER:-}
if [ -z "$KVER" ]; then
	for d in /lib/modules/*/build; do
		[ -f "$d/.config" ] && KVER=$(basename "$(dirname "$d")")
	done
	if [ -f "/lib/modules/$(uname -r)/build/.config" ]; then
		KVER=$(uname -r)
	fi
fi
[ -n "$KVER" ] && [ -f "/lib/modules/$KVER/build/.config" ] ||
	need_deps "no kernel headers with a .config under /lib/modules/*/build (stap will not run without them; package linux-headers-amd64)"

pick_hyperfine

mkdir -p "$OUT"
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
# stp and the corpus checker, through the Makefile's own rules.
make -s stp build/tests/parse_corpus >&2
REV=$(git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)
STP=./stp
CORPUS=build/tests/parse_corpus
STAP=(stap -r "$KVER")

# ---- the 1,000-line script ----------------------------------------------
SCRIPT=$OUT/script1000.stp
python3 tests/bench/gen_script1000.py "$SCRIPT"
[ "$(wc -l <"$SCRIPT")" -eq 1000 ] || die "$SCRIPT is not 1000 lines"

# Every measured command must succeed once before it is timed.
check "stp -p1 on the 1000-line script" $STP -p1 "$SCRIPT"
check "stap -p1 on the 1000-line script" "${STAP[@]}" -p1 "$SCRIPT"
check "stp -p1 -e" $STP -p1 -e "$HELLO"
check "stap -p1 -e" "${STAP[@]}" -p1 -e "$HELLO"
check "stap -p1 -e 'probe never {}'" "${STAP[@]}" -v -p1 -e 'probe never {}'
STAP_LIB=$(sed -n 's/.*parsed user script and \([0-9]*\) library scripts.*/\1/p' "$OUT/check.err")
check "parse_corpus" $CORPUS "$TAPSET" -t
CORPUS_SUMMARY=$(tail -n 1 "$OUT/check.out")
CORPUS_FILES=$(find "$TAPSET" -type f \( -name '*.stp' -o -name '*.stpm' \) | wc -l)

# ---- timing ---------------------------------------------------------------
T_A_STP=$(measure a-stp "$RUNS" $STP -p1 "$SCRIPT")
T_A_STAP=$(measure a-stap "$RUNS" "${STAP[@]}" -p1 "$SCRIPT")
T_B_STP=$(measure b-stp "$RUNS" $STP -p1 -e "$HELLO")
T_B_STAP=$(measure b-stap "$RUNS" "${STAP[@]}" -p1 -e "$HELLO")
T_C_STP=$(measure c-stp "$RUNS" $CORPUS "$TAPSET" -t)
T_C_STAP=$(measure c-stap "$RUNS" "${STAP[@]}" -p1 -e 'probe never {}')
T_TRUE=$(measure true "$RUNS" /bin/true)

say "peak memory of a. and c."
M_A_STP=$(peak_kb $STP -p1 "$SCRIPT")
M_A_STAP=$(peak_kb "${STAP[@]}" -p1 "$SCRIPT")
M_C_STP=$(peak_kb $CORPUS "$TAPSET" -t)
M_C_STAP=$(peak_kb "${STAP[@]}" -p1 -e 'probe never {}')

# ---- d. per script: every Nth tapset file, each as a user script ----------
mapfile -t ALL < <(find "$TAPSET" -type f \( -name '*.stp' -o -name '*.stpm' \) | sort)
STEP=$(( ${#ALL[@]} / SAMPLES ))
[ "$STEP" -ge 1 ] || STEP=1
PICKED=()
for ((i = 0; i < ${#ALL[@]} && ${#PICKED[@]} < SAMPLES; i += STEP)); do
	PICKED+=("${ALL[i]}")
done
# stap refuses to run a file inside its tapset directory as a session
# script ("tapset file ... cannot be run directly"): both tools parse copies.
SAMPLE_DIR=$OUT/tapset-sample
rm -rf "$SAMPLE_DIR"
say "timing d: ${#PICKED[@]} tapset files (1 in ${STEP} of ${#ALL[@]}); stp $RUNS runs each, stap 1 run each"
D_STP_US=0
D_STAP_US=0
D_OK=0
SKIPPED=()
: >"$OUT/d-files.txt"
for f in "${PICKED[@]}"; do
	rel=${f#"$TAPSET"/}
	mkdir -p "$(dirname "$SAMPLE_DIR/$rel")"
	cp "$f" "$SAMPLE_DIR/$rel"
	f=$SAMPLE_DIR/$rel
	# one run each doubles as the validity check; stap's single run is
	# also its timing (it re-parses its whole library every time, so the
	# run is as warm as any other).
	stp_rc=0
	$STP -g -p1 -I "$TAPSET" "$f" >/dev/null 2>&1 || stp_rc=$?
	stap_rc=0
	now_us
	t0=$NOW
	"${STAP[@]}" -g -p1 "$f" >/dev/null 2>&1 || stap_rc=$?
	now_us
	t1=$NOW
	if [ "$stp_rc" -ne 0 ] || [ "$stap_rc" -ne 0 ]; then
		why=
		[ "$stp_rc" -ne 0 ] && why="stp"
		[ "$stap_rc" -ne 0 ] && why="${why:+$why+}stap"
		SKIPPED+=("$rel ($why)")
		echo "skip $rel: rejected by $why" >>"$OUT/d-files.txt"
		continue
	fi
	ms=$(time_loop "$RUNS" $STP -g -p1 -I "$TAPSET" "$f")
	us=$(awk -v m="$ms" 'BEGIN { printf "%d", m * 1000 }')
	D_STP_US=$((D_STP_US + us))
	D_STAP_US=$((D_STAP_US + t1 - t0))
	D_OK=$((D_OK + 1))
	printf '%-40s stp %8.3f ms  stap %8.3f ms\n' "$rel" "$ms" \
		"$(awk -v u=$((t1 - t0)) 'BEGIN { print u / 1000 }')" >>"$OUT/d-files.txt"
done
[ "$D_OK" -gt 0 ] || die "every sampled tapset file was rejected (see $OUT/d-files.txt)"
T_D_STP=$(awk -v u="$D_STP_US" 'BEGIN { printf "%.3f", u / 1000 }')
T_D_STAP=$(awk -v u="$D_STAP_US" 'BEGIN { printf "%.3f", u / 1000 }')
T_D1_STP=$(awk -v u="$D_STP_US" -v n="$D_OK" 'BEGIN { printf "%.3f", u / 1000 / n }')
T_D1_STAP=$(awk -v u="$D_STAP_US" -v n="$D_OK" 'BEGIN { printf "%.3f", u / 1000 / n }')

# ---- report ----------------------------------------------------------------
RATIO_D=$(ratio "$T_D1_STP" "$T_D1_STAP")

SECTION=$OUT/pass1-section.txt
{
	section_head "pass 1 (parse)" "$RUNS runs" \
		"stap:     $(stap -V 2>&1 | head -n 1) (-r $KVER)"
	printf '  %-44s %10s %10s %9s\n' "" "stp ms" "stap ms" "stap/stp"
	row "a. 1000-line script, -p1" "$T_A_STP" "$T_A_STAP"
	row "b. one-line -e script, -p1" "$T_B_STP" "$T_B_STAP"
	row "c. whole tapset corpus (see below)" "$T_C_STP" "$T_C_STAP"
	row "d. $D_OK tapset files as scripts, total" "$T_D_STP" "$T_D_STAP"
	row "   per script (mean)" "$T_D1_STP" "$T_D1_STAP"
	printf '  %-44s %10.2f\n' "(baseline: /bin/true, process start-up)" "$T_TRUE"
	echo
	printf '  %-44s %10s %10s %9s\n' "peak memory (max RSS)" "stp MB" "stap MB" "stap/stp"
	row "a. 1000-line script, -p1" "$(mb "$M_A_STP")" "$(mb "$M_A_STAP")"
	row "c. whole tapset corpus" "$(mb "$M_C_STP")" "$(mb "$M_C_STAP")"
	echo
	echo "targets:"
	echo "  whole corpus under 100 ms:                    stp $T_C_STP ms -> $(met "$T_C_STP < 100")"
	echo "  at least 10x faster than stap -p1 per script: $RATIO_D (d., per script) -> $(met "$T_D1_STAP >= 10 * $T_D1_STP")"
	echo
	echo "what each figure measures:"
	echo "  a. \`stp -p1 $SCRIPT\` vs \`stap -p1 -r $KVER $SCRIPT\`"
	echo "     (1000 lines, $(grep -c '^probe ' "$SCRIPT") probes, $(grep -c '^function ' "$SCRIPT") functions; generated by"
	echo "     tests/bench/gen_script1000.py; stdout to /dev/null)."
	echo "  b. \`-p1 -e 'probe begin { printf(\"hello\\n\") exit() }'\` for each tool."
	echo "  c. stp: \`$CORPUS $TAPSET -t\`, one process"
	echo "     parsing all $CORPUS_FILES .stp/.stpm files of the tree once each, for the"
	echo "     kernel, dyninst and bpf runtimes, no printing ($CORPUS_SUMMARY)."
	echo "     stap: \`stap -p1 -r $KVER -e 'probe never {}'\`, whose pass 1 parses"
	echo "     its whole tapset library for this kernel and arch (${STAP_LIB:-?} library"
	echo "     scripts: root, linux/, x86_64/) plus the user script, in one process"
	echo "     that also starts up stap.  Not the same file set: the closest"
	echo "     command each tool offers."
	echo "  d. 1 file in ${STEP} of the sorted tapset tree (${#PICKED[@]} files), copied to"
	echo "     $SAMPLE_DIR/ (stap will not run a file of its own tapset"
	echo "     directory as a script):"
	echo "     \`stp -g -p1 -I $TAPSET FILE\` (median of $RUNS runs per file)"
	echo "     vs \`stap -g -p1 -r $KVER FILE\` (one run per file: $RUNS would take minutes),"
	echo "     summed over the files both accept.  stap -p1 also parses its whole"
	echo "     library on every run; stp reads only the macro libraries (.stpm)."
	echo "     skipped (rejected by either tool): ${#SKIPPED[@]}"
	for s in "${SKIPPED[@]}"; do
		echo "       $s"
	done
	echo "     per-file times: $OUT/d-files.txt"
	echo
} >"$SECTION"

# Replace the pass-1 section of results.txt (or add it), keep the others.
publish_section "pass 1 (parse)" "$SECTION" always

# ---- pass 2 (elaborate): its own script and section -------------------------
"$ROOT/tests/bench/pass2.sh"
"$ROOT/tests/bench/dwarf.sh"

# ---- runtime data structures (host) ----------------------------------------
rt_bench
sketch_bench

# ---- pass 4 (build), the host runtime, and the guest: their own scripts ------
"$ROOT/tests/bench/pass4.sh"
if [ -x "$ROOT/tests/bench/runtime.sh" ]; then "$ROOT/tests/bench/runtime.sh"; fi
"$ROOT/tests/bench/guest.sh"
"$ROOT/tests/bench/syscalls.sh"
"$ROOT/tests/bench/footprint.sh"
"$ROOT/tests/bench/vitals_guest.sh"
"$ROOT/tests/bench/vitals_read.sh"
"$ROOT/tests/bench/bpf.sh"
"$ROOT/tests/bench/vitals_bpf.sh"
# (after only; tests/bench/statread.sh REV also times REV's stp, for a ratio)
"$ROOT/tests/bench/statread.sh"
"$ROOT/tests/examples/coverage.sh"
