# Rule 10 on processes that end themselves and that are stopped: stp
# vitals.stp with two-second epochs while rules_exit makes a system call
# every 50 ms for 7 s and returns from main (libc's exit_group), and
# rules_stop does the same until it is stopped with SIGSTOP, then 6 s
# (three epochs) go by.  stp-vitals rules must say the first exited (it
# called exit_group) and the second stopped (SIGSTOP): neither died of a
# fault, and the one that exited is not taken for stopped.
# $1 stprun, $2 module, $3 name.
cat >/tmp/ve.sh <<'W'
/files/rules_stop & echo $! >/tmp/ve.stop
/files/rules_exit 7
kill -STOP $(cat /tmp/ve.stop)
sleep 6
W
$1 --vitals-db /tmp/ve.db -G chopstix_epoch_ms=2000 -c "sh /tmp/ve.sh" "$2" \
	>/tmp/ve.out 2>/tmp/ve.err
echo "stprun: exit $?"
kill -KILL $(cat /tmp/ve.stop)
/files/stp-vitals rules --json /tmp/ve.db >/tmp/ve.json
echo "rules: exit $?"
for p in rules_exit rules_stop; do
	f=$(grep '"rule":10,' /tmp/ve.json | grep "\"exec\":\"/files/$p\"")
	if [ -z "$f" ]; then
		echo "rule 10 does not flag $p"
		# what the store holds of it, to tell why
		/files/stp-vitals dump /tmp/ve.db | grep "\"exec\":\"[^\"]*$p" |
			sed 's/.*"time":"\([^"]*\)".*"vital":"\([a-z]*\)".*"data":"\([^"]*\)".*/\1 \2 \3/'
		continue
	fi
	# the evidence says how first: "exited: it called exit_group ...",
	# "stopped: no samples ...; SIGSTOP delivered ..."
	echo "$f" | while read -r line; do
		how=$(echo "$line" | sed 's/.*"evidence":"\([a-z]*\): .*/\1/')
		case $line in
		*'it called exit_group'*) why=" (it called exit_group)" ;;
		*'SIGSTOP delivered'*) why=" (SIGSTOP)" ;;
		*) why= ;;
		esac
		echo "rule 10 flags $p: $how$why"
	done
done
