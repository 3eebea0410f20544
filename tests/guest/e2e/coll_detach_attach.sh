# sh coll_detach_attach.sh STPRUN KO MODULE
stprun=$1 ko=$2 mod=$3
$stprun -F "$ko"
echo "detach: exit $?"
sleep 6
[ -d "/sys/module/$mod" ] && echo "loaded while detached"
$stprun -A "$mod" >/tmp/att &
pid=$!
i=0
until grep -q "tick 40" /tmp/att 2>/dev/null || [ $i -ge 100 ]; do sleep 0.1; i=$((i + 1)); done
kill -TERM $pid
wait $pid
echo "attach: exit $?"
cat /tmp/att
[ -d "/sys/module/$mod" ] || echo "unloaded"
