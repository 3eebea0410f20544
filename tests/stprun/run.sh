#!/bin/bash
# stprun's command line on the host, where no module can be loaded:
# usage errors, bad option values, a missing module file, and a load the
# kernel refuses (not root, or a file that is no module) all end with a
# message on stderr, exit status 1, and no module left behind.  A -c
# command is checked before the module is loaded, and -v tells how it
# will run (split into words, or through sh -c).  The
# guest tests (tests/guest/transport/run.sh) cover real runs.
# Each case names whole lines of output (see check below), not substrings.
#
#   tests/stprun/run.sh [STPRUN]      last line: "N passed, N failed"
set -uo pipefail
cd "$(dirname "$0")/../.."
stprun=${1:-./stprun}
[ -x "$stprun" ] || make -s stprun >/dev/null
pass=0
fail=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# check NAME WANT-STATUS LINE... -- ARGS...
#   runs "stprun ARGS", which must exit WANT-STATUS; each LINE is an
#   extended regular expression that must match a whole line of its
#   stderr or stdout (grep -xE: anchored at both ends, not a substring).
check() {
	local name=$1 want=$2 rc l
	local -a lines=()
	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do lines+=("$1"); shift; done
	shift
	"$stprun" "$@" >"$work/out" 2>"$work/err" </dev/null
	rc=$?
	if [ "$rc" != "$want" ]; then
		echo "FAIL $name: exit $rc, want $want"; sed 's/^/  /' "$work/err"
		fail=$((fail + 1))
		return
	fi
	for l in "${lines[@]}"; do
		if ! grep -qxE -- "$l" "$work/err" "$work/out"; then
			echo "FAIL $name: no line matching /^$l\$/ in:"
			sed 's/^/  /' "$work/err" "$work/out"
			fail=$((fail + 1))
			return
		fi
	done
	echo "ok $name"
	pass=$((pass + 1))
}

# exact NAME WANT-STATUS 'STDERR'S FIRST LINE' -- ARGS...: compared as text
exact() {
	local name=$1 want=$2 line=$3 rc
	shift 4
	"$stprun" "$@" >"$work/out" 2>"$work/err" </dev/null
	rc=$?
	if [ "$rc" != "$want" ]; then
		echo "FAIL $name: exit $rc, want $want"; sed 's/^/  /' "$work/err"
		fail=$((fail + 1))
	elif [ "$(head -1 "$work/err")" != "$line" ]; then
		echo "FAIL $name: stderr's first line is not: $line"; sed 's/^/  /' "$work/err"
		fail=$((fail + 1))
	else
		echo "ok $name"
		pass=$((pass + 1))
	fi
}

USAGE='usage: stprun \[-v\] \[-o FILE\] \[-c CMD \| -x PID\] \[-b MB\] \[--vitals-db PATH\] \[-D NAME=N\]\.\.\. \[-G var=value\]\.\.\.'

check help 0 "$USAGE" -- -h
check no-args 1 'stprun: no module given' "$USAGE" --
check bad-option 1 "$stprun: invalid option -- 'Q'" "$USAGE" -- -Q x.ko
check b-zero 1 "stprun: -b wants a size in MB \(1\.\.4095\), not '0'" -- -b 0 x.ko
check b-big 1 "stprun: -b wants a size in MB \(1\.\.4095\), not '4096'" -- -b 4096 x.ko
check b-text 1 "stprun: -b wants a size in MB \(1\.\.4095\), not 'lots'" -- -b lots x.ko
check x-text 1 "stprun: -x wants a process id, not 'me'" -- -x me x.ko
check c-and-x 1 'stprun: -c and -x exclude each other' -- -c true -x 1 x.ko
check D-no-value 1 "stprun: -D wants NAME=N, not 'MAXACTION'" -- -D MAXACTION x.ko
check D-not-number 1 "stprun: -D wants NAME=N, not 'MAXACTION=many'" -- -D MAXACTION=many x.ko
check G-no-equals 1 "stprun: -G wants var=value, not 'n'" -- -G n x.ko
check G-bad-name 1 "stprun: -G wants var=value, not '1n=2'" -- -G 1n=2 x.ko
check param-bad 1 "stprun: module arguments are var=value, not 'oops'" -- x.ko oops
check param-space 1 "stprun: module arguments are var=value, not 'a=b c'" -- x.ko 'a=b c'
check missing 1 "stprun: cannot open module $work/none\.ko: No such file or directory" -- "$work/none.ko"
check o-unwritable 1 "stprun: cannot write $work/no/dir/out: No such file or directory" -- -o "$work/no/dir/out" x.ko

# A file that is no module: the kernel refuses it (EPERM when not root or
# when this host loads no modules, ENOEXEC otherwise), named in the message.
printf 'not an ELF file\n' >"$work/my-mod.ko"
# The reason is the host's (strerror), the rest is ours.
REFUSED='stprun: cannot load module my_mod: [A-Z][A-Za-z ]+ \(see dmesg\)'
check load-refused 1 "$REFUSED" -- "$work/my-mod.ko"
if grep -qs '^my_mod ' /proc/modules; then
	echo "FAIL load-refused.unloaded: my_mod is loaded"; fail=$((fail + 1))
else
	echo "ok load-refused.unloaded"; pass=$((pass + 1))
fi
# -c CMD that cannot be split: the message, before the module is loaded
# (the "module" is a file the kernel would refuse, were it tried)
exact c-empty 1 'stprun: -c: the command is empty' -- -c '' "$work/my-mod.ko"
exact c-blank 1 'stprun: -c: the command is empty' -- -c ' 	' "$work/my-mod.ko"
exact c-quote 1 "stprun: -c: unmatched quote in 'echo \"hi'" -- -c 'echo "hi' "$work/my-mod.ko"
exact c-squote 1 "stprun: -c: unmatched quote in 'echo 'hi'" -- -c "echo 'hi" "$work/my-mod.ko"
exact c-backslash 1 "stprun: -c: trailing backslash in 'echo \\'" -- -c 'echo \' "$work/my-mod.ko"
exact c-brace 1 "stprun: -c: bad shell syntax in 'echo \${x'" -- -c 'echo ${x' "$work/my-mod.ko"
exact c-undefined 1 "stprun: -c: undefined variable in 'echo \$STP_NO_SUCH_VAR'" \
	-- -c 'echo $STP_NO_SUCH_VAR' "$work/my-mod.ko"
exact c-no-program 1 "stprun: -c: no program to run in 'A=1 B=2'" -- -c 'A=1 B=2' "$work/my-mod.ko"

# How -c runs a command (-v says, before the missing module stops it):
# split into words and run directly; through sh -c when only a shell can
c_runs() {	# NAME 'CMD' 'WHAT -v SAYS'
	exact "$1" 1 "stprun: -c runs $3" -- -v -c "$2" "$work/none.ko"
}
c_runs c-words '/files/loop getppid 1000' "'/files/loop' 'getppid' '1000'"
c_runs c-quoting "echo 'a  b' c\\ d \"e\"'f' ''" "'echo' 'a  b' 'c d' 'ef' ''"
c_runs c-env 'A=1 B="x y" /files/loop spin 1' "'/files/loop' 'spin' '1', environment 'A=1' 'B=x y'"
c_runs c-exec 'exec /files/loop spin 1' "'/files/loop' 'spin' '1'"
c_runs c-env-exec 'A=1 exec prog' "'prog', environment 'A=1'"
c_runs c-quoted-meta "echo 'a|b;c>d' '\$(x)' '\`y\`'" "'echo' 'a|b;c>d' '\$(x)' '\`y\`'"
STP_T='a b' c_runs c-variable 'echo $STP_T ~root' "'echo' 'a' 'b' '/root'"
c_runs c-pipe 'ls | wc' "'sh' '-c' 'ls | wc'"
c_runs c-redirect 'exec /files/loop getppid 1000 >/dev/null' "'sh' '-c' 'exec /files/loop getppid 1000 >/dev/null'"
c_runs c-list 'true; false' "'sh' '-c' 'true; false'"
c_runs c-background 'sleep 1 &' "'sh' '-c' 'sleep 1 &'"
c_runs c-subshell '(true)' "'sh' '-c' '(true)'"
c_runs c-cmdsub 'echo $(date)' "'sh' '-c' 'echo \$(date)'"
c_runs c-cmdsub-dquoted 'echo "$(date)"' "'sh' '-c' 'echo \"\$(date)\"'"
c_runs c-backquote 'echo `date`' "'sh' '-c' 'echo \`date\`'"
c_runs c-newline "$(printf 'true\ntrue')" "'sh' '-c' 'true"	# (one line of two)
c_runs c-builtin 'read x' "'sh' '-c' 'read x'"
c_runs c-keyword 'if true' "'sh' '-c' 'if true'"
c_runs c-exec-option 'exec -a x prog' "'sh' '-c' 'exec -a x prog'"

# -v says what it is doing before the load fails
check verbose 1 "stprun: loading $work/my-mod\.ko as my_mod with stp_bufsize=2097152 stpd_MAXACTION=5 n=1 stpd_verbose=1 s=x" \
	"$REFUSED" -- -v -b 2 -D MAXACTION=5 -G n=1 "$work/my-mod.ko" s=x

# -S, -F and -A: what goes with what, checked before anything is loaded
S_WANTS="stprun: -S wants SIZE_MB\[,COUNT\] \(megabytes, then files, each from 1\)"
check S-zero 1 "$S_WANTS, not '0'" -- -o "$work/o" -S 0 x.ko
check S-count-zero 1 "$S_WANTS, not '1,0'" -- -o "$work/o" -S 1,0 x.ko
check S-text 1 "$S_WANTS, not 'big'" -- -o "$work/o" -S big x.ko
check S-no-o 1 'stprun: -S needs -o FILE' -- -S 1 x.ko
check F-c 1 'stprun: -F and -c exclude each other' -- -F -c true x.ko
check F-A 1 'stprun: -F and -A exclude each other' -- -F -A x
check A-G 1 'stprun: -A attaches to a running module: -c, -x, -b, -D, -G and module arguments are for loading one' -- -A -G n=1 x
check A-args 1 'stprun: -A attaches to a running module: -c, -x, -b, -D, -G and module arguments are for loading one' -- -A x n=1
check A-not-loaded 1 'stprun: module stp_no_such_module is not loaded' -- -A stp_no_such_module
check A-ko-path 1 'stprun: module my_mod is not loaded' -- -A "$work/my-mod.ko"
check S-unwritable 1 "stprun: cannot write $work/no/dir/out\.0: No such file or directory" -- -o "$work/no/dir/out" -S 1 x.ko
check help-A 0 '       stprun \[-v\] \[-o FILE\] \[-S MB\[,N\]\] -A MODULE' -- -h

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
