#!/bin/bash
# The browser test's store, from a guest run of examples/vitals.stp
# (guest/web_store.sh says what the workload does):
#
#   tests/web/store.sh OUT.db
#
# writes OUT.db and OUT.db.killed (the Unix second the victim was killed
# at).  The guest runs through tests/guest/run.sh --update on a copy of
# tests/web/guest, on the first kernel line only, and the store comes
# back in the test's output.
set -euo pipefail
out=${1:?usage: tests/web/store.sh OUT.db}
case $out in /*) ;; *) out=$PWD/$out ;; esac
cd "$(dirname "$0")/../.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cp tests/web/guest/web_store.* "$dir/"
line=${STP_LINES:-6.1}
E2E_DIR=$dir STP_LINES=${line%% *} TEST_TIMEOUT=90 \
	tests/guest/run.sh --update web_store >"$dir/log" 2>&1 || {
	echo "tests/web/store.sh: the guest run failed:"; sed 's/^/    /' "$dir/log"; exit 1; }
expect=$dir/web_store.expect
if ! grep -q '^store$' "$expect" || ! grep -q '^killed [0-9]*$' "$expect"; then
	echo "tests/web/store.sh: no store in the guest's output:"
	sed 's/^/    /' "$expect" | head -40
	exit 1
fi
# A WAL left beside an older store would be replayed into this one.
rm -f "$out" "$out-wal" "$out-shm"
sed -n 's/^killed //p' "$expect" >"$out.killed"
sed -n '/^store$/,/^--- stderr$/p' "$expect" | sed '1d;$d' | base64 -d | gunzip >"$out"
