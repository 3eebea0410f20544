# The safety rounds, run inside one guest (2 vCPUs) by run.sh through
# staprun/stp-qemu; run.sh's wrapper sets ROUNDS first.  While a
# workload keeps both CPUs busy (file-system walks, reads of many files,
# fork/exec loops, pipes), each hot_NAME.ko is loaded and unloaded
# ROUNDS times each way (SIGINT to stprun, exit() from the script's
# timer, SIGKILL of stprun: the guardian must unload), and each
# bad_NAME.ko runs once and must end with its error or its drop count.
# Prints "ok NAME" or "FAIL NAME: why" per check, "figure NAME N" lines
# for run.sh's summary, and the kernel log's bad lines at the end.
M=/files
ROUNDS=${ROUNDS:-3}
DEBUGFS_SKIP=/sys/kernel/debug	# the modules' trace files: not for the workload
ok() { echo "ok $1"; }
fail() { echo "FAIL $1: $2"; [ -z "${3:-}" ] || sed 's/^/  /' "$3" | head -20; }
figure() { echo "figure $1 $2"; }

# ---- the workload ---------------------------------------------------------
# Each loop at nice 19: it takes every cycle the rounds leave, but the
# rounds themselves (stprun moving output, the shell waiting) are not
# starved.
wl_pids=
busy() {	# COMMANDS: run them over and over in the background
	# shellcheck disable=SC2016 # $$: the new shell's pid
	sh -c 'renice -n 19 -p $$ && while :; do '"$1"'; done' >/dev/null 2>&1 &
	wl_pids="$wl_pids $!"
}
workload_start() {
	# walks: every directory entry of /proc, /sys (not the modules'
	# trace files) and the initramfs
	busy "find / -path $DEBUGFS_SKIP -prune -o -print"
	# reads of many small files
	busy "cat /proc/[0-9]*/stat /proc/[0-9]*/maps /sys/devices/system/cpu/*/topology/*"
	# fork/exec: a static program, so the shell cannot run it in itself
	busy "/files/loop getppid 100"
	# pipes
	busy "dd if=/dev/zero bs=4096 count=64 | cat | wc -c"
}
workload_stop() {
	# shellcheck disable=SC2086 # a list of pids
	kill $wl_pids 2>/dev/null
	wait 2>/dev/null
}

# ---- one round --------------------------------------------------------------
gone() {	# MODULE: not loaded, waiting up to 30 s for the guardian
	i=0
	while [ -d "/sys/module/$1" ] || grep -q "^$1 " /proc/modules; do
		i=$((i + 1))
		[ $i -lt 300 ] || return 1
		sleep 0.1
	done
}
started() {	# stprun's pid: waits until the begin probe printed "started"
	i=0
	until grep -qx started out 2>/dev/null; do
		kill -0 "$1" 2>/dev/null || return 1
		i=$((i + 1))
		[ $i -lt 1200 ] || return 1
		sleep 0.1
	done
}
# The stderr lines a run may have besides its error: limits counted and
# reported (runtime/counters.h), the error summary.  Anything else is a
# failure.
counted_only() {	# <LINES
	! grep -v -E '^WARNING: ([0-9]+ (probes skipped|kretprobe returns missed|map insertions failed|output bytes dropped)|Number of errors: 0, skipped probes: [0-9]+$)' >/dev/null
}
skipped=0 missed=0 hits=0 rounds=0 errors=0 dropped=0
tally() {	# FILE: adds its counted events to the figures
	s=$(sed -n 's/^WARNING: Number of errors: [0-9]*, skipped probes: \([0-9]*\)$/\1/p' "$1")
	skipped=$((skipped + ${s:-0}))
	s=$(sed -n 's/^WARNING: \([0-9]*\) kretprobe returns missed$/\1/p' "$1")
	missed=$((missed + ${s:-0}))
	s=$(sed -n 's/^WARNING: \([0-9]*\) output bytes dropped.*/\1/p' "$1" | awk '{ n += $1 } END { print n + 0 }')
	dropped=$((dropped + s))
	errors=$((errors + $(grep -c '^ERROR: ' "$1")))
}

# hot NAME HOW: one load and unload of hot_NAME.ko ended HOW (int, exit,
# kill); checks the exit status, the output, that the module is gone.
hot() {
	t=$1.$2.$3
	rounds=$((rounds + 1))
	t0=$(date +%s)
	rm -f out err
	echo "stp-safety: begin $t" >/dev/kmsg
	# MAXSKIPPED raised: hits skipped for a global's lock are counted and
	# reported (a figure), but must not end the script: single-threaded
	# TCG makes them common (a vCPU that holds the lock can wait out the
	# other's time slice, up to 100 ms), and 101 of them in one second
	# of hot_kmem came in 2 rounds of 112.
	case $2 in
	exit) stprun -D MAXSKIPPED=1000000 -G exit_ms=1500 "$M/$1.ko" >out 2>err & ;;
	*) stprun -D MAXSKIPPED=1000000 "$M/$1.ko" >out 2>err & ;;
	esac
	pid=$!
	want=0
	if ! started $pid; then
		fail "$t" "never started"
	else
		sleep 1	# hits under the workload
		case $2 in
		int) kill -INT $pid ;;
		kill) kill -KILL $pid; want=137 ;;
		esac
	fi
	wait $pid 2>/dev/null	# (no "Killed" from the shell)
	rc=$?
	figure "seconds.$t" $(($(date +%s) - t0))
	echo "stp-safety: end $t" >/dev/kmsg
	[ $rc = $want ] || { fail "$t" "stprun exit $rc, want $want" err; return; }
	if [ "$2" = kill ]; then
		gone "$1" || { fail "$t" "module left loaded after SIGKILL"; rmmod -f "$1"; return; }
		sleep 0.2	# the guardian's message follows the unload
		grep -qxF "stprun: module $1 unloaded after stprun ended" err ||
			{ fail "$t" "no word from the guardian" err; return; }
		ok "$t"
		return
	fi
	[ ! -d "/sys/module/$1" ] || { fail "$t" "module left loaded"; rmmod -f "$1"; return; }
	n=$(sed -n 's/^hits \([1-9][0-9]*\)$/\1/p' out)
	if [ -z "$n" ] || [ "$(head -1 out)" != started ] || [ "$(wc -l <out)" != 2 ]; then
		fail "$t" "output is not 'started', 'hits N':" out
		return
	fi
	hits=$((hits + n))
	counted_only <err || { fail "$t" "stderr:" err; return; }
	tally err
	ok "$t"
}

# bad NAME: bad_NAME.ko runs until its error stops it, exit status 1.
# stderr begins with bad_NAME.want's first line (the error), holds each
# of its lines ("~REGEX": a line matching it), and besides them only
# "WARNING: Number of errors: N, ..." and counted limits: the error line
# may come more than once (both CPUs can fail before the script stops),
# so the counts are not fixed.
bad() {
	t=$1
	rounds=$((rounds + 1))
	t0=$(date +%s)
	rm -f out err
	echo "stp-safety: begin $t" >/dev/kmsg
	timeout -s KILL 60 stprun "$M/$1.ko" >out 2>err
	rc=$?
	figure "seconds.$t" $(($(date +%s) - t0))
	echo "stp-safety: end $t" >/dev/kmsg
	[ $rc = 1 ] || { fail "$t" "stprun exit $rc, want 1" err; return; }
	[ ! -d "/sys/module/$1" ] || { fail "$t" "module left loaded"; rmmod -f "$1"; return; }
	grep -v '^~' "$M/$1.want" >exact
	if [ "$(head -1 err)" != "$(head -1 exact)" ]; then
		fail "$t" "stderr does not begin with: $(head -1 exact)" err
		return
	fi
	if ! grep -vxF -f exact err |
		grep -v -E '^WARNING: Number of errors: [1-9][0-9]*, skipped probes: [0-9]+$' | counted_only ||
		! grep -qE '^WARNING: Number of errors: [1-9]' err; then
		fail "$t" "stderr:" err
		return
	fi
	while read -r l; do
		case $l in
		"~"*) grep -qE "${l#?}" err ;;
		*) grep -qxF "$l" err ;;
		esac || { fail "$t" "no line '$l' in stderr:" err; return; }
	done <"$M/$1.want"
	tally err
	ok "$t"
}

# flood: bad_flood.ko's 100-byte lines through 8 KB buffers per CPU:
# every byte that did not reach stdout is counted as dropped.
flood() {
	t=flood
	rounds=$((rounds + 1))
	t0=$(date +%s)
	rm -f out err
	echo "stp-safety: begin $t" >/dev/kmsg
	timeout -s KILL 60 stprun "$M/bad_flood.ko" stp_bufsize=8192 >out 2>err
	rc=$?
	figure "seconds.$t" $(($(date +%s) - t0))
	echo "stp-safety: end $t" >/dev/kmsg
	[ $rc = 0 ] || { fail "$t" "stprun exit $rc, want 0" err; return; }
	[ ! -d /sys/module/bad_flood ] || { fail "$t" "module left loaded"; rmmod -f bad_flood; return; }
	n=$(sed -n 's/^WARNING: printed \([0-9]*\)$/\1/p' err)
	d=$(sed -n 's/^WARNING: \([0-9]*\) output bytes dropped.*/\1/p' err | awk '{ n += $1 } END { print n + 0 }')
	l=$(wc -l <out)
	figure flood.printed "${n:-0}"
	figure flood.arrived "$l"
	if [ -z "$n" ] || [ "$d" = 0 ] || [ $((l * 100 + d)) != $((n * 100)) ]; then
		fail "$t" "printed ${n:-?} lines of 100 bytes, $l arrived, $d bytes reported dropped" err
		return
	fi
	grep -qxF "WARNING: $d output bytes dropped (transport buffers full); raise with -b MB (buffer size per CPU)" err ||
		{ fail "$t" "no drop report" err; return; }
	grep -v -x -e "WARNING: printed $n" err | counted_only || { fail "$t" "stderr:" err; return; }
	tally err
	ok "$t"
}

cd /tmp || exit 1
echo "  (guest has $(grep -c ^processor /proc/cpuinfo) CPUs)"
workload_start
# hot_syscalls arms and disarms some 440 kretprobes, each a text patch
# that waits for the other vCPU (an IPI), which single-threaded TCG
# runs only when the busy one's time slice ends: 25 to 55 s a round
# under the workload.  One round of each ending is enough for it.
for m in "$M"/hot_*.ko; do
	m=${m##*/}
	m=${m%.ko}
	last=$ROUNDS
	[ "$m" != hot_syscalls ] || last=1
	round=1
	while [ $round -le "$last" ]; do
		for how in int exit kill; do hot "$m" $how $round; done
		round=$((round + 1))
	done
done
for w in "$M"/bad_*.want; do
	w=${w##*/}
	bad "${w%.want}"
done
flood
workload_stop
figure rounds $rounds
figure hits $hits
figure errors $errors
figure skipped $skipped
figure kretprobe_missed $missed
figure dropped $dropped

# nothing went wrong in the kernel (each bad line shown with the round
# it came in), and nothing is left loaded
dmesg | awk '/stp-safety: begin / { cur = $NF; next }
	/stp-safety: end / { cur = ""; next }
	/WARNING:|BUG:|Oops|general protection|soft lockup|self-detected stall|rcu: INFO|blocked for more than|Call Trace/ {
		print (cur == "" ? "(between rounds)" : cur) ": " $0
	}' >kern
if [ -s kern ]; then
	fail kernel "kernel messages:" kern
	# one per oops, whatever kind: "Oops: 0010 [#1] ...", "general
	# protection fault ...: 0000 [#2] ...", "invalid opcode: 0000 [#1] ..."
	figure oopses "$(grep -c -E ': [0-9a-f]{4} \[#[0-9]+\]' kern)"
else
	ok kernel
	figure oopses 0
fi
if grep -E '^(hot|bad)_' /proc/modules >left; then fail modules "left loaded:" left; else ok modules; fi
