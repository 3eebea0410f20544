# stp vitals.stp with two-second epochs while vitals_load exercises every
# vital sign; then the store, read back with stp-vitals dump, must hold
# each vital sign with events and samples of vitals_load (sched and blck:
# of the task switched in), cpuu's samples of the spinner in its own
# function, l2mi recorded unavailable with the reason, and no host name.
# $1 stprun, $2 module, $3 name.
# The spinner first, alone, for longer than an epoch: an epoch begins
# while it spins, so cpuu's sample list (40 slots, often full under the
# whole workload) has room for its first events.
loaded=
[ -e /dev/ram0 ] || { insmod /files/brd.ko rd_nr=1 rd_size=4096 && loaded=1; } || exit 1
$1 --vitals-db /tmp/vc.db -G chopstix_epoch_ms=2000 \
	-c "sh -c '/files/vitals_load spin 2500 && exec /files/vitals_load all'" "$2" \
	>/tmp/vc.out 2>/tmp/vc.err
echo "stprun: exit $?"
grep -c '^vitals epoch' /tmp/vc.out >/dev/null && echo "summaries printed"
/files/stp-vitals dump /tmp/vc.db >/tmp/vc.json
echo "dump: exit $?"
for v in cpuu l2mi sched blck blio kmem umem syscall sig sock lock; do
	ev=$(grep "\"kind\":\"vital\".*\"vital\":\"$v\"" /tmp/vc.json |
		sed 's/.*"events":\([0-9]*\).*/\1/' | awk '{ s += $1 } END { print s + 0 }')
	own=$(grep "\"kind\":\"sample\".*\"vital\":\"$v\"" /tmp/vc.json |
		grep -c '"exec":"/files/vitals_load"')
	why=$(grep "\"kind\":\"vital\".*\"vital\":\"$v\".*\"available\":false" /tmp/vc.json |
		head -1 | sed 's/.*"why":"\([^"]*\)".*/\1/')
	if [ -n "$why" ]; then
		echo "$v: unavailable: $why"
	elif [ "$ev" -gt 0 ] && [ "$own" -gt 0 ]; then
		echo "$v: events, and samples of vitals_load"
	else
		echo "$v: $ev events, $own samples of vitals_load"
	fi
done
spin=$(grep '"kind":"sample".*"vital":"cpuu".*"exec":"/files/vitals_load"' /tmp/vc.json |
	grep -c '"site":"vitals_spin+')
[ "$spin" -gt 0 ] && echo "cpuu: the spinner's samples fall in vitals_spin"
# The guest names no host (its nodename is the kernel's "(none)"): the
# store holds no name rather than that text (metrics labels by host).
/files/stp-vitals metrics /tmp/vc.db | grep -q '^stp_vitals_weight{host="",vital="cpuu"}' &&
	echo "host: no name recorded"
[ -z "$loaded" ] || rmmod brd
