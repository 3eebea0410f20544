#!/bin/bash
# The stp command line as a user meets it: each case runs a command and
# checks its exit status and what it printed (stdout and stderr together).
#
#   case_ NAME STATUS 'LINE' -- COMMAND...
#
# LINE is a whole line the output must hold, exactly: not a substring.
#   - 'TEXT'        a line equal to TEXT (leading tabs count: $'\tx = 1;')
#   - '~ ERE'       a line matching the extended regular expression ERE,
#                   anchored at both ends (for times: 'in [0-9.]+ ms\.')
#   - ''            the command prints nothing at all
# When LINE is a diagnostic with a place, "FILE:L:C: ...", the two lines
# after it must show line L of FILE and a caret under column C, as
# parser/diag.c draws them (caret_ok in tests/conformance/common.sh); for
# "<input>" the text given to -e is that file.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
STP=${1:-./stp}
T=${TMPDIR:-/tmp}/stp-driver.$$
mkdir -p "$T"
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
# shellcheck source=../conformance/common.sh
. tests/conformance/common.sh

# find_line WANT: the index in out[] of the first line WANT matches, or -1
find_line() {
	local i
	for ((i = 0; i < ${#out[@]}; i++)); do
		case $1 in
		'~ '*) [[ ${out[i]} =~ ^${1#'~ '}$ ]] && { k=$i; return; } ;;
		*) [ "${out[i]}" = "$1" ] && { k=$i; return; } ;;
		esac
	done
	k=-1
}

# the -e text of a command, for diagnostics placed in "<input>"
inline_file() {
	while [ $# -gt 0 ]; do
		if [ "$1" = -e ] && [ $# -ge 2 ]; then
			printf '%s\n' "$2" >"$T/input.stp"
			return 0
		fi
		shift
	done
	return 1
}

# caret_after NAME: out[k] is a diagnostic; is it drawn at its column?
caret_after() {
	local file
	[[ ${out[k]} =~ ^([^:]+):([0-9]+):([0-9]+):\  ]] || return 0
	file=${BASH_REMATCH[1]}
	if [ "$file" = "<input>" ]; then
		inline_file "${cmd[@]}" || return 0
		file=$T/input.stp
	fi
	[ -f "$file" ] || return 0
	caret_ok "$file" "${BASH_REMATCH[2]}" "${BASH_REMATCH[3]}" \
		"${out[k + 1]-}" "${out[k + 2]-}" && return 0
	echo "FAIL $1: $c_why"
	echo "    expected: $c_want"
	echo "    actual:   ${out[k + 1]-}"
	echo "              ${out[k + 2]-}"
	return 1
}

case_() {
	local name=$1 want_rc=$2 want=$3 text rc k
	local -a out cmd
	shift 4
	cmd=("$@")
	text=$("$@" 2>&1)
	rc=$?
	mapfile -t out <<<"$text"
	[ -n "$text" ] || out=()
	if [ "$rc" != "$want_rc" ]; then
		echo "FAIL $name: exit $rc, expected $want_rc"
	elif [ -z "$want" ]; then
		[ ${#out[@]} -eq 0 ] && { pass=$((pass + 1)); return; }
		echo "FAIL $name: printed something, expected nothing"
	else
		find_line "$want"
		if [ "$k" -ge 0 ]; then
			caret_after "$name" && { pass=$((pass + 1)); return; }
			fail=$((fail + 1))
			return
		fi
		echo "FAIL $name: no line is exactly: $want"
	fi
	printf '%s\n' "$text" | head -8 | sed 's/^/    /'
	fail=$((fail + 1))
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

case_ help 0 'Usage: stp [options] FILE [ARGS...]     run a script file' -- "$STP" --help
case_ version 0 'stp 0.1: SystemTap-compatible tracer (language 4.8)' -- "$STP" --version
case_ unknown-option 1 'stp: unknown option -Q (see stp --help)' -- "$STP" -Q x.stp
case_ unknown-long-option 1 'stp: unknown option --frob (see stp --help)' -- "$STP" --frob x.stp
case_ missing-arg 1 'stp: option -p needs an argument' -- "$STP" -p
case_ all-modules-v 0 "stp: --all-modules changes nothing: kernel modules' symbols come from the running kernel's kallsyms, always" -- "$STP" --all-modules -v -p1 -e 'probe begin { exit() }'
case_ ldd-v 0 "stp: --ldd changes nothing: shared libraries' symbols come from each process's mappings (stprun reads them), always" -- "$STP" -v --ldd -p1 -e 'probe begin { exit() }'
case_ all-modules-quiet 0 $'\texit();' -- "$STP" --all-modules --ldd -p1 -e 'probe begin { exit() }'
case_ bad-pass 1 "stp: -p takes a pass number from 1 to 5, not '7'" -- "$STP" -p7 -e 'probe begin {}'
case_ no-script 1 'stp: no script given (a FILE, or -e SCRIPT; see stp --help)' -- "$STP"
case_ missing-file 1 "stp: cannot read script '$T/nope.stp': No such file or directory" -- "$STP" -p1 "$T/nope.stp"
case_ one-line-missing 0 '1' -- bash -c "$STP -p1 $T/nope.stp 2>&1 | wc -l"
case_ p1-prints 0 $'\tprintf("hello %s %d\\n", "world", 7);' -- "$STP" -p1 "$T/hello.stp" world 7
case_ p1-args-expr 0 $'\tx = 5 + 5;' -- "$STP" -p1 -e 'probe begin { x = $1 }' '5+5'
case_ p1-argc 0 $'\tn = 3;' -- "$STP" -p1 -e 'probe begin { n = $# }' a b c
case_ arg-out-of-range 1 '<input>:1:19: parse error: script argument $2 out of range: 1 given' -- "$STP" -p1 -e 'probe begin { x = $2 }' 1
case_ parse-error 1 "$T/bad.stp:1:26: parse error: expected ')', saw '}'" -- "$STP" -p1 "$T/bad.stp"
case_ parse-error-caret 1 '                         ^' -- "$STP" -p1 "$T/bad.stp"
case_ parse-error-summary 1 'Pass 1: parse failed: 1 error.' -- "$STP" -p1 "$T/bad.stp"
case_ recovery-three 1 'Pass 1: parse failed: 3 errors.' -- "$STP" -p1 "$T/bad3.stp"
case_ inline-name 1 "<input>:1:7: parse error: expected a probe point, saw '{'" -- "$STP" -p1 -e 'probe { }'
case_ verbose 0 '~ Pass 1: parsed user script and 4 library scripts in [0-9]+\.[0-9] ms\.' -- "$STP" -v -p1 -e 'probe begin {}'
case_ verbose-p2 0 '~ Pass 2: analyzed script: 1 probe, 0 functions, 0 globals in [0-9]+\.[0-9] ms\.' -- "$STP" -v -p2 -e 'probe begin {}'
case_ verbose-libs 0 '~ Pass 1: parsed user script and 5 library scripts in [0-9]+\.[0-9] ms\.' -- "$STP" -v -p1 -I "$T/lib" -e 'probe begin { x = @twice(2) }'
case_ stpm-macro 0 $'\tx = 2 * 2;' -- "$STP" -p1 -I "$T/lib" -e 'probe begin { x = @twice(2) }'
case_ guru-needed 1 '<input>:1:1: parse error: embedded C needs guru mode (-g)' -- "$STP" -p1 -e '%{ int x; %} probe begin {}'
case_ guru-ok 0 '%{ int x; %}' -- "$STP" -g -p1 -e '%{ int x; %} probe begin {}'
case_ p2-works 0 'begin /* <- begin */' -- "$STP" -p2 -e 'probe begin { printf("hi\n") }'
case_ p3-c-file 0 '#include "runtime/context.h"' -- "$STP" -p3 -e 'probe begin { println("hi") }'
case_ p3-handler 0 'static STP_HANDLER void probe_0(struct stp_ctx *h)' -- "$STP" -p3 -e 'probe begin { println("hi") }'
case_ p4-no-headers 1 'stp: no kernel build tree at /lib/modules/0.0.0-none/build; install the kernel headers (Debian: linux-headers-0.0.0-none)' -- "$STP" -p4 -r 0.0.0-none -e 'probe begin {}'
case_ bad-module-name 1 "stp: '9bad' is not a valid module name (letters, digits, '_', at most 55, not starting with a digit)" -- "$STP" -p4 -m 9bad -e 'probe begin {}'
case_ remote-unknown 1 "stp: --remote=ssh: only 'qemu' is known" -- "$STP" -p5 --remote=ssh -r 0.0.0-none -e 'probe begin {}'
case_ list-timer 0 'timer.ms(100)' -- "$STP" -l 'timer.ms(100)'
exact list-none 1 "stp: no probe point matches 'no.such.point'" -- "$STP" -l 'no.such.point'
# a wildcard of one component lists the builtins it matches with the
# aliases, and no tapset's own probes (json.stp's procfs "metadata")
exact list-star 0 $'begin\nend\nerror\ninit\njson_data\nnever\noneshot\nprometheus\nsyscall_any' -- "$STP" -l '*'
exact list-e-star 0 $'end\nerror' -- "$STP" -l 'e*'
exact list-none-L 1 "stp: no probe point matches 'nosuch.*'" -- "$STP" -L 'nosuch.*'
case_ all-options 0 'probe begin {' -- "$STP" -p1 -v -I "$T/lib" -D MAXACTION=100 -g -m mymod -r 6.1.0-0-test -o "$T/out" -x 1 -k -B V=1 -G g=1 -u -w -s 4 -e 'probe begin {}'
case_ bad-G 1 "stp: -G needs VAR=VALUE, not 'novalue'" -- "$STP" -p1 -G novalue -e 'probe begin {}'
case_ bad-x 1 "stp: -x takes a process id, not 'abc'" -- "$STP" -p1 -x abc -e 'probe begin {}'
case_ kernel-v 0 $'\tx = 1;' -- "$STP" -p1 -r 6.1.0-0-test -e 'probe begin { x = %( kernel_v >= "6.1" && kernel_v < "6.2" %? 1 %: 2 %) }'
case_ kernel-v-old 0 $'\tx = 2;' -- "$STP" -p1 -r 5.10.0-1-amd64 -e 'probe begin { x = %( kernel_v >= "6.1" %? 1 %: 2 %) }'
case_ stdin 0 'probe end {' -- bash -c "echo 'probe end {}' | $STP -p1 -"
# -c CMD is split as stprun will split it, when stp reads its options: a
# command that cannot run stops stp before pass 1 (and before a build)
exact c-empty 1 'stp: -c: the command is empty' -- "$STP" -p4 -r 0.0.0-none -c '' -e 'probe begin {}'
exact c-quote 1 "stp: -c: unmatched quote in 'echo \"hi'" -- "$STP" -p4 -r 0.0.0-none -c 'echo "hi' -e 'probe begin {}'
exact c-undefined 1 "stp: -c: undefined variable in 'ls \$STP_NO_SUCH_VAR'" -- "$STP" -p1 -c 'ls $STP_NO_SUCH_VAR' -e 'probe begin {}'
exact c-no-program 1 "stp: -c: no program to run in 'A=1'" -- "$STP" -p1 -c 'A=1' -e 'probe begin {}'
exact c-words 0 $'probe begin {\n}' -- "$STP" -p1 -c "A=1 prog 'a b' c\\ d" -e 'probe begin {}'
exact c-shell 0 $'probe begin {\n}' -- "$STP" -p1 -c 'exec prog >/dev/null; echo $(date)' -e 'probe begin {}'
# options after the script file, as stap takes them; "--" ends them
printf 'probe begin { printf("%%s\\n", @1) }\n' >"$T/arg.stp"
case_ opt-after-file 0 $'\tprintf("%s\\n", "hello");' -- "$STP" -p1 "$T/arg.stp" -c true hello
case_ dashdash-arg 0 $'\tprintf("%s\\n", "-v");' -- "$STP" -p1 "$T/arg.stp" -- -v
# one script only, as stap ("Only one script can be given on the command line.")
exact two-e 1 "stp: only one script can be given: a second -e 'probe end {}'" -- "$STP" -p1 -e 'probe begin {}' -e 'probe end {}'
# -w: no warnings, so -W has none to turn into errors, in either order
printf 'global unused\nprobe begin { x = 1 }\n' >"$T/warn.stp"
case_ W-fails 1 "$T/warn.stp:1:8: error: global 'unused' is never used" -- "$STP" -W -p2 "$T/warn.stp"
case_ w-W 0 'begin /* <- begin */' -- "$STP" -w -W -p2 "$T/warn.stp"
case_ W-w 0 'begin /* <- begin */' -- "$STP" -W -w -p2 "$T/warn.stp"
exact w-W-quiet 0 '' -- bash -c "$STP -w -W -p2 $T/warn.stp >/dev/null"
# --smp N: the guest's CPUs, for --remote=qemu only
exact smp-no-remote 1 'stp: --smp needs --remote=qemu' -- "$STP" -p1 --smp 2 -e 'probe begin {}'
exact smp-zero 1 "stp: --smp takes a number of CPUs (1-64), not '0'" -- "$STP" -p1 --remote=qemu --smp=0 -e 'probe begin {}'
exact smp-text 1 "stp: --smp takes a number of CPUs (1-64), not 'two'" -- "$STP" -p1 --remote=qemu --smp two -e 'probe begin {}'
case_ smp-remote 0 'probe begin {' -- "$STP" -p1 --remote=qemu --smp 2 -e 'probe begin {}'
case_ help-smp 0 "  --smp=N        the guest's CPUs with --remote=qemu (default 1)" -- "$STP" --help
case_ help-c 0 '                 runs it when it holds | & ; < > ( ) { } $( ` or a newline,' -- "$STP" --help
# process.mark: in the program -c runs (its first word past exec), or -x's
case_ sdt-mark-c 0 'process("/usr/lib/x86_64-linux-gnu/libstdc++.so.6").mark("throw")' -- \
	"$STP" -c "exec /usr/lib/x86_64-linux-gnu/libstdc++.so.6 >/dev/null" -l 'process.mark("throw")'
sleep 60 &
sleeper=$!
# until the child has exec'd sleep, its exe is still the shell's
for _ in $(seq 200); do
	[ "$(readlink /proc/$sleeper/exe)" != "$(readlink /proc/$$/exe)" ] && break
	sleep 0.01
done
case_ sdt-mark-x 1 "<input>:1:20: semantic error: no marker of $(readlink /proc/$sleeper/exe) matches 'x' (it has: none)" -- \
	"$STP" -p2 -x "$sleeper" -e 'probe process.mark("x") { println(1) }'
kill "$sleeper"
if [ -d /usr/share/systemtap/tapset ]; then
	case_ corpus-macros 0 '~ Pass 1: parsed user script and 22 library scripts in [0-9]+\.[0-9] ms\.' -- "$STP" -v -p1 -I /usr/share/systemtap/tapset -e 'probe begin { x = @choose_defined($a, 1) }'
fi

# -T SECONDS: one probe more, first, timer.ms(N) { exit() }, as stap
# adds it (not in -p1's listing of the script as written)
case_ T-probe 0 'timer.ms(1500) /* <- timer.ms(1500) */' -- "$STP" -p2 -T 1.5 -e 'probe begin { println(1) }'
case_ T-exit 0 $'\texit();' -- "$STP" -p2 -T 2 -e 'probe begin { println(1) }'
exact T-p1 0 $'probe begin {\n\tprintln(1);\n}' -- "$STP" -p1 -T 2 -e 'probe begin { println(1) }'
exact T-zero 1 "stp: -T takes a number of seconds above 0, not '0'" -- "$STP" -p2 -T 0 -e 'probe begin {}'
exact T-negative 1 "stp: -T takes a number of seconds above 0, not '-1'" -- "$STP" -p2 -T -1 -e 'probe begin {}'
exact T-text 1 "stp: -T takes a number of seconds above 0, not '1s'" -- "$STP" -p2 -T 1s -e 'probe begin {}'
exact T-missing 1 'stp: option -T needs an argument' -- "$STP" -p2 -e 'probe begin {}' -T
# --dump-probe-types: every builtin point, in SystemTap's format and order
exact dump-probe-types 0 "$(cat tests/driver/probe-types.txt)" -- "$STP" --dump-probe-types
case_ help-dump 0 '  --dump-probe-types  list the probe point types, one per line' -- "$STP" --help
# A guru script's embedded C that does not compile: the compiler's
# errors name the script's lines ("#line"), and stp says it is the
# script's C, not a bug of its own (one module build, seconds)
if K=$(tests/kernel.sh 2>/dev/null) && R=$(tests/kernel.sh release 2>/dev/null) &&
	[ -d "/lib/modules/$R/build" ]; then
	printf '%s\n' '# embedded C the kernel does not have' 'function f:long () %{' \
		'	STAP_RETURN(current->no_such_member);' '%}' 'probe begin { println(f()) }' >"$T/embc.stp"
	case_ embedded-c-failed 1 "~ stp: the script's embedded C does not compile for this kernel .*" -- \
		"$STP" --sysroot="$K" -r "$R" -g -p4 "$T/embc.stp"
	case_ embedded-c-line 0 1 -- bash -c "'$STP' --sysroot='$K' -r '$R' -g -p4 '$T/embc.stp' 2>&1 |
		grep -c '^$T/embc.stp:3:[0-9]*: error: .*no_such_member'"
	# The build directory is made in TMPDIR, as SystemTap's: one that
	# cannot hold it, or whose path make would split, is said by name
	# (a script never built before: the module cache would answer first)
	u="probe begin { println(\"$$ $(date +%s%N)\") }"
	case_ tmpdir-missing 1 "stp: cannot make a temporary directory in TMPDIR '$T/none': No such file or directory" -- \
		env TMPDIR="$T/none" "$STP" --sysroot="$K" -r "$R" -p4 -e "$u"
	: >"$T/afile"
	case_ tmpdir-file 1 "stp: cannot make a temporary directory in TMPDIR '$T/afile': Not a directory" -- \
		env TMPDIR="$T/afile" "$STP" --sysroot="$K" -r "$R" -p4 -e "$u"
	mkdir -p "$T/a b" "$T/tmp"
	case_ tmpdir-space 1 "stp: TMPDIR '$T/a b' holds white space, which the kernel's build (make) cannot take in a path; set TMPDIR to a directory without it" -- \
		env TMPDIR="$T/a b" "$STP" --sysroot="$K" -r "$R" -p4 -e "$u"
	case_ tmpdir-used 0 "Keeping the build directory $T/tmp/stp-build" -- bash -c "S='$(realpath "$STP")' && cd '$T' &&
		TMPDIR='$T/tmp' \"\$S\" --sysroot='$K' -r '$R' -p4 -k -m tmpdir_used -e '$u' 2>&1 >/dev/null | sed 's/build[A-Za-z0-9]*\$/build/'"
	# -o FILE -S go to stprun, which opens FILE.0 before it loads the
	# module (which this host refuses, or cannot load: not root)
	case_ S-to-stprun 0 "$T/rot.0" -- bash -c "'$STP' --sysroot='$K' -r '$R' -o '$T/rot' -S 2,3 \
		-e 'probe begin { println(1) }' >/dev/null 2>&1; ls '$T'/rot*"
fi
# frozen.c: a global only begin writes is a constant while event probes
# run, so the tracepoint's handler reads it without a lock (kmod/access.c);
# begin, which writes it, keeps its lock
if K=$(tests/kernel.sh 2>/dev/null) && R=$(tests/kernel.sh release 2>/dev/null); then
	# shellcheck disable=SC2016 # the script's $id
	frozen='global want probe begin { want = 110 }
		probe kernel.trace("raw_syscalls:sys_enter") { if ($id == want) printf("%d\n", want) }'
	case_ frozen-no-lock 0 $'\t.locks = p1_locks, .nlocks = 0,' -- \
		"$STP" --sysroot="$K" -r "$R" -p3 -e "$frozen"
	case_ frozen-begin-lock 0 $'\t.locks = p0_locks, .nlocks = 1,' -- \
		"$STP" --sysroot="$K" -r "$R" -p3 -e "$frozen"
	# --prologue-searching: a -O2 kernel's function (its variables have
	# location lists) is probed at its entry unless asked for always (-P)
	# shellcheck disable=SC2016 # the script's $count
	vr='probe kernel.function("vfs_read") { println($count) }'
	case_ prologue-auto 0 0 -- bash -c "'$STP' --sysroot='$K' -r '$R' -p3 -e '$vr' | grep -c '\.offset = ' || true"
	case_ prologue-always 0 1 -- bash -c "'$STP' --sysroot='$K' -r '$R' --prologue-searching -p3 -e '$vr' | grep -c '\.offset = '"
	case_ prologue-P 0 1 -- bash -c "'$STP' --sysroot='$K' -r '$R' -P -p3 -e '$vr' | grep -c '\.offset = '"
	case_ prologue-never 0 0 -- bash -c "'$STP' --sysroot='$K' -r '$R' -P --prologue-searching=never -p3 -e '$vr' | grep -c '\.offset = ' || true"
fi
# -W: a broken tapset of -I is an error (read though the script needs
# nothing of it); without -W it is left unread, as a tapset not needed
mkdir -p "$T/brokenlib"
printf 'function fine() { return 1 }\nfunction broken( {\n' >"$T/brokenlib/broken.stp"
case_ W-broken-tapset 1 "$T/brokenlib/broken.stp:2:18: parse error: expected an identifier, saw '{'" -- \
	"$STP" -W -I "$T/brokenlib" -p2 -e 'probe begin { exit() }'
case_ broken-tapset-unread 0 "" -- bash -c "'$STP' -I '$T/brokenlib' -p2 -e 'probe begin { exit() }' >/dev/null"
case_ prologue-bad 1 "stp: --prologue-searching takes always, never or auto, not 'x'" -- \
	"$STP" --prologue-searching=x -e 'probe begin {}'
# -T in a guest, with a -c command that would run for 30 s: the script
# ends after 1 s (its end probe says so) and the command with it; a
# guest boot, about 20 s (STP_DRIVER_GUEST=0 leaves it out)
if [ "${STP_DRIVER_GUEST:-1}" != 0 ] && command -v qemu-system-x86_64 >/dev/null && K=$(tests/kernel.sh 2>/dev/null) && R=$(tests/kernel.sh release 2>/dev/null); then
	exact T-remote-c 0 'ended after about 1 s' -- "$STP" --sysroot="$K" -r "$R" --remote=qemu -T 1 -c 'sleep 30' \
		-e 'global n; probe timer.ms(100) { n++ } probe end { printf("%s\n", n >= 5 && n <= 11 ? "ended after about 1 s" : sprintf("%d ticks", n)) }'
fi

# A script name that is no file here is looked up in the build tree's
# examples/ (this stp is the tree's), then the installed scripts
# directory; -v says where.  A path is read as given.
STPA=$(cd "$(dirname "$STP")" && pwd)/$(basename "$STP")
TOP=$(cd "$(dirname "$STPA")" && pwd)
case_ lookup-found 0 "stp: counter.stp: found in $TOP/examples" -- bash -c "cd '$T' && '$STPA' -v -p1 counter.stp"
case_ lookup-p1 0 'probe end {' -- bash -c "cd / && '$STPA' -p1 counter.stp"
exact lookup-quiet 0 '' -- bash -c "cd / && '$STPA' -p1 counter.stp >/dev/null"
exact lookup-missing 1 "stp: cannot read script 'nope.stp': No such file or directory (looked in ., $TOP/examples, /usr/local/share/stp/scripts)" -- \
	bash -c "cd '$T' && '$STPA' -p1 nope.stp"
printf 'probe begin { println("mine") }\n' >"$T/counter.stp"
case_ lookup-here-first 0 $'\tprintln("mine");' -- bash -c "cd '$T' && '$STPA' -p1 counter.stp"
exact lookup-path 1 "stp: cannot read script './nope.stp': No such file or directory" -- "$STP" -p1 ./nope.stp
# an stp outside a build tree looks in the installed directory only
cp "$STP" "$T/stp-copy"
exact lookup-installed 1 "stp: cannot read script 'counter.stp': No such file or directory (looked in ., /usr/local/share/stp/scripts)" -- \
	bash -c "cd / && '$T/stp-copy' -p1 counter.stp"
# make install puts the examples there
case_ install-scripts 0 'counter.stp' -- bash -c "make -s install DESTDIR='$T/root' >/dev/null && ls '$T/root/usr/local/share/stp/scripts'"
# -S SIZE_MB[,COUNT] and -F go to stprun; checked here first
exact S-zero 1 "stp: -S takes SIZE_MB[,COUNT] (a number of megabytes, then of files, each from 1), not '0'" -- "$STP" -p1 -o out -S 0 -e 'probe begin {}'
exact S-count-zero 1 "stp: -S takes SIZE_MB[,COUNT] (a number of megabytes, then of files, each from 1), not '1,0'" -- "$STP" -p1 -o out -S 1,0 -e 'probe begin {}'
exact S-text 1 "stp: -S takes SIZE_MB[,COUNT] (a number of megabytes, then of files, each from 1), not '1M'" -- "$STP" -p1 -o out -S 1M -e 'probe begin {}'
exact S-no-o 1 "stp: -S 2,3 needs -o FILE" -- "$STP" -p1 -S 2,3 -e 'probe begin {}'
exact S-missing 1 'stp: option -S needs an argument' -- "$STP" -p1 -e 'probe begin {}' -S
exact F-c 1 "stp: -F and -c 'ls' exclude each other (a detached run has no command)" -- "$STP" -p1 -F -c ls -e 'probe begin {}'
exact c-x 1 "stp: -c 'ls' and -x exclude each other (target() is the command's process, or the one -x names)" -- "$STP" -p1 -c ls -x 1 -e 'probe begin {}'
exact F-remote 1 "stp: -F and --remote=qemu exclude each other (the guest ends with the run)" -- "$STP" -p1 -F --remote=qemu -e 'probe begin {}'
case_ F-S-ok 0 'probe begin {' -- "$STP" -p1 -F -o out -S 2,3 -e 'probe begin {}'
case_ help-S 0 '  -S MB[,N]      with -o: FILE.0, FILE.1, ..., each at most MB megabytes,' -- "$STP" --help
case_ help-F 0 '  -F             with -o: stprun runs in the background (prints the' -- "$STP" --help

echo "$pass passed, $fail failed"
