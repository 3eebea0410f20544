# sh coll_sigterm.sh STPRUN KO MODULE: once with SIGTERM, once with SIGINT
stprun=$1 ko=$2 mod=$3
for sig in TERM INT; do
	$stprun "$ko" >/tmp/sig.out &
	pid=$!
	i=0
	until grep -q begin /tmp/sig.out 2>/dev/null || [ $i -ge 100 ]; do sleep 0.1; i=$((i + 1)); done
	sleep 0.5
	kill -$sig $pid
	wait $pid
	echo "SIG$sig: exit $?"
	cat /tmp/sig.out
	[ -d "/sys/module/$mod" ] || echo "unloaded"
done
