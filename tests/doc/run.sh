#!/bin/bash
# The manual's examples (README.md and doc/*.md), so that they stay true:
#
#   ```stp      a script: pass 2 must accept it (the kernel-module
#               runtime, against the target kernel of tests/kernel.sh)
#   ```console  "$ COMMAND" lines, each run with bash from the tree's top,
#               followed by what its standard output must be: a line
#               "..." stands for any lines (none too), and "..." inside a
#               line for any text there
#
# Other blocks (```sh, ```text, ```json) show what cannot run here (root
# on another machine, a store of days) and are not run.  Besides: README.md
# stays a door (under 200 lines), and every link of the manual leads to
# a file of the tree.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
pass=0
fail=0
ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() {
	echo "FAIL $1: $2"
	[ -z "${3:-}" ] || sed 's/^/    /' "$3" | head -40
	fail=$((fail + 1))
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
docs=(README.md doc/*.md)

n=$(wc -l <README.md)
if [ "$n" -lt 200 ]; then ok "README.md is a door ($n lines)"; else
	bad readme-length "README.md has $n lines (a door has under 200: the rest goes in doc/)"; fi

# ---- links ----
for f in "${docs[@]}"; do
	dir=$(dirname "$f")
	grep -oE '\]\([^)]+\)' "$f" | sed 's/^](//; s/)$//' | while read -r l; do
		case $l in http://* | https://* | '#'*) continue ;; esac
		[ -e "$dir/${l%%#*}" ] || echo "$f: $l"
	done
done >"$work/links"
if [ -s "$work/links" ]; then bad links "links to no file:" "$work/links"; else ok links; fi

# ---- the blocks: WORK/FILE-K.stp or .console, with FILE-K.line ----
for f in "${docs[@]}"; do
	awk -v dir="$work" -v base="$(basename "$f" .md)" '
		/^```/ {
			if (fence) { fence = 0; if (out != "") close(out); out = ""; next }
			fence = 1; tag = substr($0, 4)
			if (tag == "stp" || tag == "console") {
				k++
				out = sprintf("%s/%s-%02d.%s", dir, base, k, tag)
				print FNR > (out ".line"); close(out ".line")
				printf "" > out
			}
			next
		}
		fence && out != "" { print > out }' "$f"
done

sysroot=$(tests/kernel.sh) && krel=$(tests/kernel.sh release) || {
	echo "tests/kernel.sh: no target kernel (make deps)"
	echo "$pass passed, $((fail + 1)) failed"
	exit 1
}
for s in "$work"/*.stp; do
	[ -e "$s" ] || continue
	name=$(basename "$s" .stp)
	where="${name%-*}.md:$(cat "$s.line")"
	if ./stp --sysroot="$sysroot" -r "$krel" -p2 "$s" >/dev/null 2>"$work/err"; then
		ok "$where: pass 2 takes the script"
	else
		bad "$where" "pass 2 refuses the script:" "$work/err"
	fi
done

# lmatch PATTERN LINE: a line as a pattern says ("..." for any text)
# match EXPECTED ACTUAL: the whole output as the expected lines say
match() {
	awk '
		function lmatch(p, s,    n, parts, i, at) {
			if (!index(p, "...")) return p == s
			n = split(p, parts, /\.\.\./)
			if (substr(s, 1, length(parts[1])) != parts[1]) return 0
			at = length(parts[1]) + 1
			for (i = 2; i < n; i++) {
				k = index(substr(s, at), parts[i])
				if (!k) return 0
				at += k - 1 + length(parts[i])
			}
			return length(s) - at + 1 >= length(parts[n]) &&
			       substr(s, length(s) - length(parts[n]) + 1) == parts[n]
		}
		FNR == NR { e[++ne] = $0; next }
		{ a[++na] = $0 }
		END {
			i = 1; skip = 0
			for (j = 1; j <= ne; j++) {
				if (e[j] == "...") { skip = 1; continue }
				if (skip) {
					while (i <= na && !lmatch(e[j], a[i])) i++
					skip = 0
				}
				if (i > na || !lmatch(e[j], a[i])) {
					printf "expected line %d: %s\n", j, e[j]
					exit 1
				}
				i++
			}
			if (!skip && i <= na) { printf "more output than shown: %s\n", a[i]; exit 1 }
		}' "$1" "$2"
}

for c in "$work"/*.console; do
	[ -e "$c" ] || continue
	name=$(basename "$c" .console)
	line=$(cat "$c.line")
	# one command, then its output, at a time
	awk -v dir="$work" -v name="$name" '
		/^\$ / { k++; f = sprintf("%s/%s.cmd%d", dir, name, k); print substr($0, 3) > f; close(f)
			 printf "" > (f ".want"); next }
		k { print >> (f ".want") }' "$c"
	for cmd in "$work/$name".cmd*; do
		case $cmd in *.want) continue ;; esac
		where="${name%-*}.md:$line: \$ $(cut -c1-70 "$cmd")"
		timeout 600 bash "$cmd" >"$work/out" 2>"$work/err"
		rc=$?
		if [ $rc -ne 0 ] && [ $rc -ne 141 ]; then
			cat "$work/out" "$work/err" >"$work/both"
			bad "$where" "exit $rc" "$work/both"
		elif match "$cmd.want" "$work/out" >"$work/why"; then
			ok "$where"
		else
			{ cat "$work/why"; echo "--- it printed:"; cat "$work/out"; } >"$work/both"
			bad "$where" "not what the manual shows" "$work/both"
		fi
	done
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
