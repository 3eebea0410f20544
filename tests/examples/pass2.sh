#!/bin/bash
# SystemTap's own example scripts (Debian's /usr/share/systemtap/examples,
# from systemtap-common), each through stp -p2 with the command line its
# .meta file's test_check line gives (stap -p4 ... -> stp -p2 ...), against
# the 6.1 test kernel (tests/kernel.sh).  Prints one line a script, "ok
# NAME" or "fail NAME: its first error line", then the figure "figures
# examples: N of M pass pass 2 (floor F)", then the check's result line.
#
# The check (make check runs it): it fails when fewer scripts pass than
# the floor in tests/examples/floor.  The floor only ever rises: when more
# pass, --raise writes the new count there (commit it with the change that
# made them pass).
#
# Counted: the .meta files whose test_check is a stap command (190 on
# Debian 12; py2example and py3example both run pyexample.stp).  Not
# counted: kmalloc-top, socktop and syscalltimes, whose test_check runs a
# wrapper script, not stap; syscallsrw, whose only stap line is a --bpf
# one; and the scripts with no .meta at all.
#
#   tests/examples/pass2.sh [--raise] [STP] [EXAMPLES_DIR]
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
raise=0
[ "${1:-}" = --raise ] && { raise=1; shift; }
STP=$(realpath "${1:-$top/stp}")
EX=${2:-/usr/share/systemtap/examples}
FLOOR_FILE=$top/tests/examples/floor
root=$("$top/tests/kernel.sh")
krel=$("$top/tests/kernel.sh" release)
pass=0 total=0
[ -d "$EX" ] || { echo "pass2.sh: no $EX (Debian's systemtap-common has it)" >&2; exit 2; }
floor=$(cat "$FLOOR_FILE" 2>/dev/null) || { echo "pass2.sh: no $FLOOR_FILE" >&2; exit 2; }
while IFS= read -r meta; do
	dir=$(dirname "$meta")
	cmd=$(sed -n 's/^test_check: *//p' "$meta" | head -1)
	[ -n "$cmd" ] || continue
	case $cmd in stap\ *) ;; *) continue ;; esac
	total=$((total + 1))
	name=${meta#"$EX"/}
	name=${name%.meta}
	# the stap command's words, as a shell would split them
	eval "set -- ${cmd#stap }"
	args=()
	for a; do
		# -p4, alone or last in a cluster (-gp4)
		[[ $a =~ ^-[A-Za-z]*p4$ ]] && a=${a%p4}
		[ "$a" = - ] || args+=("$a")
	done
	if out=$(cd "$dir" && timeout 120 "$STP" --sysroot="$root" -r "$krel" -p2 "${args[@]}" 2>&1 >/dev/null); then
		echo "ok $name"
		pass=$((pass + 1))
	else
		echo "fail $name: $(printf '%s\n' "$out" | grep -m1 -E 'error|ERROR|stp:' || printf '%s\n' "$out" | head -1)"
	fi
done < <(find "$EX" -name '*.meta' | sort)
echo "figures examples: $pass of $total pass pass 2 (floor $floor)"
if [ "$pass" -lt "$floor" ]; then
	echo "FAIL examples: $pass pass pass 2, fewer than the floor of $floor (tests/examples/floor); the fail lines above say why each fails"
	echo "0 passed, 1 failed"
	exit 1
fi
if [ "$pass" -gt "$floor" ]; then
	if [ $raise = 1 ]; then
		echo "$pass" > "$FLOOR_FILE"
		echo "floor raised to $pass"
	else
		echo "note: $pass pass, above the floor of $floor: raise it (tests/examples/pass2.sh --raise)"
	fi
fi
echo "1 passed, 0 failed"
