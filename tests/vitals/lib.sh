# The checks tests/vitals/run.sh and rules.sh share (sourced): each runs
# "$vitals ARGS" with its output in $work, and counts in pass and fail
# (names prefixed with $tag).

ok() { echo "ok $tag$1"; pass=$((pass + 1)); }
bad() { echo "FAIL $tag$1"; fail=$((fail + 1)); }

# same NAME EXPECTED-FILE -- ARGS...: "stp-vitals ARGS" exits 0 with
# nothing on stderr and prints EXPECTED-FILE exactly
same() {
	local name=$1 expect=$2 rc
	shift 3
	"$vitals" "$@" >"$work/out" 2>"$work/err"
	rc=$?
	if [ "$rc" != 0 ]; then
		bad "$name: exit $rc"; sed 's/^/    /' "$work/err"
	elif [ -s "$work/err" ]; then
		bad "$name: stderr"; sed 's/^/    /' "$work/err"
	elif ! diff -u "$expect" "$work/out" >"$work/diff"; then
		bad "$name: output differs"; sed 's/^/    /' "$work/diff" | head -20
	else
		ok "$name"
	fi
}

# status NAME STATUS 'STDERR' -- ARGS...: exit STATUS, stderr exactly
# STDERR (lines joined by \n), nothing on stdout
status() {
	local name=$1 code=$2 msg=$3 rc
	shift 4
	"$vitals" "$@" >"$work/out" 2>"$work/err"
	rc=$?
	if [ "$rc" != "$code" ]; then
		bad "$name: exit $rc, want $code"; sed 's/^/    /' "$work/err"
	elif [ "$(cat "$work/err")" != "$(printf '%b' "$msg")" ]; then
		bad "$name: stderr is not:"; printf '%b\n' "$msg" | sed 's/^/    want: /'
		sed 's/^/    have: /' "$work/err"
	elif [ -s "$work/out" ]; then
		bad "$name: stdout not empty"
	else
		ok "$name"
	fi
}
