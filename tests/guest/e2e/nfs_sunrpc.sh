# nfsd with no client: load it (the target's modules, in dependency
# order; nfs_loop may have loaded them already), then run the session
# around one nfsd thread's start and stop.
# $1 stprun, $2 module.
for m in sunrpc grace lockd auth_rpcgss nfs_acl nfsd; do insmod /files/$m.ko 2>/dev/null; done
mkdir -p /tmp/nfsd
mount -t nfsd nfsd /tmp/nfsd
cat >/tmp/nfsd-up.sh <<'UP'
echo 1 >/tmp/nfsd/threads 2>/dev/null
sleep 1
echo 0 >/tmp/nfsd/threads 2>/dev/null
UP
$1 -c "sh /tmp/nfsd-up.sh" "$2"
echo "stprun: exit $?"
umount /tmp/nfsd
