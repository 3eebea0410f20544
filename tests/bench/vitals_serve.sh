#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# stp-vitals serve over three days of vital signs (issue 16's benchmark):
# the store of tests/bench/vitals_store.sh (build/tests/rules_gen bench:
# 4,320 one-minute epochs, 11 vital signs, 200 samples each per epoch),
# served on loopback and asked what the page asks (web/main.js's start():
# /api/meta, then the epoch series and the flags over the whole store),
# timed from outside:
#   - uncached: the aggregator's tables emptied, then from launching
#     stp-vitals serve to the first view's last answer received;
#   - a new server with the aggregator's tables kept: launch to ready
#     (it answers the first view in advance), and the first view then;
#   - the first view again (a reload) on a running server;
#   - one epoch's samples (2,200), a different epoch each time;
#   - the hour and day series of the three days, on a new server.
# Targets: the first view 1 s cached, 5 s uncached; an epoch's samples
# 100 ms.  Each time is the median of RUNS runs (default 5).
#
#   tests/bench/vitals_serve.sh     prints "figures ..." lines
set -euo pipefail
cd "$(dirname "$0")/../.."
make -s stp-vitals build/tests/rules_gen >/dev/null
RUNS=${RUNS:-5}
db=build/bench/vitals3d.db
mkdir -p build/bench
if [ ! -s "$db" ] || [ -n "${VITALS_BENCH_NEW:-}" ]; then
	rm -f "$db" "$db-wal" "$db-shm"
	build/tests/rules_gen bench "$db"
fi
srv=
# the servers started, all of them stopped at the end whatever happens
trap 'for p in $(cat build/bench/pids 2>/dev/null); do kill "$p" 2>/dev/null || true; done' EXIT
: >build/bench/pids

# A new server; returns when it says where it serves (sets $url).
serve() {
	if [ -n "$srv" ]; then
		kill "$srv"
		wait "$srv" 2>/dev/null || true
	fi
	./stp-vitals serve "$db" --listen 127.0.0.1:0 --web build/bench \
		>build/bench/serve.out 2>&1 &
	srv=$!
	echo "$srv" >>build/bench/pids
	url=
	while [ -z "$url" ]; do
		sleep 0.01
		url=$(sed -n 's|^stp-vitals: serving .* on \(http://.*\)/$|\1|p' build/bench/serve.out)
	done
}

drop_agg() {
	sqlite3 "$db" "DELETE FROM agg_bucket; DELETE FROM agg_point; DELETE FROM agg_top" 2>/dev/null || true
}

get() { curl -sf -o /dev/null "$url$1"; }

# The page's first view, with the paths it builds from /api/meta.
first_view() {
	local meta
	meta=$(curl -sf "$url/api/meta")
	first=$(sed 's/.*"first":\([0-9]*\).*/\1/' <<<"$meta")
	last=$(sed 's/.*"last":\([0-9]*\).*/\1/' <<<"$meta")
	get "/api/series?scale=epoch&from=$first&to=$last"
	get "/api/flags?from=$first&to=$last"
}

# timed SETUP CMD...: the median ms of CMD, SETUP untimed before each
# run; in this shell, not a pipeline's, so that a server SETUP starts
# is the one the next command asks
timed() {
	local setup=$1 s i
	shift
	: >build/bench/times
	for ((i = 0; i < RUNS; i++)); do
		$setup
		s=$(date +%s%N)
		"$@"
		echo $((($(date +%s%N) - s) / 1000000)) >>build/bench/times
	done
	sort -n build/bench/times | sed -n "$(((RUNS + 1) / 2))p"
}

launch_and_view() { serve; first_view; }
nothing() { :; }
next_epoch() { k=$((k + 1)); }
one_epoch() { get "/api/samples?epoch=$((first_id + 100 * k))"; }
figure() { echo "figures serve: $*"; }

# not t=$(timed ...): a server started in a subshell would be lost
timed drop_agg launch_and_view >build/bench/t
figure "first view uncached (aggregator's tables empty), from launching the server: $(cat build/bench/t) ms, median of $RUNS (target 5000)"
timed nothing serve >build/bench/t
figure "a new server with the aggregator's tables kept is ready in $(cat build/bench/t) ms (it runs the rules for the first view)"
timed serve first_view >build/bench/t
figure "first view on it: $(cat build/bench/t) ms (target 1000)"
timed nothing first_view >build/bench/t
figure "first view again (a reload): $(cat build/bench/t) ms"
first_id=$(curl -sf "$url/api/epoch?at=$first" | sed 's/{"id":\([0-9]*\).*/\1/')
n=$(curl -sf "$url/api/samples?epoch=$((first_id + 2000))" | grep -o '"vital":' | wc -l)
k=0
timed next_epoch one_epoch >build/bench/t
figure "one epoch's samples ($n) in $(cat build/bench/t) ms, median of $RUNS (target 100)"
for scale in hour day; do
	timed serve get "/api/series?scale=$scale&from=$first&to=$last" >build/bench/t
	figure "the $scale series of 3 days on a new server in $(cat build/bench/t) ms"
done
