#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Replay every input the fuzzer ever found through the real driver:
#
#   tests/fuzz/regress.sh [STP]        default ./stp
#
# Each file in tests/fuzz/regress/ runs as "STP -g -p1 FILE 5 hello"
# with a 10 s limit; it must exit 0 or 1: no signal, no sanitizer
# abort, no timeout.  Prints "FAIL name (why)" lines and a last line
# "N passed, N failed"; the exit status is 1 when anything failed.
set -u

cd "$(dirname "$0")/../.." || exit 2
STP=${1:-./stp}
DIR=tests/fuzz/regress
passed=0
failed=0

if [ ! -x "$STP" ] && ! command -v "$STP" >/dev/null 2>&1; then
	echo "regress: no executable '$STP' (run make first)" >&2
	exit 2
fi
for f in "$DIR"/*; do
	[ -f "$f" ] || continue
	case ${f##*/} in README* | *.md) continue ;; esac
	ASAN_OPTIONS=exitcode=99 UBSAN_OPTIONS=halt_on_error=1:exitcode=99 \
		timeout -k 5 10 "$STP" -g -p1 "$f" 5 hello >/dev/null 2>&1 </dev/null
	rc=$?
	case $rc in
	0 | 1)
		passed=$((passed + 1))
		continue ;;
	124 | 137) why="timeout" ;;
	*)
		if [ "$rc" -gt 128 ]; then
			why="signal $((rc - 128))"
		else
			why="exit status $rc"
		fi ;;
	esac
	echo "FAIL ${f##*/} ($why)"
	failed=$((failed + 1))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
