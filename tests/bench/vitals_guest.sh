#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# "vitals at the floor", module runtime (make bench; issue 27): what
# `stp vitals.stp` adds to each of lmb's tests (tests/bench/guest/lmb.c)
# as a multiple of what a floor adds, a hand-written module that hooks
# every point the script hooks, the same way, and only counts
# (tests/bench/guest/floor_vitals.c).  Target: at most 1.5x the floor's
# added ns on every test (stretch 1.25x).
#
# The floor's points are read from the script's own generated tables
# (stp -p3 of the module under test: its tracepoints, kprobes and perf
# events, with their types and periods), checked against the probe points
# stp -p2 lists, so the floor follows the script when its hooks change.
# A point the script hooks more than once (sched_switch: vitals.sched,
# vitals.blck and vitals.blio) the floor hooks once, as stp registers it
# once (one callback calling each probe's: trace_kmod.c).
#
# One boot per kernel line (STP_LINES, default "6.1 6.12") under QEMU
# with 2 vCPUs, -accel tcg,thread=single and -icount shift=0,sleep=off:
# the guest clock counts executed instructions (1 ns each), so a figure
# repeats exactly for the same guest state.  The state still moves (the
# page allocator's, the page cache's), so the three setups run in
# ROUNDS rounds (BENCH_VITALS_ROUNDS, default 5), rotated (none, floor,
# vitals; floor, vitals, none; vitals, none, floor; ...), and each figure
# is the median over the rounds; "spread" is the widest interquartile
# range over the rounds of the three setups, as % of the test's ns with
# none.
#
# In the same boot, after the table: the store.  vitals.stp runs with
# 200 ms epochs (-G chopstix_epoch_ms=200) while lmb loops (-s 0.2); its
# store is copied with stprun stopped (SIGSTOP: what is on disk is then
# what a kill would leave, which SQLite recovers to the last whole
# epoch) once at least BENCH_VITALS_EPOCHS_A (default 60) epochs are
# stored and again BENCH_VITALS_EPOCHS_B (default 50) epochs later; the
# bytes the store grew by between the copies, over the epochs between
# them, times 1440 is the day at one-minute epochs.
#
# And the sampler's memory: sizeof(struct cx_sketch) on the host
# (tests/bench/sketch_size.c), and the module's per-CPU variables as the
# built module lays them out (nm -S of its .ko): struct cx_cpu's counts
# and the who cache, each times the CPUs.
#
# Knobs (environment): STP_LINES, BENCH_VITALS_ROUNDS, BENCH_VITALS_SCALE
# (lmb's -s for the table, default 1), BENCH_VITALS_EPOCHS_A,
# BENCH_VITALS_EPOCHS_B, BENCH_VITALS_NO_STORE=1 (the table only),
# BENCH_VITALS_PARALLEL=1 (boot the lines at once), BENCH_VITALS_SCRIPT
# (another script than examples/vitals.stp, its path under the tree),
# BENCH_VITALS_TESTS (lmb's tests to run, default all), BENCH_VITALS_REPORT=1
# (no boot: the section again from the last run's files).
# Results: the "## guest: vitals.stp against its floor" section of
# tests/bench/results.txt.
set -euo pipefail
export LC_ALL=C
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
SCRIPT=${BENCH_VITALS_SCRIPT:-examples/vitals.stp}
TESTS=${BENCH_VITALS_TESTS:-}
MOD=vs_vitals
OUT=build/bench/vitals
RESULTS=tests/bench/results.txt
REV=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
HYPERFINE=
NO_HF_WHY="one guest boot per kernel line; -icount: instructions"
WARMUP=0
ROUNDS=${BENCH_VITALS_ROUNDS:-5}
SCALE=${BENCH_VITALS_SCALE:-1}
EPOCHS_A=${BENCH_VITALS_EPOCHS_A:-60}
EPOCHS_B=${BENCH_VITALS_EPOCHS_B:-50}
EPOCH_MS=200
STORE=1
[ -z "${BENCH_VITALS_NO_STORE:-}" ] || STORE=0
LINES=${STP_LINES:-6.1 6.12}
TARGET=1.5
STRETCH=1.25
mkdir -p "$OUT"

# ---- the floor's points, from the script's own tables ----------------------
# floor_params P3 P2: the floor module's parameters (tp=... kretprobe=...
# kprobe=... perf=...) for the module whose generated C is P3; dies when
# the tables do not account for every probe point P2 (stp -p2) lists.
floor_params() {
	local p3=$1 p2=$2 n2 n3
	n2=$(sed -n '/^# probes/,$p' "$p2" | grep -E '^[a-z]' |
		grep -cvE '^(begin|end|error|never)([ (]|$)')
	n3=$(awk '/^static struct stp_(tracepoint|kprobe|perf) stp_(tracepoints|kprobes|perfs)\[\]/ { t = 1; next }
		t && /^};/ { t = 0 }
		t && /\.probe = &/ { n += 1 + gsub(/ stp_probe_[0-9]+/, "&") }
		END { print n + 0 }' "$p3")
	if [ "$n2" -eq 0 ] || [ "$n2" != "$n3" ]; then
		die "the floor's points: stp -p2 lists $n2 probe points, the -p3 tables hold $n3 (has the generated C changed?)"
	fi
	awk '
		function hex(h,   v, i) { v = 0; h = tolower(h); sub(/^0x/, "", h)
			for (i = 1; i <= length(h); i++) v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
			return v }
		function csv(a, n,   s, i) { for (i = 1; i <= n; i++) s = s (i > 1 ? "," : "") a[i]; return s }
		function add(a, k, v) { if (!((k, v) in seen)) { seen[k, v] = 1; a[++cnt[k]] = v } }
		/^static struct stp_tracepoint stp_tracepoints\[\]/ { t = "tp"; next }
		/^static struct stp_kprobe stp_kprobes\[\]/ { t = "kp"; next }
		/^static struct stp_perf stp_perfs\[\]/ { t = "perf"; next }
		/^};/ { t = "" }
		t == "tp" && match($0, /\.name = "[^"]*"/) {
			add(tp, "tp", substr($0, RSTART + 9, RLENGTH - 10)) }
		t == "kp" && match($0, /\.symbol = "[^"]*"/) {
			s = substr($0, RSTART + 11, RLENGTH - 12)
			if ($0 ~ /\.is_return = 1/) add(krp, "krp", s); else add(kp, "kp", s) }
		t == "perf" && /\.probe = &/ {
			if ($0 !~ /\.freq = 0,/) { print "freq" > "/dev/stderr"; exit 1 }
			ty = $0; sub(/.*\.type = /, "", ty); sub(/,.*/, "", ty)
			c = $0; sub(/.*\.config = /, "", c); sub(/ULL,.*/, "", c)
			p = $0; sub(/.*\.period = /, "", p); sub(/LL,.*/, "", p)
			add(pe, "perf", ty ":" hex(c) ":" p) }
		function param(k, a, n) { if (n) out = out (out == "" ? "" : " ") k "=" csv(a, n) }
		END {
			param("tp", tp, cnt["tp"]); param("kretprobe", krp, cnt["krp"])
			param("kprobe", kp, cnt["kp"]); param("perf", pe, cnt["perf"])
			print out }' "$p3"
}

# ---- one kernel line: the modules, the guest's script, the boot -------------
run_line() {	# LINE
	local line=$1 root krel dir params
	root=$(tests/kernel.sh --line "$line")
	krel=$(tests/kernel.sh --line "$line" release)
	dir=$OUT/$line
	rm -rf "$dir" && mkdir -p "$dir/files" "$dir/floor"
	local W="-O2 -static -std=c11 -Wall -Wextra -Werror"
	# shellcheck disable=SC2086 # W is a list of options
	gcc $W -o "$dir/files/lmb" tests/bench/guest/lmb.c || die "lmb did not build"
	# shellcheck disable=SC2086
	gcc $W -o "$dir/files/lmb_nop" tests/bench/guest/lmb_nop.c || die "lmb_nop did not build"
	cp tests/bench/guest/floor_vitals.c "$dir/floor/"
	echo "obj-m := floor_vitals.o" >"$dir/floor/Kbuild"
	make -s -C "/lib/modules/$krel/build" M="$ROOT/$dir/floor" modules >"$dir/floor.log" 2>&1 ||
		die "$line: building the floor module failed: $(tail -5 "$dir/floor.log")"
	cp "$dir/floor/floor_vitals.ko" "$dir/files/"
	local K=(--sysroot="$root" -r "$krel")
	./stp "${K[@]}" -p2 "$SCRIPT" >"$dir/p2.txt" 2>"$dir/p2.err" || die "$line: stp -p2 $SCRIPT failed"
	./stp "${K[@]}" -p3 -m "$MOD" "$SCRIPT" >"$dir/p3.c" 2>"$dir/p3.err" || die "$line: stp -p3 $SCRIPT failed"
	params=$(floor_params "$dir/p3.c" "$dir/p2.txt") || die "$line: cannot read the floor's points"
	echo "$params" >"$dir/floor.params"
	say "$line: the floor hooks $params"
	(cd "$dir/files" && "$ROOT/stp" "${K[@]}" -p4 -m "$MOD" "$ROOT/$SCRIPT" >/dev/null) ||
		die "$line: stp -p4 $SCRIPT failed"
	guest_script "$params" >"$dir/files/run.sh"
	local t0 l0
	t0=$(date -u '+%Y-%m-%d %H:%M:%S UTC')
	l0=$(cut -d' ' -f1-3 /proc/loadavg)
	say "$line: booting the guest (2 vCPUs, -icount shift=0,sleep=off): $ROUNDS rounds of 3 setups${STORE/#1/, then the store}"
	# A guest that panics is booted again, twice at most: 6.12 guests
	# under -icount with 2 vCPUs died now and then in SLUB's cmpxchg16b
	# fast path (EFLAGS garbled), once before any module was loaded;
	# each panic is kept (console-N.txt) and counted in the section.
	local try panics=0
	for try in 1 2 3; do
		if GUEST_APPEND="maxcpus=1" staprun/stp-qemu --icount --smp 2 --timeout 5400 \
			--console "$dir/console.txt" --kernel "$root/boot/vmlinuz-$krel" \
			"$dir/files/run.sh" "$dir"/files/* >"$dir/guest.out"; then
			break
		fi
		if [ "$try" -eq 3 ] || ! grep -q 'Kernel panic' "$dir/console.txt"; then
			die "$line: the guest run failed: $(tail "$dir/guest.out") (its console: $dir/console.txt)"
		fi
		panics=$((panics + 1))
		mv "$dir/console.txt" "$dir/console-$panics.txt"
		say "$line: the guest panicked ($(grep -m1 -o 'RIP: [^ ]*' "$dir/console-$panics.txt")); booting again"
	done
	grep -v '^snap64 ' "$dir/guest.out" >&2
	local note=
	[ "$panics" -eq 0 ] || note="; $panics boot(s) before it panicked (console-N.txt)"
	echo "$line booted $t0, load $l0 to $(cut -d' ' -f1-3 /proc/loadavg), git $REV$note" >"$dir/boot.txt"
}

# The guest's script.  CPU 1 is onlined here, not at boot: under -icount's
# round robin the kernel's own bring-up of CPU 1 never ends (as
# footprint.sh found); then a pause and a whole untimed lmb run, so that
# the kernel has settled before the first figure (with a tenth of one, the
# first round's fork and exec ran 15% slower than the others).  lmb runs
# on CPU 0 (taskset), its children with it: pipe_lat's round trip and
# fork's child otherwise ran on either CPU from one run to the next, and
# pipe_lat took 14 or 21 us by where.  Every line it prints that
# the figures use starts with a word saying what it is.
guest_script() {	# FLOOR-PARAMS
	local order=(none floor vitals)
	cat <<S
echo 1 >/sys/devices/system/cpu/cpu1/online
echo "cpus \$(cat /sys/devices/system/cpu/online)"
sleep 2
taskset 1 ./lmb -s $SCALE $TESTS >/dev/null || exit 1
# run SETUP ROUND: lmb under one setup, on CPU 0
run() {
	case \$1 in
	floor) insmod floor_vitals.ko $1 || exit 1 ;;
	vitals)
		stprun -v -o vit\$2.out $MOD.ko 2>vit\$2.err &
		pid=\$!
		until grep -q '^stprun: started' vit\$2.err; do
			kill -0 \$pid 2>/dev/null || { echo "stprun failed:"; cat vit\$2.err; exit 1; }
			sleep 1
		done ;;
	esac
	taskset 1 ./lmb -s $SCALE $TESTS >run.txt || exit 1
	sed "s/^/lmb \$1 \$2 /" run.txt
	case \$1 in
	floor) rmmod floor_vitals ;;
	vitals)
		kill -INT \$pid
		wait \$pid
		echo "stprun \$2 rc \$?"
		grep -v '^stprun: epoch ' vit\$2.err | sed "s/^/stprun \$2 /" ;;
	esac
}
S
	local r i
	for ((r = 0; r < ROUNDS; r++)); do
		for ((i = 0; i < 3; i++)); do
			echo "run ${order[(r + i) % 3]} $((r + 1))"
		done
	done
	echo "dmesg | sed -n 's/.*floor_vitals: /floor /p'"
	[ "$STORE" = 1 ] || return 0
	cat <<S
# the store: 200 ms epochs while lmb loops
epochs() { grep -c '^stprun: epoch .* stored' store.err; }
snap() {	# NAME: the store as a kill would leave it, stprun stopped
	kill -STOP \$pid
	mkdir \$1
	cp /var/lib/stp/vitals.db \$1/
	[ ! -f /var/lib/stp/vitals.db-wal ] || cp /var/lib/stp/vitals.db-wal \$1/
	echo "store \$1 epochs \$(epochs)"
	kill -CONT \$pid
}
rm -rf /var/lib/stp
stprun -v -G chopstix_epoch_ms=$EPOCH_MS -o store.out $MOD.ko 2>store.err &
pid=\$!
until grep -q '^stprun: started' store.err; do
	kill -0 \$pid 2>/dev/null || { echo "stprun failed:"; cat store.err; exit 1; }
	sleep 1
done
( while [ ! -f busy.stop ]; do ./lmb -s 0.2 >/dev/null || break; done ) &
busy=\$!
until [ \$(epochs) -ge $EPOCHS_A ]; do sleep 1; done
snap a
a=\$(epochs)
until [ \$(epochs) -ge \$((a + $EPOCHS_B)) ]; do sleep 1; done
snap b
touch busy.stop
wait \$busy
kill -INT \$pid
wait \$pid
echo "stprun store rc \$?"
grep -v '^stprun: epoch ' store.err | sed "s/^/stprun store /"
tar cf - a b | gzip | base64 | sed 's/^/snap64 /'
S
}

# ---- the figures of one line --------------------------------------------------
# table.txt: TEST NONE FLOOR VITALS SPREAD (ns per operation, medians
# over the rounds; SPREAD: the widest interquartile range of a setup over
# the rounds, % of NONE: the first round after boot ran fork and exec
# 15% slower in every setup, which a max-min would count as noise).
line_table() {	# DIR
	awk '$1 == "lmb" && NF == 6 { v[$4, $2, $3] = $5; if (!($4 in seen)) { seen[$4] = 1; name[++n] = $4 } r[$3] = 1 }
		function med(t, s,   k, a, m, i, j, x) {
			m = 0
			for (k in r) if ((t, s, k) in v) a[++m] = v[t, s, k]
			for (i = 2; i <= m; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
			lo[s] = q(a, m, .25); hi[s] = q(a, m, .75)
			return q(a, m, .5)
		}
		function q(a, m, p,   k) { k = 1 + (m - 1) * p; return a[int(k)] + (k - int(k)) * (a[int(k) + 1] - a[int(k)]) }
		END { for (i = 1; i <= n; i++) {
			t = name[i]; b = med(t, "none"); f = med(t, "floor"); w = med(t, "vitals")
			sp = 0
			for (s in lo) if (hi[s] - lo[s] > sp) sp = hi[s] - lo[s]
			printf "%s %.1f %.1f %.1f %.2f\n", t, b, f, w, sp / b * 100
		} }' "$1/guest.out" >"$1/table.txt"
	[ -s "$1/table.txt" ] || die "no lmb figures from the guest (see $1/guest.out)"
}

# The rows: added ns of the floor and of vitals.stp, their ratio, the
# target's verdict; then the summary lines.
VT_FMT='  %-12s %10s %9s %9s %9s %8s %8s %7s  %s\n'
line_rows() {	# DIR
	# shellcheck disable=SC2059 # the format is the table's
	printf "$VT_FMT" "" "ns none" "+ns floor" "+ns vit" "spread %" "floor %" "vit %" "vit/fl" "target <= ${TARGET}x"
	awk -v tgt="$TARGET" -v fmt="  %-12s %10.1f %9.1f %9.1f %9.2f %8.2f %8.2f %7s  %s\n" '{
		f = $3 - $2; w = $4 - $2
		if (f > 0) { r = sprintf("%.2fx", w / f); ok = w / f <= tgt ? "met" : "NOT met" }
		else { r = "-"; ok = "no floor" }
		if (f > 0 && f <= $5 / 100 * $2) ok = ok " *"
		printf fmt, $1, $2, f, w, $5, f / $2 * 100, w / $2 * 100, r, ok }' "$1/table.txt"
}

line_summary() {	# DIR
	awk -v tgt="$TARGET" -v st="$STRETCH" '{
		f = $3 - $2; w = $4 - $2; n++
		if (f <= 0) { nofloor++; next }
		if (f <= $5 / 100 * $2) noisy++
		r = w / f; rs[++m] = r
		if (r <= tgt) met++
		if (r <= st) smet++
		if (r > worst) { worst = r; wt = $1 }
	}
	END {
		for (i = 2; i <= m; i++) { x = rs[i]; for (j = i - 1; j >= 1 && rs[j] > x; j--) rs[j + 1] = rs[j]; rs[j + 1] = x }
		med = m % 2 ? rs[(m + 1) / 2] : (rs[m / 2] + rs[m / 2 + 1]) / 2
		printf "  vitals.stp / floor: median %.2fx, worst %.2fx (%s); %d of %d tests within %sx, %d within %sx\n",
			med, worst, wt, met, m, tgt, smet, st
		printf "  target <= %sx on every test: %s; stretch <= %sx: %s\n", tgt,
			met == m && !nofloor ? "met" : "NOT met", st, smet == m && !nofloor ? "met" : "NOT met"
		if (nofloor) printf "  (%d tests where the floor added nothing measurable: no ratio)\n", nofloor
		if (noisy) printf "  (*: %d tests where the floor'"'"'s added ns is within the spread)\n", noisy
	}' "$1/table.txt"
	awk '$1 == "lmb" && $2 == "none" && $4 == "getpid" { n[$3] = $5 }
		$1 == "lmb" && $2 == "floor" && $4 == "getpid" { f[$3] = $5 }
		$1 == "lmb" && $2 == "vitals" && $4 == "getpid" { v[$3] = $5 }
		END { for (k in n) { s = s sprintf(" %s/%s/%s", n[k], f[k], v[k]) }
		      print "  getpid by round (none/floor/vitals ns):" s }' "$1/guest.out"
}

# The floor's hits and the points it skipped, from its log lines.
line_hits() {	# DIR
	awk '$1 == "floor" && $2 == "hits" { h[$3] = $4; if (!($3 in s)) { s[$3] = 1; o[++n] = $3 } }
		$1 == "floor" && $2 == "armed" { armed = $3 " of " $5 }
		$1 == "floor" && $2 == "skipped" && !($3 in k) { k[$3] = 1; sk = sk " " $3 " " $4 }
		END {
			printf "  the floor: %s points armed; hits in its last round:\n", armed
			for (i = 1; i <= n; i++) line = line sprintf("%s%s %s", i > 1 ? ", " : "", o[i], h[o[i]])
			print line
			if (sk != "") print "skipped (refused by the kernel; stp skips these optional points too):" sk
		}' "$1/guest.out" | sed '2,$s/^/    /' | fold -s -w 96 | sed '/^ /!s/^/      /'
}

# ---- memory: the sketch and the module's per-CPU variables -------------------
# hex(): an awk function (mawk has no strtonum)
HEX='function hex(h,   v, i) { v = 0; h = tolower(h); sub(/^0x/, "", h)
	for (i = 1; i <= length(h); i++) v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
	return v }
'
sketch_lines() {	# DIR (of a line whose module was built)
	local ko ncpu=2
	ko=$1/files/$MOD.ko
	"$OUT/sketch_size" | awk -v lim=$((256 * 1024)) '{
		printf "  sketch: sizeof(struct cx_sketch) %d bytes, %.1f KB (target <= 256 KB: %s): %d vitals,\n", $1, $1 / 1024, $1 <= lim ? "met" : "NOT met", $2
		printf "     HCAs of %d counters (CX_HCA_BYTES %d; 8 bytes each: tag and count), %d sample\n", $3 / 4, $3, $4
		printf "     slots per vital and copy, a %d-slot first-occurrence table\n", $5 }'
	# the module's per-CPU variables, as the built .ko lays them out
	nm -S --size-sort "$ko" 2>/dev/null | awk -v n=$ncpu "$HEX"'
		$2 ~ /^[0-9a-f]+$/ && ($4 == "stp_cx_cpu" || $4 == "stp_cx_wc" || $4 == "vitals_free_cache") {
			b = hex($2); s[$4] = b; t += b }
		END {
			printf "  per CPU (nm -S of the module): stp_cx_cpu %d bytes (struct cx_cpu: events and weight\n", s["stp_cx_cpu"]
			printf "     of each vital and copy), stp_cx_wc %d (the who cache: the last two tasks, each with its program and user),\n", s["stp_cx_wc"]
			printf "     vitals_free_cache %d (free pages, once a jiffy): %d bytes a CPU, %d with %d CPUs\n", s["vitals_free_cache"], t, t * n, n }'
	nm -S "$ko" | awk "$HEX"'$4 == "stp_cx_sk" { printf "  the module'"'"'s own stp_cx_sk: %d bytes (nm -S)\n", hex($2) }'
}

# ---- the store: bytes per epoch over the last epochs ---------------------------
store_lines() {	# DIR
	local d=$1/store s
	if [ "$STORE" != 1 ]; then
		echo "  store: not measured (BENCH_VITALS_NO_STORE)"
		return
	fi
	rm -rf "$d" && mkdir -p "$d"
	sed -n 's/^snap64 //p' "$1/guest.out" | base64 -d | gzip -dc | tar xf - -C "$d" ||
		die "no store copies from the guest"
	# each copy opened once (SQLite folds in the WAL a kill left), then the
	# pages in use, the epochs, and the samples and drops of each epoch
	for s in a b; do
		[ -f "$d/$s/vitals.db" ] || die "no store copy $s from the guest"
		sqlite3 "$d/$s/vitals.db" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
		sqlite3 -separator ' ' "$d/$s/vitals.db" "SELECT (p.page_count - f.freelist_count) * s.page_size,
			(SELECT count(*) FROM epoch), (SELECT max(id) FROM epoch)
			FROM pragma_page_count p, pragma_freelist_count f, pragma_page_size s" >"$d/$s.used"
	done
	read -r ua ea ia <"$d/a.used"
	read -r ub eb _ <"$d/b.used"
	sqlite3 -separator ' ' "$d/b/vitals.db" "SELECT count(DISTINCT epoch_id), sum(samples), sum(dropped),
		sum(dropped > 0), sum(events), max(end_ns - start_ns) FROM epoch_vital
		JOIN epoch e ON e.id = epoch_id WHERE epoch_id > $ia" >"$d/window.txt"
	read -r nw samples dropped full events maxlen <"$d/window.txt"
	local bound
	bound=$(("$("$OUT/sketch_size" | cut -d' ' -f4)" * $(sqlite3 "$d/b/vitals.db" 'SELECT count(*) FROM vital')))
	awk -v bound="$bound" -v ua="$ua" -v ub="$ub" -v ea="$ea" -v eb="$eb" -v s="$samples" -v dr="$dropped" -v fu="$full" \
		-v ev="$events" -v nw="$nw" -v ms="$EPOCH_MS" -v ml="$maxlen" -v a="$EPOCHS_A" 'BEGIN {
		n = eb - ea; b = (ub - ua) / n; day = b * 1440
		printf "  store: %d epochs of %d ms under lmb -s 0.2 in a loop; copies at %d and %d epochs:\n", eb, ms, ea, eb
		printf "     %d and %d bytes in use (pages less free pages): %d epochs added %d bytes,\n", ua, ub, n, ub - ua
		printf "     %.0f bytes an epoch x 1440 one-minute epochs = %.2f MB a day (target <= 16 MB: %s)\n",
			b, day / 1048576, day <= 16 * 1048576 ? "met" : "NOT met"
		printf "     those %d epochs: %.0f samples an epoch, %.0f events an epoch, %.1f vital lists full\n", nw, s / nw, ev / nw, fu / nw
		printf "     an epoch (%.0f samples dropped an epoch); longest epoch %.0f ms\n", dr / nw, ml / 1e6
		f = b * bound / (s / nw)
		printf "     every list full (%d samples an epoch, the bound), all bytes scaled with the\n", bound
		printf "     samples (an upper estimate): %.0f bytes an epoch, %.2f MB a day (%s)\n",
			f, f * 1440 / 1048576, f * 1440 <= 16 * 1048576 ? "met" : "NOT met"
	}'
}

store_notes() {
	[ "$STORE" = 1 ] || return 0
	echo "  store: a busy short epoch stores about what a busy one-minute epoch does: the"
	echo "  samples an epoch keeps are bounded by the sample lists (CX_SAMPLES per vital,"
	echo "  see \"sketch\" above), and a vital whose list fills in 200 ms fills it in a"
	echo "  minute too; its HCA bitmap (256 counters) and its row are the same size.  A"
	echo "  longer epoch sees more distinct programs and sites, whose texts are stored"
	echo "  once each (a few more bytes), and fills lists that 200 ms leave part empty"
	echo "  (more samples, up to the bound): \"lists full\" says how near the bound these"
	echo "  epochs were.  The copies are taken with stprun stopped (SIGSTOP): the files"
	echo "  as a kill would leave them, opened once so that SQLite folds the WAL in."
}

# ---- run every line, then the section ------------------------------------------
make -s stp stprun build/stp-vitals.static >&2
cc -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -DSTP_HOST -Iruntime \
	-o "$OUT/sketch_size" tests/bench/sketch_size.c || die "sketch_size did not build"
# BENCH_VITALS_PARALLEL=1: every line's guest at once (one host thread
# each); -icount figures do not depend on the host's load.
# BENCH_VITALS_REPORT=1: no boot, the section again from the last run's
# files.
if [ -n "${BENCH_VITALS_REPORT:-}" ]; then
	:
elif [ -n "${BENCH_VITALS_PARALLEL:-}" ]; then
	pids=()
	for l in $LINES; do
		run_line "$l" 2>"$OUT/$l.log" &
		pids+=($!)
	done
	for p in "${pids[@]}"; do
		wait "$p" || die "a line failed: $(tail -n 3 "$OUT"/*.log)"
	done
else
	for l in $LINES; do
		run_line "$l"
	done
fi
for l in $LINES; do line_table "$OUT/$l"; done
first=${LINES%% *}
SECTION=$OUT/section.txt
{
	section_head "guest: vitals.stp against its floor" "$ROUNDS rounds" \
		"target:   each kernel line under qemu-system-x86_64 -accel tcg,thread=single -smp 2 -icount shift=0,sleep=off" \
		"script:   $SCRIPT as module $MOD (stprun, default one-minute epochs)" \
		"floor:    tests/bench/guest/floor_vitals.c on the script's points, counting only" \
		"workload: tests/bench/guest/lmb.c (-s $SCALE); $ROUNDS rounds of none, floor, vitals.stp (rotated), medians" \
		"$(for l in $LINES; do sed 's/^/boot:     /' "$OUT/$l/boot.txt"; done)"
	for l in $LINES; do
		echo "### $(tests/kernel.sh --line "$l" release)"
		echo
		line_rows "$OUT/$l"
		echo
		line_summary "$OUT/$l"
		line_hits "$OUT/$l"
		store_lines "$OUT/$l"
		echo
	done
	echo "### memory"
	echo
	sketch_lines "$OUT/$first"
	echo
	echo "  +ns floor, +ns vit: ns per operation with the floor or vitals.stp loaded less"
	echo "  with none (medians over the rounds); vit/fl: the headline, vitals.stp's added"
	echo "  cost as a multiple of the floor's (target <= ${TARGET}x on every test, stretch"
	echo "  ${STRETCH}x); floor %, vit %: the same added costs as % of none.  spread %: the"
	echo "  widest interquartile range over the rounds of any one setup, as % of none:"
	echo "  the noise the added ns are read against (under -icount the same guest state"
	echo "  gives the same figure; what moves is the state: the first round after boot"
	echo "  runs fork and exec about 15% slower in every setup).  *: the floor's added ns"
	echo "  is within that spread, so its ratio says little."
	echo "  The floor hooks every point the script hooks, the same way (tracepoint"
	echo "  callbacks, kretprobes, perf_event_create_kernel_counter with the script's"
	echo "  types and periods, pinned), once each, as stp registers them (vitals.sched,"
	echo "  vitals.blck and vitals.blio share sched_switch's one callback).  A hit is"
	echo "  one per-CPU increment.  Tests as in"
	echo "  \"guest: footprint\" (tests/bench/guest/lmb.c), here on CPU 0 (taskset 1, its"
	echo "  children too: pipe_lat's round trip and fork's child on one CPU); ns are the guest's"
	echo "  CLOCK_MONOTONIC under -icount (executed instructions), each vCPU's work"
	echo "  counted: what stprun does meanwhile on the other vCPU is in the figures."
	store_notes
	echo
} >"$SECTION"
publish_section "guest: vitals.stp against its floor" "$SECTION" always
