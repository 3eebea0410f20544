#!/bin/bash
# make deps: install, with apt-get, every Debian package the build and the
# tests need.  A no-op when they are all present.
set -euo pipefail

# build: compiler and tools; fuzz: clang with libFuzzer and sanitizers;
# corpus test: systemtap-common's tapsets; bench: Debian's systemtap (stap)
# and the kernel headers stap needs before it will parse anything; guest
# runs (tests/guest/boot.sh): QEMU and a static busybox for the initramfs.
PACKAGES=(
	gcc make libc6-dev binutils libelf-dev libdw-dev
	clang libclang-rt-14-dev
	systemtap-common systemtap
	linux-headers-amd64
	hyperfine time
	qemu-system-x86 busybox-static cpio
)

missing=()
for p in "${PACKAGES[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
		missing+=("$p")
	fi
done
if [ ${#missing[@]} -eq 0 ]; then
	echo "deps: all ${#PACKAGES[@]} packages present"
else
	echo "deps: installing ${missing[*]}"
	SUDO=
	[ "$(id -u)" -eq 0 ] || SUDO=sudo
	export DEBIAN_FRONTEND=noninteractive
	$SUDO apt-get update -qq
	$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# The target kernel's boot files, debuginfo and symbol table (once).
echo "deps: kernel sysroot $(tests/kernel.sh)"
