# An NFSv4.0 mount of this guest's own nfsd.  The export tables that
# rpc.mountd would fill are written by hand: the client 127.0.0.1 is in
# domain "localdom", which has /export (a tmpfs: flags insecure,
# no_subtree_check, fsid=0, so it is the NFSv4 root) and its file handle
# key.  Leases and grace last 10 s, the least nfsd takes; the session
# starts once the grace period is over (an OPEN that creates waits for
# it).  The guest runs nfs_sunrpc too: modules another test loaded stay,
# and the server is left as found (stopped, NFSv3 on, nfsd unmounted).
# $1 stprun, $2 module.
for m in sunrpc grace lockd auth_rpcgss nfs_acl nfsd netfs fscache dns_resolver nfs nfsv4; do
	[ ! -f /files/$m.ko ] || insmod /files/$m.ko 2>/dev/null
done
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
mkdir -p /tmp/nfsd /export /mnt
mount -t tmpfs tmpfs /export
echo hello >/export/f
mount -t nfsd nfsd /tmp/nfsd
echo 10 >/tmp/nfsd/nfsv4leasetime
echo 10 >/tmp/nfsd/nfsv4gracetime
echo "-2 -3 +4" >/tmp/nfsd/versions
T=2147483647
echo "nfsd 127.0.0.1 $T localdom" >/proc/net/rpc/auth.unix.ip/channel
echo "localdom /export $T 9218 65534 65534 0" >/proc/net/rpc/nfsd.export/channel
echo "localdom 1 \\x00000000 $T /export" >/proc/net/rpc/nfsd.fh/channel
echo 1 >/tmp/nfsd/threads
mount -t nfs4 -o vers=4.0,addr=127.0.0.1,clientaddr=127.0.0.1,sec=sys 127.0.0.1:/ /mnt || echo "mount failed"
sleep 11
cat >/tmp/work.sh <<'W'
cat /mnt/f
echo abc >/mnt/g
mv /mnt/g /mnt/h
rm /mnt/h
W
$1 -c "sh /tmp/work.sh" "$2"
echo "stprun: exit $?"
umount /mnt
echo 0 >/tmp/nfsd/threads
echo "+3" >/tmp/nfsd/versions
umount /tmp/nfsd
