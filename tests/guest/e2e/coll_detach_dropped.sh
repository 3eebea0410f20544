# sh coll_detach_dropped.sh STPRUN KO MODULE
stprun=$1 ko=$2 mod=$3
$stprun -F -b 1 "$ko"
echo "detach: exit $?"
sleep 8
$stprun -A "$mod" >/tmp/att
echo "attach: exit $?"
head -n 1 /tmp/att | cut -c1-8
awk '$1 != "end" { if (NR > 1 && ($1 "") <= prev) bad = 1; prev = $1 "" }
	END { print (bad ? "out of order" : "in order"), (NR > 5000 && NR < 29000 ? "a part" : NR " lines") }' /tmp/att
tail -n 1 /tmp/att
