#!/bin/bash
# How much of SystemTap 4.8's tapset library stp defines, by name, for the
# 6.1 test kernel (tests/kernel.sh): SystemTap's names are committed
# beside this script, stp's come from stp --dump-functions and
# --dump-probe-aliases.  Prints
#
#   functions:      N of M (P%)   SystemTap's documented functions
#                                 (stap-functions.txt) that stp defines
#   all functions:  N of M (P%)   every function its tapsets define,
#                                 documented or not (stap-functions-all.txt)
#   probe aliases:  N of M (P%)   its alias names (stap-aliases.txt) that
#                                 stp defines, exactly
#   alias families: N of M (P%)   its families with at least one name stp
#                                 defines; a family is a name with its
#                                 last component, before a final .return,
#                                 made *: syscall.read and
#                                 nd_syscall.read.return are in syscall.*
#                                 and nd_syscall.*.return
#
#   internal aliases: N of M   the aliases its tapsets define whose
#                                 names start with '_' (__vm.kfree.kp,
#                                 _vfs.block_write_begin: its scripts name
#                                 some), but for its system call
#                                 tapsets' own (__syscall.*, __nd1_syscall.*,
#                                 ...: how it builds syscall.*, which no
#                                 script names) (stap-aliases-internal.txt)
#
# A SystemTap alias that names one of stp's builtin probe points
# (perf.sw.cpu_clock, timer.profile) counts as defined when stp -l lists it.
# Names with a component starting with '_' (SystemTap's internal
# __syscall.* helpers) are left out on both sides.  The names stp lacks go
# to build/tests/coverage-missing.txt.  A measurement, not a check: it
# fails only when a tool does.
#
#   tests/examples/coverage.sh [--refresh] [STP]
#
# --refresh writes stap-aliases.txt again from stap --dump-probe-aliases,
# and stap-functions.txt from the Tapset Reference's pages (stap
# --dump-functions elaborates every tapset probe against the kernel's
# DWARF and modules and does not finish here).
set -euo pipefail
export LC_ALL=C
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/tests/examples
refresh=0
[ "${1:-}" = --refresh ] && { refresh=1; shift; }
STP=$(realpath "${1:-$top/stp}")
root=$("$top/tests/kernel.sh")
krel=$("$top/tests/kernel.sh" release)
out=$top/build/tests
mkdir -p "$out"
DOCS=/usr/share/doc/systemtap-doc/tapsets

if [ $refresh = 1 ]; then
	{
		echo "# SystemTap 4.8's probe alias names for x86-64, a kernel of Debian 12's 6.1 line:"
		echo "# the first field of \`stap --sysroot=\$(tests/kernel.sh) -r \$(tests/kernel.sh release) --dump-probe-aliases\`, sorted, once each."
		echo "# Regenerate with tests/examples/coverage.sh --refresh."
		stap --sysroot="$root" -r "$krel" --dump-probe-aliases | cut -d' ' -f1 | sort -u
	} >"$here/stap-aliases.txt"
	{
		echo "# SystemTap 4.8's tapset function names: the titles function::NAME of its Tapset Reference pages"
		echo "# ($DOCS/API-*.html, Debian's systemtap-doc), sorted."
		echo "# \`stap --dump-functions\` would list the undocumented ones too, but does not finish here (it"
		echo "# elaborates every tapset probe against the kernel's DWARF and modules: over 30 CPU minutes)."
		grep -ho '<title>function::[^<]*</title>' "$DOCS"/API-*.html |
			sed 's/<title>function:://; s/<\/title>//' | sort -u
	} >"$here/stap-functions.txt"
	{
		echo "# Every function SystemTap 4.8's tapsets define for the kernel runtime on x86-64, documented"
		echo "# or not, save @__private30 ones: the names in 'function NAME' of the .stp files of"
		echo "# /usr/share/systemtap/tapset, its linux/, x86_64/ and linux/x86_64/ (what stap -p1 reads), sorted."
		for d in . linux x86_64 linux/x86_64; do
			[ -d "/usr/share/systemtap/tapset/$d" ] || continue
			grep -hoE '^(@__private[0-9]+ +)?function +[A-Za-z_][A-Za-z0-9_]*' \
				"/usr/share/systemtap/tapset/$d"/*.stp
		done | grep -v '@__private' | awk '{ print $2 }' | sort -u
	} >"$here/stap-functions-all.txt"
	{
		echo "# The probe aliases SystemTap 4.8's tapsets define for the kernel runtime on x86-64 whose names"
		echo "# start with '_', but for those of its system call tapsets: 'probe NAME' of the .stp files of"
		echo "# /usr/share/systemtap/tapset, its linux/, x86_64/ and linux/x86_64/, sorted."
		for d in . linux x86_64 linux/x86_64; do
			[ -d "/usr/share/systemtap/tapset/$d" ] || continue
			grep -hoE '^probe +_[A-Za-z0-9_.]+' "/usr/share/systemtap/tapset/$d"/*.stp
		done | awk '{ print $2 }' | grep -v syscall | sort -u
	} >"$here/stap-aliases-internal.txt"
fi

# public names only: no component starting with '_'
public() { grep -v '^#' | grep -v -E '(^|\.)_' | sort -u; }
family() { sed -E 's/(\.return)?$/ &/; s/^(.+)\.[^.]+ (.*)$/\1.*\2/; s/ //'; }
"$STP" --sysroot="$root" -r "$krel" --dump-functions | public >"$out/coverage-stp-functions.txt"
"$STP" --sysroot="$root" -r "$krel" --dump-probe-aliases | cut -d' ' -f1 | public \
	>"$out/coverage-stp-aliases.txt"
public <"$here/stap-functions.txt" >"$out/coverage-stap-functions.txt"
# all of them, '_' names too: scripts call some (_stp_valid_task, __is_idle)
"$STP" --sysroot="$root" -r "$krel" --dump-functions | grep -v '^#' | sort -u \
	>"$out/coverage-stp-functions-all.txt"
grep -v '^#' "$here/stap-functions-all.txt" | sort -u >"$out/coverage-stap-functions-all.txt"
public <"$here/stap-aliases.txt" >"$out/coverage-stap-aliases.txt"
# SystemTap's aliases that stp has as builtin probe points (perf.sw.*,
# timer.*): defined if stp -l lists the name
comm -23 "$out/coverage-stap-aliases.txt" "$out/coverage-stp-aliases.txt" | while read -r a; do
	timeout 10 "$STP" --sysroot="$root" -r "$krel" -l "$a" 2>/dev/null | grep -q . && echo "$a"
done >"$out/coverage-stp-builtins.txt" || true
sort -u "$out/coverage-stp-aliases.txt" "$out/coverage-stp-builtins.txt" -o "$out/coverage-stp-aliases.txt"
grep -v '^#' "$here/stap-aliases-internal.txt" | sort -u >"$out/coverage-stap-internal.txt"
"$STP" --sysroot="$root" -r "$krel" --dump-probe-aliases | cut -d' ' -f1 | grep '^_' | sort -u \
	>"$out/coverage-stp-internal.txt"
family <"$out/coverage-stap-aliases.txt" | sort -u >"$out/coverage-stap-families.txt"
family <"$out/coverage-stp-aliases.txt" | sort -u >"$out/coverage-stp-families.txt"

# share NAME STAP_LIST STP_LIST: "NAME: N of M (P%)"; the missing ones kept
share() {
	local have total
	total=$(wc -l <"$2")
	have=$(comm -12 "$2" "$3" | wc -l)
	printf '%-18s %d of %d (%s%%)\n' "$1:" "$have" "$total" \
		"$(awk -v h="$have" -v t="$total" 'BEGIN { printf "%.1f", t ? 100 * h / t : 0 }')"
}
share functions "$out/coverage-stap-functions.txt" "$out/coverage-stp-functions.txt"
share "all functions" "$out/coverage-stap-functions-all.txt" "$out/coverage-stp-functions-all.txt"
share "probe aliases" "$out/coverage-stap-aliases.txt" "$out/coverage-stp-aliases.txt"
share "alias families" "$out/coverage-stap-families.txt" "$out/coverage-stp-families.txt"
share "internal aliases" "$out/coverage-stap-internal.txt" "$out/coverage-stp-internal.txt"
{
	echo "# SystemTap's names stp does not define (tests/examples/coverage.sh, kernel $krel)"
	echo "# functions"
	comm -23 "$out/coverage-stap-functions.txt" "$out/coverage-stp-functions.txt"
	echo "# undocumented functions"
	comm -23 "$out/coverage-stap-functions-all.txt" "$out/coverage-stp-functions-all.txt" |
		comm -23 - "$out/coverage-stap-functions.txt"
	echo "# alias families with no name defined"
	comm -23 "$out/coverage-stap-families.txt" "$out/coverage-stp-families.txt"
	echo "# probe aliases"
	comm -23 "$out/coverage-stap-aliases.txt" "$out/coverage-stp-aliases.txt"
	echo "# internal aliases"
	comm -23 "$out/coverage-stap-internal.txt" "$out/coverage-stp-internal.txt"
} >"$out/coverage-missing.txt"
echo "missing: ${out#"$top"/}/coverage-missing.txt"
