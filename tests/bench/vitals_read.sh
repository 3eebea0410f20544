#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make bench's "reading the vital signs" section (issue 16): the rules,
# diff and aggregator over a generated three-day store
# (tests/bench/vitals_store.sh), and stp-vitals serve's first view and
# answers on it (tests/bench/vitals_serve.sh); their "figures" lines,
# with the targets, go to tests/bench/results.txt.
set -euo pipefail
export LC_ALL=C
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
OUT=build/bench/vitals_read
RESULTS=tests/bench/results.txt
REV=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
HYPERFINE=
NO_HF_WHY="each script's own loop"
WARMUP=0
RUNS=${RUNS:-5}
export RUNS
mkdir -p "$OUT"

say "reading the vital signs: rules, diff and the aggregator over three days"
tests/bench/vitals_store.sh >"$OUT/store.txt" || die "vitals_store.sh failed"
say "reading the vital signs: stp-vitals serve"
tests/bench/vitals_serve.sh >"$OUT/serve.txt" || die "vitals_serve.sh failed"

SECTION=$OUT/section.txt
{
	section_head "reading the vital signs" "$RUNS runs" \
		"store:    build/tests/rules_gen bench: 4,320 one-minute epochs (three days), 11 vital signs," \
		"          200 samples each per epoch, 50 programs, 1,000 sites"
	echo "  targets: rules over three days <= 2 s; the page's first view <= 1 s cached,"
	echo "  <= 5 s uncached; one epoch's samples <= 100 ms"
	echo
	sed -n 's/^figures /  /p' "$OUT/store.txt" "$OUT/serve.txt"
	echo
} >"$SECTION"
publish_section "reading the vital signs" "$SECTION" always
