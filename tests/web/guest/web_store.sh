# The store for the browser test (tests/web/run.sh): examples/vitals.stp
# with two-second epochs under vitals_load's whole workload, then a
# spinner of its own, /tmp/victim, killed with SIGKILL (rule 10: a
# process that died, and how), then a few quiet epochs after it.  Prints
# when the victim was killed and the store, gzipped, in base64 (the
# guest's console is the only way back).
# $1 stprun, $2 module, $3 name.
# The guest is named, as the demo's is: the page's header shows it.
hostname stp-web
[ -e /dev/ram0 ] || insmod /files/brd.ko rd_nr=1 rd_size=4096 || exit 1
cp /files/vitals_load /tmp/victim
cat >/tmp/load.sh <<'LOAD'
/files/vitals_load spin 2500
/files/vitals_load all
/tmp/victim spin 100000 &
sleep 3
kill -9 $!
date +%s >/tmp/killed
sleep 5
LOAD
$1 --vitals-db /tmp/web.db -G chopstix_epoch_ms=2000 -c "sh /tmp/load.sh" "$2" \
	>/tmp/w.out 2>/tmp/w.err || { echo "stprun: exit $?"; cat /tmp/w.err; exit 1; }
echo "killed $(cat /tmp/killed)"
[ ! -e /tmp/web.db-wal ] || echo "a WAL file is left"
echo "store"
gzip -c /tmp/web.db | base64
