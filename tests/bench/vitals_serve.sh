#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# stp-vitals serve over three days of vital signs (issue 16's benchmark):
# the store of tests/bench/vitals_store.sh (build/tests/rules_gen bench:
# 4,320 one-minute epochs, 11 vital signs, 200 samples each per epoch),
# served on loopback and asked what the page asks, timed by curl:
#   - the first view with data: /api/meta, then the epoch series and
#     the flags over the whole store (the page's start());
#       uncached: the aggregator's tables emptied, a new server;
#       cached: the aggregator's tables kept, a new server (its own
#       cache of answers empty); and again on the same server;
#   - one epoch's samples (2,200), a different epoch each time;
#   - the hour and day series of the three days, uncached and cached.
# Targets: first view 1 s cached, 5 s uncached; an epoch's samples 100 ms.
# Each time is the median of RUNS runs (default 5).
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
trap '[ -n "$srv" ] && kill "$srv" 2>/dev/null; true' EXIT

serve() {
	if [ -n "$srv" ]; then
		kill "$srv"
		wait "$srv" 2>/dev/null || true
	fi
	./stp-vitals serve "$db" --listen 127.0.0.1:0 --web build >build/bench/serve.out 2>&1 &
	srv=$!
	url=
	while [ -z "$url" ]; do
		sleep 0.05
		url=$(sed -n 's|^stp-vitals: serving .* on \(http://.*\)/$|\1|p' build/bench/serve.out)
	done
}

drop_agg() {
	sqlite3 "$db" "DELETE FROM agg_bucket; DELETE FROM agg_point; DELETE FROM agg_top" 2>/dev/null || true
}

ms() { echo $((($(date +%s%N) - $1) / 1000000)); }

get() { curl -sf -o /dev/null "$url$1"; }

# The page's first view: meta, then its epoch series (data_view) and
# the flags (first_view).
data_view() {
	local meta
	meta=$(curl -sf "$url/api/meta")
	first=$(sed 's/.*"first":\([0-9]*\).*/\1/' <<<"$meta")
	last=$(sed 's/.*"last":\([0-9]*\).*/\1/' <<<"$meta")
	get "/api/series?scale=epoch&from=$first&to=$last"
}
first_view() {
	data_view
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
		ms "$s" >>build/bench/times
	done
	sort -n build/bench/times | sed -n "$(((RUNS + 1) / 2))p"
}

fresh_uncached() { drop_agg; serve; }
fresh_cached() { serve; }
nothing() { :; }

serve
first_view	# the aggregator's tables filled once
timed fresh_uncached first_view >build/bench/t
t=$(cat build/bench/t)
echo "figures serve: first view (meta, 4320 epochs' series, 3 days' flags) uncached in $t ms, median of $RUNS (target 5000)"
timed fresh_uncached data_view >build/bench/t
echo "figures serve: of which meta and the epoch series uncached in $(cat build/bench/t) ms"
serve
first_view
timed fresh_cached first_view >build/bench/t
t=$(cat build/bench/t)
echo "figures serve: first view cached by the aggregator, a new server, in $t ms (target 1000)"
timed fresh_cached data_view >build/bench/t
echo "figures serve: of which meta and the epoch series in $(cat build/bench/t) ms"
timed nothing first_view >build/bench/t
t=$(cat build/bench/t)
echo "figures serve: first view again on the same server (its answers cached) in $t ms"
meta=$(curl -sf "$url/api/meta")
first_id=$(curl -sf "$url/api/epoch?at=$(sed 's/.*"first":\([0-9]*\).*/\1/' <<<"$meta")" | sed 's/{"id":\([0-9]*\).*/\1/')
n=$(curl -sf "$url/api/samples?epoch=$((first_id + 2000))" | grep -o '"vital":' | wc -l)
k=0
next_epoch() { k=$((k + 1)); }
one_epoch() { get "/api/samples?epoch=$((first_id + 100 * k))"; }
timed next_epoch one_epoch >build/bench/t
t=$(cat build/bench/t)
echo "figures serve: one epoch's samples ($n) in $t ms, median of $RUNS (target 100)"
first=$(sed 's/.*"first":\([0-9]*\).*/\1/' <<<"$meta")
last=$(sed 's/.*"last":\([0-9]*\).*/\1/' <<<"$meta")
for scale in hour day; do
	timed fresh_uncached get "/api/series?scale=$scale&from=$first&to=$last" >build/bench/t
	t=$(cat build/bench/t)
	timed fresh_cached get "/api/series?scale=$scale&from=$first&to=$last" >build/bench/t
	echo "figures serve: the $scale series of 3 days uncached in $t ms, cached in $(cat build/bench/t) ms"
done
