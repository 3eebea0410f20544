#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The footprint benchmark (make bench; issue 15): what an always-on
# script costs every other program.  In one boot of the target kernel
# under QEMU (2 vCPUs, -accel tcg,thread=single, -icount shift=0,sleep=off:
# the guest clock counts executed instructions), lmbench-style
# microbenchmarks (tests/bench/guest/lmb.c) run
#   1. with no module,
#   2. with the floor: a hand-written module whose callback on the
#      sys_exit tracepoint only counts (tests/bench/guest/floor_tracepoint.c
#      with name=sys_exit), the least a probe on every system call costs,
#   3. with the script under test loaded (stprun in the background),
#   4. with no module again,
# and the table gives each test's ns per operation without the script
# (the mean of 1 and 4), with it, how much slower, and the floor's % beside
# it; then the median and the maximum.  Targets: every test at most 3%
# slower, the median at most 1% (the Chopstix paper: 2.6% on getpid, at
# most 1.2% elsewhere).
# Also the sketch's kernel memory (sizeof(struct cx_sketch), everything
# the sampler uses, preallocated: tests/bench/sketch_size.c), the module's
# core size, its output buffers, what the guest's free memory fell by
# while it was loaded, and the "footprint: ..." lines the script printed;
# and, when the run left a vital-signs store, its bytes per epoch x
# epochs per day.
#
# Knobs (environment): BENCH_FOOT_SCRIPT (the script, default below),
# BENCH_FOOT_RUNOPTS (stprun's options for it, e.g. -G settings),
# BENCH_FOOT_DB (the store's path in the guest), BENCH_FOOT_EPOCH_S
# (the epoch length a day is counted in, default 60), BENCH_FOOT_SCALE
# (lmb's iteration counts times this, default 1).  The run with the script
# lasts about 6 s of guest time: for store figures, give the script epochs
# short enough to end a few in that time (BENCH_FOOT_RUNOPTS), while a day
# is still counted in BENCH_FOOT_EPOCH_S epochs (samples per epoch are
# bounded, so a busy short epoch stores about what a busy long one does).
# Results: the "## guest: footprint" section of tests/bench/results.txt.
set -euo pipefail
export LC_ALL=C
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
# The script under test: the vital signs, in one-second epochs so that a
# few end while the tests run.
SCRIPT=${BENCH_FOOT_SCRIPT:-examples/vitals.stp}
RUNOPTS=${BENCH_FOOT_RUNOPTS:--G chopstix_epoch_ms=1000}
GUEST_DB=${BENCH_FOOT_DB:-/var/lib/stp/vitals.db}
EPOCH_S=${BENCH_FOOT_EPOCH_S:-60}
SCALE=${BENCH_FOOT_SCALE:-1}
MOD=fp_script
OUT=build/bench/footprint
RESULTS=tests/bench/results.txt
REV=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
HYPERFINE=
NO_HF_WHY="one guest boot; -icount makes each figure repeatable"
WARMUP=0
rm -rf "$OUT" && mkdir -p "$OUT/files"

SYSROOT=$(tests/kernel.sh)
KREL=$(tests/kernel.sh release)
W="-O2 -static -std=c11 -Wall -Wextra -Werror"
# shellcheck disable=SC2086 # W is a list of options
gcc $W -o "$OUT/files/lmb" tests/bench/guest/lmb.c || die "lmb did not build"
# shellcheck disable=SC2086
gcc $W -o "$OUT/files/lmb_nop" tests/bench/guest/lmb_nop.c || die "lmb_nop did not build"
make -s stp stprun >&2
mkdir -p "$OUT/floor"
cp tests/bench/guest/floor_tracepoint.c "$OUT/floor/"
echo "obj-m := floor_tracepoint.o" >"$OUT/floor/Kbuild"
make -s -C "/lib/modules/$KREL/build" M="$ROOT/$OUT/floor" modules >"$OUT/floor.log" 2>&1 ||
	die "building the floor module failed: $(tail -5 "$OUT/floor.log")"
cp "$OUT/floor/floor_tracepoint.ko" "$OUT/files/"
(cd "$OUT/files" && "$ROOT/stp" --sysroot="$SYSROOT" -r "$KREL" -p4 -m "$MOD" "$ROOT/$SCRIPT" >/dev/null) ||
	die "stp -p4 $SCRIPT failed"

# The guest boots with one CPU and brings the second up from the script:
# under -icount's round robin the kernel's boot-time bring-up of CPU 1
# never ends (it hung past "x86: Booting SMP configuration" in every try,
# with sleep=on and shift=auto too), where onlining it later takes
# a moment.  Then a pause and a short untimed lmb run: the guest clock
# also runs on while the other vCPU executes, and on 6.12 the first test
# ran 2.3x slower without them, the kernel still busy after CPU 1 came up.
# memfree: MemFree in KB once a second's sleep has let RCU and
# the exits of the run before free what they held.
DB_DIR=$(dirname "$GUEST_DB")
DB_BASE=$(basename "$GUEST_DB")
cat >"$OUT/files/run.sh" <<S
echo 1 >/sys/devices/system/cpu/cpu1/online
echo "cpus \$(cat /sys/devices/system/cpu/online)"
memfree() { sleep 1; awk '\$1 == "MemFree:" { print \$2 }' /proc/meminfo; }
lmb() { ./lmb -s $SCALE >\$1.txt || exit 1; sed "s/^/\$1 /" \$1.txt; }
sleep 2
./lmb -s 0.1 >/dev/null || exit 1
lmb base1
insmod floor_tracepoint.ko name=sys_exit || exit 1
lmb floor
rmmod floor_tracepoint
m0=\$(memfree)
stprun -v $RUNOPTS -o script.out $MOD.ko 2>script.err &
pid=\$!
until grep -q '^stprun: started' script.err; do
	kill -0 \$pid 2>/dev/null || { echo "stprun failed:"; cat script.err; exit 1; }
	sleep 1
done
echo "memtaken \$((m0 - \$(memfree)))"
echo "coresize \$(cat /sys/module/$MOD/coresize)"
echo "bufsize \$(cat /sys/module/$MOD/parameters/stp_bufsize)"
lmb with
kill -INT \$pid
wait \$pid
echo "stprun_rc \$?"
sed 's/^/out /' script.out
lmb base2
if [ -f $GUEST_DB ]; then
	echo "db_bytes \$(cat $GUEST_DB $GUEST_DB-wal 2>/dev/null | wc -c)"
	tar cf - -C $DB_DIR \$(cd $DB_DIR && ls $DB_BASE $DB_BASE-wal 2>/dev/null) | base64 | sed 's/^/db64 /'
fi
S
say "booting the guest (2 vCPUs, -icount shift=0,sleep=off): lmb 3 times"
GUEST_APPEND="maxcpus=1" staprun/stp-qemu --icount --smp 2 --timeout 1800 \
	--kernel "$SYSROOT/boot/vmlinuz-$KREL" "$OUT/files/run.sh" "$OUT"/files/* >"$OUT/guest.out" ||
	die "the guest run failed: $(tail "$OUT/guest.out")"
grep -v '^db64 ' "$OUT/guest.out" >&2

# ---- the table --------------------------------------------------------------
# TEST BASE WITH PCT DRIFT FLOOR: BASE is the mean of the two runs without
# the script, DRIFT how far the second of those is from the first (%): the
# noise a PCT should be read against; FLOOR the floor's PCT.
awk '$1 == "base1" && NF == 4 { b1[$2] = $3; name[++n] = $2 }
	$1 == "with" && NF == 4 { w[$2] = $3 }
	$1 == "floor" && NF == 4 { f[$2] = $3 }
	$1 == "base2" && NF == 4 { b2[$2] = $3 }
	END { for (i = 1; i <= n; i++) {
		t = name[i]
		if (!(t in w) || !(t in b2)) continue
		b = (b1[t] + b2[t]) / 2
		printf "%s %.1f %.1f %.2f %.2f %s\n", t, b, w[t], (w[t] - b) / b * 100, (b2[t] - b1[t]) / b1[t] * 100,
			t in f ? sprintf("%.2f", (f[t] - b) / b * 100) : "-"
	} }' "$OUT/guest.out" >"$OUT/table.txt"
[ -s "$OUT/table.txt" ] || die "no lmb figures with the script (see $OUT/guest.out)"
PCT_MEDIAN=$(awk '{ print $4 }' "$OUT/table.txt" | median | awk '{ printf "%.2f", $1 }')
PCT_MAX=$(awk '{ print $4 }' "$OUT/table.txt" | sort -g | tail -n 1)
PCT_MAX_TEST=$(sort -k4,4g "$OUT/table.txt" | tail -n 1 | cut -d' ' -f1)
FLOOR_MEDIAN=$(awk '{ print $6 }' "$OUT/table.txt" | median | awk '{ printf "%.2f", $1 }')
FLOOR_MAX=$(awk '{ print $6 }' "$OUT/table.txt" | sort -g | tail -n 1)
DRIFT_MAX=$(awk '{ d = $5 < 0 ? -$5 : $5; if (d > m) m = d } END { printf "%.2f", m }' "$OUT/table.txt")
value() { awk -v k="$1" '$1 == k && NF == 2 { print $2 }' "$OUT/guest.out"; }
CORE=$(value coresize)
MEMTAKEN=$(value memtaken)
BUFS=$(awk -v b="$(value bufsize)" 'BEGIN { printf "%.1f", b * 2 / 1024 }')
cc -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -DSTP_HOST -Iruntime \
	-o "$OUT/sketch_size" tests/bench/sketch_size.c || die "sketch_size did not build"
read -r SK_BYTES SK_VITALS SK_HCA SK_SAMPLES _ < <("$OUT/sketch_size")
HITS=$(sed -n 's/^out hits \([0-9]*\)$/\1/p' "$OUT/guest.out")

# ---- the store: bytes per epoch, from the epochs stp-vitals dump counts -----
STORE=
DB_BYTES=$(value db_bytes)
if [ -n "$DB_BYTES" ]; then
	rm -rf "$OUT/store" && mkdir -p "$OUT/store"
	sed -n 's/^db64 //p' "$OUT/guest.out" | base64 -d | tar xf - -C "$OUT/store"
	if [ -x ./stp-vitals ]; then
		./stp-vitals dump "$OUT/store/$DB_BASE" >"$OUT/store/dump.jsonl" ||
			die "stp-vitals dump failed on the guest's store"
		EPOCHS=$(grep -o '"epoch_start": *[^,}]*' "$OUT/store/dump.jsonl" | sort -u | wc -l)
		SAMPLES=$(grep -c '"kind":"sample"' "$OUT/store/dump.jsonl")
	fi
	# what the epochs take: the pages in use once the WAL is folded in,
	# less those of a store with no epoch (its tables' first pages)
	used() {
		sqlite3 "$1" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null &&
			sqlite3 "$1" 'SELECT (p.page_count - f.freelist_count) * s.page_size
				FROM pragma_page_count p, pragma_freelist_count f, pragma_page_size s'
	}
	make -s build/tests/vitals_writer >/dev/null &&
		build/tests/vitals_writer epochs "$OUT/store/empty.db" 0 0 busy 0 0 >/dev/null &&
		DB_USED=$(used "$OUT/store/$DB_BASE") && DB_EMPTY=$(used "$OUT/store/empty.db") ||
		DB_USED=

	STORE=${EPOCHS:-unknown}
fi

# ---- the section ---------------------------------------------------------------
kb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1024 }'; }
store_lines() {
	if [ -z "$DB_BYTES" ]; then
		echo "  store: none at $GUEST_DB after the run (the script keeps none)"
		return
	fi
	echo "  store: $GUEST_DB (and its -wal), $DB_BYTES bytes after the run, $STORE epochs, ${SAMPLES:-?} samples"
	if [ "$STORE" = unknown ]; then
		echo "     (no ./stp-vitals to count its epochs: bytes per day not computed)"
		return
	fi
	if [ "$STORE" -eq 0 ] || [ -z "$DB_USED" ]; then
		echo "     (no epoch ended during the run, or no sqlite3: bytes per day not computed)"
		return
	fi
	awk -v u="$DB_USED" -v z="$DB_EMPTY" -v e="$STORE" -v s="$EPOCH_S" 'BEGIN {
		b = (u - z) / e; d = b * 86400 / s
		printf "     %d bytes in use, %d of them an empty store'"'"'s: %.0f bytes per epoch\n", u, z, b
		printf "     x %d epochs per day (%d s each) = %.2f MB per day (target <= 16 MB: %s)\n",
			86400 / s, s, d / 1048576, d <= 16 * 1048576 ? "met" : "NOT met" }'
}
SECTION=$OUT/section.txt
{
	section_head "guest: footprint" "1 run" \
		"target:   $KREL under qemu-system-x86_64 -accel tcg,thread=single -smp 2 -icount shift=0,sleep=off" \
		"script:   $SCRIPT${RUNOPTS:+ (stprun $RUNOPTS)}, as module $MOD" \
		"workload: tests/bench/guest/lmb.c (-s $SCALE): without the script, with the floor, with the script, without again"
	printf '  %-16s %12s %12s %9s %9s %9s\n' "" "ns base" "ns with" "% slower" "drift %" "floor %"
	awk '{ printf "  %-16s %12.1f %12.1f %9.2f %9.2f %9s\n", $1, $2, $3, $4, $5, $6 }' "$OUT/table.txt"
	echo
	echo "  median: $PCT_MEDIAN% slower (target <= 1%: $(met "$PCT_MEDIAN <= 1"))"
	echo "  max:    $PCT_MAX% slower, $PCT_MAX_TEST (target <= 3% on every test: $(met "$PCT_MAX <= 3"))"
	echo "  drift:  at most $DRIFT_MAX% between the two runs without the script"
	echo "  floor:  median $FLOOR_MEDIAN% slower, max $FLOOR_MAX%"
	echo "  (paper anchor: 2.6% on getpid, at most 1.2% on the rest)"
	echo
	echo "  sketch: $(kb "$SK_BYTES") KB (target <= 256 KB: $(met "$SK_BYTES <= 256 * 1024")): sizeof(struct cx_sketch), $SK_VITALS vitals,"
	echo "     $SK_HCA-byte HCAs, $SK_SAMPLES sample slots per vital and copy (runtime/cx_core.h)"
	echo "  module core (text, data, bss; /sys/module/$MOD/coresize): $(kb "$CORE") KB"
	echo "  output buffers (stp_bufsize x 2 CPUs): $BUFS KB"
	echo "  guest's MemFree fell by $MEMTAKEN KB from before stprun to after the start: a rough"
	echo "     total of the module, its buffers and allocations and stprun, less what the"
	echo "     kernel freed meanwhile"
	sed -n 's/^out footprint: /  the script reports: /p' "$OUT/guest.out"
	store_lines
	[ -z "$HITS" ] || echo "  the script's own count: $HITS hits"
	echo
	echo "  ns base: the mean of the two runs without the script; drift %: the second"
	echo "  of them against the first, the noise to read % slower against; floor %: how"
	echo "  much slower with a hand-written callback on sys_exit that only counts, the"
	echo "  least any probe on every system call costs (tests/bench/guest/floor_tracepoint.c)."
	echo "  ns are the guest's CLOCK_MONOTONIC under -icount (executed instructions) per"
	echo "  operation over each test's fixed count, after a tenth as many untimed:"
	echo "    getpid: syscall(SYS_getpid); read: 1 byte from /dev/zero; write: 1 byte to"
	echo "    /dev/null; stat, fstat, open_close: a file in /tmp (the initramfs);"
	echo "    select_N: select() with a zero timeout on N fds, all of one empty pipe's"
	echo "    read end; sig_install: sigaction(); sig_catch: kill() of itself and the"
	echo "    handler; prot_fault: mprotect() a page read-only, write it, the SIGSEGV"
	echo "    handler's mprotect() opens it; pipe_lat: one byte's round trip to a"
	echo "    child process over two pipes; fork_exit: fork, _exit, waitpid;"
	echo "    fork_exec: the same with execve() of lmb_nop, a static program that returns."
	echo "  MemFree: /proc/meminfo in the guest a second before stprun started and a"
	echo "  second after the script had started (the first lmb run warmed the caches)."
	echo "  A script reports memory of its own in lines \"footprint: ...\" of its output."
	echo
} >"$SECTION"
publish_section "guest: footprint" "$SECTION" always
