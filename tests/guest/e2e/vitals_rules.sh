# stp vitals.stp with two-second epochs while the rules' workloads run one
# after another (tests/guest/prog/rules_load.c): a leaking program, a
# starved one, a send() loop failing on a closed socket, one that dies of
# SIGSEGV and one killed with SIGKILL.  Then stp-vitals rules, on the
# store, must flag each with its rule and its program.  rules_leak runs
# 8 s: rule 2 wants 3 epochs in a row with net allocation, and 6 s of
# 2-second epochs hold 3 whole ones only when they line up (CI missed
# the flag that way).
# $1 stprun, $2 module, $3 name.
cat >/tmp/vr.sh <<'W'
/files/rules_leak 8
/files/rules_starve 4
/files/rules_send 3
/files/rules_segv 2
/files/rules_victim & v=$!
sleep 2
kill -KILL $v
sleep 2
W
$1 --vitals-db /tmp/vr.db -G chopstix_epoch_ms=2000 -c "sh /tmp/vr.sh" "$2" \
	>/tmp/vr.out 2>/tmp/vr.err
echo "stprun: exit $?"
/files/stp-vitals rules --json /tmp/vr.db >/tmp/vr.json
echo "rules: exit $?"
flagged() {
	if grep "\"rule\":$1," /tmp/vr.json | grep -q "\"exec\":\"/files/$2\""; then
		echo "rule $1 flags $2"
	else
		echo "rule $1 does not flag $2:"
		grep "\"rule\":$1," /tmp/vr.json | head -5
		grep "SIG" /tmp/vr.json
		# the store itself, to read it back on the host
		base64 /tmp/vr.db | sed 's/^/db64 /'
		# what the store holds of the program, to tell why
		/files/stp-vitals dump /tmp/vr.db | grep "/files/$2" |
			sed 's/.*"vital":"\([a-z0-9]*\)".*"data":"\([^"]*\)".*/\1/' | sort | uniq -c
		/files/stp-vitals dump /tmp/vr.db | grep '"kind":"sample".*"vital":"sig"' |
			sed 's/.*"time":"\([^"]*\)".*"exec":\([^,]*\),.*"pid":\([0-9]*\).*"data":"\([^"]*\)".*/sig sample \1 \2 \3 \4/' 
		/files/stp-vitals dump /tmp/vr.db | grep '"kind":"vital".*"vital":"sig"' |
			sed 's/.*"epoch_start":"\([^"]*\)".*"events":\([0-9]*\).*"samples":\([0-9]*\),"dropped":\([0-9]*\).*/sig \1 events \2 samples \3 dropped \4/' 
	fi
}
flagged 2 rules_leak
flagged 7 rules_starve
flagged 8 rules_send
flagged 10 rules_segv
flagged 10 rules_victim
grep '"rule":10,' /tmp/vr.json | grep '/files/rules_segv' | grep -q SIGSEGV &&
	echo "rule 10 names SIGSEGV for rules_segv"
grep '"rule":10,' /tmp/vr.json | grep '/files/rules_victim' | grep -q SIGKILL &&
	echo "rule 10 names SIGKILL for rules_victim"
