#!/bin/bash
# The SDT markers stp and stprun carry for tapsets/stap_markers.stp
# (SystemTap's stap.* and staprun.* probes): readelf -n lists their
# .note.stapsdt notes; each program must hold exactly these markers,
# "provider:name:number of arguments", each once or (pass 3 and 4, also
# marked on the module cache's path) twice.  Running a module is not
# possible on the build machine, so the probes' firing is not tested
# here; their elaboration is (conformance tests 2003, 2004).
#
#   tests/driver/markers.sh [STP] [STPRUN]
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
STP=${1:-./stp}
STPRUN=${2:-./stprun}
pass=0 fail=0

# markers PROGRAM: one line a note, "provider:name:nargs", sorted
markers() {
	readelf -n "$1" | awk '
		/Provider:/ { p = $2 }
		/Name:/ { n = $2 }
		/Arguments:/ { a = $0; sub(/.*Arguments: */, "", a); print p ":" n ":" (a == "" ? 0 : split(a, x, " ")) }
	' | sort
}

check() {
	local prog=$1 want got
	shift
	want=$(printf '%s\n' "$@" | sort)
	got=$(markers "$prog")
	if [ "$got" = "$want" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL $prog's markers differ (- wanted, + found):"
		diff <(echo "$want") <(echo "$got") | grep '^[<>]' | sed 's/^</-/; s/^>/+/'
	fi
}

check "$STP" \
	stap:pass0__start:1 stap:pass0__end:1 stap:pass1a__start:1 stap:pass1b__start:1 \
	stap:pass1__end:1 stap:pass2__start:1 stap:pass2__end:1 \
	stap:pass3__start:1 stap:pass3__start:1 stap:pass3__end:1 stap:pass3__end:1 \
	stap:pass4__start:1 stap:pass4__start:1 stap:pass4__end:1 stap:pass4__end:1 \
	stap:pass5__start:1 stap:pass5__end:1 stap:pass6__start:1 stap:pass6__end:1 \
	stap:cache__get:2 stap:cache__add__module:2 stap:cache__add__source:2 \
	stap:stap_system__start:1 stap:stap_system__spawn:2 stap:stap_system__complete:1
check "$STPRUN" \
	staprun:insert__module:1 staprun:remove__module:1 staprun:send__ctlmsg:3
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
