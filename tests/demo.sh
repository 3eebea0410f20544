#!/bin/bash
# make demo: what a new user sees first.  The scripts in examples/ are
# built into modules for Debian's kernel (tests/kernel.sh) and run, all in
# one throwaway QEMU guest (staprun/stp-qemu), with a workload each; then
# a one-liner runs with stp --remote=qemu, another on this machine's own
# kernel as BPF, and a mistake shows how stp reports errors.  On a machine whose own kernel loads modules, the same
# scripts run directly: sudo ./stp examples/counter.stp
set -uo pipefail
cd "$(dirname "$0")/.."

SYSROOT=$(tests/kernel.sh) || exit 1
KREL=$(tests/kernel.sh release)
K=(--sysroot="$SYSROOT" -r "$KREL")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "=== building the examples for $KREL"
for f in examples/*.stp; do
	name=$(basename "$f" .stp | tr - _)
	(cd "$work" && "$OLDPWD/stp" "${K[@]}" -p4 -m "$name" "$OLDPWD/$f" >/dev/null) ||
		{ echo "demo: building $f failed"; exit 1; }
	echo "  $f -> $name.ko"
done
# tapset one-liners (tapsets/linux/): a system-call top, bytes read by
# file, signals sent
oneliner() {
	(cd "$work" && "$OLDPWD/stp" "${K[@]}" -p4 -m "$1" -e "$2" >/dev/null) ||
		{ echo "demo: building the one-liner $1 failed"; exit 1; }
	echo "  stp -e '...' -> $1.ko"
}
oneliner syscall_top 'global calls
probe syscall.* { calls[name]++ }
probe end { foreach (n in calls- limit 6) printf("%-12s %6d\n", n, calls[n]) }'
oneliner vfs_read_files 'global bytes
probe vfs.read.return { if (bytes_read > 0) bytes[execname(), __file_filename(file)] += bytes_read }
probe end { foreach ([p, f] in bytes- limit 6) printf("%-8s %-12s %7d bytes\n", p, f, bytes[p, f]) }'
oneliner signals_sent 'probe signal.send { printf("%s(%d) sends %s to %s(%d)\n", execname(), pid(), sig_name, pid_name, sig_pid) }'
# the vital signs' workload (vitals_spin at a fixed address, as the tests
# build it), and brd for its block I/O
gcc -O2 -static -Wl,--section-start=.vitals_spin=0x800000 -o "$work/vitals_load" \
	tests/guest/prog/vitals_load.c || { echo "demo: building vitals_load failed"; exit 1; }
brd=$(find "$SYSROOT/lib/modules/$KREL" -name 'brd.ko*' | head -1)
case $brd in
*.xz) xz -dc "$brd" >"$work/brd.ko" ;;
*.zst) zstd -qdc "$brd" >"$work/brd.ko" ;;
?*) cp "$brd" "$work/brd.ko" ;;
esac
# The vital signs' workload: rounds of vitals_load, each heavier than the
# last, a quiet second after each, so that every vital sign's line rises
# and falls over the half-second epochs of the report.
cat >"$work/vitals_rounds.sh" <<'S'
v=/files/vitals_load
for n in 1 2 3; do
	$v spin $((300 * n)); $v fork $((5 * n)); $v sched $((100 * n))
	$v sleep $((3 * n)); $v kmem $((4 * n)); $v umem $((500 * n))
	$v syscall $((1000 * n)); $v sig $((5 * n)); $v sock $((10 * n))
	$v lock $((32 * n))
	[ ! -e /dev/ram0 ] || $v blio $((8 * n))
	sleep 1
done
S
cat >"$work/run.sh" <<'S'
# A bare initramfs names no host (the kernel's nodename is "(none)"), and
# stprun writes the nodename into the store: the report's header shows it.
hostname stp-demo
run() {	# what the user types, then the run
	echo
	echo "\$ $1"
	shift
	stprun "$@"
	echo "(exit status $?)"
}
run 'stp examples/counter.stp' counter.ko
run 'stp examples/timer-latency.stp -c "dd if=/dev/zero of=/dev/null bs=4k count=200000"' \
	-c "dd if=/dev/zero of=/dev/null bs=4k count=200000 2>/dev/null" timer_latency.ko
run "stp examples/top-cpu.stp -c \"sh -c 'while :; do :; done' & sleep 3; kill %1\"" \
	-c "sh -c 'while :; do :; done' & sleep 3; kill %1" top_cpu.ko
run 'stp examples/read-latency.stp -c "dd if=/dev/zero of=/dev/null bs=64k count=2000"' \
	-c "dd if=/dev/zero of=/dev/null bs=64k count=2000 2>/dev/null" read_latency.ko
run 'stp examples/files-read.stp -c "for f in /proc/version /proc/cpuinfo /proc/meminfo; do while read l; do :; done <$f; done"' \
	-c 'for f in /proc/version /proc/cpuinfo /proc/meminfo; do while read l; do :; done <$f; done' files_read.ko
run 'stp examples/topsys.stp   (while a shell loop lists directories)' \
	-c "i=0; while [ \$i -lt 2000 ]; do ls / >/dev/null; i=\$((i+1)); done" topsys.ko
run 'stp -e "global calls; probe syscall.* { calls[name]++ } probe end { ...top 6... }" -c "a shell loop listing directories"' \
	-c 'i=0; while [ $i -lt 500 ]; do ls / >/dev/null; i=$((i+1)); done' syscall_top.ko
run 'stp -e "global bytes; probe vfs.read.return { bytes[execname(), __file_filename(file)] += bytes_read } probe end { ...top 6... }" -c "dd each of /proc/cpuinfo, /proc/version, /proc/meminfo"' \
	-c 'for f in /proc/cpuinfo /proc/version /proc/meminfo; do dd if=$f of=/dev/null bs=512 2>/dev/null; done' vfs_read_files.ko
run 'stp -e "probe signal.send { printf(...execname(), pid(), sig_name, pid_name, sig_pid) }" -c "sleep 9 & kill -USR1 $!; sleep 1; kill $!"' \
	-c 'sleep 9 & kill -USR1 $!; sleep 1; kill $!' signals_sent.ko
[ ! -f /files/brd.ko ] || insmod /files/brd.ko rd_nr=1 rd_size=4096
echo
echo '$ stp vitals.stp -G chopstix_epoch_ms=500 -c "sh vitals_rounds.sh"   (the 11 vital signs, in half-second epochs, over three rounds of a workload that exercises each, heavier each round)'
stprun --vitals-db /tmp/vitals.db -G chopstix_epoch_ms=500 -c "sh /files/vitals_rounds.sh" vitals.ko >/tmp/vitals.out
echo "(exit status $?)"
# a summary for every epoch is too long to read here: how many there
# were, and the busiest (the most events, all vital signs together; cpuu
# counts idle time too) of those of their set length (when the guest is
# slow, an epoch the collector read late holds the next ones)
echo "($(grep -c '^vitals epoch' /tmp/vitals.out) epochs, each summarized as it ended; the one with the most events:)"
awk 'function done() { if (!late && n > most) { most = n; keep = b } }
	/^vitals epoch/ { done(); b = ""; n = 0; late = 0 }
	/epoch ends came before/ { late = 1 }
	{ b = b $0 "\n" }
	/^  [a-z]/ { n += $3 }
	END { done(); printf "%s", keep }' /tmp/vitals.out
echo
echo '$ stp-vitals dump /tmp/vitals.db | grep "\"vital\":\"syscall\"" | head -4   (a vital sign'"'"'s totals in the first epochs)'
stp-vitals dump /tmp/vitals.db | grep '"kind":"vital".*"vital":"syscall"' | head -4
echo
echo '$ stp-vitals dump /tmp/vitals.db | grep "\"vital\":\"cpuu\"" | grep vitals_spin | head -2   (samples: the spinner)'
stp-vitals dump /tmp/vitals.db | grep '"kind":"sample".*"vital":"cpuu"' | grep vitals_spin | head -2
# the store comes back to the host for the report (demo.sh takes these
# lines out of what it shows)
echo STORE-BEGIN; base64 /tmp/vitals.db; echo STORE-END
S
echo
echo "=== running them in a guest (QEMU, TCG) booting Debian's $KREL"
staprun/stp-qemu --kernel "$SYSROOT/boot/vmlinuz-$KREL" --smp 2 "$work/run.sh" "$work"/*.ko \
	"$work/vitals_load" "$work/vitals_rounds.sh" >"$work/guest.out" || { cat "$work/guest.out"; exit 1; }
sed '/^STORE-BEGIN$/,/^STORE-END$/d' "$work/guest.out"
mkdir -p build/demo
# The WAL that the last demo's stp-vitals left (it keeps its tables in the
# store it reads) would be replayed into this store, and corrupt it.
rm -f build/demo/vitals.db-wal build/demo/vitals.db-shm
sed -n '/^STORE-BEGIN$/,/^STORE-END$/p' "$work/guest.out" | sed '1d;$d' | base64 -d >build/demo/vitals.db

echo
echo "=== reading the vital signs the guest collected (its store, copied to build/demo/vitals.db)"
echo '$ stp-vitals rules build/demo/vitals.db   (the diagnosis rules: what they flag, and what they cannot evaluate here)'
./stp-vitals rules build/demo/vitals.db
echo "(exit status $?)"
echo
echo '$ stp-vitals report build/demo/vitals.db -o build/demo/report.html'
./stp-vitals report build/demo/vitals.db -o build/demo/report.html &&
	echo "written: open file://$PWD/build/demo/report.html in a browser, or serve the store: ./stp-vitals serve build/demo/vitals.db"

echo
echo "=== a one-liner, in its own guest: stp --remote=qemu -e '...'"
./stp "${K[@]}" --remote=qemu -e 'global n
probe timer.ms(100) { n++; if (n == 5) exit() }
probe end { printf("%d ticks of 100 ms; the last hit ran in %s (pid %d)\n", n, execname(), pid()) }' || exit 1

echo
echo "=== a one-liner on this machine's own kernel ($(uname -r)), as BPF: stp --runtime=bpf -e '...'"
echo "(stp picks --runtime=bpf itself on a kernel that loads no modules; it runs as root)"
./stp --runtime=bpf -e 'global n
probe kernel.trace("sys_enter") { n[execname()]++ }
probe timer.ms(500) { exit() }
probe end { foreach (p in n- limit 5) printf("%-16s %6d system calls\n", p, n[p]) }' || exit 1

echo
echo "=== a mistake, and how stp reports it"
printf 'probe timer.ms(100) {\n\tn++\n\tif (n > 10 exit()\n}\n' >build/demo-typo.stp
./stp -p1 build/demo-typo.stp
echo "(exit status $?)"
echo
echo "=== a type mistake"
./stp "${K[@]}" -p2 -e 'global n; probe timer.ms(100) { n++ } probe end { printf("%s\n", n) }'
echo "(exit status $?)"
exit 0
