# SIGKILL of stprun while it collects: the store must open and hold every
# epoch whose summary stprun printed (it stores an epoch before printing
# it), each whole: its vital and its samples.  $1 stprun, $2 module, $3 name.
# Six seconds: under TCG the first epoch takes a second or two to store
# (QEMU translating SQLite's code as it first runs).
$1 --vitals-db /tmp/kill.db -G chopstix_epoch_ms=500 "$2" >/tmp/kill.out 2>/tmp/kill.err &
p=$!
sleep 6
kill -9 $p
wait $p 2>/dev/null	# not the shell's "Killed"
echo "stprun: exit $?"
i=0
while [ -d /sys/module/$3 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -d /sys/module/$3 ] && echo "the module is still loaded"
printed=$(grep -c '^vitals epoch' /tmp/kill.out)
/files/stp-vitals dump /tmp/kill.db >/tmp/kill.json
echo "dump: exit $?"
stored=$(grep -c '"kind":"vital"' /tmp/kill.json)
whole=$(grep '"kind":"vital"' /tmp/kill.json | grep -c '"samples":[1-9]')
want=$(grep '"kind":"vital"' /tmp/kill.json | sed 's/.*"samples":\([0-9]*\).*/\1/' |
	awk '{ s += $1 } END { print s + 0 }')
got=$(grep -c '"kind":"sample"' /tmp/kill.json)
if [ "$printed" -ge 3 ] && [ "$stored" -ge "$printed" ] && [ "$whole" = "$stored" ] &&
	[ "$want" = "$got" ]; then
	echo "every printed epoch is stored, whole"
else
	echo "printed $printed, stored $stored, with samples $whole; samples $want, lines $got"
	cat /tmp/kill.err
fi
