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
# own "## pass 2 (elaborate)" section.
#
# Knobs (environment): BENCH_RUNS (timed runs per command, default 10),
# BENCH_WARMUP (default 2, after one checking run), BENCH_SAMPLES (files for d., default 40),
# BENCH_TAPSET (default /usr/share/systemtap/tapset), BENCH_KVER,
# BENCH_NO_HYPERFINE=1 (use the bash timing loop even with hyperfine).
set -euo pipefail
export LC_ALL=C

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"

RUNS=${BENCH_RUNS:-10}
WARMUP=${BENCH_WARMUP:-2}
SAMPLES=${BENCH_SAMPLES:-40}
TAPSET=${BENCH_TAPSET:-/usr/share/systemtap/tapset}
OUT=build/bench
RESULTS=tests/bench/results.txt
HELLO='probe begin { printf("hello\n") exit() }'

say() { echo "bench: $*" >&2; }
die() { echo "bench: $*" >&2; exit 1; }
need_deps() {
	echo "bench: $*" >&2
	echo "bench: run \`make deps\` (installs systemtap, linux-headers-amd64, hyperfine, time), then \`make bench\` again" >&2
	exit 1
}

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

HYPERFINE=
NO_HF_WHY="hyperfine not found"
[ -z "${BENCH_NO_HYPERFINE:-}" ] || NO_HF_WHY="BENCH_NO_HYPERFINE set"
if [ -z "${BENCH_NO_HYPERFINE:-}" ] && command -v hyperfine >/dev/null 2>&1; then
	HYPERFINE=$(command -v hyperfine)
fi

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
check() {
	local what=$1
	shift
	if ! "$@" >"$OUT/check.out" 2>"$OUT/check.err"; then
		echo "bench: $what failed: $*" >&2
		tail -n 20 "$OUT/check.err" >&2
		exit 1
	fi
}
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
# now_us: NOW = wall clock in microseconds (no fork with bash 5).
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

# measure NAME CMD...: median wall time of CMD in ms, after warm-up.
measure() {
	local name=$1 cmd="" a
	shift
	say "timing $name: $WARMUP warm-up + $RUNS runs"
	if [ -n "$HYPERFINE" ]; then
		for a in "$@"; do cmd+=$(printf '%q ' "$a"); done
		"$HYPERFINE" -N --style none --warmup "$WARMUP" --runs "$RUNS" \
			--command-name "$name" --export-csv "$OUT/$name.csv" \
			-- "$cmd" >/dev/null 2>"$OUT/$name.err" ||
			{ cat "$OUT/$name.err" >&2; die "hyperfine failed on $*"; }
		# command,mean,stddev,median,user,system,min,max (seconds)
		awk -F, 'NR == 2 { printf "%.3f\n", $(NF - 4) * 1000 }' "$OUT/$name.csv"
	else
		time_loop "$WARMUP" "$@" >/dev/null
		time_loop "$RUNS" "$@"
	fi
}

# peak_kb CMD...: maximum resident set size of one run, in KB.
peak_kb() {
	/usr/bin/time -f %M -o "$OUT/time.out" "$@" >/dev/null 2>&1 ||
		die "command failed: $*"
	tail -n 1 "$OUT/time.out"
}

T_A_STP=$(measure a-stp $STP -p1 "$SCRIPT")
T_A_STAP=$(measure a-stap "${STAP[@]}" -p1 "$SCRIPT")
T_B_STP=$(measure b-stp $STP -p1 -e "$HELLO")
T_B_STAP=$(measure b-stap "${STAP[@]}" -p1 -e "$HELLO")
T_C_STP=$(measure c-stp $CORPUS "$TAPSET" -t)
T_C_STAP=$(measure c-stap "${STAP[@]}" -p1 -e 'probe never {}')
T_TRUE=$(measure true /bin/true)

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
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0) printf "%.1fx", b / a; else print "-" }'; }
row() { # label stp stap [unit]
	printf '  %-44s %10.2f %10.2f %9s\n' "$1" "$2" "$3" "$(ratio "$2" "$3")"
}
mb() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
met() { # cond-as-awk-expr
	awk "BEGIN { exit !($1) }" && echo "met" || echo "NOT met"
}

if [ -n "$HYPERFINE" ]; then
	METHOD="$("$HYPERFINE" --version) -N, $WARMUP warm-up + $RUNS runs, median"
else
	METHOD="bash loop ($NO_HF_WHY), $WARMUP warm-up + $RUNS runs, median"
fi
CPU=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
RATIO_D=$(ratio "$T_D1_STP" "$T_D1_STAP")

SECTION=$OUT/pass1-section.txt
{
	echo "## pass 1 (parse)"
	echo
	echo "date:     $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "machine:  $(nproc) CPUs, ${CPU:-unknown CPU}, $(uname -sr)"
	echo "stp:      git $REV"
	echo "stap:     $(stap -V 2>&1 | head -n 1) (-r $KVER)"
	echo "load:     $LOAD_START at start, $(cut -d' ' -f1-3 /proc/loadavg) at end (1/5/15-min load average)"
	echo "timing:   $METHOD; wall time in ms"
	echo
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
if [ -f "$RESULTS" ]; then
	awk -v new="$SECTION" '
		BEGIN { while ((getline l < new) > 0) sec = sec l "\n" }
		/^## pass 1 \(parse\)/ { printf "%s", sec; skip = 1; done = 1; next }
		skip && /^## / { skip = 0 }
		!skip { print }
		END { if (!done) printf "\n%s", sec }' "$RESULTS" >"$OUT/results.tmp"
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

# ---- pass 2 (elaborate): its own script and section -------------------------
"$ROOT/tests/bench/pass2.sh"
