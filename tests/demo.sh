#!/bin/bash
# make demo: what a new user sees first.  Today stp stops after pass 2
# (elaboration), so the demo shows each example script as stp resolves it
# against Debian's 6.1 kernel, and how stp reports mistakes; the guest run
# of the examples (passes 3-5) joins this demo as those passes land.
set -uo pipefail
cd "$(dirname "$0")/.."

K="--sysroot=$(tests/kernel.sh) -r $(tests/kernel.sh release)"
cat >build/demo-reads.stp <<'S'
# How big are the reads?  (Uses no tapset function: those come with pass 5.)
global sizes, calls
probe kprobe.function("ksys_read"), kprobe.function("vfs_read*") {
	calls["read"] <<< 1
	sizes <<< 4096
}
probe timer.s(5) {
	foreach (f in calls @count- limit 3)
		printf("%-20s %d\n", f, @count(calls[f]))
	print(@hist_log(sizes))
}
S
echo "=== stp -p2 build/demo-reads.stp"
./stp $K -p2 build/demo-reads.stp || exit 1
echo
for f in examples/*.stp; do
	echo "=== stp -p1 $f"
	./stp -p1 "$f" || exit 1
	echo
done
echo "=== stp -l 'kprobe.function(\"vfs_read*\")'"
./stp $K -l 'kprobe.function("vfs_read*")'
echo

echo "=== a mistake, and how stp reports it"
printf 'probe timer.ms(100) {\n\tn++\n\tif (n > 10 exit()\n}\n' >build/demo-typo.stp
./stp -p1 build/demo-typo.stp
echo "(exit status $?)"
echo
echo "=== a type mistake"
./stp $K -p2 -e 'global n; probe timer.ms(100) { n++ } probe end { printf("%s\n", n) }'
echo "(exit status $?)"
echo
echo "=== the run itself"
./stp $K -e 'global n; probe timer.ms(100) { n++ } probe end { printf("%d\n", n) }'
true
