# Rule 3 on real requests: stp vitals.stp with two-second epochs while
# rules_badio reads a bad block of a null_blk device (its sectors 8192 to
# 8319 marked bad through configfs: each read fails, EIO, with no data)
# and rules_goodio a good one of the same device, for 2 s each, every
# 100 ms.  Every request completes 20 ms after it is queued, from a
# timer interrupt: slow as well as short.  stp-vitals rules must flag
# the first, with the bytes it got (none) and its slowest request (20
# ms or more), and not the second.
# $1 stprun, $2 module, $3 name.
insmod /files/configfs.ko 2>/dev/null
insmod /files/null_blk.ko nr_devices=0 || exit 1
mount -t configfs none /sys/kernel/config 2>/dev/null
d=/sys/kernel/config/nullb/nb_bad
mkdir $d && echo 16 >$d/size && echo 2 >$d/irqmode &&
	echo 20000000 >$d/completion_nsec && echo +8192-8319 >$d/badblocks &&
	echo 1 >$d/power || exit 1
b=nb_bad
[ -e /sys/block/$b ] || b=nullb$(cat $d/index)
$1 --vitals-db /tmp/vb.db -G chopstix_epoch_ms=2000 \
	-c "sh -c '/files/rules_badio 2 /dev/$b & /files/rules_goodio 2 /dev/$b; wait'" "$2" \
	>/tmp/vb.out 2>/tmp/vb.err
echo "stprun: exit $?"
echo 0 >$d/power && rmdir $d && rmmod null_blk
/files/stp-vitals rules --json /tmp/vb.db >/tmp/vb.json
echo "rules: exit $?"
for p in rules_badio rules_goodio; do
	f=$(grep '"rule":3,' /tmp/vb.json | grep "\"exec\":\"/files/$p\"" | head -1)
	if [ -z "$f" ]; then
		echo "rule 3 does not flag $p"
		# what the store holds of its requests, to tell why
		[ $p = rules_goodio ] || /files/stp-vitals dump /tmp/vb.db |
			grep '"vital":"blio"' | grep -v '"kind":"sample".*"exec":"/files/rules_goodio"'
		continue
	fi
	# "N sampled blio requests got less than they asked: G of A bytes,
	# the slowest of them in T ms; ...": G and whether T >= 20
	got=$(echo "$f" | sed -n 's/.*asked: \([0-9]*\) of [0-9]* bytes.*/\1/p')
	ms=$(echo "$f" | sed -n 's/.*the slowest of them in \([0-9.]*\) ms.*/\1/p')
	slow=$(awk -v t="${ms:-0}" 'BEGIN { print (t >= 20 ? "20 ms or more" : "under 20 ms (" t ")") }')
	echo "rule 3 flags $p: it got $got bytes; its slowest short request took $slow"
done
grep '"rule":3,.*"evaluated":false' /tmp/vb.json || :
