#!/bin/bash
# The target kernel the tests elaborate against and boot: Debian's
# linux-image for the release that linux-headers-amd64 points at, laid out
# as a sysroot that stp and stap both take with --sysroot=DIR:
#
#   boot/vmlinuz-KREL, boot/config-KREL     from linux-image-KREL
#   lib/modules/KREL/kernel/..., modules.order   (its modules)
#   usr/lib/debug/boot/vmlinux-KREL         from linux-image-KREL-dbg (DWARF)
#   boot/System.map-KREL                    made from that vmlinux (Debian's
#                                           own System.map is a stub)
#   lib/modules/KREL/build                  -> the installed headers
#
# Only those files are extracted from the packages (the -dbg package is
# about 860 MB), once; later runs find them in the cache.
#
#   tests/kernel.sh            prepare, print the sysroot directory
#   tests/kernel.sh release    print the kernel release only
set -euo pipefail

CACHE=${STP_CACHE:-${HOME:-/root}/.cache/stp}
krel=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 2>/dev/null |
	sed -n 's/.*linux-headers-\([0-9][^ ,]*-amd64\).*/\1/p')
if [ -z "$krel" ]; then
	echo "kernel.sh: linux-headers-amd64 is not installed (run make deps)" >&2
	exit 1
fi
if [ "${1:-}" = release ]; then
	echo "$krel"
	exit 0
fi
root=$CACHE/sysroot-$krel
vmlinux=$root/usr/lib/debug/boot/vmlinux-$krel
fetch() {	# package, paths inside it
	local tmp pkg=$1
	shift
	tmp=$(mktemp -d)
	chmod 755 "$tmp"
	if ! (cd "$tmp" && apt-get download -q "$pkg" >/dev/null 2>&1); then
		# stale package lists: refresh once and try again
		apt-get update -qq >/dev/null 2>&1 || true
		(cd "$tmp" && apt-get download -q "$pkg" >/dev/null 2>&1) ||
			{ echo "kernel.sh: cannot download $pkg" >&2; rm -rf "$tmp"; exit 1; }
	fi
	mkdir -p "$root"
	dpkg-deb --fsys-tarfile "$tmp"/"$pkg"_*.deb | tar -x -C "$root" "$@"
	rm -rf "$tmp"
}
if [ ! -f "$root/boot/vmlinuz-$krel" ] || [ ! -f "$root/lib/modules/$krel/modules.order" ]; then
	fetch "linux-image-$krel" ./boot ./lib/modules
fi
[ -f "$vmlinux" ] || fetch "linux-image-$krel-dbg" "./usr/lib/debug/boot/vmlinux-$krel"
map=$root/boot/System.map-$krel
if [ ! -s "$map.full" ]; then
	nm -n "$vmlinux" | grep -v ' [aUw] ' >"$map.tmp"
	mv "$map.tmp" "$map.full"
fi
# Debian's package carries a one-line stub in the map's place.
if [ "$(wc -l <"$map" 2>/dev/null || echo 0)" -lt 1000 ]; then
	cp "$map.full" "$map"
fi
ln -sfn "/lib/modules/$krel/build" "$root/lib/modules/$krel/build"
echo "$root"
