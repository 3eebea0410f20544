#!/bin/bash
# The target kernels the tests elaborate against and boot: Debian 12's two
# kernel lines, each laid out as a sysroot that stp and stap both take with
# --sysroot=DIR:
#
#   line 6.1   the default kernel, the release linux-headers-amd64 points at
#   line 6.12  the 6.12 line, the release linux-headers-6.12-amd64 points at
#
#   boot/vmlinuz-KREL, boot/config-KREL     from linux-image-KREL (6.1) or
#                                           linux-image-KREL-unsigned (6.12)
#   lib/modules/KREL/kernel/..., modules.order   (its modules)
#   usr/lib/debug/boot/vmlinux-KREL         from linux-image-KREL-dbg (DWARF)
#   usr/lib/debug/lib/modules/KREL/kernel/fs/ext4/ext4.ko   the same, for
#                                           module("ext4") probes
#   boot/System.map-KREL                    the kernel's symbol table
#                                           (Debian's own is a stub)
#   lib/modules/KREL/build                  -> the installed headers
#
# Only those files are extracted from the packages (the -dbg package is
# about 900 MB to download for 6.1, 1 GB for 6.12), once; later runs find
# them in the cache.
#
# System.map: made from the -dbg vmlinux (nm).  Only when the -dbg package
# cannot be downloaded (a mirror keeps the current version only) is the
# kernel booted once in a guest with "nokaslr" and its /proc/kallsyms
# saved: without KASLR the addresses are the link-time ones, the same
# System.map would have (a map made so is marked, and replaced by one from
# the vmlinux once that is there).  The kprobe tests then run; the DWARF
# tests fail for want of the DWARF, as they should.
#
#   tests/kernel.sh [--line 6.1|6.12]            prepare, print the sysroot
#   tests/kernel.sh [--line 6.1|6.12] release    print the kernel release only
#
# Without --line, STP_KERNEL_LINE picks the line (default 6.1): with it
# exported, tests/guest/boot.sh (which runs plain tests/kernel.sh) boots the
# 6.12 kernel.
set -euo pipefail
cd "$(dirname "$0")/.."

line=${STP_KERNEL_LINE:-6.1}
what=prepare
while [ $# -gt 0 ]; do
	case $1 in
	--line) line=${2:?kernel.sh: --line needs 6.1 or 6.12}; shift 2 ;;
	--line=*) line=${1#--line=}; shift ;;
	release) what=release; shift ;;
	*) echo "usage: tests/kernel.sh [--line 6.1|6.12] [release]" >&2; exit 2 ;;
	esac
done
case $line in
6.1) meta=linux-headers-amd64 ;;
6.12) meta=linux-headers-6.12-amd64 ;;
*) echo "kernel.sh: unknown kernel line $line (6.1 or 6.12)" >&2; exit 2 ;;
esac

CACHE=${STP_CACHE:-${HOME:-/root}/.cache/stp}
krel=$(dpkg-query -W -f='${Depends}' "$meta" 2>/dev/null |
	sed -n 's/.*linux-headers-\([0-9][^ ,]*-amd64\).*/\1/p')
if [ -z "$krel" ]; then
	echo "kernel.sh: $meta is not installed (run make deps)" >&2
	exit 1
fi
if [ "$what" = release ]; then
	echo "$krel"
	exit 0
fi
root=$CACHE/sysroot-$krel
vmlinux=$root/usr/lib/debug/boot/vmlinux-$krel
fetch() {	# package, paths inside it
	local tmp pkg=$1 deb
	shift
	# STP_DEB_CACHE: a directory where downloads are kept (make
	# fresh-check's cache, shared between its roots)
	if [ -n "${STP_DEB_CACHE:-}" ]; then
		tmp=$(mktemp -d "$STP_DEB_CACHE/partial/kernel.XXXXXX")
	else
		tmp=$(mktemp -d)
	fi
	chmod 755 "$tmp"
	# apt keeps what it installed: the 6.12 image is installed by make deps
	# (its headers depend on it), so it need not be downloaded again.
	deb=$(ls -v /var/cache/apt/archives/"$pkg"_*.deb ${STP_DEB_CACHE:+"$STP_DEB_CACHE"/"$pkg"_*.deb} \
		2>/dev/null | tail -1 || true)
	if [ -z "$deb" ]; then
		if ! (cd "$tmp" && apt-get download -q "$pkg" >/dev/null 2>&1); then
			# stale package lists: refresh once and try again
			apt-get update -qq >/dev/null 2>&1 || true
			(cd "$tmp" && apt-get download -q "$pkg" >/dev/null 2>&1) ||
				{ echo "kernel.sh: cannot download $pkg" >&2; rm -rf "$tmp"; return 1; }
		fi
		deb=$(ls "$tmp"/"$pkg"_*.deb)
		if [ -n "${STP_DEB_CACHE:-}" ] && mv "$deb" "$STP_DEB_CACHE/"; then
			deb=$STP_DEB_CACHE/${deb##*/}
		fi
	fi
	mkdir -p "$root"
	# (set -e does not hold in a function called with ||: say it)
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$root" "$@" ||
		{ echo "kernel.sh: cannot extract $pkg" >&2; rm -rf "$tmp"; return 1; }
	rm -rf "$tmp"
}
image=linux-image-$krel
# Debian's 6.12 line names its unsigned image so (the signed one is a
# repackaging of it for Secure Boot, of no use under QEMU).
[ "$line" = 6.1 ] || image=$image-unsigned
if [ ! -f "$root/boot/vmlinuz-$krel" ] || [ ! -f "$root/lib/modules/$krel/modules.order" ]; then
	fetch "$image" ./boot ./lib/modules || exit 1
fi
ln -sfn "/lib/modules/$krel/build" "$root/lib/modules/$krel/build"
map=$root/boot/System.map-$krel
# The DWARF: vmlinux, and the debug files of the modules the tests
# probe (module("ext4"), the NFS tapsets' nfs, nfsv3, nfsv4, nfsd and
# sunrpc, scsi_mod, and for SystemTap's examples enospc and iostat-scsi
# xfs, btrfs, sd_mod and st), from one download.  A path added here is
# extracted at the next call, from the same package, into a sysroot that
# already exists.
dbg_modules="kernel/fs/ext4/ext4.ko kernel/fs/nfs/nfs.ko kernel/fs/nfs/nfsv3.ko
	kernel/fs/nfs/nfsv4.ko kernel/fs/nfsd/nfsd.ko kernel/net/sunrpc/sunrpc.ko
	kernel/drivers/scsi/scsi_mod.ko kernel/drivers/scsi/sd_mod.ko kernel/drivers/scsi/st.ko
	kernel/fs/xfs/xfs.ko kernel/fs/btrfs/btrfs.ko"
want=()
[ -f "$vmlinux" ] || want+=("./usr/lib/debug/boot/vmlinux-$krel")
for m in $dbg_modules; do
	[ -f "$root/usr/lib/debug/lib/modules/$krel/$m" ] ||
		want+=("./usr/lib/debug/lib/modules/$krel/$m")
done
# A download that failed is not tried again at every call (the tests call
# this script often): $nodbg says so until it is deleted.
nodbg=$root/no-dbg-package
if [ ${#want[@]} -gt 0 ] && [ ! -e "$nodbg" ] && ! fetch "linux-image-$krel-dbg" "${want[@]}"; then
	touch "$nodbg"
	echo "kernel.sh: no DWARF for $krel: tests that need it will fail (delete $nodbg to try again)" >&2
fi
if [ -f "$vmlinux" ] && { [ ! -s "$map.full" ] || [ -e "$map.kallsyms" ]; }; then
	nm -n "$vmlinux" | grep -v ' [aUw] ' >"$map.tmp"
	mv "$map.tmp" "$map.full"
	rm -f "$map.kallsyms"
fi
if [ ! -s "$map.full" ] && [ -z "${STP_KERNEL_NOMAP:-}" ]; then
	# Boot the kernel once and keep its /proc/kallsyms.  The guest sends it
	# gzipped and in base64 so that the serial console carries it fast
	# and intact; the console log level is lowered first so that no kernel
	# message lands in the middle.  STP_KERNEL_NOMAP stops boot.sh's own
	# call of this script from coming back here.
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	cat >"$tmp/kallsyms.sh" <<'EOF'
dmesg -n 1
echo 0 >/proc/sys/kernel/kptr_restrict
echo KALLSYMS-BEGIN
gzip -c /proc/kallsyms | base64
echo KALLSYMS-END
EOF
	STP_KERNEL_LINE=$line STP_KERNEL_NOMAP=1 GUEST_APPEND="nokaslr ${GUEST_APPEND:-}" \
		tests/guest/boot.sh "$tmp/kallsyms.sh" >"$tmp/console" 2>&1 || true
	sed -n '/^KALLSYMS-BEGIN$/,/^KALLSYMS-END$/p' "$tmp/console" | sed '1d;$d' |
		base64 -d 2>/dev/null | gzip -dc 2>/dev/null |
		grep -v -e ' [aUw] ' -e '\[' | LC_ALL=C sort -s -k1,1 >"$map.tmp" || true
	# A real table has well over 100000 symbols, none at address zero
	# (which is what a restricted kallsyms shows).
	if [ "$(wc -l <"$map.tmp")" -lt 50000 ] || grep -q '^0000000000000000 [Tt] ' "$map.tmp"; then
		echo "kernel.sh: could not read /proc/kallsyms from a $krel guest; console tail:" >&2
		tail -20 "$tmp/console" >&2
		rm -f "$map.tmp"
		exit 1
	fi
	mv "$map.tmp" "$map.full"
	touch "$map.kallsyms"
fi
# Debian's package carries a one-line stub in the map's place.
if [ -s "$map.full" ] && { [ "$map.full" -nt "$map" ] ||
	[ "$(wc -l <"$map" 2>/dev/null || echo 0)" -lt 1000 ]; }; then
	cp "$map.full" "$map"
fi
echo "$root"
