#!/bin/bash
# No test may name a kernel release: Debian moves 6.1.0-N and 6.12.M
# forward between runs, so an expected output that names one fails on
# the next machine.  Expected outputs get the release from the kernel
# make deps prepared (@KREL@ in a conformance header, filled in by
# tests/conformance/run-elab.sh; tests/kernel.sh release elsewhere).
#
# Scanned: every file under tests/, but the benchmarks' results (a
# record of where they ran) and the C harnesses of unit, fuzz and corpus
# tests (their sessions name a made-up 6.1.0-0 release as input).
# Prints each hit as "FAIL names a kernel release: file:line: text", then
# "1 passed, 0 failed" or "0 passed, 1 failed": one check.
cd "$(dirname "$0")/.." || exit 1
pattern='6\.1\.0-[0-9]+-amd64|6\.12\.[0-9]+\+deb12|6\.12\.[0-9]+-amd64'
for line in 6.1 6.12; do
	r=$(tests/kernel.sh --line "$line" release 2>/dev/null) && pattern+="|${r//./\\.}"
done
hits=$(grep -rnE "$pattern" tests/ \
	--exclude='results*.txt' --exclude='bench-results.txt' \
	--exclude-dir=unit --exclude-dir=fuzz --exclude-dir=corpus | grep -v '^tests/no_release.sh:')
if [ -n "$hits" ]; then
	printf '%s\n' "$hits" | sed 's/^/FAIL names a kernel release: /'
	echo "0 passed, 1 failed"
else
	echo "1 passed, 0 failed"
fi
