#!/bin/bash
# The stp command line as a user meets it: each case runs stp and checks
# the exit status and what it printed.
#   case NAME STATUS 'TEXT THAT MUST APPEAR (stdout+stderr)' -- ARGS...
set -uo pipefail
STP=${1:-./stp}
T=${TMPDIR:-/tmp}/stp-driver.$$
mkdir -p "$T"
trap 'rm -rf "$T"' EXIT
pass=0
fail=0

case_() {
	local name=$1 want_rc=$2 want=$3
	shift 4
	local out rc
	out=$("$@" 2>&1)
	rc=$?
	if [ "$rc" != "$want_rc" ]; then
		echo "FAIL $name: exit $rc, expected $want_rc"
		printf '%s\n' "$out" | head -5 | sed 's/^/    /'
		fail=$((fail + 1))
	elif [ -n "$want" ] && ! grep -qF -- "$want" <<<"$out"; then
		echo "FAIL $name: output lacks: $want"
		printf '%s\n' "$out" | head -5 | sed 's/^/    /'
		fail=$((fail + 1))
	else
		pass=$((pass + 1))
	fi
}

# exact NAME STATUS 'THE WHOLE OUTPUT (stdout+stderr)' -- ARGS...
exact() {
	local name=$1 want_rc=$2 want=$3
	shift 4
	local out rc
	out=$("$@" 2>&1)
	rc=$?
	if [ "$rc" != "$want_rc" ]; then
		echo "FAIL $name: exit $rc, expected $want_rc"
		printf '%s\n' "$out" | head -5 | sed 's/^/    /'
		fail=$((fail + 1))
	elif [ "$out" != "$want" ]; then
		echo "FAIL $name: output is not: $want"
		printf '%s\n' "$out" | head -5 | sed 's/^/    /'
		fail=$((fail + 1))
	else
		pass=$((pass + 1))
	fi
}

cat >"$T/hello.stp" <<'S'
probe begin { printf("hello %s %d\n", @1, $2) }
S
printf 'probe begin { x = (1 + 2 }\n' >"$T/bad.stp"
printf 'probe begin { x = 1 +; }\nprobe end { y = ) }\nglobal\n' >"$T/bad3.stp"
mkdir -p "$T/lib"
printf '@define twice(x) %%( (@x * 2) %%)\n' >"$T/lib/m.stpm"
printf 'probe syscall.foo = kernel.function("foo") { }\n' >"$T/lib/a.stp"

case_ help 0 'Usage: stp [options] FILE' -- "$STP" --help
case_ version 0 'stp ' -- "$STP" --version
case_ unknown-option 1 'stp: unknown option -Q' -- "$STP" -Q x.stp
case_ unknown-long-option 1 'stp: unknown option --frob' -- "$STP" --frob x.stp
case_ missing-arg 1 'stp: option -p needs an argument' -- "$STP" -p
case_ bad-pass 1 "-p takes a pass number from 1 to 5, not '7'" -- "$STP" -p7 -e 'probe begin {}'
case_ no-script 1 'stp: no script given' -- "$STP"
case_ missing-file 1 "stp: cannot read script '$T/nope.stp': No such file or directory" -- "$STP" -p1 "$T/nope.stp"
case_ one-line-missing 0 '' -- bash -c "[ \$($STP -p1 $T/nope.stp 2>&1 | wc -l) -eq 1 ]"
case_ p1-prints 0 'printf("hello %s %d\n", "world", 7);' -- "$STP" -p1 "$T/hello.stp" world 7
case_ p1-args-expr 0 'x = 5 + 5;' -- "$STP" -p1 -e 'probe begin { x = $1 }' '5+5'
case_ p1-argc 0 'n = 3;' -- "$STP" -p1 -e 'probe begin { n = $# }' a b c
case_ arg-out-of-range 1 'script argument $2 out of range: 1 given' -- "$STP" -p1 -e 'probe begin { x = $2 }' 1
case_ parse-error 1 "$T/bad.stp:1:26: parse error: expected ')', saw '}'" -- "$STP" -p1 "$T/bad.stp"
case_ parse-error-caret 1 '                         ^' -- "$STP" -p1 "$T/bad.stp"
case_ parse-error-summary 1 'Pass 1: parse failed: 1 error.' -- "$STP" -p1 "$T/bad.stp"
case_ recovery-three 1 'Pass 1: parse failed: 3 errors.' -- "$STP" -p1 "$T/bad3.stp"
case_ inline-name 1 "<input>:1:7: parse error: expected a probe point, saw '{'" -- "$STP" -p1 -e 'probe { }'
case_ verbose 0 'Pass 1: parsed user script and ' -- "$STP" -v -p1 -e 'probe begin {}'
case_ verbose-p2 0 'Pass 2: analyzed script: 1 probe, 0 functions, 0 globals' -- "$STP" -v -p2 -e 'probe begin {}'
case_ verbose-libs 0 'and 1 library scripts' -- "$STP" -v -p1 -I "$T/lib" -e 'probe begin { x = @twice(2) }'
case_ stpm-macro 0 'x = 2 * 2;' -- "$STP" -p1 -I "$T/lib" -e 'probe begin { x = @twice(2) }'
case_ guru-needed 1 'embedded C needs guru mode (-g)' -- "$STP" -p1 -e '%{ int x; %} probe begin {}'
case_ guru-ok 0 '%{ int x; %}' -- "$STP" -g -p1 -e '%{ int x; %} probe begin {}'
case_ p2-works 0 'begin /* <- begin */' -- "$STP" -p2 -e 'probe begin { printf("hi\n") }'
case_ p3-c-file 0 '#include "runtime/context.h"' -- "$STP" -p3 -e 'probe begin { println("hi") }'
case_ p3-handler 0 'static STP_HANDLER void probe_0(struct stp_ctx *h)' -- "$STP" -p3 -e 'probe begin { println("hi") }'
case_ p4-no-headers 1 'no kernel build tree at /lib/modules/0.0.0-none/build' -- "$STP" -p4 -r 0.0.0-none -e 'probe begin {}'
case_ bad-module-name 1 "'9bad' is not a valid module name" -- "$STP" -p4 -m 9bad -e 'probe begin {}'
case_ remote-unknown 1 "--remote=ssh: only 'qemu' is known" -- "$STP" -p5 --remote=ssh -r 0.0.0-none -e 'probe begin {}'
case_ list-timer 0 'timer.ms(100)' -- "$STP" -l 'timer.ms(100)'
case_ list-none 0 '' -- "$STP" -l 'no.such.point'
case_ all-options 0 'probe begin' -- "$STP" -p1 -v -I "$T/lib" -D MAXACTION=100 -g -m mymod -r 6.1.0-0-amd64 -o "$T/out" -c true -x 1 -k -B V=1 -G g=1 -u -w -s 4 -e 'probe begin {}'
case_ bad-G 1 '-G needs VAR=VALUE' -- "$STP" -p1 -G novalue -e 'probe begin {}'
case_ bad-x 1 '-x takes a process id' -- "$STP" -p1 -x abc -e 'probe begin {}'
case_ kernel-v 0 'x = 1;' -- "$STP" -p1 -r 6.1.0-56-amd64 -e 'probe begin { x = %( kernel_v >= "6.1" && kernel_v < "6.2" %? 1 %: 2 %) }'
case_ kernel-v-old 0 'x = 2;' -- "$STP" -p1 -r 5.10.0-1-amd64 -e 'probe begin { x = %( kernel_v >= "6.1" %? 1 %: 2 %) }'
case_ stdin 0 'probe end' -- bash -c "echo 'probe end {}' | $STP -p1 -"
# -c CMD is split as stprun will split it, when stp reads its options: a
# command that cannot run stops stp before pass 1 (and before a build)
exact c-empty 1 'stp: -c: the command is empty' -- "$STP" -p4 -r 0.0.0-none -c '' -e 'probe begin {}'
exact c-quote 1 "stp: -c: unmatched quote in 'echo \"hi'" -- "$STP" -p4 -r 0.0.0-none -c 'echo "hi' -e 'probe begin {}'
exact c-undefined 1 "stp: -c: undefined variable in 'ls \$STP_NO_SUCH_VAR'" -- "$STP" -p1 -c 'ls $STP_NO_SUCH_VAR' -e 'probe begin {}'
exact c-no-program 1 "stp: -c: no program to run in 'A=1'" -- "$STP" -p1 -c 'A=1' -e 'probe begin {}'
exact c-words 0 $'probe begin {\n}' -- "$STP" -p1 -c "A=1 prog 'a b' c\\ d" -e 'probe begin {}'
exact c-shell 0 $'probe begin {\n}' -- "$STP" -p1 -c 'exec prog >/dev/null; echo $(date)' -e 'probe begin {}'
# one script only, as stap ("Only one script can be given on the command line.")
exact two-e 1 "stp: only one script can be given: a second -e 'probe end {}'" -- "$STP" -p1 -e 'probe begin {}' -e 'probe end {}'
# -w: no warnings, so -W has none to turn into errors, in either order
printf 'global unused\nprobe begin { x = 1 }\n' >"$T/warn.stp"
case_ W-fails 1 "error: global 'unused' is never used" -- "$STP" -W -p2 "$T/warn.stp"
case_ w-W 0 'begin /* <- begin */' -- "$STP" -w -W -p2 "$T/warn.stp"
case_ W-w 0 'begin /* <- begin */' -- "$STP" -W -w -p2 "$T/warn.stp"
exact w-W-quiet 0 '' -- bash -c "$STP -w -W -p2 $T/warn.stp >/dev/null"
# --smp N: the guest's CPUs, for --remote=qemu only
exact smp-no-remote 1 'stp: --smp needs --remote=qemu' -- "$STP" -p1 --smp 2 -e 'probe begin {}'
exact smp-zero 1 "stp: --smp takes a number of CPUs (1-64), not '0'" -- "$STP" -p1 --remote=qemu --smp=0 -e 'probe begin {}'
exact smp-text 1 "stp: --smp takes a number of CPUs (1-64), not 'two'" -- "$STP" -p1 --remote=qemu --smp two -e 'probe begin {}'
case_ smp-remote 0 'probe begin' -- "$STP" -p1 --remote=qemu --smp 2 -e 'probe begin {}'
case_ help-smp 0 "--smp=N        the guest's CPUs with --remote=qemu" -- "$STP" --help
case_ help-c 0 'runs it when it holds | & ; < > ( ) { } $( ` or a newline,' -- "$STP" --help
if [ -d /usr/share/systemtap/tapset ]; then
	case_ corpus-macros 0 'and 18 library scripts' -- "$STP" -v -p1 -I /usr/share/systemtap/tapset -e 'probe begin { x = @choose_defined($a, 1) }'
fi

echo "$pass passed, $fail failed"
