# sh coll_daemon_rotate.sh STPRUN KO MODULE
stprun=$1 ko=$2 mod=$3
rm -f /tmp/d.*
$stprun -F -b 4 -o /tmp/d -S 1,2 "$ko" >/tmp/daemon
echo "start: exit $?"
read name pid </tmp/daemon
echo "started $name"
[ "$(cat /proc/$pid/comm)" = stprun ] && echo "pid is stprun's"
$stprun -A "$mod"
echo "attach while it runs: exit $?"
i=0
until [ "$(tail -n 1 /tmp/d.2 2>/dev/null)" = last ] || [ $i -ge 200 ]; do sleep 0.1; i=$((i + 1)); done
kill -TERM "$pid"
i=0
while [ -d "/sys/module/$mod" ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
[ -d "/sys/module/$mod" ] || echo "unloaded"
for f in /tmp/d.*; do
	echo "$f: $(wc -c <"$f") bytes, $(head -n 1 "$f" | cut -c1-8) to $(tail -n 2 "$f" | head -n 1 | cut -c1-8), last $(tail -n 1 "$f" | cut -c1-8)"
done
