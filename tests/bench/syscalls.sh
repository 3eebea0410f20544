#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# System call probes (make bench), in one boot of each kernel line under
# QEMU with -icount shift=0,sleep=off (the guest clock counts executed
# instructions: a run gives the same figures every time).
#
# Load time: a script with an entry and a return probe on every system
# call number 0..max of the kernel (kernel.syscall(NR), dispatched from
# one raw_syscalls pair), against the kprobes SystemTap-style tapsets use
# today, kprobe.function("__x64_sys_*") and its .return (every such
# symbol).  Both scripts print gettimeofday_ns() in probe begin (which
# runs before the probes are armed) and in a timer.ms(1) probe (timers
# are armed last, so its first hit comes after every other probe is in):
# "arm" is the difference.  "run" is the whole stprun, insmod to rmmod,
# from /proc/uptime (10 ms steps).  Target: arm at most 2 s.  When the
# syscall tapset is there, the same for the issue's script over it,
# probe syscall.*, syscall.*.return { calls[name]++ } (a global named n
# would clash with syscall.select's variable n, in SystemTap as here).
#
# Per-hit cost: loop getppid N (tests/bench/guest/loop.c), each call one
# hit, timed
#   a. with no probe,
#   b. with the floor: a hand-written kprobe on __x64_sys_getppid that
#      only counts (tests/bench/guest/floor_kprobe.c),
#   c. with a hand-written sys_enter callback that only counts
#      (floor_tracepoint.c): what dispatching from the tracepoint costs
#      at the least,
#   d. under stp: kernel.syscall(110) { n++ },
#   e. under stp: kernel.syscall(110).return { n++ },
#   f. under stp: kprobe.function("__x64_sys_getppid") { n++ },
#   g. under stp: syscall.getppid { n++ } (the tapset's alias),
# the added ns per call against (a).  Target: d and g at most 1.5x b's.
#
# Also, when the syscall tapset is there (tapsets/linux/syscalls*.stp),
# pass 2 of probe syscall.*, syscall.*.return { calls[name]++ } on the host,
# stp against stap (target: at least 10x faster).
#
# Results: the "## guest: system call probes" section of results.txt.
# Knobs: BENCH_CALLS (default 200000), STP_LINES (default "6.1 6.12").
set -euo pipefail
export LC_ALL=C
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
OUT=build/bench/syscalls
RESULTS=tests/bench/results.txt
REV=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
CALLS=${BENCH_CALLS:-200000}
HYPERFINE=
NO_HF_WHY="one guest boot per kernel line; -icount makes each figure exact"
WARMUP=0
rm -rf "$OUT" && mkdir -p "$OUT"
make -s stp stprun >&2

# The script with a probe on each number 0..max, max from the kernel's
# own unistd_64.h.
all_numbers_script() {	# SYSROOT KREL OUT
	local h max
	h=$(find -L "$1/lib/modules/$2/build/" -name unistd_64.h -path '*uapi*' | head -1)
	[ -n "$h" ] || die "no unistd_64.h under $1/lib/modules/$2/build"
	max=$(awk '$1 == "#define" && $2 ~ /^__NR_/ { print $3 }' "$h" | sort -n | tail -1)
	{
		echo "global n"
		printf 'probe kernel.syscall(0), kernel.syscall(0).return'
		for ((i = 1; i <= max; i++)); do
			printf ',\n  kernel.syscall(%d), kernel.syscall(%d).return' "$i" "$i"
		done
		echo ' { n++ }'
		echo 'probe begin { printf("begin %d\n", gettimeofday_ns()) }'
		echo 'probe timer.ms(1) { printf("armed %d\n", gettimeofday_ns()); exit() }'
	} >"$3"
	echo "$max"
}

# The modules and the guest's script for one kernel line, then the boot.
run_line() {	# LINE
	local line=$1 root krel dir max m
	root=$(tests/kernel.sh --line "$line")
	krel=$(tests/kernel.sh --line "$line" release)
	dir=$OUT/$line
	mkdir -p "$dir/files" "$dir/floor"
	gcc -O2 -static -o "$dir/files/loop" tests/bench/guest/loop.c
	cp tests/bench/guest/floor_kprobe.c tests/bench/guest/floor_tracepoint.c "$dir/floor/"
	echo "obj-m := floor_kprobe.o floor_tracepoint.o" >"$dir/floor/Kbuild"
	make -s -C "$root/lib/modules/$krel/build" M="$ROOT/$dir/floor" modules >"$dir/floor.log" 2>&1 ||
		die "building the floor modules failed: $(tail -5 "$dir/floor.log")"
	cp "$dir/floor/floor_kprobe.ko" "$dir/floor/floor_tracepoint.ko" "$dir/files/"
	max=$(all_numbers_script "$root" "$krel" "$dir/sc_all.stp")
	echo "$max" >"$dir/max"
	cat >"$dir/kp_all.stp" <<'EOF'
global n
probe kprobe.function("__x64_sys_*"), kprobe.function("__x64_sys_*").return { n++ }
probe begin { printf("begin %d\n", gettimeofday_ns()) }
probe timer.ms(1) { printf("armed %d\n", gettimeofday_ns()); exit() }
EOF
	"$ROOT/stp" --sysroot="$root" -r "$krel" -l 'kprobe.function("__x64_sys_*")' | wc -l >"$dir/nkprobes"
	LOADS="sc_all kp_all"
	if ls tapsets/linux/syscalls*.stp >/dev/null 2>&1; then
		LOADS+=" sc_tapset"
		{
			echo 'global calls'
			echo 'probe syscall.*, syscall.*.return { calls[name]++ }'
			sed -n '3,4p' "$dir/kp_all.stp"
		} >"$dir/sc_tapset.stp"
		"$ROOT/stp" --sysroot="$root" -r "$krel" -p2 "$dir/sc_tapset.stp" | grep -c ' /\* <- ' \
			>"$dir/ntapset" || true
	fi
	say "$line: building the modules (stp -p4)"
	(
		cd "$dir/files"
		K=(--sysroot="$root" -r "$krel")
		"$ROOT/stp" "${K[@]}" -p4 -m sc_all ../sc_all.stp >/dev/null
		"$ROOT/stp" "${K[@]}" -p4 -m kp_all ../kp_all.stp >/dev/null
		[ ! -f ../sc_tapset.stp ] || "$ROOT/stp" "${K[@]}" -p4 -m sc_tapset ../sc_tapset.stp >/dev/null
		for m in "sd_enter:kernel.syscall(110)" "sd_return:kernel.syscall(110).return" \
			'sd_kprobe:kprobe.function("__x64_sys_getppid")' "sd_tapset:syscall.getppid"; do
			"$ROOT/stp" "${K[@]}" -p4 -m "${m%%:*}" \
				-e "global n; probe ${m#*:} { n++ } probe end { printf(\"hits %d\\n\", n) }" >/dev/null
		done
	) || die "$line: stp -p4 failed"
	cat >"$dir/files/run.sh" <<S
for m in $LOADS; do
	t0=\$(cut -d' ' -f1 /proc/uptime)
	stprun \$m.ko > \$m.out
	t1=\$(cut -d' ' -f1 /proc/uptime)
	echo "\$m run \$t0 \$t1"
	sed "s/^/\$m /" \$m.out
done
echo "base \$(./loop getppid $CALLS)"
insmod floor_kprobe.ko
echo "kfloor \$(./loop getppid $CALLS)"
rmmod floor_kprobe
echo "kfloor hits \$(dmesg | sed -n 's/.*floor_kprobe: \([0-9]*\) hits/\1/p' | tail -1)"
insmod floor_tracepoint.ko
echo "tfloor \$(./loop getppid $CALLS)"
rmmod floor_tracepoint
echo "tfloor hits \$(dmesg | sed -n 's/.*floor_tracepoint: \([0-9]*\) hits/\1/p' | tail -1)"
for m in sd_enter sd_return sd_kprobe sd_tapset; do
	stprun -c "./loop getppid $CALLS > \$m.loop" \$m.ko > \$m.out
	echo "\$m \$(cat \$m.loop)"
	echo "\$m \$(cat \$m.out)"
done
echo "base2 \$(./loop getppid $CALLS)"
S
	say "$line: booting the guest with -icount shift=0,sleep=off"
	staprun/stp-qemu --icount --timeout 900 --kernel "$root/boot/vmlinuz-$krel" \
		"$dir/files/run.sh" "$dir"/files/* >"$dir/guest.out" ||
		die "$line: the guest run failed: $(tail "$dir/guest.out")"
	cat "$dir/guest.out" >&2
}

# ---- the figures of one line ---------------------------------------------
field() { awk -v k="$2" -v w="$3" '$1 == k && $2 == w { print $3 }' "$1"; }
nspc() { awk -v k="$2" '$1 == k && $2 != "hits" && NF == 3 { print $2 }' "$1"; }
hits() { awk -v k="$2" '$1 == k && $2 == "hits" { print $3 }' "$1"; }
minus() { awk -v t="$1" -v b="$2" 'BEGIN { printf "%.1f", t - b }'; }
arm_ms() {	# GUEST_OUT MODULE
	awk -v b="$(field "$1" "$2" begin)" -v a="$(field "$1" "$2" armed)" \
		'BEGIN { if (a && b) printf "%.1f", (a - b) / 1e6; else print "failed" }'
}
run_ms() {
	awk -v m="$2" '$1 == m && $2 == "run" { printf "%.0f", ($4 - $3) * 1000 }' "$1"
}
COST_FMT='  %-52s %9s %9s %9s %8s %8s %8s\n'
cost_row() {	# GUEST_OUT LABEL KEY BASE FLOOR TARGET
	local t a r
	t=$(nspc "$1" "$3")
	if [ -z "$t" ]; then
		printf "$COST_FMT" "$2" failed - - - "${6:--}" "${6:+NOT met}"
		return
	fi
	a=$(minus "$t" "$4")
	r=$(awk -v a="$a" -v f="$5" 'BEGIN { if (f > 0) printf "%.2fx", a / f; else print "-" }')
	printf '  %-52s %9.1f %9.1f %9s %8s %8s %8s\n' "$2" "$t" "$a" "$(hits "$1" "$3")" "$r" \
		"${6:+${6}x}" "${6:+$(met "${r%x} <= $6")}"
}
line_figures() {	# LINE
	local dir=$OUT/$1 g base kf krel
	g=$dir/guest.out
	krel=$(tests/kernel.sh --line "$1" release)
	base=$(nspc "$g" base)
	[ -n "$base" ] || die "$1: no figures from the guest"
	kf=$(minus "$(nspc "$g" kfloor)" "$base")
	echo "### $krel"
	echo
	printf '  %-52s %9s %9s %9s\n' "load time" "probes" "arm ms" "run ms"
	printf '  %-52s %9s %9s %9s   target arm <= 2000 ms: %s\n' \
		"kernel.syscall(0..$(cat "$dir/max")) and .return" "$((2 * ($(cat "$dir/max") + 1)))" \
		"$(arm_ms "$g" sc_all)" "$(run_ms "$g" sc_all)" \
		"$(met "\"$(arm_ms "$g" sc_all)\" != \"failed\" && $(arm_ms "$g" sc_all) + 0 <= 2000")"
	printf '  %-52s %9s %9s %9s\n' "kprobe.function(\"__x64_sys_*\") and .return" \
		"$((2 * $(cat "$dir/nkprobes")))" "$(arm_ms "$g" kp_all)" "$(run_ms "$g" kp_all)"
	[ ! -f "$dir/ntapset" ] ||
		printf '  %-52s %9s %9s %9s   target arm <= 2000 ms: %s\n' \
			"syscall.*, syscall.*.return (the tapset)" "$(cat "$dir/ntapset")" \
			"$(arm_ms "$g" sc_tapset)" "$(run_ms "$g" sc_tapset)" \
			"$(met "\"$(arm_ms "$g" sc_tapset)\" != \"failed\" && $(arm_ms "$g" sc_tapset) + 0 <= 2000")"
	echo
	printf "$COST_FMT" "per-hit cost, loop getppid $CALLS" "ns/call" "+ns/hit" "hits" "x kprobe" "target" "met?"
	printf '  %-52s %9.1f %9s %9s %8s %8s %8s\n' "a. no probe" "$base" - - - - -
	cost_row "$g" "b. floor: hand-written kprobe, counts" kfloor "$base" "$kf" ""
	cost_row "$g" "c. floor: hand-written sys_enter callback, counts" tfloor "$base" "$kf" ""
	cost_row "$g" "d. stp: kernel.syscall(110) { n++ }" sd_enter "$base" "$kf" 1.5
	cost_row "$g" "e. stp: kernel.syscall(110).return { n++ }" sd_return "$base" "$kf" ""
	cost_row "$g" "f. stp: kprobe.function(\"__x64_sys_getppid\") { n++ }" sd_kprobe "$base" "$kf" ""
	cost_row "$g" "g. stp: syscall.getppid { n++ } (the tapset)" sd_tapset "$base" "$kf" 1.5
	printf '  %-52s %9.1f %9s %9s %8s %8s %8s\n' "a'. no probe, again after the runs above" \
		"$(nspc "$g" base2)" - - - - -
	echo
}

# ---- pass 2 of syscall.* against stap, when the tapset is there ------------
TAPSET_ROW=
pass2_row() {
	local root krel s='probe syscall.*, syscall.*.return { calls[name]++ }' t_stp t_stap t0 stap_rc
	ls tapsets/linux/syscalls*.stp >/dev/null 2>&1 || {
		TAPSET_ROW="  pass 2 of syscall.*: not measured (no tapsets/linux/syscalls*.stp yet)"
		return
	}
	root=$(tests/kernel.sh)
	krel=$(tests/kernel.sh release)
	if ! ./stp --sysroot="$root" -r "$krel" -p2 -e "global calls; $s" >/dev/null 2>"$OUT/p2.err"; then
		TAPSET_ROW="  pass 2 of syscall.*: stp fails: $(head -1 "$OUT/p2.err")"
		return
	fi
	t_stp=$(time_loop 5 ./stp --sysroot="$root" -r "$krel" -p2 -e "global calls; $s")
	# one stap run (minutes); it may fail on this kernel: then the time
	# it took to fail, and why
	now_us
	t0=$NOW
	stap_rc=0
	stap --sysroot="$root" -r "$krel" -p2 -e "global calls; $s" >/dev/null 2>"$OUT/p2-stap.err" ||
		stap_rc=$?
	now_us
	t_stap=$(awk -v u=$((NOW - t0)) 'BEGIN { printf "%.1f", u / 1000 }')
	TAPSET_ROW=$(printf '  %-52s %9.1f %9.1f %9s   target >= 10x: %s' \
		"pass 2 of syscall.*, syscall.*.return, ms (stp, stap)" "$t_stp" "$t_stap" \
		"$(ratio "$t_stp" "$t_stap")" "$(met "$t_stap >= 10 * $t_stp")")
	[ $stap_rc = 0 ] || TAPSET_ROW+=$'\n'"  (stap fails, after the time shown: $(grep -m1 'error' "$OUT/p2-stap.err"))"
}

LINES=${STP_LINES:-6.1 6.12}
for l in $LINES; do
	run_line "$l"
done
pass2_row
SECTION=$OUT/section.txt
{
	section_head "guest: system call probes" "1 run" \
		"target:   each kernel line under qemu-system-x86_64 -accel tcg -icount shift=0,sleep=off" \
		"workload: loop getppid $CALLS (tests/bench/guest/loop.c): each getppid() one hit"
	for l in $LINES; do
		line_figures "$l"
	done
	echo "$TAPSET_ROW"
	echo
	echo "  arm: from probe begin (before arming) to the first timer.ms(1) hit (timers are"
	echo "  armed last), gettimeofday_ns() in the guest; run: stprun's whole run, insmod to"
	echo "  rmmod, /proc/uptime (10 ms steps).  kernel.syscall: one sys_enter and one"
	echo "  sys_exit callback, dispatched by number; kprobes: one each."
	echo "  +ns/hit: ns/call with the probe - ns/call with none (a); x kprobe: that over"
	echo "  the hand-written kprobe's +ns/hit (b).  hits: what each module counted in all"
	echo "  (the loop's calls and the few stprun's shell made).  ns are the guest's"
	echo "  CLOCK_MONOTONIC under -icount (executed instructions)."
	echo
} >"$SECTION"
publish_section "guest: system call probes" "$SECTION" always
