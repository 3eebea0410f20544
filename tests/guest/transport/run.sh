#!/bin/bash
# The transport (runtime/transport.c) and stprun, end to end: builds the
# test module stp_ttest.ko with kbuild against the headers of each kernel
# line (6.1 and, when its headers are installed, 6.12; a build warning
# fails), then boots one guest of the STP_KERNEL_LINE kernel (default
# 6.1) with 2 CPUs and runs guest.sh there: output order across CPUs,
# warnings, exit status, -c, -x, -o, -b, -D, -G, SIGINT/SIGTERM, kill -9
# (the module must still go away), a second stprun of a loaded module,
# and dropped output counted byte for byte.  guest.sh declares its number
# of checks ("plan N"); each one that did not run counts as failed.
# Then a second, small guest: stp-qemu gives its stdout as it comes.
# Last line: "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../../.."
top=$PWD
pass=0
fail=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

headers() {	# KREL: its kbuild directory, or nothing
	local d
	for d in "/lib/modules/$1/build" "/usr/src/linux-headers-$1"; do
		[ -f "$d/Makefile" ] && { echo "$d"; return; }
	done
}

build() {	# LINE: builds $work/LINE/stp_ttest.ko
	local krel kdir d=$work/$1
	krel=$(STP_KERNEL_LINE=$1 tests/kernel.sh release 2>/dev/null) || return 2
	kdir=$(headers "$krel")
	[ -n "$kdir" ] || return 2
	mkdir -p "$d"
	cp tests/guest/transport/stp_ttest.c tests/guest/transport/Kbuild "$d/"
	make -C "$kdir" M="$d" STP_RUNTIME="$top/runtime" W=1 modules >"$d/log" 2>&1 &&
		! grep -E 'warning:|error:' "$d/log" >/dev/null
}

[ -x stprun ] || make -s stprun >/dev/null || { echo "FAIL: cannot build stprun"; echo "0 passed, 1 failed"; exit 1; }

for line in 6.1 6.12; do
	build "$line"
	case $? in
	0) echo "ok build-$line"; pass=$((pass + 1)) ;;
	2) echo "skip build-$line: no headers for the $line line" ;;
	*) echo "FAIL build-$line:"; tail -20 "$work/$line/log"; fail=$((fail + 1)) ;;
	esac
done

line=${STP_KERNEL_LINE:-6.1}
ko=$work/$line/stp_ttest.ko
if [ ! -f "$ko" ]; then
	echo "FAIL guest: no module for the $line line"
	echo "$pass passed, $((fail + 1)) failed"
	exit 1
fi
root=$(STP_KERNEL_LINE=$line tests/kernel.sh) && krel=$(STP_KERNEL_LINE=$line tests/kernel.sh release) || {
	echo "FAIL guest: no $line kernel"; echo "$pass passed, $((fail + 1)) failed"; exit 1; }
STPRUN=$top/stprun staprun/stp-qemu --kernel "$root/boot/vmlinuz-$krel" --smp 2 \
	--timeout "${GUEST_TIMEOUT:-300}" --console "$work/console" \
	tests/guest/transport/guest.sh "$ko" >"$work/out" 2>"$work/err"
rc=$?
cat "$work/out"
[ ! -s "$work/err" ] || sed 's/^/guest stderr: /' "$work/err"
if [ $rc -ne 0 ]; then
	echo "FAIL guest: stp-qemu exit $rc; console tail:"
	tail -20 "$work/console"
	fail=$((fail + 1))
fi
# stp-qemu brings the guest's stdout back as it is written: "first" is
# read on the host well before the guest, 3 s later, is done
printf 'echo first\nsleep 3\necho second\n' >"$work/stream.sh"
staprun/stp-qemu --kernel "$root/boot/vmlinuz-$krel" "$work/stream.sh" 2>"$work/stream.err" |
	while IFS= read -r l; do echo "$(date +%s%N) $l"; done >"$work/stream.out"
done_at=$(date +%s%N)
first_at=$(awk '$2 == "first" { print $1 }' "$work/stream.out")
if [ -n "$first_at" ] && [ $(((done_at - first_at) / 1000000)) -ge 1500 ] &&
	grep -q ' second$' "$work/stream.out"; then
	echo "ok stp-qemu-streams-stdout"
	pass=$((pass + 1))
else
	echo "FAIL stp-qemu-streams-stdout: 'first' not read 1.5 s before the guest was done:"
	echo "done at $done_at"; cat "$work/stream.out" "$work/stream.err"
	fail=$((fail + 1))
fi
p=$(grep -c '^ok ' "$work/out")
f=$(grep -c '^FAIL ' "$work/out")
# guest.sh declares how many checks it runs: fewer is a failure for each
# one missing, more a failure of the plan.
plan=$(sed -n 's/^plan \([0-9][0-9]*\)$/\1/p' "$work/out" | head -1)
if [ -z "$plan" ]; then
	echo "FAIL guest.plan: guest.sh printed no 'plan N' line"
	f=$((f + 1))
elif [ $((p + f)) -lt "$plan" ]; then
	echo "FAIL guest.plan: $((p + f)) of $plan checks ran"
	f=$((f + plan - p - f))
elif [ $((p + f)) -gt "$plan" ]; then
	echo "FAIL guest.plan: $((p + f)) checks ran, the plan says $plan"
	f=$((f + 1))
fi
echo "$((pass + p)) passed, $((fail + f)) failed"
[ $((fail + f)) -eq 0 ]
