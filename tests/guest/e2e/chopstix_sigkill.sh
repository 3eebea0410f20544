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
# Whole: each vital's sample count matches its epoch's sample lines, and an
# epoch with events has samples (its first event is always sampled) or says
# it dropped them.  An epoch may hold no events: the timer can miss half a
# second while TCG translates SQLite.
bad=$(awk -F'"' '
	{ for (i = 2; i < NF; i += 2) v[$i] = $(i + 1) ~ /^:[-0-9]/ ? $(i + 1) : $(i + 2) }
	/"kind":"vital"/ {
		ev = v["events"]; sa = v["samples"]; dr = v["dropped"]
		gsub(/[:,]/, "", ev); gsub(/[:,]/, "", sa); gsub(/[:,]/, "", dr)
		want[v["epoch_start"]] += sa
		if (ev > 0 && sa + dr == 0) n++
	}
	/"kind":"sample"/ { got[v["epoch_start"]]++ }
	END { for (e in want) if (want[e] != got[e] + 0) n++
	      for (e in got) if (!(e in want)) n++
	      print n + 0 }' /tmp/kill.json)
if [ "$printed" -ge 3 ] && [ "$stored" -ge "$printed" ] && [ "$bad" = 0 ]; then
	echo "every printed epoch is stored, whole"
else
	echo "printed $printed, stored $stored, not whole $bad"
	grep '"kind":"vital"' /tmp/kill.json
	cat /tmp/kill.err
fi
