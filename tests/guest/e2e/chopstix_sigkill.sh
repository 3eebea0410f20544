# SIGKILL of stprun while it collects: the store must open and hold every
# epoch whose summary stprun printed (it stores an epoch before printing
# it), each whole: its vital and its samples.  $1 stprun, $2 module, $3 name.
$1 --vitals-db /tmp/kill.db -G chopstix_epoch_ms=500 "$2" >/tmp/kill.out 2>/tmp/kill.err &
p=$!
sleep 3
kill -9 $p
wait $p
echo "stprun: exit $?"
i=0
while [ -d /sys/module/$3 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -d /sys/module/$3 ] && echo "the module is still loaded"
printed=$(grep -c '^vitals epoch' /tmp/kill.out)
/files/stp-vitals dump /tmp/kill.db >/tmp/kill.json
echo "dump: exit $?"
stored=$(grep -c '"kind":"vital"' /tmp/kill.json)
whole=$(grep '"kind":"vital"' /tmp/kill.json | grep -c '"samples":[1-9]')
if [ "$printed" -ge 3 ] && [ "$stored" -ge "$printed" ] && [ "$whole" = "$stored" ]; then
	echo "every printed epoch is stored, whole"
else
	echo "printed $printed, stored $stored, with samples $whole"
	cat /tmp/kill.err
fi
