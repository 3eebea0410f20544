#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# "vitals at the floor", BPF runtime (make bench; issue 27), natively on
# this machine's own kernel: what `stp --runtime=bpf vitals.stp` adds to
# each of lmb's tests (tests/bench/guest/lmb.c, built for the host) as a
# multiple of what a floor adds: BPF programs that only count, on the
# same points, attached the same way (tests/bench/native/floor.bpf.c,
# loaded by floor_load.c with libbpf).  Target: at most 1.5x the floor's
# added ns on every test; and the added ns per getpid.
#
# Why a libbpf loader and not bpftrace: stp attaches kernel.trace as raw
# tracepoints (raw_tp: the tracepoint's arguments as they are, no
# tracefs) and perf.* as perf_event programs; bpftrace (0.17 here) has
# no raw tracepoints: its tracepoint: probes are classic tracepoint
# programs, which first copy the event into the perf trace buffer, a
# different and dearer hook.  The floor's points are read from the
# script's own BPF object (stp --runtime=bpf -p3: its raw_tp sections
# and its perf attach table), so the floor follows the script; a point
# the script attaches two programs to (sched_switch) gets one.
#
# The machine is shared and noisy: ROUNDS rounds (BENCH_VITALS_ROUNDS,
# default 11) of the three setups in rotation (none, floor, vitals;
# floor, vitals, none; ...), and for each test the added ns of a setup
# in a round is its ns less the round's none; the table gives their
# medians and interquartile ranges, the ratio of the medians, and the
# load average at the start and the end.
#
# Knobs: BENCH_VITALS_ROUNDS, BENCH_VITALS_SCALE (lmb's -s, default 1).
# Results: the "## native: vitals.stp against its floor (BPF)" section.
set -euo pipefail
export LC_ALL=C
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
SCRIPT=examples/vitals.stp
OUT=build/bench/vitals_bpf
RESULTS=tests/bench/results.txt
REV=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
HYPERFINE=
NO_HF_WHY="interleaved rounds"
WARMUP=0
ROUNDS=${BENCH_VITALS_ROUNDS:-11}
SCALE=${BENCH_VITALS_SCALE:-1}
TARGET=1.5
STRETCH=1.25
rm -rf "$OUT" && mkdir -p "$OUT"
[ "$(id -u)" = 0 ] || die "loading BPF programs needs root"

# ---- build: lmb for the host, the floor, stp's object for the script ----------
W=(-O2 -std=c11 -Wall -Wextra -Werror)
gcc "${W[@]}" -static -o "$OUT/lmb" tests/bench/guest/lmb.c || die "lmb did not build"
gcc "${W[@]}" -static -o "$OUT/lmb_nop" tests/bench/guest/lmb_nop.c || die "lmb_nop did not build"
clang -target bpf -O2 -g -Wall -Werror -I/usr/include/x86_64-linux-gnu \
	-c tests/bench/native/floor.bpf.c -o "$OUT/floor.bpf.o" || die "floor.bpf.c did not build"
gcc "${W[@]}" -o "$OUT/floor_load" tests/bench/native/floor_load.c -lbpf ||
	die "floor_load did not build"
make -s stp >&2
./stp --runtime=bpf -p3 "$SCRIPT" >"$OUT/p3.c" 2>"$OUT/p3.err" || die "stp --runtime=bpf -p3 failed"
./stp --runtime=bpf -p2 "$SCRIPT" >"$OUT/p2.txt" 2>"$OUT/p2.err" || die "stp --runtime=bpf -p2 failed"
./stp --runtime=bpf -w -p4 "$SCRIPT" >/dev/null 2>"$OUT/p4.err" || die "stp --runtime=bpf -p4 failed"

# The floor's points: the object's raw_tp sections, once each, and its
# perf attach table's TYPE:CONFIG:PERIOD; checked against the probe
# points -p2 lists (begin and end aside).
n2=$(sed -n '/^# probes/,$p' "$OUT/p2.txt" | grep -E '^[a-z]' | grep -cvE '^(begin|end|error|never)([ (]|$)')
n3=$(grep -cE '^SEC\("(raw_tp|perf_event)' "$OUT/p3.c" || true)
if [ "$n2" -eq 0 ] || [ "$n2" != "$n3" ]; then
	die "the floor's points: stp -p2 lists $n2 probe points, the -p3 object has $n3 programs (has the generated C changed?)"
fi
FLOOR_ARGS=()
while read -r tp; do FLOOR_ARGS+=(-t "$tp"); done < <(sed -n 's/^SEC("raw_tp\/\(.*\)")$/\1/p' "$OUT/p3.c" | awk '!s[$0]++')
while read -r pe; do FLOOR_ARGS+=(-p "$pe"); done < <(awk '
	/STP_ATTACH_PERF_(ALL|CPU0)/ {
		split($0, f, ","); ty = f[3]; c = f[4]; p = f[5]; fr = f[6]
		gsub(/[^0-9x]/, "", ty); gsub(/ULL| /, "", c); gsub(/ULL| /, "", p); gsub(/ /, "", fr)
		if (fr != "0") { print "freq" > "/dev/stderr"; exit 1 }
		if (c ~ /^0x/) c = sprintf("%d", hexval(c))
		print ty ":" c ":" p }
	function hexval(h,   v, i) { v = 0; h = tolower(substr(h, 3))
		for (i = 1; i <= length(h); i++) v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
		return v }' "$OUT/p3.c")
say "the floor: ${FLOOR_ARGS[*]}"

# ---- the rounds ---------------------------------------------------------------
# run SETUP ROUND: lmb under one setup; its lines "lmb SETUP ROUND TEST NS N"
# go to $OUT/raw.txt.
run() {
	local setup=$1 r=$2 pid
	case $setup in
	none)
		(cd "$OUT" && ./lmb -s "$SCALE" >run.txt) || die "lmb failed"
		;;
	floor)
		"$OUT/floor_load" "${FLOOR_ARGS[@]}" "$OUT/floor.bpf.o" >"$OUT/floor.out" 2>&1 &
		pid=$!
		until grep -q '^armed' "$OUT/floor.out"; do
			kill -0 $pid 2>/dev/null || die "floor_load failed: $(cat "$OUT/floor.out")"
			sleep 0.1
		done
		(cd "$OUT" && ./lmb -s "$SCALE" >run.txt) || die "lmb failed"
		kill -INT $pid
		wait $pid || die "floor_load failed: $(cat "$OUT/floor.out")"
		;;
	vitals)
		# -c: lmb starts once every probe is attached, and the run ends
		# with it (its last epoch stored, as a stop would)
		rm -f "$OUT/vitals.db"*
		./stp --runtime=bpf -w --vitals-db="$ROOT/$OUT/vitals.db" -o "$OUT/vitals.out" \
			-c "sh -c 'cd $ROOT/$OUT && ./lmb -s $SCALE >run.txt'" "$SCRIPT" \
			>"$OUT/vitals.stdout" 2>"$OUT/vitals.err" ||
			die "stp --runtime=bpf $SCRIPT failed: $(tail -5 "$OUT/vitals.err")"
		;;
	esac
	sed "s/^/lmb $setup $r /" "$OUT/run.txt" >>"$OUT/raw.txt"
}

order=(none floor vitals)
: >"$OUT/raw.txt"
say "native: $ROUNDS rounds of none, floor and vitals.stp (rotated) under lmb -s $SCALE"
(cd "$OUT" && ./lmb -s 0.1 >/dev/null) || die "lmb failed"
for ((r = 0; r < ROUNDS; r++)); do
	for ((i = 0; i < 3; i++)); do
		run "${order[(r + i) % 3]}" $((r + 1))
	done
	say "round $((r + 1)) done ($(cut -d' ' -f1-3 /proc/loadavg))"
done

# ---- the table ------------------------------------------------------------------
# TEST NONE NONE_MIN NONE_MAX F F25 F75 V V25 V75: medians and quartiles of
# each setup's added ns over the rounds (its ns less the same round's none).
awk '$1 == "lmb" && NF == 6 { v[$4, $2, $3] = $5; if (!($4 in seen)) { seen[$4] = 1; name[++n] = $4 } r[$3] = 1 }
	function sort(a, m,   i, j, x) { for (i = 2; i <= m; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x } }
	function q(a, m, p,   k) { k = 1 + (m - 1) * p; return a[int(k)] + (k - int(k)) * (a[int(k) + 1] - a[int(k)]) }
	END { for (i = 1; i <= n; i++) {
		t = name[i]; mb = mf = mv = 0; delete b; delete f; delete w
		for (k in r) {
			if (!((t, "none", k) in v)) continue
			b[++mb] = v[t, "none", k]
			if ((t, "floor", k) in v) f[++mf] = v[t, "floor", k] - v[t, "none", k]
			if ((t, "vitals", k) in v) w[++mv] = v[t, "vitals", k] - v[t, "none", k]
		}
		sort(b, mb); sort(f, mf); sort(w, mv)
		printf "%s %.1f %.1f %.1f %.1f %.1f %.1f %.1f %.1f %.1f\n", t, q(b, mb, .5), b[1], b[mb],
			q(f, mf, .5), q(f, mf, .25), q(f, mf, .75), q(w, mv, .5), q(w, mv, .25), q(w, mv, .75)
	} }' "$OUT/raw.txt" >"$OUT/table.txt"
[ -s "$OUT/table.txt" ] || die "no lmb figures (see $OUT/raw.txt)"

SECTION=$OUT/section.txt
{
	section_head "native: vitals.stp against its floor (BPF)" "$ROUNDS rounds" \
		"kernel:   this machine's own ($(uname -r)), stp --runtime=bpf" \
		"script:   $SCRIPT (default one-minute epochs; its store in $OUT)" \
		"floor:    tests/bench/native/floor.bpf.c (raw_tp and perf_event programs, counting only), floor_load.c" \
		"workload: tests/bench/guest/lmb.c (-s $SCALE, static, built for the host); $ROUNDS rounds of none, floor, vitals.stp (rotated)"
	printf '  %-12s %10s %8s %9s %15s %9s %15s %7s  %s\n' "" "ns none" "spread%" "+ns floor" "(IQR)" "+ns vit" "(IQR)" "vit/fl" "target <= ${TARGET}x"
	awk -v tgt="$TARGET" '{
		r = $5 > 0 ? sprintf("%.2fx", $8 / $5) : "-"
		ok = $5 > 0 ? ($8 / $5 <= tgt ? "met" : "NOT met") : "no floor"
		if ($5 > 0 && $6 <= 0) ok = ok " *"
		printf "  %-12s %10.1f %8.2f %9.1f %15s %9.1f %15s %7s  %s\n", $1, $2, ($4 - $3) / $2 * 100,
			$5, sprintf("(%.0f..%.0f)", $6, $7), $8, sprintf("(%.0f..%.0f)", $9, $10), r, ok }' "$OUT/table.txt"
	echo
	awk -v tgt="$TARGET" -v st="$STRETCH" '{
		if ($5 <= 0) { nofloor++; next }
		r = $8 / $5; m++
		if ($6 <= 0) noisy++
		if (r <= tgt) met++
		if (r <= st) smet++
		if (r > worst) { worst = r; wt = $1 }
	}
	$1 == "getpid" { gf = $5; gv = $8; gb = $2 }
	END {
		printf "  vitals.stp / floor: worst %.2fx (%s); %d of %d tests within %sx, %d within %sx\n",
			worst, wt, met, m, tgt, smet, st
		printf "  target <= %sx on every test: %s; stretch <= %sx: %s\n", tgt,
			met == m && !nofloor ? "met" : "NOT met", st, smet == m && !nofloor ? "met" : "NOT met"
		if (nofloor) printf "  (%d tests where the floor added nothing measurable: no ratio)\n", nofloor
		if (noisy) printf "  (*: %d tests where the floor'"'"'s added ns is within the noise: its IQR reaches 0)\n", noisy
		printf "  getpid: %.1f ns with none; the floor adds %.1f ns, vitals.stp %.1f ns a call\n", gb, gf, gv
	}' "$OUT/table.txt"
	echo "  the floor's points and their hits in its last round:"
	sed -n 's/^hits //p' "$OUT/floor.out" | paste -sd, | sed 's/,/, /g' | fold -s -w 92 | sed 's/^/    /'
	echo
	echo "  +ns floor, +ns vitals: per round, the setup's ns per operation less the same"
	echo "  round's with none; the median over the rounds and, in brackets, the"
	echo "  interquartile range (25th..75th percentile).  vit/fl: the ratio of the"
	echo "  medians, the headline (target <= ${TARGET}x on every test, stretch ${STRETCH}x)."
	echo "  ns none: its median over the rounds; spread%: its max-min, as % of the"
	echo "  median, the noise to read the added ns against.  Wall time (CLOCK_MONOTONIC)"
	echo "  in lmb's loops on a shared machine: the rounds interleave the setups so that"
	echo "  load from elsewhere falls on all."
	echo "  The floor attaches once per point (the script attaches two programs to"
	echo "  sched_switch: vitals.sched and vitals.blck); its perf events are opened on"
	echo "  every CPU with the script's type and period.  vitals.stp runs with -c, so lmb"
	echo "  starts once its probes are attached; its runner's own work (the epoch's"
	echo "  close, free memory read every 100 ms) runs meanwhile and is in the figures."
	echo
} >"$SECTION"
publish_section "native: vitals.stp against its floor (BPF)" "$SECTION" always
