#!/usr/bin/env bash
# Pass-2 (elaboration) conformance runner.
#
# usage: tests/conformance/run-elab.sh [-v] [-j N] [STP]   (run from the repo root)
#
#   STP   the stp binary to test (default ./stp)
#   -v    also print a line for every test that passes
#   -j N  run N tests at a time (default: the number of CPUs)
#
# Every run is  STP --sysroot=SYSROOT -r KREL -I elab/tapset OPTIONS -p2 FILE ARGS
# with SYSROOT and KREL from tests/kernel.sh (Debian's 6.1 kernel and its
# System.map).  When OPTIONS hold -l or -L, FILE is left out: the test is
# only its header, and lists probe points.
#
# tests/conformance/elab/ok/*.stp must elaborate: exit 0, and
#   - stderr holds exactly the warnings the header announces, no others;
#   - stdout holds each "stdout-contains" text, none of the "stdout-lacks"
#     texts, is exactly the "stdout" lines if there are any, and has as many
#     derived probes ("/* <- " lines) as "probes" says.
# tests/conformance/elab/ko/*.stp must not: exit 1, the first line of stderr
#   is exactly the "expect" diagnostic (the whole line), the next two are
#   its source line and a caret under its column (see caret_ok in
#   common.sh), and each "note" line appears in stderr as a whole line.
#
# Header lines (the run of '#' lines at the very top of a test):
#   # args: A B C                 script arguments, after the file name
#   # options: -u -W              stp options, before -p2 and the file name
#   # expect: L:C: semantic error: MESSAGE        (ko) the first diagnostic
#   # note: L:C: note: MESSAGE                    (ko) a note line, any order
#   # warning: L:C: MESSAGE                       (ok) "F:L:C: warning: MESSAGE"
#   # stdout-contains: TEXT       (ok) TEXT occurs in stdout
#   # stdout-lacks: TEXT          (ok) TEXT does not occur in stdout
#   # stdout-order: TEXT          (ok) these texts occur in stdout in this
#                                 order, each on a later line than the last
#   # stdout: LINE                (ok) stdout is exactly these lines
#   # stdout-empty                (ok) stdout is empty
#   # probes: N                   (ok) N derived probes in stdout
#   # expect-p2: LINE             (ok) stdout without its embedded-C blocks
#                                 ("%{" line through "%}" line) is exactly
#                                 these lines, in order: the globals,
#                                 functions kept, derived probes with their
#                                 locals and handlers (a line's leading
#                                 blanks count; "# expect-p2:" alone is an
#                                 empty line)
# In every header, @KREL@ is the target kernel's release (tests/kernel.sh
# release): no test names one release, which Debian moves forward.
# In expect, note and warning values, a leading "L:C:" is in the test file
# itself (its path is put in front, as stp prints it); a leading
# "tapset/NAME.stp:L:C:" is in the test tapset directory.
#
# Prints "FAIL name: reason" per failure and finally "N passed, N failed".
# Exits 0 whatever the results; 2 if the runner itself is misused.

set -u

verbose=0
jobs=$(nproc 2>/dev/null || echo 2)
usage() { echo "usage: $0 [-v] [-j N] [STP]" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case "$1" in
	-v) verbose=1; shift ;;
	-j) [ $# -ge 2 ] || usage; jobs=$2; shift 2 ;;
	-j*) jobs=${1#-j}; shift ;;
	-h|--help) usage ;;
	--) shift; break ;;
	-*) usage ;;
	*) break ;;
	esac
done
[ $# -le 1 ] || usage
case "$jobs" in ''|*[!0-9]*|0) usage ;; esac
stp=${1:-./stp}

if ! command -v "$stp" >/dev/null 2>&1 && [ ! -x "$stp" ]; then
	echo "$0: $stp: not an executable" >&2
	exit 2
fi

here=$(dirname "$0")
dir=$here/elab
if [ ! -d "$dir/ok" ] || [ ! -d "$dir/ko" ] || [ ! -d "$dir/tapset" ]; then
	echo "$0: $dir/ok, $dir/ko or $dir/tapset missing" >&2
	exit 2
fi
if ! sysroot=$("$here/../kernel.sh") || ! krel=$("$here/../kernel.sh" release); then
	echo "$0: tests/kernel.sh failed: no target kernel to elaborate against" >&2
	exit 2
fi
common=(--sysroot="$sysroot" -r "$krel" -I "$dir/tapset")

tmp=$(mktemp -d "${TMPDIR:-/tmp}/run-elab.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

# Each stp run gets a CPU-time limit (a loop is killed by SIGXCPU) and
# /dev/null as stdin (one waiting for input sees end of file).  Each test
# runs in its own background subshell, which sets the limit for itself
# (see one()): no extra process per run.
cpu_limit=${RUN_ELAB_CPU_LIMIT:-20}
run() { "$@" < /dev/null; }

# headers FILE: the header values of FILE
headers() {
	local line
	h_args='' h_options='' h_expect='' h_has_expect=0 h_probes=''
	h_notes=() h_warnings=() h_contains=() h_lacks=() h_order=() h_stdout=()
	h_has_stdout=0 h_bad='' h_p2=() h_has_p2=0
	while IFS= read -r line || [ -n "$line" ]; do
		line=${line%$'\r'}
		# the target's release, which Debian moves forward under us
		line=${line//@KREL@/$krel}
		case "$line" in
		'# args: '*) h_args=${line#'# args: '} ;;
		'# options: '*) h_options=${line#'# options: '} ;;
		'# expect: '*) h_expect=${line#'# expect: '}; h_has_expect=1 ;;
		'# note: '*) h_notes+=("${line#'# note: '}") ;;
		'# warning: '*) h_warnings+=("${line#'# warning: '}") ;;
		'# stdout-contains: '*) h_contains+=("${line#'# stdout-contains: '}") ;;
		'# stdout-lacks: '*) h_lacks+=("${line#'# stdout-lacks: '}") ;;
		'# stdout-order: '*) h_order+=("${line#'# stdout-order: '}") ;;
		'# stdout-empty') h_has_stdout=1 ;;
		'# stdout: '*) h_stdout+=("${line#'# stdout: '}"); h_has_stdout=1 ;;
		'# stdout:') h_stdout+=(""); h_has_stdout=1 ;;
		'# probes: '*) h_probes=${line#'# probes: '} ;;
		'# expect-p2: '*) h_p2+=("${line#'# expect-p2: '}"); h_has_p2=1 ;;
		'# expect-p2:') h_p2+=(""); h_has_p2=1 ;;
		'# '*:*)
			# a misspelt header would silently test nothing
			local key=${line#'# '}
			key=${key%%:*}
			case "$key" in
			arg|option|expects|notes|warnings|stdout*|probe|note-*|warning-*)
				h_bad="unknown header '# $key:'" ;;
			esac ;;
		'#'*) ;;
		*) break ;;
		esac
	done < "$1"
}

# where F VALUE: VALUE with its location made into a path as stp prints it
where() {
	case "$2" in
	[0-9]*) w="$1:$2" ;;
	tapset/*) w="$dir/$2" ;;
	*) w="$2" ;;
	esac
}

# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

# Results go to $out (one file per test), printed in order at the end.
pass() { echo "PASS $1" > "$out"; }
fail() {
	{
		echo "FAIL $1: $2"
		shift 2
		local l
		for l in "$@"; do echo "    $l"; done
	} > "$out"
}

# The checks below use bash builtins only: a test costs the stp run and
# little else, so the corpus stays fast even on a loaded machine.

# slurp SO SE: the output of a run in the arrays so[] and se[], se0 the
# first line of stderr or "(empty)"
slurp() {
	mapfile -t so < "$1"
	mapfile -t se < "$2"
	se0=${se[0]-"(empty)"}
	[ ${#se[@]} -gt 0 ] || se0="(empty)"
}

# se_has LINE: does stderr hold exactly LINE?
se_has() {
	local l
	for l in ${se[@]+"${se[@]}"}; do [ "$l" = "$1" ] && return 0; done
	return 1
}

# se_count TEXT: n is the number of stderr lines holding TEXT, l1 the first
se_count() {
	local l
	n=0 l1=''
	for l in ${se[@]+"${se[@]}"}; do
		case "$l" in *"$1"*) n=$((n + 1)); [ -n "$l1" ] || l1=$l ;; esac
	done
}

# without_c: p2[] is stdout without its embedded-C blocks (a line
# starting "%{" through the line ending "%}"): what was resolved, not the
# C generated for it
without_c() {
	local l c=0
	p2=()
	for l in ${so[@]+"${so[@]}"}; do
		if [ $c -eq 1 ]; then
			[[ $l == *'%}' ]] && c=0
			continue
		fi
		if [[ $l == '%{'* ]]; then
			[[ $l == *'%}' ]] || c=1
			continue
		fi
		p2+=("$l")
	done
}

has_caret() {
	local l
	for l in ${se[@]+"${se[@]}"}; do
		l=${l#"${l%%[! ]*}"}
		case "$l" in '^'*) return 0 ;; esac
	done
	return 1
}


check_ok() {
	local f=$1 name=$2 rc l k i lists=0 want all
	local -a args opts cmd
	words args "$h_args"
	words opts "$h_options"
	for l in ${opts[@]+"${opts[@]}"}; do
		case "$l" in -l|-L) lists=1 ;; esac
	done
	cmd=("$stp" "${common[@]}" ${opts[@]+"${opts[@]}"})
	[ $lists -eq 1 ] || cmd+=(-p2 "$f" ${args[@]+"${args[@]}"})
	run "${cmd[@]}" > "$3" 2> "$4"
	rc=$?
	slurp "$3" "$4"
	if [ $rc -ne 0 ]; then
		fail "$name" "expected exit 0, got $(status $rc)" "stderr: $se0"
		return
	fi
	for l in ${h_warnings[@]+"${h_warnings[@]}"}; do
		where "$f" "$l"
		want=${w/: /: warning: }
		if [ "${l#*: }" = "$l" ] || ! se_has "$want"; then
			fail "$name" "missing warning" "expected: $want" "stderr:   $se0"
			return
		fi
	done
	se_count ': warning: '
	if [ "$n" -ne ${#h_warnings[@]} ]; then
		fail "$name" "$n warning(s) where the header announces ${#h_warnings[@]}" \
			"stderr: ${l1:-(no warning)}"
		return
	fi
	printf -v all '%s\n' ${so[@]+"${so[@]}"}
	for l in ${h_contains[@]+"${h_contains[@]}"}; do
		if [[ $all != *"$l"* ]]; then
			fail "$name" "stdout lacks '$l'"
			return
		fi
	done
	for l in ${h_lacks[@]+"${h_lacks[@]}"}; do
		if [[ $all == *"$l"* ]]; then
			fail "$name" "stdout has '$l'"
			return
		fi
	done
	i=0
	for l in ${h_order[@]+"${h_order[@]}"}; do
		# the first line holding l after the line that held the last one
		while [ $i -lt ${#so[@]} ] && [[ ${so[i]} != *"$l"* ]]; do i=$((i + 1)); done
		if [ $i -ge ${#so[@]} ]; then
			fail "$name" "stdout lacks '$l' after the texts before it (stdout-order)"
			return
		fi
		i=$((i + 1))
	done
	if [ $h_has_stdout -eq 1 ]; then
		k=${#h_stdout[@]}
		[ ${#so[@]} -gt "$k" ] && k=${#so[@]}
		for ((i = 0; i < k; i++)); do
			if [ "${h_stdout[i]-(end of output)}" != "${so[i]-(end of output)}" ] ||
			   [ $i -ge ${#h_stdout[@]} ] || [ $i -ge ${#so[@]} ]; then
				fail "$name" "stdout differs from the '# stdout:' lines, first at line $((i + 1))" \
					"expected: ${h_stdout[i]-(end of output)}" \
					"actual:   ${so[i]-(end of output)}"
				return
			fi
		done
	fi
	if [ $h_has_p2 -eq 1 ]; then
		without_c
		k=${#h_p2[@]}
		[ ${#p2[@]} -gt "$k" ] && k=${#p2[@]}
		for ((i = 0; i < k; i++)); do
			if [ "${h_p2[i]-(end of output)}" != "${p2[i]-(end of output)}" ] ||
			   [ $i -ge ${#h_p2[@]} ] || [ $i -ge ${#p2[@]} ]; then
				fail "$name" "-p2 output differs from the '# expect-p2:' lines, first at line $((i + 1)) (embedded C left out)" \
					"expected: ${h_p2[i]-(end of output)}" \
					"actual:   ${p2[i]-(end of output)}"
				return
			fi
		done
	fi
	if [ -n "$h_probes" ]; then
		n=0
		for l in ${so[@]+"${so[@]}"}; do
			case "$l" in *'/* <- '*) n=$((n + 1)) ;; esac
		done
		if [ "$n" != "$h_probes" ]; then
			fail "$name" "expected $h_probes derived probe(s), got $n"
			return
		fi
	fi
	pass "$name"
}

check_ko() {
	local f=$1 name=$2 rc l want
	local -a args opts
	words args "$h_args"
	words opts "$h_options"
	if [ $h_has_expect -eq 0 ]; then
		fail "$name" "no '# expect:' header"
		return
	fi
	where "$f" "$h_expect"
	want=$w
	run "$stp" "${common[@]}" ${opts[@]+"${opts[@]}"} -p2 "$f" ${args[@]+"${args[@]}"} \
		> "$3" 2> "$4"
	rc=$?
	slurp "$3" "$4"
	if [ $rc -ne 1 ]; then
		fail "$name" "expected exit 1, got $(status $rc)" "expected: $want" "actual:   $se0"
		return
	fi
	if [ "$se0" != "$want" ]; then
		fail "$name" "wrong diagnostic" "expected: $want" "actual:   $se0"
		return
	fi
	if ! has_caret; then
		fail "$name" "no caret line in stderr"
		return
	fi
	if loc_of "$want" &&
	   ! caret_ok "$d_file" "$d_line" "$d_col" "${se[1]-}" "${se[2]-}"; then
		fail "$name" "$c_why" "expected: $c_want" "actual:   ${se[1]-}" \
			"          ${se[2]-}"
		return
	fi
	for l in ${h_notes[@]+"${h_notes[@]}"}; do
		where "$f" "$l"
		if ! se_has "$w"; then
			se_count ': note: '
			fail "$name" "missing note" "expected: $w" "first note: ${l1:-(none)}"
			return
		fi
	done
	pass "$name"
}

# one KIND FILE INDEX: run one test, its result in $tmp/res/INDEX
one() {
	local kind=$1 f=$2 name
	ulimit -S -t "$cpu_limit" 2>/dev/null
	out=$tmp/res/$3
	name=${f##*/}; name=$kind/${name%.stp}
	headers "$f"
	if [ -n "$h_bad" ]; then
		fail "$name" "$h_bad"
		return
	fi
	if [ "$kind" = ok ]; then
		[ $h_has_expect -eq 0 ] || { fail "$name" "'# expect:' in an ok test"; return; }
		check_ok "$f" "$name" "$tmp/out.$3" "$tmp/err.$3"
	else
		check_ko "$f" "$name" "$tmp/out.$3" "$tmp/err.$3"
	fi
}

mkdir "$tmp/res"
i=0
running=0
for kind in ok ko; do
	for f in "$dir/$kind"/*.stp; do
		[ -e "$f" ] || continue
		i=$((i + 1))
		printf -v idx '%05d' $i
		one "$kind" "$f" "$idx" &
		running=$((running + 1))
		if [ $running -ge "$jobs" ]; then
			wait -n
			running=$((running - 1))
		fi
	done
done
wait

passed=0
failed=0
for r in "$tmp"/res/*; do
	[ -e "$r" ] || continue
	if IFS= read -r l < "$r" && [ "${l#PASS }" != "$l" ]; then
		passed=$((passed + 1))
		[ $verbose -eq 1 ] && cat "$r"
	else
		failed=$((failed + 1))
		cat "$r"
	fi
done
[ $((passed + failed)) -eq $i ] || {
	echo "FAIL runner: $i tests started, $((passed + failed)) results"
	failed=$((failed + i - passed - failed))
}

echo "$passed passed, $failed failed"
exit 0
