#!/bin/bash
# completion/stp.bash under bash with bash-completion: COMPREPLY exactly
# for an option prefix, a script file, probe points after -l and -L, and
# the option list against stp --help.  Prints "N passed, N failed".
set -u
cd "$(dirname "$0")/../.."
top=$PWD
pass=0 fail=0
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/dir" "$tmp/dir/sub"
touch "$tmp/dir/a.stp" "$tmp/dir/b.txt" "$tmp/dir/it's.stp"

# complete WORDS...: the COMPREPLY for the last word, one per line
complete_words() {
	(cd "$tmp/dir" && bash -c '
		source /usr/share/bash-completion/bash_completion
		source "$0/completion/stp.bash"
		_stp_cmd=$0/stp
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_stp
		printf "%s\n" "${COMPREPLY[@]}" | sort' "$top" "$@")
}

# check NAME EXPECTED WORDS...
check() {
	local name=$1 exp=$2 out
	shift 2
	out=$(complete_words "$@")
	if [ "$out" = "$exp" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL $name"
		diff <(printf '%s\n' "$exp") <(printf '%s\n' "$out") | sed 's/^/    /'
	fi
}

check "option prefix --dump" "--dump-functions
--dump-probe-aliases
--dump-probe-types" stp --dump
check "option with a value (--sys)" "--sysroot=" stp --sys
check "script files" "a.stp
it's.stp
sub" stp ""
check "script file prefix" "a.stp" stp -v a
check "-p" "1
2
3
4
5" stp -p ""
check "-l syscall.getpp" "syscall.getppid
syscall.getppid.return" stp -l syscall.getpp
check "-L 'syscall.getpp (quoted)" "syscall.getppid
syscall.getppid.return" stp -L "'syscall.getpp"
check "-l kernel.trace(\"sched:sched_sw" 'kernel.trace("sched:sched_swap_numa")
kernel.trace("sched:sched_switch")' stp -l 'kernel.trace("sched:sched_sw'
check "-l with no match" "" stp -l nosuchprobe.x
check "--sysroot=s (bash splits at =)" "sub" stp --sysroot = s
check "--sysroot= with nothing yet" "sub" stp --sysroot =
check "--runtime= (its two values)" "bpf
kmod" stp --runtime =
check "-l with the target typed as --sysroot = DIR -r REL" "syscall.getppid
syscall.getppid.return" stp --sysroot = "$(tests/kernel.sh)" -r "$(tests/kernel.sh release)" -l syscall.getpp
check "-l with a target that has no System.map" "" stp --sysroot = "$tmp/dir" -r 0.0-none -l 'kernel.function("vfs_rea'

# every option of stp --help is offered (-i too, which the interactive
# mode adds)
got=$(complete_words stp - | sed 's/=.*//' | sort)
want=$( (./stp --help | grep -oE '^  -[-a-zA-Z]+' | sed 's/^ *//'; echo -i) | sort -u)
if [ -z "$(comm -23 <(echo "$want") <(echo "$got"))" ]; then
	pass=$((pass + 1))
else
	fail=$((fail + 1))
	echo "FAIL options of stp --help not offered"
	comm -23 <(echo "$want") <(echo "$got") | sed 's/^/    /'
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
