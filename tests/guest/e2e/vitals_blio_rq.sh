# vitals.blio on blk-mq devices (null_blk, made through configfs), whose
# requests end at block_rq_complete: nb_late completes each 20 ms after
# it was queued, from a timer interrupt (the thread that queued it is
# asleep then: its event waits for its switch-in), nb_now at once, in
# the thread that queues it (its event is there).  On each, in a run of
# its own, vitals_load writes 8 blocks of 64 KB with O_DIRECT and reads
# them back: 16 bios; vitals_blio_rq.stp counts its events.  On nb_now
# a read is told where it completed; a write too on 6.12, where on 6.1
# the writer's plug is flushed when it sleeps, from kblockd, and the
# write is told at its switch-in: 8 or more told there, each told one
# way or the other.  Under --runtime=bpf (bpf_vitals_blio_rq) the BPF
# object's runner stands for stprun.
# $1 stprun, $2 module, $3 name.
insmod /files/configfs.ko 2>/dev/null
insmod /files/null_blk.ko nr_devices=0 || exit 1
mount -t configfs none /sys/kernel/config 2>/dev/null
# nullb NAME IRQMODE COMPLETION_NS: a 16 MB device without an I/O
# scheduler, as /tmp/NAME
nullb() {
	d=/sys/kernel/config/nullb/$1
	mkdir "$d" && echo 16 >"$d/size" && echo 1 >"$d/no_sched" &&
		echo "$2" >"$d/irqmode" && echo "$3" >"$d/completion_nsec" &&
		echo 1 >"$d/power" || return 1
	b=$1
	[ -e "/sys/block/$b" ] || b=nullb$(cat "$d/index")
	ln -sf "/dev/$b" "/tmp/$1"
}
# run DEVICE: vitals_load's blocks on it, under the script; its figures
# (events=N bios=N ...) as variables
run() {
	c="env VITALS_BLK=/tmp/$1 /files/vitals_load blio 8"
	if [ -x "/files/$3.run" ]; then
		out=$("/files/$3.run" "$2" -c "$c")
	else
		out=$("$4" -c "$c" "$2")
	fi
	rc="$rc $?"
	for kv in $out; do eval "$kv"; done
}
nullb nb_late 2 20000000 && nullb nb_now 0 0 || exit 1
rc=
run nb_late "$2" "$3" "$1"
echo "late: $events events, $bios bios, $bytes bytes; took 20 ms or more: $took20;" \
	"told later: $later; told one way or the other: $told; variables as documented: $ok"
run nb_now "$2" "$3" "$1"
[ "$there" -lt 8 ] || there="8 or more"
echo "now: $events events, $bios bios, $bytes bytes; took 20 ms or more: $took20;" \
	"told where it completed: $there; told one way or the other: $told;" \
	"variables as documented: $ok"
echo "runs: exit$rc"
for n in nb_late nb_now; do
	echo 0 >/sys/kernel/config/nullb/$n/power
	rmdir /sys/kernel/config/nullb/$n
done
rmmod null_blk
