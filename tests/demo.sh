#!/bin/bash
# make demo: what a new user sees first.  Today stp stops after pass 1
# (parse), so the demo shows each example script as stp reads it back
# and how stp reports a mistake; the guest run of the examples (passes
# 2-5) joins this demo as those passes land.
set -uo pipefail
cd "$(dirname "$0")/.."

for f in examples/*.stp; do
	echo "=== stp -p1 $f"
	./stp -p1 "$f" || exit 1
	echo
done

echo "=== a mistake, and how stp reports it"
printf 'probe timer.ms(100) {\n\tn++\n\tif (n > 10 exit()\n}\n' >build/demo-typo.stp
./stp -p1 build/demo-typo.stp
echo "(exit status $?)"
echo
echo "=== the run itself"
./stp -e 'probe timer.ms(100) { n++ } probe end { printf("%d\n", n) }'
true
