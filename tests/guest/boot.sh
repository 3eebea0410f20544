#!/bin/bash
# Boot the target kernel (Debian's, from tests/kernel.sh's sysroot; the
# line STP_KERNEL_LINE names) in a throwaway QEMU guest under TCG, with a
# busybox initramfs that runs one shell script and powers off; the
# guest's console comes back on stdout.
#
#   tests/guest/boot.sh SCRIPT [FILE...]
#
# SCRIPT runs as /run.sh inside the guest (in /files); each FILE is
# copied to /files/, and stprun is in /bin.  Lines the script prints
# between "STP-GUEST-BEGIN" and "STP-GUEST-END" markers, and its exit
# status ("STP-GUEST-EXIT n"), are what callers read.  GUEST_SMP is the
# number of vCPUs (default 1; single-threaded TCG whatever it is, see
# stp-qemu); GUEST_TIMEOUT, GUEST_APPEND and GUEST_QEMU are honoured.  This is staprun/stp-qemu
# --raw with the test kernel; stp-qemu's header has the details.
set -euo pipefail
cd "$(dirname "$0")/../.."

script=${1:?usage: boot.sh SCRIPT [FILE...]}
shift
root=$(tests/kernel.sh)
krel=$(tests/kernel.sh release)
exec staprun/stp-qemu --raw --smp "${GUEST_SMP:-1}" --kernel "$root/boot/vmlinuz-$krel" "$script" "$@"
