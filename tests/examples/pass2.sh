#!/bin/bash
# SystemTap's own example scripts (Debian's /usr/share/systemtap/examples,
# from systemtap-common), each through stp -p2 with the command line its
# .meta file's test_check line gives (stap -p4 ... -> stp -p2 ...), against
# the 6.1 test kernel (tests/kernel.sh).  Prints one line a script,
# "ok NAME" or "FAIL NAME: first error line", then "N of M pass pass 2".
# A measurement of how far the library and the probe types reach, not a
# test that must pass: make check does not run it.
#
#   tests/examples/pass2.sh [STP] [EXAMPLES_DIR]
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
STP=$(realpath "${1:-$top/stp}")
EX=${2:-/usr/share/systemtap/examples}
root=$("$top/tests/kernel.sh")
krel=$("$top/tests/kernel.sh" release)
pass=0 total=0
[ -d "$EX" ] || { echo "pass2.sh: no $EX (Debian's systemtap-common has it)" >&2; exit 2; }
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
		echo "FAIL $name: $(printf '%s\n' "$out" | grep -m1 -E 'error|ERROR|stp:' || printf '%s\n' "$out" | head -1)"
	fi
done < <(find "$EX" -name '*.meta' | sort)
echo "$pass of $total pass pass 2"
