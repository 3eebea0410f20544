# The process, scheduler, signal and memory tapsets against a shell's
# children (procvm_tapsets.stp says what it checks).  $1 stprun, $2 module.
# The workload is a file, so that the -c target is one sh running it.
# The signalled child is "ready" once its file exists: by then it runs
# pagesleep with SIGUSR1 and SIGHUP ignored (the subshell's trap '' is
# kept across exec), so both are ignored and SIGKILL ends it.
cat >/tmp/procvm_work.sh <<'WORK'
trap ': usr2' USR2
kill -USR2 $$
/files/pagesleep 64 5 0
(trap '' USR1 HUP; exec /files/pagesleep 0 1000 0 /tmp/procvm_ready) &
p=$!
until [ -e /tmp/procvm_ready ]; do :; done
kill -USR1 $p
kill -HUP $p
kill -KILL $p
wait $p 2>/dev/null	# not the shell's "Killed"
/files/pagesleep 0 0 3
exit 0
WORK
$1 -c "sh /tmp/procvm_work.sh" "$2"
