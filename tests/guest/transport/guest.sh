# The transport checks, run inside the guest by run.sh (through
# staprun/stp-qemu): stp_ttest.ko and stprun under every option and
# signal.  Prints "plan N" first, then "ok NAME" or "FAIL NAME: why" per
# check: exactly N of them, or run.sh counts the missing ones as failed
# (a guest that dies or a check that is skipped must not pass quietly).
# ORDER: PLAN is the number of checks below; change both together.
PLAN=38
echo "plan $PLAN"
M=/files/stp_ttest.ko
fail() { echo "FAIL $1: $2"; }
ok() { echo "ok $1"; }
unloaded() {	# NAME: the module is gone (waits up to 20 s for it)
	i=0
	while grep -q '^stp_ttest ' /proc/modules; do
		i=$((i + 1))
		[ $i -lt 200 ] || { fail "$1" "module still loaded"; return 1; }
		sleep 0.1
	done
	return 0
}
same() {	# NAME EXPECTED-FILE ACTUAL-FILE
	if cmp -s "$2" "$3"; then ok "$1"; else
		fail "$1" "output differs"; diff "$2" "$3" | head -20 | sed 's/^/  /'
	fi
}
has() {	# NAME FILE LINE
	if grep -qxF "$3" "$2"; then ok "$1"; else
		fail "$1" "no line '$3' in:"; head -20 "$2" | sed 's/^/  /'
	fi
}
status() {	# NAME WANT GOT
	if [ "$2" = "$3" ]; then ok "$1"; else fail "$1" "exit $3, want $2"; fi
}

# Basic run: begin, lines from each CPU merged in order, ticks, exit(),
# the warning, end.
stprun $M >out 2>err; rc=$?
printf 'begin target=0 greeting=hello\nline 0\nline 1\nline 2\ntick 1\ntick 2\ntick 3\nbye\n' >want
same basic.out want out
printf 'WARNING: test warning 3\n' >want
same basic.err want err
status basic.exit 0 $rc
unloaded basic.unload && ok basic.unload

# 400 lines alternating between the CPUs: stprun merges them in order.
stprun -D LINES=400 $M exit_after=1 >out 2>err; rc=$?
{ echo 'begin target=0 greeting=hello'; i=0
  while [ $i -lt 400 ]; do echo "line $i"; i=$((i + 1)); done
  echo 'tick 1'; echo bye; } >want
same merge.out want out
status merge.exit 0 $rc
echo "  (guest has $(grep -c ^processor /proc/cpuinfo) CPUs)"

# -G, -D and a module parameter after the module, -x
stprun -x 1 -G greeting=hi -D LINES=1 $M exit_after=1 >out 2>err; rc=$?
printf 'begin target=1 greeting=hi\nline 0\ntick 1\nbye\n' >want
same params.out want out
status params.exit 0 $rc

# -o FILE: nothing on stdout
stprun -o /tmp/o.txt $M exit_after=2 >out 2>err; rc=$?
printf 'begin target=0 greeting=hello\nline 0\nline 1\nline 2\ntick 1\ntick 2\nbye\n' >want
same ofile.file want /tmp/o.txt
[ -s out ] && fail ofile.stdout "stdout not empty" || ok ofile.stdout
status ofile.exit 0 $rc

# -c: target() is the command's pid, the script ends when it does
stprun -c 'echo cmdpid=$$; sleep 1' $M exit_after=0 >out 2>err; rc=$?
pid=$(sed -n 's/^cmdpid=//p' out)
has cmd.target out "begin target=$pid greeting=hello"
has cmd.end out "bye"
status cmd.exit 0 $rc
unloaded cmd.unload && ok cmd.unload

# the script ends first: the command is terminated, stprun returns
stprun -c 'sleep 60' $M exit_after=2 >out 2>err; rc=$?
has cmdlong.end out "bye"
status cmdlong.exit 0 $rc
ps | grep -q '[s]leep 60' && fail cmdlong.killed "sleep still runs" || ok cmdlong.killed

# errors and limits reported, exit status 1
stprun $M exit_after=1 nerrors=2 ntrunc=12 >out 2>err; rc=$?
has errors.count err "WARNING: Number of errors: 2, skipped probes: 0"
has errors.event err "WARNING: 12 strings truncated at MAXSTRINGLEN; raise with -D MAXSTRINGLEN=N"
status errors.exit 1 $rc

# SIGINT stops the script: end probes run, exit 0, module gone
stprun $M exit_after=0 >out 2>err & pid=$!
sleep 1
kill -INT $pid
wait $pid; rc=$?
printf 'begin target=0 greeting=hello\nline 0\nline 1\nline 2\ntick 1\ntick 2\ntick 3\nbye\n' >want
same sigint.out want out
status sigint.exit 0 $rc
unloaded sigint.unload && ok sigint.unload

# SIGTERM, then two SIGINTs while stopping
stprun $M exit_after=0 >out 2>err & pid=$!
sleep 1
kill -TERM $pid; kill -INT $pid; kill -INT $pid
wait $pid; rc=$?
has sigs.end out "bye"
status sigs.exit 0 $rc
unloaded sigs.unload && ok sigs.unload

# -b: the buffer size reaches the module; a second stprun is refused
stprun -b 2 $M exit_after=0 >out 2>err & pid=$!
sleep 1
b=$(cat /sys/module/stp_ttest/parameters/stp_bufsize 2>/dev/null)
status bufsize 2097152 "$b"
stprun $M >out2 2>err2; rc=$?
has loaded.msg err2 "stprun: module stp_ttest is already loaded"
status loaded.exit 1 $rc
kill -INT $pid; wait $pid
unloaded bufsize.unload && ok bufsize.unload

# kill -9: the guardian unloads the module (after the module stopped
# itself when the control file was released)
stprun $M exit_after=0 >out 2>err & pid=$!
sleep 1
grep -q '^stp_ttest ' /proc/modules && ok kill9.loaded || fail kill9.loaded "not loaded"
kill -9 $pid
wait $pid 2>/dev/null
unloaded kill9.unload && ok kill9.unload
sleep 0.2
has kill9.msg err "stprun: module stp_ttest unloaded after stprun ended"

# A tiny relay buffer: output is dropped, every byte counted
stprun -D LINES=2000 $M stp_bufsize=1 width=200 exit_after=1 >out 2>err; rc=$?
n=$(wc -l <out)
d=$(sed -n 's/^WARNING: \([0-9]*\) output bytes dropped (transport buffers full); raise with -b MB (buffer size per CPU)$/\1/p' err)
echo "  ($n of 2003 lines came through, ${d:-0} bytes dropped)"
if [ -n "$d" ] && [ $((n * 201 + d)) -eq $((2003 * 201)) ]; then ok drops.count
else fail drops.count "lines $n, dropped '${d}'"; cat err | sed 's/^/  /'; fi
status drops.exit 0 $rc
grep -q '^bye\.' out && ok drops.end || fail drops.end "no bye"

# nothing went wrong in the kernel
if dmesg | grep -E 'WARNING:|BUG|Oops|general protection' >kern; then
	fail kernel "kernel messages:"; head -20 kern | sed 's/^/  /'
else ok kernel; fi
