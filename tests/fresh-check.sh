#!/bin/bash
# make fresh-check: what CI runs.  The tree's files (tracked, and new ones
# git does not ignore) are copied into a clean Debian 12 root made with
# mmdebstrap, and `make deps` and `make check` run there as root, in a
# mount namespace of their own with fresh proc, sysfs and devtmpfs mounts:
# nothing the host installed, extracted or mounted (tracefs, debugfs, a
# kernel sysroot in ~/.cache/stp, packages installed by hand) is seen
# inside.  What a new machine lacks, the tests lack too.
#
#   tests/fresh-check.sh
#
# Only downloads are shared with the host, in $STP_FRESH_CACHE (default
# ~/.cache/stp-fresh): the .deb files apt and tests/kernel.sh fetch (the
# kernels' -dbg packages are 2 GB), bind-mounted as the root's
# /var/cache/apt/archives.  Everything is extracted and installed anew.
#
# Environment:
#   STP_FRESH_CACHE   the download cache (above)
#   STP_FRESH_MIRROR  Debian's mirror, default http://deb.debian.org/debian
#   KEEP=1            keep the root (its path is printed) instead of
#                     removing it
# make check parallelizes its build itself; its tests run one suite at a
# time, as CI runs them.
# The last line is make check's "N passed, N failed" (or "0 passed, 1
# failed" when the root could not be made); the exit status is make
# check's.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
top=$PWD
cache=${STP_FRESH_CACHE:-${HOME:-/root}/.cache/stp-fresh}
mirror=${STP_FRESH_MIRROR:-http://deb.debian.org/debian}
security=${mirror%/debian}/debian-security
t0=$SECONDS

say() { printf 'fresh-check: %s (%d s)\n' "$1" $((SECONDS - t0)); }
give_up() {
	say "$1"
	echo "0 passed, 1 failed"
	exit 1
}

[ "$(id -u)" -eq 0 ] || give_up "needs root (a chroot, mounts, apt-get)"
# mmdebstrap is the one tool the host needs besides make and git
if ! command -v mmdebstrap >/dev/null; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mmdebstrap >/dev/null ||
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mmdebstrap >/dev/null; } ||
		give_up "cannot install mmdebstrap"
fi
mkdir -p "$cache/debs/partial"
root=$(mktemp -d "${TMPDIR:-/var/tmp}/stp-fresh.XXXXXX") || give_up "no room for a root"
cleanup() {
	if [ "${KEEP:-0}" = 1 ]; then
		echo "fresh-check: the root is kept in $root"
	else
		rm -rf --one-file-system "$root"
	fi
}
trap cleanup EXIT

# The root: Debian 12 with apt (what `make deps` needs to install the
# rest) and make.
say "making a Debian 12 root in $root"
if ! mmdebstrap --quiet --variant=apt --include=make,ca-certificates bookworm "$root" \
	"deb $mirror bookworm main" "deb $mirror bookworm-updates main" \
	"deb $security bookworm-security main" >"$root.log" 2>&1; then
	tail -20 "$root.log"
	rm -f "$root.log"
	give_up "mmdebstrap failed"
fi
rm -f "$root.log"
# apt keeps what it downloads in the shared cache (the root's apt is
# told not to clean it), and tests/kernel.sh keeps the kernel packages
# there as well
echo 'APT::Keep-Downloaded-Packages "true";' >"$root/etc/apt/apt.conf.d/90stp-keep"
rm -f "$root/etc/apt/apt.conf.d/docker-clean"
# a root thrown away after the run: dpkg need not sync every file it
# unpacks (a third of make deps' time here)
echo force-unsafe-io >"$root/etc/dpkg/dpkg.cfg.d/90stp-unsafe-io"
# The machine's network, as a new machine of its kind has it: its
# resolver, and the certificates of the authorities its TLS traffic is
# vouched for by (an egress proxy re-signs the npm registry's)
cp -L /etc/resolv.conf "$root/etc/resolv.conf"
if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
	cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
	chroot "$root" update-ca-certificates >/dev/null 2>&1 ||
		give_up "update-ca-certificates failed in the root"
fi

say "copying the tree to /src"
mkdir -p "$root/src"
git ls-files -z --cached --others --exclude-standard |
	while IFS= read -r -d '' f; do [ ! -e "$f" ] || printf '%s\0' "$f"; done |
	tar --null -T - -cf - | tar -xf - -C "$root/src" || give_up "cannot copy the tree"

# Inside: a private mount namespace, so that the mounts below (and what
# the tests mount, tracefs among them) end with it and the host's never
# show through.
inside() {
	set -e
	# the root a mount of its own, as / is on a machine: tests that make
	# a private mount namespace change its propagation
	mount --bind "$root" "$root"
	mount --make-private "$root"
	mount -t proc proc "$root/proc"
	mount -t sysfs sysfs "$root/sys"
	mount -t devtmpfs devtmpfs "$root/dev"
	mkdir -p "$root/dev/pts" "$root/dev/shm"
	mount -t devpts -o newinstance,ptmxmode=0666,mode=620 devpts "$root/dev/pts"
	mount --bind "$root/dev/pts/ptmx" "$root/dev/ptmx"
	mount -t tmpfs -o mode=1777 tmpfs "$root/dev/shm"
	mount -t tmpfs tmpfs "$root/run"
	mount --bind "$cache/debs" "$root/var/cache/apt/archives"
	set +e
	# node reads its own certificate list, not the system's, unless told
	chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt \
		STP_DEB_CACHE=/var/cache/apt/archives \
		/bin/bash -c 'cd /src && make deps && make check'
}
export -f inside
export root cache
say "make deps && make check, in the root"
out=$(mktemp)
unshare --mount --propagation private /bin/bash -c inside 2>&1 | tee "$out"
rc=${PIPESTATUS[0]}
say "done: exit $rc"
# The cache keeps the current packages only (autoclean in the root
# would need it again; the newest .deb of each package name is kept)
ls "$cache/debs"/*.deb 2>/dev/null | sed 's/_[^_]*_[^_]*\.deb$//' | sort | uniq -d |
	while read -r p; do ls -v "$p"_*.deb | head -n -1 | xargs -r rm -f; done
cleanup
trap - EXIT
# make check's last line, last, for CI
summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$out" | tail -1)
rm -f "$out"
echo "${summary:-0 passed, 1 failed}"
exit $rc
