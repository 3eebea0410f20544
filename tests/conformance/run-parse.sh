#!/usr/bin/env bash
# Pass-1 (parse) conformance runner.
#
# usage: tests/conformance/run-parse.sh [-v] [STP]      (run from the repo root)
#
#   STP   the stp binary to test (default ./stp)
#   -v    also print a line for every test that passes
#
# tests/conformance/parse/ok/*.stp must parse:  STP OPTIONS -p1 FILE ARGS exits 0,
#   and its output, saved to a temporary .stp file, parses again
#   (STP OPTIONS -p1 TMP, no ARGS: they were substituted in the first print)
#   to exactly the same output.
# tests/conformance/parse/ko/*.stp must not:    STP OPTIONS -p1 FILE ARGS exits 1,
#   the first line of stderr is exactly FILE:EXPECT (the whole line), the
#   second is line L of FILE as stp shows it (tabs expanded; a line over
#   120 bytes cut around C, "..." on the cut side), and the third has the
#   caret "^" under column C, then only "~" (see caret_ok in common.sh).
#
# Header lines (the run of '#' lines at the very top of a test) may give
#   # args: A B C      script arguments, put after the file name
#   # options: -g      stp options, put before the file name
#   # expect: L:C: parse error: MESSAGE     (ko only) the first diagnostic,
#                  the whole line after "FILE:"; L and C count the header
#                  lines and bytes (a tab is one column)
#
# Prints "FAIL name: reason" per failure and finally "N passed, N failed".
# Exits 0 whatever the results; 2 if the runner itself is misused.

set -u

verbose=0
usage() { echo "usage: $0 [-v] [STP]" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case "$1" in
	-v) verbose=1; shift ;;
	-h|--help) usage ;;
	--) shift; break ;;
	-*) usage ;;
	*) break ;;
	esac
done
[ $# -le 1 ] || usage
stp=${1:-./stp}

if ! command -v "$stp" >/dev/null 2>&1 && [ ! -x "$stp" ]; then
	echo "$0: $stp: not an executable" >&2
	exit 2
fi

# Test files, relative to wherever the runner was invoked from.
dir=$(dirname "$0")/parse
if [ ! -d "$dir/ok" ] || [ ! -d "$dir/ko" ]; then
	echo "$0: $dir/ok or $dir/ko missing" >&2
	exit 2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/run-parse.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

# Each stp run gets a CPU-time limit (a parser stuck in a loop is killed by
# SIGXCPU) and /dev/null as stdin (one waiting for input sees end of file);
# cheaper than timeout(1), which costs an extra process per run.
cpu_limit=${RUN_PARSE_CPU_LIMIT:-20}
run() { ( ulimit -S -t "$cpu_limit" 2>/dev/null; exec "$@" ) < /dev/null; }

passed=0
failed=0

# headers FILE: set h_args, h_options, h_expect (and h_has_expect) from the
# run of '#' lines at the top of FILE
headers() {
	local line
	h_args='' h_options='' h_expect='' h_has_expect=0
	while IFS= read -r line || [ -n "$line" ]; do
		line=${line%$'\r'}
		case "$line" in
		'# args: '*) h_args=${line#'# args: '} ;;
		'# options: '*) h_options=${line#'# options: '} ;;
		'# expect: '*) h_expect=${line#'# expect: '}; h_has_expect=1 ;;
		'#'*) ;;
		*) break ;;
		esac
	done < "$1"
}

# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

pass() {
	passed=$((passed + 1))
	[ $verbose -eq 1 ] && echo "PASS $1"
	return 0
}

fail() {
	failed=$((failed + 1))
	echo "FAIL $1: $2"
	shift 2
	local l
	for l in "$@"; do echo "    $l"; done
	return 0
}

# first FILE: set l_first to the first line of FILE, or "(empty)"
first() {
	l_first="(empty)"
	IFS= read -r l_first < "$1" || [ -n "$l_first" ] || l_first="(empty)"
}

# has_caret FILE: does FILE hold a line matching '^ *\^'?
has_caret() {
	local l
	while IFS= read -r l || [ -n "$l" ]; do
		l=${l#"${l%%[! ]*}"}
		case "$l" in '^'*) return 0 ;; esac
	done < "$1"
	return 1
}

# firstdiff A B: set d_line, d_a, d_b to the first line where A and B differ
firstdiff() {
	local a b ea eb
	d_line=0
	exec 3< "$1" 4< "$2"
	while :; do
		d_line=$((d_line + 1))
		IFS= read -r a <&3 || [ -n "$a" ]; ea=$?
		IFS= read -r b <&4 || [ -n "$b" ]; eb=$?
		[ $ea -ne 0 ] && a="(end of output)"
		[ $eb -ne 0 ] && b="(end of output)"
		if [ "$a" != "$b" ] || [ $ea -ne 0 ] || [ $eb -ne 0 ]; then break; fi
	done
	exec 3<&- 4<&-
	d_a=$a d_b=$b
	if [ $ea -ne 0 ] && [ $eb -ne 0 ]; then
		d_a="(same lines; only the final newline differs)" d_b=$d_a
	fi
}

# words of a header value, split on blanks, never globbed
args=() opts=()

for f in "$dir"/ok/*.stp; do
	[ -e "$f" ] || continue
	name=${f##*/}; name=ok/${name%.stp}
	headers "$f"
	words args "$h_args"
	words opts "$h_options"
	run "$stp" ${opts[@]+"${opts[@]}"} -p1 "$f" ${args[@]+"${args[@]}"} > "$tmp/reparse.stp" 2> "$tmp/err1"
	rc=$?
	if [ $rc -ne 0 ]; then
		first "$tmp/err1"
		fail "$name" "expected exit 0, got $(status $rc)" "stderr: $l_first"
		continue
	fi
	run "$stp" ${opts[@]+"${opts[@]}"} -p1 "$tmp/reparse.stp" > "$tmp/out2" 2> "$tmp/err2"
	rc=$?
	if [ $rc -ne 0 ]; then
		first "$tmp/err2"
		fail "$name" "printed program does not reparse ($(status $rc))" \
			"stderr: $l_first"
		continue
	fi
	if ! cmp -s "$tmp/reparse.stp" "$tmp/out2"; then
		firstdiff "$tmp/reparse.stp" "$tmp/out2"
		fail "$name" "round trip changed the printed program, first at line $d_line" \
			"expected: $d_a" "actual:   $d_b"
		continue
	fi
	pass "$name"
done

for f in "$dir"/ko/*.stp; do
	[ -e "$f" ] || continue
	name=${f##*/}; name=ko/${name%.stp}
	headers "$f"
	words args "$h_args"
	words opts "$h_options"
	if [ $h_has_expect -eq 0 ]; then
		fail "$name" "no '# expect:' header"
		continue
	fi
	want="$f:$h_expect"
	run "$stp" ${opts[@]+"${opts[@]}"} -p1 "$f" ${args[@]+"${args[@]}"} > "$tmp/out1" 2> "$tmp/err1"
	rc=$?
	first "$tmp/err1"
	got=$l_first
	if [ $rc -ne 1 ]; then
		fail "$name" "expected exit 1, got $(status $rc)" "expected: $want" "actual:   $got"
		continue
	fi
	if [ "$got" != "$want" ]; then
		fail "$name" "wrong diagnostic" "expected: $want" "actual:   $got"
		continue
	fi
	if ! has_caret "$tmp/err1"; then
		fail "$name" "no caret line in stderr"
		continue
	fi
	mapfile -t -n 3 se < "$tmp/err1"
	words lc "${h_expect//:/ }"
	if ! caret_ok "$f" "${lc[0]}" "${lc[1]}" "${se[1]-}" "${se[2]-}"; then
		fail "$name" "$c_why" "expected: $c_want" "actual:   ${se[1]-}" \
			"          ${se[2]-}"
		continue
	fi
	pass "$name"
done

echo "$passed passed, $failed failed"
exit 0
