# vitals.blio on blk-mq devices (null_blk, made through configfs), whose
# requests end at block_rq_complete: nb_late completes each 20 ms after
# it was queued, from a timer interrupt (the thread that queued it is
# asleep then: its event waits for its switch-in), nb_now at once, in
# the thread that queues it (its event is there).  vitals_load writes 8
# blocks of 64 KB to each with O_DIRECT and reads them back: 16 bios a
# device; vitals_blio_rq.stp counts its events by device.
# $1 stprun, $2 module, $3 name.
insmod /files/configfs.ko 2>/dev/null
insmod /files/null_blk.ko nr_devices=0 || exit 1
mount -t configfs none /sys/kernel/config 2>/dev/null
# nullb NAME IRQMODE COMPLETION_NS: a 16 MB device without an I/O
# scheduler; prints its dev_t as the kernel has it (major << 20 | minor)
nullb() {
	d=/sys/kernel/config/nullb/$1
	mkdir "$d" && echo 16 >"$d/size" && echo 1 >"$d/no_sched" &&
		echo "$2" >"$d/irqmode" && echo "$3" >"$d/completion_nsec" &&
		echo 1 >"$d/power" || return 1
	b=$1
	[ -e "/sys/block/$b" ] || b=nullb$(cat "$d/index")
	IFS=: read -r maj min <"/sys/block/$b/dev"
	ln -sf "/dev/$b" "/tmp/$1"
	echo $((maj << 20 | min))
}
late=$(nullb nb_late 2 20000000) || exit 1
now=$(nullb nb_now 0 0) || exit 1
$1 -G late=$late -G now=$now -c "sh -c 'VITALS_BLK=/tmp/nb_late /files/vitals_load blio 8 &&
	VITALS_BLK=/tmp/nb_now /files/vitals_load blio 8'" "$2"
echo "stprun: exit $?"
for n in nb_late nb_now; do
	echo 0 >/sys/kernel/config/nullb/$n/power
	rmdir /sys/kernel/config/nullb/$n
done
rmmod null_blk
