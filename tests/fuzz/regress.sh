#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Replay every input the fuzzer ever found through the real driver,
# built with AddressSanitizer and UBSan (make build/asan/stp):
#
#   tests/fuzz/regress.sh [STP]        default build/asan/stp
#
# Each tests/fuzz/regress/NAME.stp runs as "STP -g -p1 NAME.stp 5 hello"
# with a 10 s limit, and must give exactly what NAME.expect says:
#
#   # why: what the fuzzer found, and what must hold now
#   # exit: 1               the exit status
#   # errors: 2             (uncapped-errors-*) "error:" lines printed
#   ---
#   the exact output, stdout then stderr, every line
#
# On top of the exact output, each file checks the property it was
# filed for, named by its prefix:
#   any           no sanitizer report (shown in full when there is one),
#                 no signal, no timeout
#   roundtrip-*   when it parses, printing is a fixed point: stp -p1 of
#                 the printed script prints the same script
#   uncapped-errors-*
#                 exactly "errors:" error lines, never more than the
#                 driver's cap of 20, and the "Pass 1: parse failed: N
#                 errors." line agrees with what was printed
#   dos-*, hang-*, timeout-*
#                 done within the limit (the expansion limits hold)
# A script that parses (exit 0) is round-tripped whatever its name.
#
# A new finding from tests/fuzz/run.sh fails here until someone writes
# its .expect (after fixing the bug).  Leak checking is off: stp's
# arena never frees, by design (STYLE.md).
#
# Prints "FAIL name: why" lines (then the diff or the sanitizer's
# report, each line prefixed the same way) and a last line
# "N passed, N failed"; the exit status is 1 when anything failed.
set -u

cd "$(dirname "$0")/../.." || exit 2
STP=${1:-build/asan/stp}
DIR=tests/fuzz/regress
LIMIT=10
CAP=20		# parser/diag.c: max_errors
TMP=$(mktemp -d) || exit 2
trap 'rm -rf "$TMP"' EXIT
passed=0
failed=0

if [ ! -x "$STP" ] && ! command -v "$STP" >/dev/null 2>&1; then
	echo "regress: no executable '$STP' (run make build/asan/stp)" >&2
	exit 2
fi

export ASAN_OPTIONS=detect_leaks=0:exitcode=99:abort_on_error=0
export UBSAN_OPTIONS=halt_on_error=1:exitcode=99:print_stacktrace=1

# run FILE OUT: stp's output (stdout, then stderr) in OUT; the status.
run() {
	timeout -k 5 "$LIMIT" "$STP" -g -p1 "$1" 5 hello \
		>"$2.stdout" 2>"$2.stderr" </dev/null
	local rc=$?
	cat "$2.stdout" "$2.stderr" >"$2"
	return $rc
}

# field NAME EXPECT: the value of "# NAME: value" in the header.
field() {
	sed -n '/^---$/q; s/^# '"$1"': *//p' "$2" | head -1
}

# fail NAME WHY [FILE]: one failure, with FILE's lines shown.
fail() {
	echo "FAIL $1: $2"
	[ $# -lt 3 ] || sed "s|^|FAIL $1: |" "$3" | head -60
	failed=$((failed + 1))
}

# A crash, timeout or sanitizer report: WHY, or nothing.
abnormal() {	# abnormal STATUS
	case $1 in
	99) echo "sanitizer report" ;;
	124 | 137) echo "timeout (${LIMIT}s)" ;;
	*) [ "$1" -gt 128 ] && echo "signal $(($1 - 128))" ;;
	esac
}

# The printed script, parsed and printed again, is the same text.
roundtrip_ok() {	# roundtrip_ok NAME OUT
	cp "$2.stdout" "$TMP/again.stp"
	run "$TMP/again.stp" "$TMP/again"
	local rc=$?
	if [ $rc -ne 0 ]; then
		fail "$1" "round trip: the printed script gives exit $rc" "$TMP/again"
		return 1
	fi
	if ! cmp -s "$2.stdout" "$TMP/again.stdout"; then
		diff -u "$2.stdout" "$TMP/again.stdout" >"$TMP/diff"
		fail "$1" "round trip: printing the printed script differs" "$TMP/diff"
		return 1
	fi
}

# Error lines printed, the cap, and the summary line agree.
errors_ok() {	# errors_ok NAME OUT EXPECT
	local want n said
	want=$(field errors "$3")
	n=$(grep -cE '^[^ ]+:[0-9]+:[0-9]+: (parse |semantic )?error: ' "$2")
	said=$(sed -n 's/^Pass 1: parse failed: \([0-9]*\) errors\{0,1\}\.$/\1/p' "$2")
	if [ -z "$want" ]; then
		fail "$1" "no '# errors: N' line in ${3##*/}"
	elif [ "$n" -ne "$want" ] || [ "$n" -gt "$CAP" ]; then
		fail "$1" "$n error lines printed, want $want (cap $CAP)" "$2"
	elif [ "$said" != "$n" ]; then
		fail "$1" "$n error lines printed, the summary says '${said:-nothing}'" "$2"
	else
		return 0
	fi
	return 1
}

check() {	# check FILE
	local f=$1 name=${1##*/} exp=${1%.stp}.expect out=$TMP/out rc why want
	if [ ! -f "$exp" ]; then
		fail "$name" "no ${exp##*/}: write what it must give"
		return
	fi
	run "$f" "$out"
	rc=$?
	why=$(abnormal $rc)
	if [ -n "$why" ]; then
		fail "$name" "$why" "$out"
		return
	fi
	want=$(field exit "$exp")
	if [ "$rc" != "$want" ]; then
		fail "$name" "exit status $rc, want ${want:-(no '# exit:' line)}" "$out"
		return
	fi
	sed '1,/^---$/d' "$exp" >"$TMP/want"
	if ! cmp -s "$TMP/want" "$out"; then
		diff -u --label expected --label actual "$TMP/want" "$out" >"$TMP/diff"
		fail "$name" "output differs" "$TMP/diff"
		return
	fi
	case $name in
	uncapped-errors-*) errors_ok "$name" "$out" "$exp" || return ;;
	esac
	if [ "$rc" -eq 0 ]; then
		roundtrip_ok "$name" "$out" || return
	fi
	passed=$((passed + 1))
}

for f in "$DIR"/*.stp; do
	[ -f "$f" ] && check "$f"
done
for e in "$DIR"/*.expect; do
	[ -f "${e%.expect}.stp" ] || fail "${e##*/}" "no ${e%.expect}.stp beside it"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
