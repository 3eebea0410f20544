#!/bin/bash
# Boot the target kernel (Debian's, from tests/kernel.sh's sysroot) in a
# throwaway QEMU guest under TCG, with a busybox initramfs that runs one
# shell script and powers off; the guest's console comes back on stdout.
#
#   tests/guest/boot.sh SCRIPT [FILE...]
#
# SCRIPT runs as /run.sh inside the guest; each FILE is copied to /files/.
# Lines the script prints between "STP-GUEST-BEGIN" and "STP-GUEST-END"
# markers, and its exit status ("STP-GUEST-EXIT n"), are what callers read.
# Groundwork for passes 4-5 (issue 4): modules are loaded the same way.
set -euo pipefail
cd "$(dirname "$0")/../.."

script=${1:?usage: boot.sh SCRIPT [FILE...]}
shift
root=$(tests/kernel.sh)
krel=$(tests/kernel.sh release)
kernel=$root/boot/vmlinuz-$krel
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/init"/{bin,sbin,proc,sys,dev,tmp,files,sys/kernel/debug}
cp "$(command -v busybox)" "$work/init/bin/busybox"
for f in "$@"; do
	cp "$f" "$work/init/files/"
done
cp "$script" "$work/init/run.sh"
cat >"$work/init/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
echo STP-GUEST-BEGIN
sh /run.sh
rc=$?
echo STP-GUEST-END
echo "STP-GUEST-EXIT $rc"
poweroff -f
INIT
chmod +x "$work/init/init" "$work/init/bin/busybox"
(cd "$work/init" && find . | cpio -o -H newc --quiet | gzip -1) >"$work/initrd.gz"

timeout "${GUEST_TIMEOUT:-120}" qemu-system-x86_64 -accel tcg -m 512M -smp 1 \
	-nographic -no-reboot -kernel "$kernel" -initrd "$work/initrd.gz" \
	-append "console=ttyS0 quiet panic=-1 ${GUEST_APPEND:-}" ${GUEST_QEMU:-} </dev/null |
	tr -d '\r'
