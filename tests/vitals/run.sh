#!/bin/bash
# The vital-signs store (store/store.c) and stp-vitals dump, on the host:
# the dump of known epochs compared exactly with fixture.expect (JSON
# escaping of odd strings, an unavailable vital, absent texts), --from
# and --to in each time form, errors and their exit status, the HCA
# blob's round trip, trimming by age and by size (the newest epoch
# kept, no text left behind), and a writer killed with SIGKILL at
# random moments: after each kill the store passes SQLite's integrity
# check and holds every epoch whose put returned, each one whole (and a
# dump while it writes shows whole epochs only).  The
# same cases run again with both programs built under ASan and UBSan.
#
#   tests/vitals/run.sh          last line: "N passed, N failed"
set -uo pipefail
cd "$(dirname "$0")/../.."
[ -x build/asan/stp-vitals ] || make -s vitals-tests >/dev/null
export LC_ALL=C
pass=0
fail=0
kills=0
kills_mid=0
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
work=$root/plain
here=tests/vitals
vitals=./stp-vitals
writer=build/tests/vitals_writer
tag=

# shellcheck source=lib.sh
. tests/vitals/lib.sh

# The fixture's lines whose epoch starts at one of the minutes given.
fixture_at() {
	local m re=
	for m in "$@"; do re="$re${re:+|}\"epoch_start\":\"2026-11-24T18:$m:00.000Z\""; done
	grep -E "$re" "$here/fixture.expect" >"$work/want-$*"
	echo "$work/want-$*"
}

fixture_cases() {
	local db=$work/fixture.db all usage
	"$writer" fixture "$db" || { bad "fixture: the writer failed"; return; }
	same "dump" "$here/fixture.expect" -- dump "$db"
	same "--from: RFC 3339" "$(fixture_at 41 42)" -- dump "$db" --from 2026-11-24T18:41:00.000Z
	same "--from=: Unix seconds" "$(fixture_at 41 42)" -- dump "$db" --from=1795545660
	same "--from: an offset" "$(fixture_at 41 42)" -- dump "$db" --from 2026-11-24T19:41:00+01:00
	same "--to: half open" "$(fixture_at 40)" -- dump "$db" --to 2026-11-24T18:41:00Z
	same "--from --to: overlap" "$(fixture_at 40 41)" -- dump "$db" \
		--from 2026-11-24T18:40:30.5Z --to 1795545660.001
	same "--to before all" /dev/null -- dump "$db" --to 2026-11-24T18:40:00.000Z
	all=$here/fixture.expect
	same "--from: days back" "$all" -- dump "$db" --from -36500d
	same "--from: hours back" "$all" -- dump "$db" --from -876000h
	same "--from: minutes back" "$all" -- dump "$db" --from=-52560000m
	same "--from: seconds back" "$all" -- dump "$db" --from -3153600000s
	same "--to: days back" /dev/null -- dump "$db" --to -36500d
	usage='\nusage: stp-vitals dump DB [--from T] [--to T]'
	local forms='RFC 3339 as 2026-11-24T18:40:00.000Z, Unix seconds, or -10m, -2h, -1d back from now'
	status "bad month" 2 "stp-vitals: dump: --from: bad time '2026-13-01T00:00:00Z' (want $forms)$usage" \
		-- dump "$db" --from 2026-13-01T00:00:00Z
	status "no zone" 2 "stp-vitals: dump: --to: bad time '2026-11-24T18:40:00' (want $forms)$usage" \
		-- dump "$db" --to 2026-11-24T18:40:00
	status "bad unit" 2 "stp-vitals: dump: --from: bad time '-5w' (want $forms)$usage" \
		-- dump "$db" --from -5w
	status "trailing text" 2 "stp-vitals: dump: --to: bad time '12abc' (want $forms)$usage" \
		-- dump "$db" --to 12abc
	status "no time" 2 "stp-vitals: dump: --from needs a time$usage" -- dump "$db" --from
	status "unknown option" 2 "stp-vitals: dump: unknown option '--since'$usage" -- dump "$db" --since 1
	status "two stores" 2 "stp-vitals: dump: one store, not 'b.db' too$usage" -- dump "$db" b.db
	status "no store" 2 "stp-vitals: dump: no store given$usage" -- dump
	local top='\nusage: stp-vitals COMMAND ARGS... (stp-vitals --help)'
	status "no command" 2 "stp-vitals: no command$top" --
	status "unknown command" 2 "stp-vitals: unknown command 'dupm'$top" -- dupm x.db
	if "$vitals" --help >"$work/out" 2>&1 && [ "$(head -1 "$work/out")" = "usage: stp-vitals COMMAND ARGS..." ] &&
		grep -qx '  stp-vitals dump DB \[--from T\] \[--to T\]' "$work/out"; then
		ok "--help"
	else
		bad "--help"; sed 's/^/    /' "$work/out"
	fi
	if "$vitals" dump --help >"$work/out" 2>&1 &&
		[ "$(head -1 "$work/out")" = "usage: stp-vitals dump DB [--from T] [--to T]" ]; then
		ok "dump --help"
	else
		bad "dump --help"; sed 's/^/    /' "$work/out"
	fi
	if "$writer" hca "$db" >"$work/hca"; then
		ok "hca: $(grep -c '^ok' "$work/hca") round trips"
	else
		bad "hca"; sed 's/^/    /' "$work/hca"
	fi
}

not_store_cases() {
	local d=$work/bad
	mkdir -p "$d"
	: >"$d/empty.db"
	sqlite3 "$d/other.db" 'CREATE TABLE t(a)'
	"$writer" fixture "$d/v3.db"
	sqlite3 "$d/v3.db" "UPDATE meta SET value = '3' WHERE key = 'schema_version'"
	local pre="stp-vitals: $d"
	status "missing file" 1 "$pre/none.db: not a vital-signs store (No such file or directory)" -- dump "$d/none.db"
	status "not SQLite" 1 "stp-vitals: Makefile: not a vital-signs store (file is not a database)" -- dump Makefile
	status "empty file" 1 "$pre/empty.db: not a vital-signs store (an empty file)" -- dump "$d/empty.db"
	status "a directory" 1 "$pre: not a vital-signs store (a directory)" -- dump "$d"
	status "other SQLite" 1 "$pre/other.db: not a vital-signs store (no meta table)" -- dump "$d/other.db"
	status "newer schema" 1 "$pre/v3.db: not a vital-signs store (schema version 3; this stp-vitals reads 2)" \
		-- dump "$d/v3.db"
	[ ! -e "$d/none.db" ] && ok "dump creates no file" || bad "dump created $d/none.db"
	if "$writer" fixture "$d/other.db" 2>"$work/err"; then
		bad "the writer took another SQLite file"
	elif [ "$(cat "$work/err")" = "writer: $d/other.db: not a vital-signs store (no meta table)" ]; then
		ok "the writer refuses another SQLite file"
	else
		bad "the writer's error:"; sed 's/^/    /' "$work/err"
	fi
}

# The epochs' first minutes in a dump, one line each: "00:07" ...
minutes() {
	"$vitals" dump "$1" | sed -n 's/^{"kind":"vital","epoch_start":"2026-11-24T\(..:..\):00.000Z".*/\1/p' | uniq | tr '\n' ' '
}

# trimmed NAME DB WRITER-OUTPUT MINUTES: what trim said and what is left
trimmed() {
	local name=$1 db=$2 said=$3 left=$4 have
	have="$(cat "$work/said") / $(minutes "$db")"
	if [ "$have" = "$said / $left" ]; then
		ok "$name"
	else
		bad "$name: have '$have', want '$said / $left'"
	fi
}

# The texts (exec, site, stack) no sample of the store names.
no_orphans() {
	"$writer" orphans "$1"
}

trim_cases() {
	local db=$work/age.db size limit=2097152 n
	"$writer" epochs "$db" 0 10 busy 0 180 >"$work/said"
	trimmed "trim by age: 3 minutes of history" "$db" "put 10, trimmed 7" "00:07 00:08 00:09 "
	db=$work/age1.db
	"$writer" epochs "$db" 0 5 busy 0 1 >"$work/said"
	trimmed "trim by age: the newest stays" "$db" "put 5, trimmed 4" "00:04 "
	db=$work/tiny.db
	"$writer" epochs "$db" 0 5 busy 1000 0 >"$work/said"
	trimmed "trim by size: the newest stays" "$db" "put 5, trimmed 4" "00:04 "
	db=$work/size.db
	"$writer" epochs "$db" 0 60 busy $limit 0 >"$work/said"
	sqlite3 "$db" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
	size=$(stat -c %s "$db")
	local first last
	first=$(sqlite3 "$db" "SELECT (min(start_ns) - 1795478400000000000) / 60000000000 FROM epoch")
	last=$(sqlite3 "$db" "SELECT (max(start_ns) - 1795478400000000000) / 60000000000 FROM epoch")
	n=$(sqlite3 "$db" "SELECT count(*) FROM epoch")
	if [ "$size" -le $limit ] && [ "$last" = 59 ] && [ $((last - first + 1)) = "$n" ] && [ "$n" -gt 1 ]; then
		ok "trim by size: $size bytes <= $limit, epochs $first..$last"
	else
		bad "trim by size: $size bytes (limit $limit), $n epochs $first..$last"
	fi
	db=$work/sweep.db
	"$writer" epochs "$db" 0 69 busy 0 600 >"$work/said"
	n=$(no_orphans "$db")
	[ "$n" = 0 ] && ok "trim drops the texts of the epochs it deletes ($(cat "$work/said"))" ||
		bad "$n texts no sample names are left after $(cat "$work/said")"
	if ./stp-vitals dump "$db" >/dev/null 2>"$work/err"; then
		ok "trim keeps every text the epochs left name"
	else
		bad "dump after trim:"; sed 's/^/    /' "$work/err"
	fi
	[ "$(sqlite3 "$db" 'PRAGMA integrity_check')" = ok ] && ok "trimmed store: integrity" ||
		bad "trimmed store: integrity_check"
	[ "$(sqlite3 "$db" 'PRAGMA freelist_count')" = 0 ] && ok "trim gives the free pages back" ||
		bad "trim left $(sqlite3 "$db" 'PRAGMA freelist_count') free pages"
}

# kill_epochs DB LOG [DUMP-ARGS]: the store's epochs, each "START VITALS SAMPLES N K" (N the
# loop's epoch number, K its samples when whole) in $work/kjoin; 1 if the
# dump failed.
kill_epochs() {
	local db=$1 log=$2
	shift 2
	"$vitals" dump "$db" "$@" >"$work/kdump" 2>"$work/kerr" || return 1
	awk -F'"' '{ k[$8] = 1; if ($4 == "vital") v[$8]++; else s[$8]++ }
		END { for (e in k) print e, v[e] + 0, s[e] + 0 }' "$work/kdump" |
		sort >"$work/ksum"
	"$writer" expect $(awk '$1 == "begin" { print $2 }' "$log") | sort >"$work/kexp"
	join -a1 "$work/ksum" "$work/kexp" >"$work/kjoin"
}

# Every epoch in the store whole (11 vitals, all its samples) and one the
# writer began; every epoch whose put returned there, or with trim, every
# one from the oldest kept on, and the newest always.
kill_check() {
	local log=$1 trim=$2
	awk -v trim="$trim" 'BEGIN { newest = -1; oldest = -1 }
		NR == FNR { if ($1 == "done") { done[$2] = 1; if ($2 + 0 > newest) newest = $2 + 0 }; next }
		NF != 5 || $2 != 11 || $3 != $5 { print "    epoch " $1 " is not whole or unknown: " $0; bad = 1; next }
		{ have[$4] = 1; if (oldest < 0 || $4 + 0 < oldest) oldest = $4 + 0 }
		END {
			for (d in done)
				if (!(d in have) && (!trim || d + 0 >= oldest)) { print "    epoch " d " is missing"; bad = 1 }
			if (newest >= 0 && !((newest "") in have)) { print "    the newest epoch " newest " is missing"; bad = 1 }
			exit bad
		}' "$log" "$work/kjoin"
}

# kill_rounds NAME ROUNDS TRIM-BYTES: the writer's loop killed ROUNDS times
kill_rounds() {
	local name=$1 rounds=$2 trim=$3 db=$work/kill-$1.db log=$work/kill-$1.log
	local r pid first=0 last mid=0 why
	: >"$log"
	for ((r = 1; r <= rounds; r++)); do
		"$writer" loop "$db" $first $trim >>"$log" 2>"$work/kwerr" &
		pid=$!
		sleep "0.$((RANDOM % 60 + 10))"
		# a reader while the writer runs sees whole epochs only (this
		# round's: epoch n starts n minutes after 2026-11-24T00:00Z)
		if kill_epochs "$db" "$log" --from $((1795478400 + first * 60)) && ! awk 'NF != 5 || $2 != 11 || $3 != $5 {
			print "    while writing, epoch " $1 " is not whole: " $0; bad = 1 }
			END { exit bad }' "$work/kjoin" >"$work/klive"; then
			kill -9 $pid
			bad "kill -9 ($name), round $r: $(cat "$work/klive")"
			return
		fi
		kill -9 $pid
		wait $pid 2>/dev/null
		[ "$(tail -1 "$log" | cut -d' ' -f1)" = begin ] && mid=$((mid + 1))
		last=$(awk '$1 == "begin" { n = $2 } END { print n }' "$log")
		first=$((${last:--1} + 1))
		why=
		if [ -s "$work/kwerr" ]; then
			why="the writer failed: $(head -3 "$work/kwerr")"
		elif [ "$(sqlite3 "$db" 'PRAGMA integrity_check' 2>&1)" != ok ]; then
			why="integrity_check: $(sqlite3 "$db" 'PRAGMA integrity_check' 2>&1 | head -3)"
		elif ! kill_epochs "$db" "$log"; then
			why="dump failed: $(cat "$work/kerr")"
		elif ! kill_check "$log" "$trim" >"$work/kwhy"; then
			why=$(cat "$work/kwhy")
		fi
		if [ -n "$why" ]; then
			bad "kill -9 ($name), round $r: $why"
			return
		fi
	done
	ok "kill -9 ($name): $rounds rounds, every finished epoch whole"
	kills=$((kills + rounds))
	kills_mid=$((kills_mid + mid))
	echo "figures kill -9 ($name): $rounds rounds, $mid killed inside vstore_put, $(grep -c '^done' "$log") epochs put"
}

# The store's growth under a busy machine's epochs (the sketch's defaults
# full: 40 samples a vital, 256 counters), measured over epochs 150..299
# so the texts' pool, filled early, does not count.
footprint() {
	local db=$work/busy.db a b
	"$writer" epochs "$db" 0 150 busy 0 0 >/dev/null
	sqlite3 "$db" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
	a=$(stat -c %s "$db")
	"$writer" epochs "$db" 150 150 busy 0 0 >/dev/null
	sqlite3 "$db" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
	b=$(stat -c %s "$db")
	echo "figures store: $(((b - a) / 150)) bytes a busy epoch (440 samples, 11 HCAs of 256 counters):" \
		"$(((b - a) / 150 * 1440 / 1000000)) MB a day at one-minute epochs (target 16)"
}

suite() {
	mkdir -p "$work"
	fixture_cases
	not_store_cases
	trim_cases
}

suite
footprint
kill_rounds "no trim" 12 0
kill_rounds "trim to 2 MB" 10 2097152
# again, both programs under ASan and UBSan
vitals=build/asan/stp-vitals
writer=build/tests/asan/vitals_writer
tag="asan: "
work=$root/asan
suite
kill_rounds "asan" 4 0
# kills that never landed inside a put would have tested nothing
tag=
if [ "$kills_mid" -gt 0 ]; then
	ok "$kills_mid kills of $kills landed inside vstore_put"
else
	bad "no kill of $kills landed inside vstore_put"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
