#!/bin/bash
# stp-vitals rules, diff and the aggregator, on the host.  Every rule has
# a store built for it that triggers it and one that does not
# (build/tests/rules_gen case NAME-yes|NAME-no); each store's flags are
# compared exactly with tests/vitals/rules/NAME.expect, as text and for
# some as JSON lines.  Also: l2mi unavailable and blio without what a
# request got (rules not evaluated, with the reason), thresholds set
# with --set, --from/--to, the filters (--exec, --site, --uid, --pid,
# --vital), the diff of two ranges, the errors and their
# exit status, and the aggregator against a direct computation at each
# timescale: computed, then read back from its tables (a tampered kept
# point shows through, so they are read), recomputed when its version
# changes, and extended when epochs arrive, on a read-only store too; and
# its top sites, programs and users of a small store, exactly.  The rules' cases and the
# diff run again under ASan and UBSan.
#
#   tests/vitals/rules.sh          last line: "N passed, N failed"
set -uo pipefail
cd "$(dirname "$0")/../.."
[ -x build/tests/agg_check ] && [ -x build/asan/stp-vitals ] || make -s vitals-tests >/dev/null
export LC_ALL=C
pass=0
fail=0
root=$(mktemp -d)
trap 'chattr -i "$root"/*/ro.db 2>/dev/null; rm -rf "$root"' EXIT
work=$root/plain
want=tests/vitals/rules
vitals=./stp-vitals
gen=build/tests/rules_gen
check=build/tests/agg_check
tag=

# shellcheck source=lib.sh
. tests/vitals/lib.sh

rule_cases() {
	local c
	for c in $("$gen" list); do
		"$gen" case "$c" "$work/$c.db" || { bad "$c: the generator failed"; continue; }
		same "rules: $c" "$want/$c.expect" -- rules "$work/$c.db"
	done
	same "rules --json: process-died-yes" "$want/process-died-yes.json" -- \
		rules --json "$work/process-died-yes.db"
	same "rules --json: not evaluated" "$want/no-l2mi-yes.json" -- \
		rules "$work/no-l2mi-yes.db" --json
	same "rules --set: busy-loop-no flagged" "$want/busy-loop-set.expect" -- \
		rules "$work/busy-loop-no.db" --set l2mi_low=0.2 --set=cpuu_high=1000
	echo "no flags" >"$work/none"
	same "rules --set: just over" "$work/none" -- \
		rules "$work/busy-loop-no.db" --set l2mi_low=0.2 --set=cpuu_high=1001
	head -2 "$want/process-died-yes.expect" >"$work/two"
	same "rules --to" "$work/two" -- rules "$work/process-died-yes.db" --to 2026-11-24T00:02:00Z
	same "rules --from: the daemon seen 2 epochs only" "$work/none" -- \
		rules "$work/process-died-yes.db" --from 1795478520
}

diff_cases() {
	local db=$work/diff.db a=2026-11-24T00:00:00Z..2026-11-24T00:02:00Z
	local b=2026-11-24T00:02:00Z..2026-11-24T00:04:00Z
	"$gen" diff "$db"
	same "diff" "$want/diff.expect" -- diff "$db" "$a" "$b"
	same "diff --json --limit 1" "$want/diff-json.expect" -- diff --json --limit 1 "$db" \
		1795478400..1795478520 1795478520..1795478640
	local usage='\nusage: stp-vitals diff DB A_FROM..A_TO B_FROM..B_TO [--limit N] [--json] [--vital A,B] [--exec GLOB] [--site GLOB] [--uid N] [--pid N]'
	same "diff: --exec '*httpd' --vital cpuu,sock" "$want/diff-filter.expect" -- diff "$db" \
		1795478400..1795478520 1795478520..1795478640 --exec '*httpd' --vital cpuu,sock
	status "diff: --site without a value" 2 "stp-vitals: diff: --site needs a value$usage" -- diff "$db" "$a" "$b" --site
	status "diff: no range B" 2 "stp-vitals: diff: want two ranges, A and B$usage" -- diff "$db" "$a"
	status "diff: not a range" 2 "stp-vitals: diff: range A: want FROM..TO, not '1795478400'$usage" \
		-- diff "$db" 1795478400 "$b"
	status "diff: backwards" 2 "stp-vitals: diff: range B: '1795478640..1795478520' ends before it starts$usage" \
		-- diff "$db" "$a" 1795478640..1795478520
	status "diff: bad time" 2 "stp-vitals: diff: B: bad time '2026-11-24T00:02Z' (want RFC 3339 as 2026-11-24T18:40:00.000Z, Unix seconds, or -10m, -2h, -1d back from now)$usage" \
		-- diff "$db" "$a" 2026-11-24T00:02Z..2026-11-24T00:04:00Z
	status "diff: bad limit" 2 "stp-vitals: diff: --limit: want a count, not '-1'$usage" \
		-- diff "$db" "$a" "$b" --limit -1
	status "diff: a third range" 2 "stp-vitals: diff: one store and two ranges, not 'x' too$usage" \
		-- diff "$db" "$a" "$b" x
	status "diff: empty range" 1 "stp-vitals: diff: range B (2026-11-25T00:00:00Z..2026-11-26T00:00:00Z) holds no epoch" \
		-- diff "$db" "$a" 2026-11-25T00:00:00Z..2026-11-26T00:00:00Z
}

error_cases() {
	local db=$work/busy-loop-yes.db
	local usage='\nusage: stp-vitals rules DB [--from T] [--to T] [--json] [--set NAME=VALUE]... [--exec GLOB] [--site GLOB] [--uid N] [--pid N] [--vital A,B]'
	same "rules --pid 700: the starved process's flags" "$want/held-from-running-yes.expect" -- \
		rules "$work/held-from-running-yes.db" --pid 700
	echo "no flags" >"$work/none"
	same "rules --exec: the spinner's samples only" "$work/none" -- \
		rules "$work/held-from-running-yes.db" --exec '*/spin'
	same "rules --uid 1000 --site: the starved's sched site" "$want/held-from-running-yes.expect" -- \
		rules "$work/held-from-running-yes.db" --uid=1000 --site 'preempt_*'
	status "rules: --uid not a number" 2 "stp-vitals: rules: --uid: want a number, not 'abc'$usage" \
		-- rules "$db" --uid abc
	status "rules: unknown threshold" 2 "stp-vitals: rules: --set: no threshold 'cpu_high' takes '1' (stp-vitals rules --help lists them)$usage" \
		-- rules "$db" --set cpu_high=1
	status "rules: negative threshold" 2 "stp-vitals: rules: --set: no threshold 'cpuu_high' takes '-5' (stp-vitals rules --help lists them)$usage" \
		-- rules "$db" --set cpuu_high=-5
	status "rules: --set without =" 2 "stp-vitals: rules: --set: want NAME=VALUE, not 'cpuu_high'$usage" \
		-- rules "$db" --set cpuu_high
	status "rules: --set alone" 2 "stp-vitals: rules: --set needs NAME=VALUE$usage" -- rules "$db" --set
	status "rules: unknown option" 2 "stp-vitals: rules: unknown option '--since'$usage" -- rules "$db" --since 1
	status "rules: no store" 2 "stp-vitals: rules: no store given$usage" -- rules
	status "rules: two stores" 2 "stp-vitals: rules: one store, not 'b.db' too$usage" -- rules "$db" b.db
	status "rules: missing store" 1 "stp-vitals: $work/none.db: not a vital-signs store (No such file or directory)" \
		-- rules "$work/none.db"
	if "$vitals" rules --help >"$work/out" 2>&1 && grep -qx '  cpuu_high=500' "$work/out" &&
		[ "$(grep -c '^  [a-z0-9_]*=' "$work/out")" = 18 ]; then
		ok "rules --help: 18 thresholds with their defaults"
	else
		bad "rules --help"; sed 's/^/    /' "$work/out" | head
	fi
}

# agg NAME ARGS...: agg_check says ok for the three timescales
agg() {
	local name=$1
	shift
	if "$check" "$@" >"$work/agg" 2>&1 && [ "$(grep -c '^ok' "$work/agg")" = 3 ]; then
		ok "aggregator: $name ($(tr '\n' ' ' <"$work/agg" | sed 's/ $//'))"
	else
		bad "aggregator: $name"; sed 's/^/    /' "$work/agg"
	fi
}

# A store the aggregator cannot write (immutable, where the file system
# has the attribute): the points are computed, and no table is added.
read_only_case() {
	local db=$work/ro.db
	"$gen" agg "$db" 0 10
	sqlite3 "$db" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
	if ! chattr +i "$db" 2>/dev/null; then
		echo "skip aggregator: read-only store (chattr +i not supported here)"
		return
	fi
	agg "a read-only store" "$db"
	chattr -i "$db"
	[ -z "$(sqlite3 "$db" "SELECT name FROM sqlite_master WHERE name LIKE 'agg%'")" ] &&
		ok "aggregator: nothing added to a read-only store" ||
		bad "aggregator: tables added to a read-only store"
}

agg_cases() {
	local db=$work/agg.db n
	"$gen" agg "$db" 0 200
	agg "computed" "$db"
	n=$(sqlite3 "$db" "SELECT count(*) FROM agg_points")
	[ "$n" = 2783 ] && ok "aggregator: 2783 points kept" || bad "aggregator: $n points kept, want 2783"
	agg "read back" "$db"
	sqlite3 "$db" "UPDATE agg_point SET weight = weight + 1 WHERE scale = 1 AND seq = 0"
	if "$check" "$db" >"$work/agg" 2>&1; then
		bad "aggregator: a tampered kept point went unseen (not read back?)"
	elif grep -q '^FAIL hour' "$work/agg" && [ "$(grep -c '^ok' "$work/agg")" = 2 ]; then
		ok "aggregator: the hour's kept points are the ones read"
	else
		bad "aggregator: tampered"; sed 's/^/    /' "$work/agg"
	fi
	sqlite3 "$db" "UPDATE agg_meta SET value = '0' WHERE key = 'version'"
	agg "recomputed for a new version" "$db"
	"$gen" agg "$db" 200 20
	agg "extended by 20 epochs" "$db"
	agg "a range inside" "$db" 1795500000 1795600000
	read_only_case
	db=$work/tops.db
	"$gen" diff "$db"
	local scale
	for scale in day hour; do
		if "$check" "$db" --tops $scale >"$work/tops" 2>&1 &&
			diff -u "$want/tops-day.expect" "$work/tops" >"$work/diff"; then
			ok "aggregator: the $scale's top sites, programs and users"
		else
			bad "aggregator: tops at $scale"; sed 's/^/    /' "$work/diff" "$work/tops" | head -20
		fi
	done
	[ "$(sqlite3 "$db" "SELECT count(*) FROM agg_tops WHERE scale = 'hour'")" = 11 ] &&
		ok "aggregator: the hour's tops kept (view agg_tops)" ||
		bad "aggregator: agg_tops has $(sqlite3 "$db" "SELECT count(*) FROM agg_tops WHERE scale = 'hour'") rows for the hour, want 11"
}

suite() {
	mkdir -p "$work"
	rule_cases
	diff_cases
	error_cases
}

suite
agg_cases
vitals=build/asan/stp-vitals
tag="asan: "
work=$root/asan
suite
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
