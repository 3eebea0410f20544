#!/bin/bash
# The web page in a real browser (Debian's chromium, headless, driven by
# playwright-core from web/package-lock.json), on a store that a guest
# run of examples/vitals.stp wrote (tests/web/store.sh; kept in
# build/tests/web/store.db until tests/web/guest changes):
#   - served by stp-vitals serve: every pane draws, a click on the
#     spinner's epoch lists cpuu samples in vitals_spin, and rule 10's
#     flag (a process that died) names the victim, killed with SIGKILL,
#     at the epoch it was killed in (tests/web/page.js);
#   - stp-vitals report's file, from file://: the same;
#   - a report of the spinner's epoch alone, from a copy of the store
#     that names no host: each pane draws its point (uPlot draws no line
#     through one value), or says it has no value, and the header says
#     no host name was recorded;
#   - a store of hostile texts (tests/web/hostile.c), served and as a
#     report: the page shows them as text and runs none of them;
#   - stp-vitals report of a range, and its errors, exactly.
# Screenshots: build/tests/web/page.png (served), report.png (file://),
# one.png (the one epoch).
#
#   tests/web/run.sh          last line: "N passed, N failed"
set -uo pipefail
cd "$(dirname "$0")/../.."
export LC_ALL=C
out=build/tests/web
db=$out/store.db
vitals=./stp-vitals
pass=0
fail=0
server=

tag=
# shellcheck source=../vitals/lib.sh
. tests/vitals/lib.sh
finish() {
	[ -z "$server" ] || kill "$server" 2>/dev/null
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit
}
trap '[ -z "$server" ] || kill "$server" 2>/dev/null' EXIT

# count OUTPUT NAME STATUS: page.js's "ok"/"FAIL" lines into the totals,
# shown; a browser script that failed (it could not start Chromium, or
# threw) is a failure too, whatever lines it printed before
count() {
	local l
	[ "${3:-0}" -eq 0 ] || bad "$2: the browser script exited $3 (its output follows)"
	while IFS= read -r l; do
		case $l in
		ok\ *) ok "$2: ${l#ok }" ;;
		FAIL\ *) bad "$2: ${l#FAIL }" ;;
		figures\ *) echo "figures web, $2: ${l#figures }" ;;
		*) echo "    $l" ;;
		esac
	done <"$1"
}

mkdir -p "$out"
if ! make -s stp stprun stp-vitals build/stp-vitals.static web build/tests/web_hostile \
	>"$out/make.log" 2>&1; then
	bad "build"; sed 's/^/    /' "$out/make.log"; finish
fi
for c in serve report; do
	if ! "$vitals" "$c" --help >/dev/null 2>&1; then
		bad "stp-vitals has no $c command"; finish
	fi
done

# (again when tests/web/guest changed, or the store's format did)
if [ ! -s "$db" ] || [ -n "$(find tests/web/guest -newer "$db")" ] ||
	! "$vitals" dump "$db" >/dev/null 2>&1; then
	if ! tests/web/store.sh "$db" >"$out/store.log" 2>&1; then
		bad "the store from the guest"; sed 's/^/    /' "$out/store.log"; finish
	fi
fi
ok "the store from the guest ($(stat -c %s "$db") bytes)"
# The tests read a copy: the aggregator keeps its tables in the store
# it reads, and the guest's store stays as the guest left it.
cp "$db" "$out/work.db"
cp "$db.killed" "$out/work.db.killed"
rm -f "$out/work.db-wal" "$out/work.db-shm"
db=$out/work.db

# What the browser must find: the first epoch with a cpuu sample in
# vitals_spin, and the second /tmp/victim was killed in.
spin=$("$vitals" dump "$db" | grep '"kind":"sample".*"vital":"cpuu".*"site":"vitals_spin+' |
	head -1 | sed 's/.*"epoch_start":"\([^"]*\)".*/\1/')
[ -n "$spin" ] || { bad "the store has no cpuu sample in vitals_spin"; finish; }
spin_ms=$(node -e 'console.log(Date.parse(process.argv[1]))' "$spin")
killed_ms=$(($(cat "$db.killed") * 1000 + 500))

# serve DB: stp-vitals serve on a free port of loopback, as $server on
# $port; 1 (said why) when it does not answer
serve() {
	local try i
	for try in 1 2 3 4 5; do
		port=$((20000 + RANDOM % 20000))
		"$vitals" serve "$1" --listen "127.0.0.1:$port" >"$out/serve.log" 2>&1 &
		server=$!
		for i in $(seq 50); do
			curl -sf "http://127.0.0.1:$port/api/meta" >/dev/null 2>&1 && return 0
			kill -0 "$server" 2>/dev/null || break
			sleep 0.1
		done
		kill "$server" 2>/dev/null
		server=
	done
	bad "stp-vitals serve $1 answers"; sed 's/^/    /' "$out/serve.log"
	return 1
}

serve "$db" || finish
ok "stp-vitals serve answers on 127.0.0.1:$port"
# the guest's name (guest/web_store.sh)
host=stp-web
node tests/web/page.js "http://127.0.0.1:$port/" "$out/page.png" "$host" "$spin_ms" \
	vitals_spin 10 victim "$killed_ms" >"$out/page.out" 2>&1
count "$out/page.out" served $?
kill "$server"
server=

if "$vitals" report "$db" -o "$out/report.html" 2>"$out/report.err"; then
	ok "stp-vitals report writes $out/report.html"
	echo "figures web, report: $(stat -c %s "$out/report.html") bytes, $(grep -o '"/api/epoch?at=' "$out/report.html" | wc -l) epochs with their samples"

	node tests/web/page.js "file://$PWD/$out/report.html" "$out/report.png" \
		"$host" "$spin_ms" vitals_spin 10 victim "$killed_ms" >"$out/report.out" 2>&1
	count "$out/report.out" report $?
else
	bad "stp-vitals report: exit $?"; sed 's/^/    /' "$out/report.err"
fi

# One epoch: the spinner's, in a report of a range that holds it alone,
# from a copy of the store whose epochs name no host (stprun records ""
# where the machine has no name set).
# (from 1 ms in: the epoch before ends within the millisecond it starts)
cp "$db" "$out/one.db"
rm -f "$out/one.db-wal" "$out/one.db-shm"
from=$(node -e 'console.log(new Date(Number(process.argv[1]) + 1).toISOString())' "$spin_ms")
to=$(node -e 'console.log(new Date(Number(process.argv[1]) + 2).toISOString())' "$spin_ms")
if ! sqlite3 "$out/one.db" "UPDATE epoch SET host = ''" 2>"$out/one.err"; then
	bad "one epoch: the store with no host name"; sed 's/^/    /' "$out/one.err"
elif "$vitals" report "$out/one.db" -o "$out/one.html" --from "$from" --to "$to" \
	2>"$out/one.err"; then
	n=$(grep -o '"/api/epoch?at=[0-9]*"' "$out/one.html" | sort -u | wc -l)
	[ "$n" = 1 ] && ok "one epoch: the report holds 1 epoch" ||
		bad "one epoch: the report holds $n epochs"
	node tests/web/page.js --one-epoch "file://$PWD/$out/one.html" "$out/one.png" \
		"no host name recorded" "$spin_ms" vitals_spin >"$out/one.out" 2>&1
	count "$out/one.out" "one epoch" $?
else
	bad "one epoch: report: exit $?"; sed 's/^/    /' "$out/one.err"
fi

# A store of hostile texts (tests/web/hostile.c): shown as text, served
# and in a report, where they sit inside a <script>.
rm -f "$out/hostile.db"*
if ! build/tests/web_hostile "$out/hostile.db" 2>"$out/hostile.err"; then
	bad "hostile: the store"; sed 's/^/    /' "$out/hostile.err"
elif serve "$out/hostile.db"; then
	node tests/web/hostile.js "http://127.0.0.1:$port/" >"$out/hostile.out" 2>&1
	count "$out/hostile.out" "hostile, served" $?
	kill "$server"
	server=
	if "$vitals" report "$out/hostile.db" -o "$out/hostile.html" 2>"$out/hostile.err"; then
		node tests/web/hostile.js "file://$PWD/$out/hostile.html" >"$out/hostile.out" 2>&1
		count "$out/hostile.out" "hostile, report" $?
	else
		bad "hostile: report: exit $?"; sed 's/^/    /' "$out/hostile.err"
	fi
fi

# --from/--to: the epochs that overlap the range, and no other, have
# their answers in the report (the spinner's epoch and the next)
from=$(node -e 'console.log(new Date(Number(process.argv[1]) + 1).toISOString())' "$spin_ms")
to=$(node -e 'console.log(new Date(Number(process.argv[1]) + 2500).toISOString())' "$spin_ms")
want=$("$vitals" dump "$db" --from "$from" --to "$to" | grep -o '"kind":"vital","epoch_start":"[^"]*"' | sort -u | wc -l)
if "$vitals" report "$db" -o "$out/range.html" --from "$from" --to "$to" 2>"$out/range.err"; then
	have=$(grep -o '"/api/epoch?at=[0-9]*"' "$out/range.html" | sort -u | wc -l)
	first=$(grep -o 'window.STP_EMBED = {"first":[0-9]*' "$out/range.html" | grep -o '[0-9]*$')
	if [ "$want" -ge 2 ] && [ "$have" = "$want" ] && [ "$first" = "$spin_ms" ]; then
		ok "report --from --to: the $want epochs of the range, from the spinner's"
	else
		bad "report --from --to: $have epochs from $first, want $want from $spin_ms"
	fi
else
	bad "report --from --to: exit $?"; sed 's/^/    /' "$out/range.err"
fi

# status (tests/vitals/lib.sh) runs stp-vitals with its output in $work
work=$out
use='usage: stp-vitals report DB -o FILE [--from T] [--to T] [--web DIR]'
status "report: no -o" 2 "stp-vitals: report: no output file given (-o report.html)\n$use" -- report "$db"
status "report: -o without a file" 2 "stp-vitals: report: -o needs a value\n$use" -- report "$db" -o
status "report: an unknown option" 2 "stp-vitals: report: unknown option '--x'\n$use" -- report "$db" --x -o r.html
status "report: --from after --to" 2 "stp-vitals: report: --from is not before --to\n$use" -- \
	report "$db" -o "$out/r.html" --from 2000000000 --to 1900000000
status "report: no epoch in the range" 1 "stp-vitals: $db: no epoch in the range" -- \
	report "$db" -o "$out/r.html" --to 1000000000
status "report: no page" 1 "stp-vitals: $out/none/index.html: No such file or directory" -- \
	report "$db" -o "$out/r.html" --web "$out/none"
status "report: no such directory for the file" 1 "stp-vitals: $out/none/r.html: No such file or directory" -- \
	report "$db" -o "$out/none/r.html"
[ ! -e "$out/r.html" ] && [ ! -e "$out/r.html.tmp" ] && ok "report: nothing written on an error" ||
	bad "report: a file was left after an error"
finish
