#!/bin/bash
# stp -i, as a person uses it.  Two tests, each compared exactly with
# what it must print:
#
#   pipe     stp -i < pipe.cmds (no terminal: no prompt, no echo), its
#            stdout and stderr together and its exit status (1: a command
#            failed) against pipe.expect: bad pieces
#            refused with their diagnostics and the script left as it
#            was, delete, save/load, edit ($EDITOR is editor.sh: one
#            failed edit, then one from its text), set/show, run -p1,
#            help, an unknown command.
#   args     stp -i FILE and stp -i -e SCRIPT start with that script
#            (a bad one refused as add refuses it); -i with -l refused
#   session  stp -i in a terminal (tmux), typed key by key: Tab completes
#            kernel.trace("sched_swi (no system), process("/bin/ls").fu,
#            kernel.function("vfs_readl (-l's list, without @file:line)
#            and kernel.function("vfs_read").re, offers
#            syscall.getp's points and completes a point, its $variables
#            and a function,
#            a probe is added and listed, a parse error and an unknown
#            function are refused (file:line:col and caret), then a good
#            piece, save/load, "set remote qemu" and a run in a guest
#            that prints "hi" and comes back to the prompt, then a run
#            that only Ctrl-C ends (sent once QEMU runs), quit.  Ctrl-C on
#            an add's continuation line drops the piece.  The
#            whole screen (with its scrollback) must equal session.expect,
#            and ~/.stp_history (HOME is a scratch directory) history.expect
#            (a piece typed over two lines is one entry there).
#
#   tests/interactive/run.sh [--update] [STP]   last line "N passed, N failed"
#
# --update writes what each test printed into its .expect file (read the
# diff before committing).  Each step of the session waits for what it
# needs on the screen, at most STEP_TIMEOUT seconds (default 30; the run
# in the guest RUN_TIMEOUT, default 150), so a hang fails the test.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
update=0
[ "${1:-}" = --update ] && { update=1; shift; }
STP=${1:-./stp}
D=tests/interactive
W=build/tests/interactive
K=$(tests/kernel.sh) || exit 2
R=$(tests/kernel.sh release) || exit 2
STEP_TIMEOUT=${STEP_TIMEOUT:-30}
RUN_TIMEOUT=${RUN_TIMEOUT:-150}
TMUX_SOCK=stp-interactive.$$
pass=0
fail=0
rm -rf "$W"
mkdir -p "$W/home"

# compare NAME EXPECT ACTUAL
compare() {
	if [ "$update" = 1 ]; then
		cp "$3" "$2"
		echo "updated $2"
		return
	elif diff -u "$2" "$3" >"$W/$1.diff"; then
		echo "PASS $1"
		pass=$((pass + 1))
		return
	else
		echo "FAIL $1"
		sed 's/^/    /' "$W/$1.diff" | head -60
	fi
	fail=$((fail + 1))
}

pipe_test() {
	EDITOR=$D/editor.sh EDIT_COUNT=$W/edits HOME=$PWD/$W/home \
		timeout 60 "$STP" -i --sysroot="$K" -r "$R" <$D/pipe.cmds 2>&1 |
		sed -E 's|/tmp/stp-edit[A-Za-z0-9]{6}\.stp|/tmp/stp-editXXXXXX.stp|' >"$W/pipe.out"
	echo "--- exit ${PIPESTATUS[0]}" >>"$W/pipe.out"
	compare pipe $D/pipe.expect "$W/pipe.out"
}

args_test() {
	{
		printf 'global n\nprobe begin { n = 1; exit() }\n' >"$W/args.stp"
		echo list | "$STP" -i --sysroot="$K" -r "$R" "$W/args.stp"
		echo "--- exit $?"
		echo list | "$STP" -i --sysroot="$K" -r "$R" -e 'probe begin { exit( }'
		echo "--- exit $?"
		"$STP" -i -l begin
		echo "--- exit $?"
	} >"$W/args.out" 2>&1
	compare args $D/args.expect "$W/args.out"
}

tm() {
	tmux -L "$TMUX_SOCK" "$@"
}

screen() {
	tm capture-pane -p -S - -t stp
}

# wait_for ERE [SECONDS]: until a screen line matches ERE; 1 on timeout
wait_for() {
	local end=$((SECONDS + ${2:-$STEP_TIMEOUT}))
	while ((SECONDS < end)); do
		screen | grep -qE -- "$1" && return 0
		sleep 0.2
	done
	echo "timed out waiting for /$1/ on the screen" >>"$W/session.log"
	return 1
}

# prompts: how many prompts the screen shows; idle: a new one is last
prompts() {
	screen | grep -cE '^stp>( |$)'
}

wait_idle() {
	local want=$1 end=$((SECONDS + ${2:-$STEP_TIMEOUT}))
	while ((SECONDS < end)); do
		if [ "$(prompts)" -ge "$want" ] && [ "$(screen | sed '/^$/d' | tail -1)" = "stp>" ]; then
			return 0
		fi
		sleep 0.2
	done
	echo "timed out waiting for prompt $want" >>"$W/session.log"
	return 1
}

# type TEXT [KEY...]: the text as typed, then the keys (Tab, Enter)
type_keys() {
	tm send-keys -t stp -l "$1"
	shift
	[ $# = 0 ] || tm send-keys -t stp "$@"
}

# line TEXT [SECONDS]: a command line, then wait for the next prompt
line() {
	local n
	n=$(prompts)
	type_keys "$1" Enter
	wait_idle $((n + 1)) "${2:-}"
}

# processes under pid $1, children first
descendants() {
	local c
	for c in $(pgrep -P "$1"); do
		echo "$c"
		descendants "$c"
	done
}

# until a QEMU runs under the stp of the pane
wait_qemu() {
	local stp end=$((SECONDS + RUN_TIMEOUT)) p
	stp=$(tm list-panes -t stp -F '#{pane_pid}')
	while ((SECONDS < end)); do
		for p in $(descendants "$stp"); do
			[ "$(cat /proc/"$p"/comm 2>/dev/null)" = qemu-system-x86 ] && return 0
		done
		sleep 0.2
	done
	echo "timed out waiting for QEMU" >>"$W/session.log"
	return 1
}

# until stp has left (the pane stays, remain-on-exit)
wait_exit() {
	local end=$((SECONDS + STEP_TIMEOUT))
	while ((SECONDS < end)); do
		[ "$(tm list-panes -t stp -F '#{pane_dead}')" = 1 ] && return 0
		sleep 0.2
	done
	echo "timed out waiting for stp to exit" >>"$W/session.log"
	return 1
}

session_steps() {
	wait_idle 1 || return 1
	# a tracepoint without its system; a component after an argument
	type_keys 'add probe kernel.trace("sched_swi' Tab
	wait_for '^stp> add probe kernel\.trace\("sched_switch"\)$' || return 1
	tm send-keys -t stp C-u
	type_keys 'add probe process("/bin/ls").fu' Tab
	wait_for '^stp> add probe process\("/bin/ls"\)\.function\($' || return 1
	tm send-keys -t stp C-u
	type_keys 'add probe kernel.function("vfs_readl' Tab
	wait_for '^stp> add probe kernel\.function\("vfs_readlink"\) ?$' || return 1
	tm send-keys -t stp C-u
	type_keys 'add probe kernel.function("vfs_read").re' Tab
	wait_for '^stp> add probe kernel\.function\("vfs_read"\)\.return$' || return 1
	tm send-keys -t stp C-u
	type_keys 'add probe syscall.getp' Tab
	wait_for 'syscall\.getppid' || return 1
	type_keys 'pid' Tab
	wait_for '^stp> add probe syscall\.getppid$' || return 1
	type_keys ' { printf("%d %s\n", $ar' Tab
	wait_for '^\$arg1 +\$arg2' || return 1
	type_keys '1, execn' Tab
	wait_for 'execname$' || return 1
	line '()) }' || return 1
	line 'list' || return 1
	# Ctrl-C on a continuation line drops the piece
	type_keys 'add probe begin {' Enter
	wait_for '^\.\.\.>$' || return 1
	n=$(prompts)
	type_keys 'println(1'
	wait_for '^\.\.\.> println\(1$' || return 1
	tm send-keys -t stp C-c
	wait_idle $((n + 1)) || return 1
	line 'add probe begin { println("x" }' || return 1
	line 'add probe begin { printn(1) }' || return 1
	line 'list' || return 1
	line 'delete 1' || return 1
	# a piece over two lines: one history entry
	type_keys 'add probe begin {' Enter
	wait_for '^\.\.\.>$' || return 1
	line 'println("hi"); exit() }' || return 1
	line "save $W/session.stp" || return 1
	line 'delete 1' || return 1
	line "load $W/session.stp" || return 1
	line 'list' || return 1
	line 'set remote qemu' || return 1
	line 'run' "$RUN_TIMEOUT" || return 1
	# a run that only Ctrl-C ends: sent once QEMU runs
	line 'delete 1' || return 1
	line 'add probe timer.s(1) { println("tick") }' || return 1
	n=$(prompts)
	type_keys 'run' Enter
	wait_qemu || return 1
	sleep 2
	tm send-keys -t stp C-c
	wait_idle $((n + 1)) || return 1
	type_keys 'quit' Enter
	wait_exit
}

session_test() {
	: >"$W/session.log"
	tm kill-server 2>/dev/null
	tm -f /dev/null new-session -d -s stp -x 100 -y 50 \
		"env HOME=$PWD/$W/home INPUTRC=/dev/null $STP -i --sysroot=$K -r $R" || return
	tm set-option -t stp remain-on-exit on
	session_steps
	# QEMU names the sender of its SIGINT when timeout(1) forwards one too
	# (it races the terminal's own): either way it stopped on Ctrl-C
	screen | sed -e '/^$/d' -e '/^Pane is dead/d' \
		-e 's/terminating on signal 2 from pid [0-9]* (timeout)$/terminating on signal 2/' >"$W/session.out"
	cat "$W/session.log" >>"$W/session.out"
	tm kill-server 2>/dev/null
	compare session $D/session.expect "$W/session.out"
	compare history $D/history.expect "$W/home/.stp_history"
}

pipe_test
args_test
session_test
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
