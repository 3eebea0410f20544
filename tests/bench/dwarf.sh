#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The pass-2 benchmark with DWARF, run by tests/bench/run.sh after
# pass2.sh (make bench), or alone.  stp -p2 against Debian's stap -p2 on
#   a. -e 'probe kernel.function("vfs_*") { println($$parms) }': a wildcard
#      over the kernel's DWARF, every match with its parameters,
#   b. a 20-probe script (written below to build/bench/dwarf/script20.stp):
#      20 kernel functions of 6.1 named exactly, with target variables and
#      member accesses ($file->f_path->dentry->d_name->name, ...),
# both for the same target kernel (--sysroot=$(tests/kernel.sh)
# -r $(tests/kernel.sh release), whose usr/lib/debug/boot/vmlinux-KREL
# carries the DWARF).  stp is timed twice: "cold", its cache directory
# (STP_CACHE) emptied before every run, so that it indexes the DWARF anew,
# and "cached", with the index a first run left there.  stap has no such
# cache.  The figures (median wall times, ms; median peak RSS) and the
# ratios go to the "## pass 2 with DWARF (target variables)" section of
# tests/bench/results.txt and to stdout.
#
# Reports only: nothing here fails because something is slow.  It fails if
# a tool is missing or stap errors.  If stp does not build or its -p2
# fails, stap's figures are still reported, stp's marked "failed: <first
# line of its error>", and the script exits non-zero at the end.
#
# Knobs (environment): BENCH_RUNS (timed runs of each stp variant,
# default 10), BENCH_STAP_RUNS (timed stap runs, default 3),
# BENCH_WARMUP (default 1), BENCH_MEM_RUNS (peak-memory runs per command,
# median, default 3), BENCH_NO_HYPERFINE=1 (use the bash timing loop even
# with hyperfine).
set -euo pipefail
export LC_ALL=C
# say, die, need_deps, check, measure, peak_kb, ... (shared with run.sh)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"

HEADING="pass 2 with DWARF (target variables)"
RUNS=${BENCH_RUNS:-10}
STAP_RUNS=${BENCH_STAP_RUNS:-3}
WARMUP=${BENCH_WARMUP:-1}
MEM_RUNS=${BENCH_MEM_RUNS:-3}
OUT=build/bench/dwarf
RESULTS=tests/bench/results.txt
# shellcheck disable=SC2016 # $$parms is stap's, not the shell's
VFS='probe kernel.function("vfs_*") { println($$parms) }'
DEPS="systemtap, linux-headers-amd64, the kernel sysroot with its -dbg vmlinux, hyperfine, time"

# ---- tools and target kernel ----------------------------------------------
command -v stap >/dev/null 2>&1 || need_deps "stap (Debian's systemtap) is not installed"
[ -x /usr/bin/time ] || need_deps "/usr/bin/time is missing (package time)"
KREL=$(tests/kernel.sh release) || need_deps "no target kernel release (linux-headers-amd64)"
# (before any STP_CACHE of ours: tests/kernel.sh keeps the sysroot there)
SYSROOT=$(tests/kernel.sh) || need_deps "cannot prepare the kernel sysroot (tests/kernel.sh)"
VMLINUX=$SYSROOT/usr/lib/debug/boot/vmlinux-$KREL
[ -s "$VMLINUX" ] || need_deps "no DWARF vmlinux at $VMLINUX (tests/kernel.sh extracts it from linux-image-$KREL-dbg)"
[ -f "/lib/modules/$KREL/build/.config" ] ||
	need_deps "no kernel headers for $KREL (stap -r needs /lib/modules/$KREL/build)"
KOPTS=(--sysroot="$SYSROOT" -r "$KREL")

# stap 4.8 never looks for the kernel's DWARF where Debian's -dbg package
# puts it (usr/lib/debug/boot/vmlinux-KREL): it tries
# lib/modules/KREL/vmlinux first, then build/vmlinux and paths under
# usr/lib/debug/lib/modules/KREL.  So stap gets the same sysroot seen
# through symlinks, plus lib/modules/KREL/vmlinux -> that vmlinux: nothing
# is added to the shared sysroot.
VIEW=$ROOT/$OUT/stap-sysroot
rm -rf "$VIEW"
mkdir -p "$VIEW/lib/modules/$KREL"
for f in "$SYSROOT"/* "$SYSROOT/lib/modules/$KREL"/*; do
	case $f in
	"$SYSROOT/lib") ;;
	"$SYSROOT/lib/modules/$KREL"/*) ln -s "$f" "$VIEW/lib/modules/$KREL/" ;;
	*) ln -s "$f" "$VIEW/" ;;
	esac
done
ln -s "$VMLINUX" "$VIEW/lib/modules/$KREL/vmlinux"
STAP_KOPTS=(--sysroot="$VIEW" -r "$KREL")

pick_hyperfine

mkdir -p "$OUT"
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
STP=./stp
BUILD_FAIL=
if ! make -s stp >"$OUT/make.out" 2>&1; then
	BUILD_FAIL="\`make stp\`: $(grep -m 1 -i -e 'error' -e '\*\*\*' "$OUT/make.out" || tail -n 1 "$OUT/make.out")"
	say "stp does not build: $BUILD_FAIL"
fi
REV=$(git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)
# stp's caches: COLD emptied before every run, WARM kept.
COLD=$ROOT/$OUT/cache-cold
WARM=$ROOT/$OUT/cache
rm -rf "$COLD" "$WARM"

# ---- b.: 20 kernel functions of 6.1, their parameters ----------------------
# Each name and parameter checked with stap -L 'kernel.function("NAME")'
# against 6.1.0's DWARF.  (kfree_skb is an inline wrapper there:
# kfree_skb_reason is the function.)  Members through pointers and embedded
# structs are all written "->", as SystemTap wants ("." is concatenation).
SCRIPT=$OUT/script20.stp
cat >"$SCRIPT" <<'EOF'
# tests/bench/dwarf.sh: 20 kernel functions of Linux 6.1, with target variables
probe kernel.function("vfs_read") {
	printf("%s read %s %d\n", execname(), kernel_string($file->f_path->dentry->d_name->name), $count)
}
probe kernel.function("vfs_write") {
	printf("%s write %s %d\n", execname(), kernel_string($file->f_path->dentry->d_name->name), $count)
}
probe kernel.function("do_sys_openat2") {
	printf("openat2 %d %s\n", $dfd, user_string($filename))
}
probe kernel.function("tcp_sendmsg") {
	printf("tcp_sendmsg family %d size %d\n", $sk->__sk_common->skc_family, $size)
}
probe kernel.function("tcp_recvmsg") {
	printf("tcp_recvmsg port %d len %d flags %x\n", $sk->__sk_common->skc_num, $len, $flags)
}
probe kernel.function("kfree_skb_reason") {
	printf("kfree_skb len %d reason %d\n", $skb->len, $reason)
}
probe kernel.function("do_unlinkat") {
	printf("unlink %d %s\n", $dfd, kernel_string($name->name))
}
probe kernel.function("vfs_fsync_range") {
	printf("fsync %s %d-%d %d\n", kernel_string($file->f_path->dentry->d_name->name), $start, $end, $datasync)
}
probe kernel.function("do_filp_open") {
	printf("filp_open %d %s\n", $dfd, kernel_string($pathname->name))
}
probe kernel.function("filp_close") {
	printf("close flags %x owner %p\n", $filp->f_flags, $id)
}
probe kernel.function("wake_up_new_task") {
	printf("new task %d %s\n", $p->pid, kernel_string($p->comm))
}
probe kernel.function("do_exit") {
	printf("exit %d code %d\n", pid(), $code)
}
probe kernel.function("kernel_clone") {
	printf("clone flags %x\n", $args->flags)
}
probe kernel.function("schedule_timeout") {
	printf("schedule_timeout %d\n", $timeout)
}
probe kernel.function("__kmalloc") {
	printf("kmalloc %d gfp %x\n", $size, $flags)
}
probe kernel.function("kmem_cache_alloc") {
	printf("cache_alloc %s gfp %x\n", kernel_string($s->name), $gfpflags)
}
probe kernel.function("ip_rcv") {
	printf("ip_rcv %s len %d\n", kernel_string($dev->name), $skb->len)
}
probe kernel.function("udp_sendmsg") {
	printf("udp_sendmsg dport %d len %d\n", $sk->__sk_common->skc_dport, $len)
}
probe kernel.function("submit_bio") {
	printf("bio %d bytes op %x\n", $bio->bi_iter->bi_size, $bio->bi_opf)
}
probe kernel.function("handle_mm_fault") {
	printf("fault %p in %p flags %x\n", $address, $vma->vm_start, $flags)
}
EOF
NFUNCS=$(grep -o '^probe kernel\.function("[^"]*")' "$SCRIPT" | sort -u | wc -l)
[ "$NFUNCS" -eq 20 ] || die "$SCRIPT names $NFUNCS distinct functions, not 20"
NTVARS=$(grep -o '\$[a-z_]*' "$SCRIPT" | wc -l)
NMEMBERS=$(grep -o -- '->' "$SCRIPT" | wc -l)

# ---- checking runs ----------------------------------------------------------
# pass2_summary FILE: "N probes, N functions, ..." from -v's pass-2 line
pass2_summary() {
	[ -f "$1" ] || return 0
	sed -n 's/^Pass 2: analyzed script: \([^ ]* probes, .* globals\).*/\1/p' "$1" | head -n 1
}

# stap must work: it is the reference.
check "stap -p2 on vfs_*" stap "${STAP_KOPTS[@]}" -v -p2 -e "$VFS"
STAP_SUM_A=$(pass2_summary "$OUT/check.err")
STAP_LIB=$(sed -n 's/.*parsed user script and \([0-9]*\) library scripts.*/\1/p' "$OUT/check.err")
cp "$OUT/check.out" "$OUT/stap-vfs.out"
check "stap -p2 on $SCRIPT" stap "${STAP_KOPTS[@]}" -v -p2 "$SCRIPT"
STAP_SUM_B=$(pass2_summary "$OUT/check.err")
cp "$OUT/check.out" "$OUT/stap-script20.out"

# try_stp VAR NAME CMD...: one run of an stp command (with the WARM cache:
# the first run also fills it).  On failure VAR is set to the first line
# of its error and stp's output is kept in $OUT/stp-NAME.{out,err}.
try_stp() {
	local var=$1 name=$2 rc=0 why
	shift 2
	printf -v "$var" '%s' ""
	if [ -n "$BUILD_FAIL" ]; then
		printf -v "$var" '%s' "$BUILD_FAIL"
		return
	fi
	STP_CACHE=$WARM "$@" >"$OUT/stp-$name.out" 2>"$OUT/stp-$name.err" || rc=$?
	[ "$rc" -ne 0 ] || return 0
	# its first error, else its first line besides the progress ones
	why=$(grep -v '^Pass [0-9]' "$OUT/stp-$name.err" | grep -m 1 -i 'error' ||
		grep -v -m 1 -e '^Pass [0-9]' -e '^[[:space:]]*$' "$OUT/stp-$name.err" || true)
	[ -n "$why" ] || why="exit status $rc, no message"
	[ "$rc" -le 128 ] || why="killed by signal $((rc - 128)) ($why)"
	printf -v "$var" '%s' "$why"
	say "stp -p2 $name failed: $why (see $OUT/stp-$name.err)"
}
try_stp FAIL_A vfs $STP "${KOPTS[@]}" -v -p2 -e "$VFS"
STP_SUM_A=$(pass2_summary "$OUT/stp-vfs.err")
try_stp FAIL_B script20 $STP "${KOPTS[@]}" -v -p2 "$SCRIPT"
STP_SUM_B=$(pass2_summary "$OUT/stp-script20.err")
[ -z "$FAIL_A" ] || STP_SUM_A=failed
[ -z "$FAIL_B" ] || STP_SUM_B=failed

# ---- timing ---------------------------------------------------------------
# measure_cold NAME RUNS DIR CMD...: measure, with DIR removed before
# each run (warm-ups too), outside the timed part.
measure_cold() {
	local name=$1 runs=$2 dir=$3 cmd="" a i t0
	shift 3
	say "timing $name: $WARMUP warm-up + $runs runs, $dir emptied before each"
	if [ -n "$HYPERFINE" ]; then
		for a in "$@"; do cmd+=$(printf '%q ' "$a"); done
		"$HYPERFINE" -N --style none --warmup "$WARMUP" --runs "$runs" \
			--prepare "rm -rf $(printf '%q' "$dir")" \
			--command-name "$name" --export-csv "$OUT/$name.csv" \
			-- "$cmd" >/dev/null 2>"$OUT/$name.err" ||
			{ cat "$OUT/$name.err" >&2; die "hyperfine failed on $*"; }
		awk -F, 'NR == 2 { printf "%.3f\n", $(NF - 4) * 1000 }' "$OUT/$name.csv"
	else
		for ((i = 0; i < WARMUP + runs; i++)); do
			rm -rf "$dir"
			now_us
			t0=$NOW
			"$@" >/dev/null 2>&1 || die "command failed: $*"
			now_us
			[ "$i" -lt "$WARMUP" ] || echo $((NOW - t0))
		done | median | awk '{ printf "%.3f\n", $1 / 1000 }'
	fi
}

# peak_cold DIR CMD...: peak_kb, with DIR removed before each run.
peak_cold() {
	local dir=$1 i
	shift
	for ((i = 0; i < MEM_RUNS; i++)); do
		rm -rf "$dir"
		MEM_RUNS=1 peak_kb "$@"
	done | median | awk '{ printf "%d\n", $1 }'
}

T_A_STAP=$(measure dw-a-stap "$STAP_RUNS" stap "${STAP_KOPTS[@]}" -p2 -e "$VFS")
T_B_STAP=$(measure dw-b-stap "$STAP_RUNS" stap "${STAP_KOPTS[@]}" -p2 "$SCRIPT")
T_A_COLD=- T_A_WARM=- T_B_COLD=- T_B_WARM=-
if [ -z "$FAIL_A" ]; then
	T_A_COLD=$(STP_CACHE=$COLD measure_cold dw-a-stp-cold "$RUNS" "$COLD" $STP "${KOPTS[@]}" -p2 -e "$VFS")
	T_A_WARM=$(STP_CACHE=$WARM measure dw-a-stp-cached "$RUNS" $STP "${KOPTS[@]}" -p2 -e "$VFS")
fi
if [ -z "$FAIL_B" ]; then
	T_B_COLD=$(STP_CACHE=$COLD measure_cold dw-b-stp-cold "$RUNS" "$COLD" $STP "${KOPTS[@]}" -p2 "$SCRIPT")
	T_B_WARM=$(STP_CACHE=$WARM measure dw-b-stp-cached "$RUNS" $STP "${KOPTS[@]}" -p2 "$SCRIPT")
fi

say "peak memory ($MEM_RUNS runs each, median)"
M_A_STAP=$(peak_kb stap "${STAP_KOPTS[@]}" -p2 -e "$VFS")
M_B_STAP=$(peak_kb stap "${STAP_KOPTS[@]}" -p2 "$SCRIPT")
M_A_COLD=- M_A_WARM=- M_B_COLD=- M_B_WARM=-
if [ -z "$FAIL_A" ]; then
	M_A_COLD=$(STP_CACHE=$COLD peak_cold "$COLD" $STP "${KOPTS[@]}" -p2 -e "$VFS")
	M_A_WARM=$(STP_CACHE=$WARM peak_kb $STP "${KOPTS[@]}" -p2 -e "$VFS")
fi
if [ -z "$FAIL_B" ]; then
	M_B_COLD=$(STP_CACHE=$COLD peak_cold "$COLD" $STP "${KOPTS[@]}" -p2 "$SCRIPT")
	M_B_WARM=$(STP_CACHE=$WARM peak_kb $STP "${KOPTS[@]}" -p2 "$SCRIPT")
fi
rm -rf "$COLD"
INDEX_KB=
[ ! -d "$WARM" ] || INDEX_KB=$(du -sk "$WARM" | cut -f1)
VM_MB=$(($(stat -c %s "$VMLINUX") / 1048576))

# ---- report ----------------------------------------------------------------
num() { # a figure, or "failed" for a "-"
	if [ "$1" = - ]; then printf '%s' failed; else awk -v v="$1" -v f="$2" 'BEGIN { printf f, v }'; fi
}
xratio() { # stp stap: "stap/stp x"
	if [ "$1" = - ]; then printf '%s' -; else ratio "$1" "$2"; fi
}
frac() { # stp-kb stap-kb
	if [ "$1" = - ]; then printf '%s' -; else awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; fi
}
tline() { printf '  %-38s %11s %11s %11s %11s %11s\n' "$@"; }
trow() { # label fail cold cached stap
	tline "$1" "$(num "$3" %.2f)" "$(num "$4" %.2f)" "$(num "$5" %.2f)" \
		"$(xratio "$3" "$5")" "$(xratio "$4" "$5")"
	[ -z "$2" ] || printf '  %-38s stp failed: %s\n' "" "$2"
}
mrow() { # label fail cold-kb cached-kb stap-kb
	local c=- w=-
	[ "$3" = - ] || c=$(mb "$3")
	[ "$4" = - ] || w=$(mb "$4")
	tline "$1" "$(num "$c" %.1f)" "$(num "$w" %.1f)" "$(mb "$5")" \
		"$(frac "$3" "$5")" "$(frac "$4" "$5")"
}
# target lines for one script: letter fail cold cached stap cold-kb cached-kb stap-kb
targets() {
	local l=$1 fail=$2 tc=$3 tw=$4 ts=$5 mc=$6 mw=$7 ms=$8 mx
	if [ -n "$fail" ]; then
		echo "  $l. cold at least 5x faster than stap -p2:      stp failed -> NOT met"
		echo "  $l. cached at least 20x faster than stap -p2:   stp failed -> NOT met"
		echo "  $l. peak memory at most a quarter of stap's:    stp failed -> NOT met"
		return
	fi
	mx=$(awk -v a="$mc" -v b="$mw" 'BEGIN { print (a > b ? a : b) }')
	echo "  $l. cold at least 5x faster than stap -p2:      $(ratio "$tc" "$ts") ($ts / $tc ms) -> $(met "$ts >= 5 * $tc")"
	echo "  $l. cached at least 20x faster than stap -p2:   $(ratio "$tw" "$ts") ($ts / $tw ms) -> $(met "$ts >= 20 * $tw")"
	echo "  $l. peak memory at most a quarter of stap's:    $(frac "$mx" "$ms") ($(mb "$mx") / $(mb "$ms") MB, the larger of cold and cached) -> $(met "$mx * 4 <= $ms")"
}

SECTION=$OUT/dwarf-section.txt
{
	section_head "$HEADING" "$RUNS runs (stp, each way) / $STAP_RUNS runs (stap)" \
		"stap:     $(stap -V 2>&1 | head -n 1)" \
		"target:   --sysroot=$SYSROOT -r $KREL (DWARF: usr/lib/debug/boot/vmlinux-$KREL, $VM_MB MB)"
	tline "" "stp cold" "stp cached" "stap" "stap/" "stap/"
	tline "wall time, ms" "" "" "" "stp cold" "stp cached"
	trow "a. kernel.function(\"vfs_*\") \$\$parms" "$FAIL_A" "$T_A_COLD" "$T_A_WARM" "$T_A_STAP"
	trow "b. 20 functions, target variables" "$FAIL_B" "$T_B_COLD" "$T_B_WARM" "$T_B_STAP"
	echo
	tline "peak memory (max RSS, median of $MEM_RUNS)" "stp cold" "stp cached" "stap" "stp cold/" "stp cached/"
	tline "MB" "" "" "" "stap" "stap"
	mrow "a. kernel.function(\"vfs_*\") \$\$parms" "$FAIL_A" "$M_A_COLD" "$M_A_WARM" "$M_A_STAP"
	mrow "b. 20 functions, target variables" "$FAIL_B" "$M_B_COLD" "$M_B_WARM" "$M_B_STAP"
	echo
	echo "targets:"
	targets a "$FAIL_A" "$T_A_COLD" "$T_A_WARM" "$T_A_STAP" "$M_A_COLD" "$M_A_WARM" "$M_A_STAP"
	targets b "$FAIL_B" "$T_B_COLD" "$T_B_WARM" "$T_B_STAP" "$M_B_COLD" "$M_B_WARM" "$M_B_STAP"
	echo
	echo "what each figure measures:"
	echo "  a. \`-p2 --sysroot=S -r $KREL -e '$VFS'\`"
	echo "     for each tool (stdout to /dev/null): every vfs_* function of the kernel's"
	echo "     DWARF, each with the locations and types of its parameters."
	echo "     stp -v:  $STP_SUM_A"
	echo "     stap -v: $STAP_SUM_A"
	echo "  b. \`-p2 --sysroot=S -r $KREL $SCRIPT\`: $NFUNCS kernel functions named"
	echo "     exactly, $NTVARS target variable uses, $NMEMBERS member accesses through pointers and"
	echo "     embedded structs (\$file->f_path->dentry->d_name->name,"
	echo "     \$sk->__sk_common->skc_family, \$bio->bi_iter->bi_size, ...), with printf,"
	echo "     kernel_string, user_string, execname, pid.  Written by tests/bench/dwarf.sh."
	echo "     stp -v:  $STP_SUM_B"
	echo "     stap -v: $STAP_SUM_B"
	echo "  stp cold: STP_CACHE=$COLD, removed before every run"
	echo "     (hyperfine --prepare): stp indexes the DWARF (and caches the System.map) anew."
	echo "  stp cached: STP_CACHE=$WARM, where the checking run left its"
	if [ -n "${INDEX_KB:-}" ]; then
		echo "     index ($INDEX_KB KB in all after the runs)."
	else
		echo "     index."
	fi
	echo "  stap: no cache for pass 2; every run also parses its library (${STAP_LIB:-?} scripts)."
	echo "  S = $SYSROOT.  stap 4.8 does not look for DWARF in"
	echo "     usr/lib/debug/boot/ (it tries lib/modules/$KREL/vmlinux first): stap gets"
	echo "     --sysroot=$VIEW, S through symlinks plus"
	echo "     lib/modules/$KREL/vmlinux -> S/usr/lib/debug/boot/vmlinux-$KREL."
	echo "  outputs of the checking runs: $OUT/stp-{vfs,script20}.{out,err},"
	echo "     $OUT/stap-{vfs,script20}.out"
	echo
} >"$SECTION"

# A new section goes right after "## pass 2 (elaborate)" (publish_section
# would append it at the end): a bare heading put there first is replaced.
if [ -f "$RESULTS" ] && ! grep -qxF "## $HEADING" "$RESULTS" && grep -qxF "## pass 2 (elaborate)" "$RESULTS"; then
	awk -v head="## $HEADING" '
		in2 && /^## / { print head; print ""; in2 = 0 }
		$0 == "## pass 2 (elaborate)" { in2 = 1 }
		{ print; last = $0 }
		END { if (in2) { if (last != "") print ""; print head; print "" } }' "$RESULTS" >"$OUT/results.tmp"
	mv "$OUT/results.tmp" "$RESULTS"
fi
publish_section "$HEADING" "$SECTION" once

if [ -n "$FAIL_A$FAIL_B" ]; then
	[ -z "$FAIL_A" ] || say "stp -p2 failed on a. (vfs_*): $FAIL_A"
	[ -z "$FAIL_B" ] || say "stp -p2 failed on b. ($SCRIPT): $FAIL_B"
	exit 1
fi
