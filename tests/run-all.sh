#!/bin/bash
# make check: every test suite, in order.  Each suite prints its own
# "N passed, N failed" as its last line; this script adds them up and
# ends with the grand total, the line CI reads.
set -uo pipefail
cd "$(dirname "$0")/.."
# Run as make's recipe, the tests would inherit its jobserver (make -j):
# every make they start (kbuild) would then warn that it cannot use it,
# and a test that fails on a build warning would fail.
unset MAKEFLAGS MFLAGS MAKELEVEL

STP=./stp
CORPUS=/usr/share/systemtap/tapset
total_pass=0
total_fail=0
failed_lines=()	# every FAIL line again at the end: CI keeps the log's tail
fail_re='^(FAIL|not ok|.*: FAIL)'	# how a suite says a test failed

run_suite() {
	local name=$1
	shift
	local out rc summary p f t0=$SECONDS
	echo "== $name"
	out=$("$@" 2>&1)
	rc=$?
	local took=$((SECONDS - t0))
	# show what failed (with the indented lines that say how: a diff, a
	# log) and the figures a suite reports, not the whole log
	printf '%s\n' "$out" | awk -v re="$fail_re" '$0 ~ re { show = 1; print; next }
		show && /^(    |\t)/ { print; next } { show = 0 } /^figures / { print }' | head -120
	# again at the end: each FAIL line with the first lines of how it
	# failed (CI's log keeps only its tail)
	local l
	while IFS= read -r l; do
		failed_lines+=("${l:0:300}")
	done < <(printf '%s\n' "$out" | awk -v re="$fail_re" -v name="$name" '
		$0 ~ re { if (++nf > 20) exit; print name ": " $0; shown = 0; show = 1; next }
		show && /^(    |\t)/ { if (++shown <= 12) print; next } { show = 0 }')
	summary=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -1)
	if [ -z "$summary" ]; then
		printf '%s\n' "$out" | tail -20
		echo "$name: no result line (exit $rc, ${took} s); counted as 1 failure"
		failed_lines+=("$name: no result line (exit $rc)")
		total_fail=$((total_fail + 1))
		return
	fi
	p=${summary%% passed*}
	f=${summary#*, }
	f=${f%% failed*}
	echo "$name: $summary (${took} s)"
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
}

# Each binary prints "N passed, N failed" and exits 0 only when all
# passed.  A non-zero exit fails it even with a clean result line: that
# is how LeakSanitizer reports (after main returns).  A failure shows
# the binary's whole output, stderr included.
unit_tests() {
	local p=0 f=0 t s sum out rc n
	for t in "$@"; do
		[ -x "$t" ] || continue
		out=$("$t" 2>&1)
		rc=$?
		s=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -1)
		sum=$s
		n=0
		if [ -n "$s" ]; then
			p=$((p + ${s%% passed*}))
			s=${s#*, }
			n=${s%% failed*}
		fi
		if [ -z "$s" ] || [ "$n" -ne 0 ] || [ "$rc" -ne 0 ]; then
			[ "$n" -gt 0 ] || n=1
			f=$((f + n))
			echo "FAIL ${t##*/}: exit status $rc, ${sum:-no result line}"
			printf '%s\n' "$out" | grep -v -E '^[0-9]+ passed, [0-9]+ failed' |
				sed "s|^|FAIL ${t##*/}: |" | head -60
		fi
	done
	echo "$p passed, $f failed"
}

run_suite "unit tests (parser, runtime data structures)" unit_tests build/tests/test_* build/tests/rt_*
run_suite "runtime unit tests under ASan and UBSan" unit_tests build/tests/asan/rt_*
run_suite "no kernel release named in a test (tests/no_release.sh)" tests/no_release.sh
run_suite "driver (command line)" tests/driver/run.sh "$STP"
run_suite "SDT markers in stp and stprun (stap.*, staprun.*)" tests/driver/markers.sh "$STP"
run_suite "conformance (pass 1)" tests/conformance/run-parse.sh "$STP"
run_suite "conformance (pass 2)" tests/conformance/run-elab.sh "$STP"
run_suite "SystemTap's example scripts through pass 2 (a floor)" tests/examples/pass2.sh "$STP"
run_suite "system call tapsets up to date with their table (tapsets/gen)" tapsets/gen/check.sh
run_suite "man pages (doc comments, groff -ww, make install)" tests/man/run.sh
run_suite "bash completion (completion/stp.bash)" tests/man/completion.sh
run_suite "the manual's examples (README.md, doc/)" tests/doc/run.sh
run_suite "caches (DWARF index, inlined copies, System.map)" tests/conformance/run-cache.sh "$STP"
run_suite "stprun (command line)" tests/stprun/run.sh ./stprun
run_suite "stp -i (a pipe, and a terminal in tmux with a run in a guest)" tests/interactive/run.sh "$STP"
run_suite "tracepoints' systems with, without and unable to mount tracefs" tests/driver/tracefs.sh "$STP"
run_suite "BPF runtime (--runtime=bpf), natively on this kernel" tests/bpf/run.sh
run_suite "BPF runtime again, each test where nothing is mounted on /sys/kernel/tracing" \
	tests/bpf/run.sh --tracefs-unmounted
run_suite "systemd unit (make install, systemd-analyze verify, ExecStart run natively)" tests/systemd/run.sh
run_suite "vital-signs store and stp-vitals (SIGKILL, ASan)" tests/vitals/run.sh
run_suite "diagnosis rules, aggregator and diff (stp-vitals rules, diff)" tests/vitals/rules.sh
run_suite "stp-vitals serve: the API, hostile requests (ASan)" tests/vitals/serve.sh
run_suite "stp-vitals metrics scraped by a real Prometheus" tests/vitals/prometheus.sh
run_suite "the web page in chromium, served and as a report (a guest's store)" tests/web/run.sh
run_suite "transport and stprun (one guest)" tests/guest/transport/run.sh
# Boots a guest per kernel line: only once there are scripts to run.
if compgen -G 'tests/guest/e2e/*.stp' >/dev/null; then
	run_suite "guest end-to-end" tests/guest/run.sh
fi
run_suite "safety under load (hot paths, faults; 2 vCPUs)" tests/guest/safety/run.sh
if [ -d "$CORPUS" ]; then
	run_suite "systemtap-common corpus" build/tests/parse_corpus "$CORPUS"
else
	echo "== systemtap-common corpus: $CORPUS missing (run make deps); counted as 1 failure"
	failed_lines+=("systemtap-common corpus: $CORPUS missing")
	total_fail=$((total_fail + 1))
fi
run_suite "fuzz regressions (stp under ASan and UBSan)" tests/fuzz/regress.sh build/asan/stp

if [ ${#failed_lines[@]} -gt 0 ]; then
	echo
	echo "== what failed, again"
	printf '%s\n' "${failed_lines[@]}"
fi
echo
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
