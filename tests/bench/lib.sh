# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Helpers shared by the benchmarks, sourced by tests/bench/run.sh (pass 1)
# and tests/bench/pass2.sh (pass 2).  Only functions: nothing runs here.
#
# What the caller sets before it calls them:
#   DEPS      what `make deps` installs, for need_deps's hint
#   OUT       the directory for scratch files (check, measure, peak_kb,
#             publish_section)
#   WARMUP    warm-up runs before each measure
#   MEM_RUNS  runs of each peak_kb (it prints their median)
#   RESULTS   tests/bench/results.txt, for publish_section
#   REV, LOAD_START  stp's git revision and the load average at the start,
#             for section_head
# and pick_hyperfine sets HYPERFINE and NO_HF_WHY, which measure and
# section_head read.

say() { echo "bench: $*" >&2; }
die() { echo "bench: $*" >&2; exit 1; }
need_deps() {
	echo "bench: $*" >&2
	echo "bench: run \`make deps\` (installs $DEPS), then \`make bench\` again" >&2
	exit 1
}

# pick_hyperfine: HYPERFINE = hyperfine's path, or empty (then NO_HF_WHY
# says why) when it is missing or BENCH_NO_HYPERFINE is set.
pick_hyperfine() {
	HYPERFINE=
	NO_HF_WHY="hyperfine not found"
	[ -z "${BENCH_NO_HYPERFINE:-}" ] || NO_HF_WHY="BENCH_NO_HYPERFINE set"
	if [ -z "${BENCH_NO_HYPERFINE:-}" ] && command -v hyperfine >/dev/null 2>&1; then
		HYPERFINE=$(command -v hyperfine)
	fi
}

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

# ---- report ----------------------------------------------------------------
# section_head HEADING RUNS-TEXT LINE...: the head of a section of
# results.txt: "## HEADING", then date, machine, stp (git REV), each LINE
# (stap's version, the target), the load average (LOAD_START and now) and
# how the times were taken (RUNS-TEXT: "N runs" or the like).
section_head() {
	local heading=$1 runs=$2 cpu method
	shift 2
	if [ -n "$HYPERFINE" ]; then
		method="$("$HYPERFINE" --version) -N, $WARMUP warm-up + $runs, median"
	else
		method="bash loop ($NO_HF_WHY), $WARMUP warm-up + $runs, median"
	fi
	cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
	echo "## $heading"
	echo
	echo "date:     $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "machine:  $(nproc) CPUs, ${cpu:-unknown CPU}, $(uname -sr)"
	echo "stp:      git $REV"
	printf '%s\n' "$@"
	echo "load:     $LOAD_START at start, $(cut -d' ' -f1-3 /proc/loadavg) at end (1/5/15-min load average)"
	echo "timing:   $method; wall time in ms"
	echo
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0) printf "%.1fx", b / a; else print "-" }'; }
row() { # label stp stap
	printf '  %-44s %10.2f %10.2f %9s\n' "$1" "$2" "$3" "$(ratio "$2" "$3")"
}
mb() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
met() { # cond-as-awk-expr
	awk "BEGIN { exit !($1) }" && echo "met" || echo "NOT met"
}

# publish_section HEADING FILE GAP: FILE, a section that starts with the
# line "## HEADING", replaces the HEADING section of RESULTS and keeps the
# others; without one it is appended after a blank line (with GAP "always"
# even where RESULTS ends in one already, else only where it does not).
# A missing RESULTS is started with its title.  Then FILE goes to stdout.
publish_section() {
	local heading=$1 section=$2 gap=$3
	if [ -f "$RESULTS" ]; then
		awk -v new="$section" -v head="## $heading" -v gap="$gap" '
			BEGIN { while ((getline l < new) > 0) sec = sec l "\n" }
			index($0, head) == 1 { printf "%s", sec; skip = 1; done = 1; next }
			skip && /^## / { skip = 0 }
			!skip { print; last = $0 }
			END { if (!done) printf "%s%s", (last == "" && gap != "always" ? "" : "\n"), sec }' "$RESULTS" >"$OUT/results.tmp"
	else
		{
			echo "# stp benchmarks (make bench: tests/bench/run.sh)"
			echo
			cat "$section"
		} >"$OUT/results.tmp"
	fi
	mv "$OUT/results.tmp" "$RESULTS"

	cat "$section"
	say "written to $RESULTS"
}
