#!/bin/bash
# make deps: install, with apt-get, every Debian package the build and the
# tests need.  A no-op when they are all present.
set -euo pipefail

# build: compiler and tools; fuzz: clang with libFuzzer and sanitizers;
# corpus test: systemtap-common's tapsets; bench: Debian's systemtap (stap)
# and the kernel headers stap needs before it will parse anything; guest
# runs (tests/guest/boot.sh): QEMU and a static busybox for the initramfs.
# Kernel headers for both kernel lines the tests target (tests/kernel.sh):
# Debian 12's default 6.1 and its 6.12 line.  The 6.12 headers depend on
# their kernel's image, and the image on an initramfs generator:
# tiny-initramfs is the smallest that satisfies it (initramfs-tools would
# bring udev and a systemd upgrade along).
PACKAGES=(
	gcc make libc6-dev binutils libelf-dev libdw-dev
	libbpf-dev liblzma-dev libzstd-dev zlib1g-dev
	clang libclang-rt-14-dev
	systemtap-common systemtap
	# SystemTap's example scripts and their .meta command lines
	# (/usr/share/systemtap/examples): tests/examples/pass2.sh
	systemtap-doc
	linux-headers-amd64 linux-headers-6.12-amd64 tiny-initramfs
	hyperfine time
	qemu-system-x86 busybox-static cpio
	# the target kernels' modules the guests load (brd, null_blk, nfsd,
	# ...) come xz- or zstd-compressed (6.12's): tests/guest/run.sh and
	# make demo decompress them for busybox's insmod
	xz-utils zstd
	# libc's DWARF, found by build-id: process("libc.so.6") probes with
	# $vars (tests/conformance/elab, tests/guest/e2e/uprobe_buildid_*)
	libc6-dbg
	# SDT markers: <sys/sdt.h> for the guest tests' marked program, g++
	# for the C++ program whose exceptions libstdc++'s markers count
	systemtap-sdt-dev g++
	# the vital-signs store: SQLite's library for stprun and stp-vitals,
	# and its shell for the store's tests (integrity_check, trim checks)
	libsqlite3-dev sqlite3
	# reading the vital signs: stp-vitals serve's HTTP library, a real
	# Prometheus to scrape /metrics, and Chromium for the page's browser
	# test (driven by playwright-core from web/package-lock.json)
	libmicrohttpd-dev prometheus chromium
	# npm ci of web/package-lock.json (uPlot, playwright-core), and node
	# to run the browser test
	nodejs
	# tests/vitals/serve.sh: requests by curl, the files the server opens
	# by strace
	curl strace
	# stp -i: readline; its test drives it from a terminal in tmux.  Man
	# pages: groff checks that each renders without warnings
	# (groff -ww -z), man-db for man -l; bash-completion for the
	# completion script's test
	libreadline-dev tmux groff man-db bash-completion
	# SystemTap's example php-trace probes php's own SDT markers: the
	# examples check (tests/examples/pass2.sh) runs it against Debian's php
	php-cli
	# --runtime=bpf: bpftrace, the benchmark's reference on this machine's
	# kernel (clang and libbpf are above)
	bpftrace
	# the service's unit (tests/systemd): systemd-analyze verify checks
	# it, unshare makes the fake kernels stp-pick-runtime is tried on
	# (util-linux is essential, so always there)
	systemd
)
# Debian's npm, unless the nodejs installed brings its own (NodeSource's)
command -v npm >/dev/null || PACKAGES+=(npm)

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
	if [[ " ${missing[*]} " == *" linux-headers-6.12-amd64 "* ]]; then
		# Name the unsigned image of the release the meta package points
		# at, the one tests/kernel.sh boots; left to itself apt would pick
		# the signed one, a second copy of the same kernel.
		k=$(apt-cache depends linux-headers-6.12-amd64 |
			sed -n 's/^ *Depends: linux-headers-\(6\.12[^ ]*-amd64\)$/\1/p' | head -1)
		[ -z "$k" ] || missing+=("linux-image-$k-unsigned")
	fi
	$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# The target kernels' boot files, debuginfo and symbol tables (once; the
# first 6.12 run boots that kernel to read its symbols, about 30 s).
echo "deps: kernel sysroot $(tests/kernel.sh --line 6.1)"
echo "deps: kernel sysroot $(tests/kernel.sh --line 6.12)"
