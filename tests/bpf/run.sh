#!/bin/bash
# Native tests of --runtime=bpf on this machine's own kernel (issue 17).
#
#   tests/bpf/run.sh [NAME...]
#
# Each tests/bpf/NAME.stp runs as `stp --runtime=bpf NAME.stp` (from
# tests/bpf/, so messages name the file alone); optional NAME.pre is a
# command prefix (setpriv, to drop capabilities), NAME.opts more stp
# options, NAME.run (a guest test's stprun options: -c "CMD") passed to
# stp, NAME.bg a workload run in the background meanwhile (killed
# after; $LOOP is the getppid loop, getppid_loop.c), and NAME.auto (empty) runs it without --runtime: stp's own
# pick on a kernel that loads no modules.  Its stdout, then "--- stderr", stderr, "--- exit RC" must be
# NAME.expect exactly: the guest e2e tests' format (after NAME.filter,
# when there is one; NAME.post runs before and after, its output added
# to stdout's).  The guest scripts
# named in guest.list run the same way from tests/guest/e2e and must give
# their kmod .expect exactly; `install` (run first) checks that an
# installed stp runs a script.  Needs root (BPF), clang and libbpf.
#
#   tests/bpf/run.sh [--tracefs-unmounted] [NAME...]
#
# --tracefs-unmounted runs each test in a mount namespace of its own
# where nothing is mounted on /sys/kernel/tracing (nor debugfs), as on a
# machine that booted without them: stp must find the tracepoints'
# systems all the same (it mounts tracefs there).  make check runs the
# suite both ways.
cd "$(dirname "$0")" || exit 1
unmounted=()
if [ "${1:-}" = --tracefs-unmounted ]; then
	shift
	# the namespace's copies only: the machine's mounts stay
	unmounted=(unshare --mount --propagation private sh -c
		'umount -q /sys/kernel/tracing /sys/kernel/debug/tracing /sys/kernel/debug 2>/dev/null
		 ! mountpoint -q /sys/kernel/tracing || exit 99; exec "$@"' sh)
fi
top=$(cd ../.. && pwd)
stp=$top/stp
fail=0 n=0
LOOP=$top/build/tests/getppid_loop
mkdir -p "$top/build/tests"
cc -O2 -o "$LOOP" getppid_loop.c || exit 1
cc -O1 -g -o "$top/build/tests/uprobe_target" uprobe_target.c || exit 1
cc -O1 -o "$top/build/tests/uprobe_target_nodebug" uprobe_target.c || exit 1
cc -O0 -g -o "$top/build/tests/entry_target" entry_target.c || exit 1
cc -O1 -fno-omit-frame-pointer -o "$top/build/tests/stack_target" stack_target.c || exit 1
cc -O1 -pthread -o "$top/build/tests/vitals_load" vitals_load.c || exit 1

run_one() {	# dir name -> the .expect format on stdout
	out=$(mktemp) err=$(mktemp)
	pre=; opts=; rt=--runtime=bpf
	[ -f "$1/$2.auto" ] && rt=
	[ -f "$1/$2.pre" ] && pre=$(cat "$1/$2.pre")
	[ -f "$1/$2.opts" ] && opts=$(head -1 "$1/$2.opts")
	# @SYSROOT@ @RELEASE@: another kernel's (tests/kernel.sh: 6.1), to
	# build an object against BTF other than the running kernel's
	case $opts in *@SYSROOT@*)
		opts=${opts//@SYSROOT@/$(../kernel.sh)}
		opts=${opts//@RELEASE@/$(../kernel.sh release)};; esac
	# the guest compares stprun's stderr, not pass 2's warnings
	[ "$1" = . ] || opts="-w $opts"
	[ ! -f "$1/$2.post" ] || (cd "$1" && sh "$2.post" before)
	bg=
	if [ -f "$1/$2.bg" ]; then
		LOOP=$LOOP sh -c "$(cat "$1/$2.bg")" & bg=$!
	fi
	run=()
	[ ! -s "$1/$2.run" ] || eval "run=($(head -1 "$1/$2.run"))"
	(cd "$1" && timeout 60 ${unmounted[@]+"${unmounted[@]}"} $pre "$stp" $rt $opts "${run[@]}" "$2.stp" >"$out" 2>"$err")
	rc=$?
	[ -z "$bg" ] || { kill $bg; wait $bg; } 2>/dev/null
	# NAME.post: run before the test (argument "before") and after it,
	# when what it prints joins stdout (a store the test wrote, read back)
	[ ! -f "$1/$2.post" ] || (cd "$1" && sh "$2.post" >>"$out")
	cat "$out"
	if [ -s "$out" ] && [ "$(tail -c1 "$out" | od -An -c | tr -d ' ')" != '\n' ]; then
		echo; echo "--- no newline at end"
	fi
	echo "--- stderr"; cat "$err"; echo "--- exit $rc"
	rm -f "$out" "$err"
}

check() {	# dir name
	n=$((n + 1))
	# NAME.filter: a command the output goes through first (what
	# differs from run to run, checked there by its form)
	if run_one "$1" "$2" | if [ -f "$1/$2.filter" ]; then sh "$1/$2.filter"; else cat; fi |
	   diff -u "$1/$2.expect" - >/tmp/stp-bpf-test.diff; then
		echo "ok   $2"
	else
		echo "FAIL $2"; sed 's/^/    /' /tmp/stp-bpf-test.diff | head -60; fail=$((fail + 1))
	fi
}

# `make install` ships the BPF runtime (its headers and the libraries
# each script's user side links with): an installed stp, run from
# elsewhere, builds and runs a script.
check_install() {
	n=$((n + 1))
	local dest got
	dest=$(mktemp -d)
	got=$(make -C "$top" install PREFIX="$dest" >"$dest.log" 2>&1 &&
	      cd / && timeout 60 "$dest/bin/stp" --runtime=bpf \
		-e 'probe begin { println("hi"); exit() }' 2>&1; echo "rc $?")
	if [ "$got" = "hi
rc 0" ]; then
		echo "ok   install"
	else
		echo "FAIL install"; echo "$got"; tail -5 "$dest.log"; fail=$((fail + 1))
	fi
	rm -rf "$dest" "$dest.log"
}

if [ $# -gt 0 ]; then
	for t in "$@"; do
		if [ "$t" = install ]; then check_install
		elif [ -f "$t.stp" ]; then check . "$t"; else check ../guest/e2e "$t"; fi
	done
else
	check_install
	for f in *.stp; do check . "${f%.stp}"; done
	for t in $(grep -v '^#' guest.list); do check ../guest/e2e "$t"; done
fi
echo "$((n - fail)) passed, $fail failed"
[ $fail -eq 0 ]
