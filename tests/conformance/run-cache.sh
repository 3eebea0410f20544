#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The caches pass 2 keeps under STP_CACHE, against the guest kernel's
# DWARF and System.map (tests/kernel.sh):
#   dwarf/BUILDID-V.idx     the index: functions, abstract inlines,
#                           variables, the CUs, .debug_frame's FDEs
#   dwarf/BUILDID-V.body/   inlined copies, a file per CU, made when a
#                           probe point first names their function
#   ksymsV-...              System.map's functions, as an image
# A run that builds them, a run that reads them, a run with none (no
# cache directory) and runs over damaged files must all print the same.
#
# usage: tests/conformance/run-cache.sh [STP]   (from the repo root)
set -uo pipefail
STP=$(realpath "${1:-./stp}")
SYSROOT=$(tests/kernel.sh) || { echo "no kernel sysroot (make deps)"; echo "0 passed, 1 failed"; exit 1; }
KREL=$(tests/kernel.sh release)
T=$(mktemp -d "${TMPDIR:-/tmp}/stp-cache.XXXXXX")
trap 'rm -rf "$T"' EXIT
pass=0
fail=0

ok() { pass=$((pass + 1)); }
bad() {
	echo "FAIL $1"
	fail=$((fail + 1))
}

# run CACHE OUT ARGS...: stp -p2 (or -L/-l) with STP_CACHE=CACHE ("" for
# none: HOME is then unset too), stdout and stderr to OUT.
run() {
	local cache=$1 out=$2
	shift 2
	if [ -n "$cache" ]; then
		STP_CACHE=$cache "$STP" --sysroot="$SYSROOT" -r "$KREL" "$@" >"$out" 2>&1
	else
		env -u STP_CACHE -u HOME "$STP" --sysroot="$SYSROOT" -r "$KREL" "$@" >"$out" 2>&1
	fi
}

# same NAME ARGS...: cold, cached and cacheless runs agree, and exit 0
same() {
	local name=$1
	shift
	rm -rf "$T/c"
	run "$T/c" "$T/cold" "$@" || { bad "$name: cold run failed: $(head -3 "$T/cold")"; return; }
	run "$T/c" "$T/cached" "$@" || { bad "$name: cached run failed"; return; }
	run "" "$T/none" "$@" || { bad "$name: run without a cache failed: $(head -3 "$T/none")"; return; }
	if ! cmp -s "$T/cold" "$T/cached"; then
		bad "$name: cached output differs from the first run's"
		diff "$T/cold" "$T/cached" | head -5 | sed 's/^/    /'
	elif ! cmp -s "$T/cold" "$T/none"; then
		bad "$name: output without a cache differs"
		diff "$T/cold" "$T/none" | head -5 | sed 's/^/    /'
	else
		ok
	fi
}

# shellcheck disable=SC2016 # $$parms and $count are stp's
VFS='probe kernel.function("vfs_*") { println($$parms) }'
same "vfs_* with \$\$parms" -p2 -e "$VFS"
same "an inline function's 17 copies" -p2 -e 'probe kernel.function("fdget_pos").inline { println(1) }'
same "-L of an inlined function" -L 'kernel.function("rw_verify_area").inline'
same "every function of a file, copies included" -l 'kernel.function("*@fs/read_write.c")'
same "a statement past the prologue (CFA from .debug_frame)" -p2 \
	-e 'probe kernel.statement("vfs_read@fs/read_write.c:462") { println($$vars) }'
same "symbol-table points" -l 'kprobe.function("vfs_*")'
# libc6-dbg's sections come compressed: the run that made the index once
# saw none of a function's variables
same "a libc function's variables (compressed DWARF)" \
	-L 'process("/lib/x86_64-linux-gnu/libc.so.6").function("malloc")'

# the second run reads what the first made, and makes nothing anew
rm -rf "$T/c"
run "$T/c" "$T/out1" -p2 -e "$VFS"
idx=$(ls "$T"/c/dwarf/*.idx 2>/dev/null | head -1)
if [ -z "$idx" ]; then
	bad "no index under STP_CACHE/dwarf after a run"
else
	ok
	nbody=$(ls "${idx%.idx}.body" 2>/dev/null | wc -l)
	sleep 1
	touch "$T/marker"
	run "$T/c" "$T/out2" -p2 -e "$VFS"
	[ -z "$(find "$T/c" -newer "$T/marker")" ] && ok ||
		bad "the cached run wrote: $(find "$T/c" -newer "$T/marker" | head -3)"
	# copies are looked for only in the CUs a point needs: a few of ~2,350
	if [ "$nbody" -ge 1 ] && [ "$nbody" -lt 100 ]; then ok; else
		bad "vfs_* made $nbody CU files of inlined copies (expected 1..99)"
	fi

	# a damaged index is made anew, and says the same
	head -c 100000 "$idx" >"$T/trunc" && cat "$T/trunc" >"$idx"
	run "$T/c" "$T/out3" -p2 -e "$VFS"
	cmp -s "$T/out1" "$T/out3" && ok || bad "output after a truncated index differs"
	[ "$(stat -c %s "$idx")" -gt 100000 ] && ok || bad "a truncated index was not made anew"

	# a damaged CU file of copies is scanned anew
	run "$T/c" "$T/out4" -p2 -e 'probe kernel.function("fdget_pos").inline { println(1) }'
	for f in "${idx%.idx}.body"/*; do printf 'garbage' >"$f"; done
	run "$T/c" "$T/out5" -p2 -e 'probe kernel.function("fdget_pos").inline { println(1) }'
	cmp -s "$T/out4" "$T/out5" && ok || bad "output after damaged CU files differs"
	grep -q 'fdget_pos' "$T/out5" && ok || bad "no fdget_pos probes after damaged CU files"
fi

# a damaged System.map image is made anew
rm -rf "$T/c"
run "$T/c" "$T/k1" -l 'kprobe.function("vfs_*")'
ks=$(ls "$T"/c/ksyms* 2>/dev/null | head -1)
if [ -z "$ks" ]; then
	bad "no System.map image under STP_CACHE"
else
	head -c 5000 "$ks" >"$T/trunc" && cat "$T/trunc" >"$ks"
	run "$T/c" "$T/k2" -l 'kprobe.function("vfs_*")'
	cmp -s "$T/k1" "$T/k2" && ok || bad "kprobe listing after a truncated System.map image differs"
	printf 'STPKSYM4%*s' 40 '' >"$ks"
	run "$T/c" "$T/k3" -l 'kprobe.function("vfs_*")'
	cmp -s "$T/k1" "$T/k3" && ok || bad "kprobe listing after a garbage System.map image differs"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
