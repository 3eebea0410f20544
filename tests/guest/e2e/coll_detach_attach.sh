# sh coll_detach_attach.sh STPRUN KO MODULE
stprun=$1 ko=$2 mod=$3
$stprun -F "$ko"
echo "detach: exit $?"
sleep 6
[ -d "/sys/module/$mod" ] && echo "loaded while detached"
$stprun -A "$mod"
echo "attach: exit $?"
[ -d "/sys/module/$mod" ] || echo "unloaded"
