#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The reading side over three days of vital signs (issue 16's benchmark):
# a generated store of 4,320 one-minute epochs, 11 vital signs, 200
# samples each per epoch, 50 programs and 1,000 sites drawn skewed
# (build/tests/rules_gen bench), then
#   - stp-vitals rules over the three days (target: at most 2 s);
#   - stp-vitals diff of the first day against the second;
#   - the aggregator at the three timescales, uncached (its tables
#     dropped) and cached, through build/tests/agg_check, which also
#     works the same points out directly (so its time is an upper bound);
#   - the top sites, programs and users by hour, uncached and cached.
# Each time is the median of RUNS runs (default 5).  The store is kept in
# build/bench/vitals3d.db and made again only when missing (it takes a
# minute or so); VITALS_BENCH_NEW=1 makes it again.
#
#   tests/bench/vitals_store.sh     prints "figures ..." lines
set -euo pipefail
cd "$(dirname "$0")/../.."
make -s stp-vitals build/tests/rules_gen build/tests/agg_check >/dev/null
RUNS=${RUNS:-5}
db=build/bench/vitals3d.db
mkdir -p build/bench
if [ ! -s "$db" ] || [ -n "${VITALS_BENCH_NEW:-}" ]; then
	rm -f "$db" "$db-wal" "$db-shm"
	start=$(date +%s.%N)
	build/tests/rules_gen bench "$db"
	echo "figures store: 4320 epochs written in $(echo "$(date +%s.%N) - $start" | bc | cut -c1-5) s," \
		"$(($(stat -c %s "$db") / 1048576)) MB"
fi

# median_time CMD...: the median wall time of RUNS runs, in ms
median_time() {
	local i s e
	for ((i = 0; i < RUNS; i++)); do
		s=$(date +%s%N)
		"$@" >/dev/null 2>&1 || true
		e=$(date +%s%N)
		echo $(((e - s) / 1000000))
	done | sort -n | sed -n "$(((RUNS + 1) / 2))p"
}

flags=$(./stp-vitals rules "$db" | wc -l)
t=$(median_time ./stp-vitals rules "$db")
echo "figures rules: 3 days (4320 epochs, 9.5 M samples) in $t ms, median of $RUNS (target 2000); $flags lines"
t=$(median_time ./stp-vitals diff "$db" 2026-11-24T00:00:00Z..2026-11-25T00:00:00Z \
	2026-11-25T00:00:00Z..2026-11-26T00:00:00Z)
echo "figures diff: day 1 against day 2 in $t ms, median of $RUNS"
uncached() {
	sqlite3 "$db" "DELETE FROM agg_bucket; DELETE FROM agg_point" 2>/dev/null || true
	build/tests/agg_check "$db"
}
t=$(median_time uncached)
echo "figures aggregator: 3 scales uncached (with the check's own pass) in $t ms"
t=$(median_time build/tests/agg_check "$db")
echo "figures aggregator: 3 scales cached (with the check's own pass) in $t ms"
tops_uncached() {
	sqlite3 "$db" "DELETE FROM agg_bucket; DELETE FROM agg_point; DELETE FROM agg_top" 2>/dev/null || true
	build/tests/agg_check "$db" --tops hour
}
t=$(median_time tops_uncached)
echo "figures aggregator: top sites, programs, users by hour over 3 days uncached in $t ms"
t=$(median_time build/tests/agg_check "$db" --tops hour)
echo "figures aggregator: the same cached in $t ms"
