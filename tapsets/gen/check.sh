#!/bin/sh
# The committed system call tapsets are what tapsets/gen/syscalls.awk makes
# of syscalls.tbl and syscalls.fix today: one result per generated file,
# a diff for a stale one (`make syscall-tapsets` brings them up to date).
# Prints "N passed, N failed"; run from the top of the tree.
set -u
gen="tapsets/gen/syscalls.awk tapsets/gen/syscalls.fix tapsets/gen/syscalls.tbl"
tmp=$(mktemp) || exit 2
trap 'rm -f "$tmp"' EXIT
pass=0 fail=0
for part in entry:syscalls nd:syscalls_nd names:syscalls_names; do
	what=${part%%:*}
	file=tapsets/linux/${part#*:}.stp
	# shellcheck disable=SC2086
	if awk -v what="$what" -f $gen >"$tmp" && cmp -s "$tmp" "$file"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL $file: not what tapsets/gen makes of syscalls.tbl (make syscall-tapsets)"
		diff "$file" "$tmp" | head -20
	fi
done
echo "$pass passed, $fail failed"
