#!/bin/bash
# Guest end-to-end tests: each script in tests/guest/e2e is built into a
# module on the host, run by stprun in a guest of each kernel line, and its
# output compared, exactly, with what it must print.
#
#   tests/guest/run.sh [--update] [NAME...]
#
# A test is NAME.stp with
#   NAME.expect  what the run must produce: its stdout, a line "--- stderr",
#                its stderr, a line "--- exit N" with stprun's exit status.
#                Output that does not end in a newline is followed by a
#                newline and the line "--- no newline at end".
#   NAME.opts    (optional) one line of extra stp options, e.g. -g -D MAXACTION=100;
#                with --runtime=bpf the BPF object and its static runner
#                go to the guest, and the runner runs it (with NAME.run's -c)
#   NAME.lines   (optional) the kernel lines it runs on, e.g. "6.1"; on the
#                others it is not run (both lines have their DWARF)
#   NAME.run     (optional) one line of extra stprun options, put before the
#                module in the guest's shell script as they are (quotes work):
#                -c "dd if=/dev/zero of=/dev/null bs=1 count=3"   -G n=5
#   NAME.sh      (optional) a shell script the guest runs instead of stprun,
#                for tests of more than one command (stprun -F, then -A):
#                sh NAME.sh STPRUN KO MODULE; its output and exit status
#                are the test's
#   NAME.sed     (optional) a sed -E script the output goes through before it
#                is compared, for a figure that varies from run to run (how
#                many probes a CPU's overload skipped): s/[0-9]+ probes skipped/N probes skipped/
# NAME is what stp's -m takes: letters, digits and underscores.
# Besides stprun, stp-vitals and the modules, the guest's /files holds "loop"
# (tests/bench/guest/loop.c, built static) for workloads that must make
# an exact number of system calls: -c "exec /files/loop getppid 1000 >/dev/null",
# and the programs of tests/guest/prog (build.sh says which) for uprobes:
# -c "exec /files/add >/dev/null", and the target's watchdog.ko and
# softdog.ko (module tracepoints), brd.ko (a RAM disk: vitals_blio), and
# configfs.ko and null_blk.ko (block devices whose completions come late,
# from a timer, and whose bad blocks fail: vitals_blio_rq, vitals_badio).
# stp gets the guest's root as its --sysroot: the kernel's files, and
# those programs in /files.
#
# For each kernel line, all modules are built on the host in parallel, then
# one guest boots and runs them in turn; a test fails on a build failure
# (the compiler's output is shown), an output or exit status other than
# NAME.expect's (a unified diff is shown), a timeout, a module left loaded
# after stprun returned, or a kernel warning, BUG, oops or general
# protection fault logged while it ran.  The last line is "N passed, N
# failed".  --update writes each test's output on the first line into
# NAME.expect instead of comparing (read the diff before committing it).
#
# Environment:
#   STP_LINES      kernel lines, default "6.1 6.12" (see tests/kernel.sh)
#   STP, STPRUN    the translator and the loader, default ./stp and ./stprun
#                  at the top of the tree;
#                  tests/guest/fake/{stp,stprun} stand in for them
#   E2E_DIR        where the tests are, default tests/guest/e2e
#   JOBS           parallel module builds, default 2
#   TEST_TIMEOUT   seconds one stprun may take in the guest, default 30
#   BUILD_TIMEOUT  seconds one stp -p4 may take, default 300
#   GUEST_TIMEOUT  seconds one guest may take, default from the test count
#   GUEST_SMP      the guest's vCPUs, default 2: per-CPU statistics and
#                  transport buffers, and aggregation across CPUs, run as on
#                  a real machine (tests/guest/boot.sh)
#   KEEP=1         keep the work directory (builds, console logs), print it
set -euo pipefail

abspath() {	# a directory, or a command given as a path or a name in PATH
	[ ! -d "$1" ] || { (cd "$1" && pwd); return; }
	case $1 in
	*/*) echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")" ;;
	*) command -v "$1" || echo "$1" ;;
	esac
}
# Paths the caller gives are relative to where it stands, the defaults to
# the top of the tree.
[ -z "${E2E_DIR:-}" ] || E2E_DIR=$(abspath "$E2E_DIR")
[ -z "${STP:-}" ] || STP=$(abspath "$STP")
[ -z "${STPRUN:-}" ] || STPRUN=$(abspath "$STPRUN")
cd "$(dirname "$0")/../.."
top=$PWD

# One module build, run by xargs in parallel: build_one NAME, with the
# line's settings exported by the main run.  Leaves in $bdir/NAME/ the
# files "ko" (the module's path) on success, "log" (stp's output) always.
if [ "${1:-}" = --build-one ]; then
	name=$2
	d=$bdir/$name
	mkdir -p "$d"
	cd "$d"
	opts=()
	# eval: the options line is shell words, so quoted values work
	[ ! -s "$E2E_DIR/$name.opts" ] || eval "opts=($(head -1 "$E2E_DIR/$name.opts"))"
	# Error messages name the script as stp was given it: a name
	# relative to here, so that expected output does not depend on where
	# the tree is (ERROR: ... at NAME.stp:3:5).
	ln -sfn "$E2E_DIR/$name.stp" "$name.stp"
	rc=0
	timeout "${BUILD_TIMEOUT:-300}" "$STP" -p4 --sysroot="$root" -r "$krel" -m "$name" \
		"${opts[@]}" "$name.stp" >stdout 2>stderr || rc=$?
	cat stderr stdout >log
	[ "$rc" -ne 124 ] || echo "(stp killed after BUILD_TIMEOUT=${BUILD_TIMEOUT:-300} s)" >>log
	ko=$(tail -1 stdout)
	case $ko in /*) ;; *) ko=$d/$ko ;; esac
	if [ "$rc" -eq 0 ] && [ -f "$ko" ]; then
		echo "$ko" >ko
		# --runtime=bpf (in NAME.opts): a BPF object, run by the
		# static program beside it instead of stprun
		case $ko in *.bpf.o) echo "${ko%/*}/run" >runner ;; esac
	elif [ "$rc" -eq 0 ]; then
		echo "(stp exited 0 but its last line names no module: '$ko')" >>log
	fi
	exit 0
fi

update=0
if [ "${1:-}" = --update ]; then
	update=1
	shift
fi
E2E_DIR=${E2E_DIR:-$top/tests/guest/e2e}
STP=${STP:-$top/stp}
STPRUN=${STPRUN:-$top/stprun}
STP_LINES=${STP_LINES:-6.1 6.12}
TEST_TIMEOUT=${TEST_TIMEOUT:-30}
export E2E_DIR STP BUILD_TIMEOUT

tests=()
if [ $# -gt 0 ]; then
	for n in "$@"; do
		n=${n##*/}
		tests+=("${n%.stp}")
	done
else
	for f in "$E2E_DIR"/*.stp; do
		[ -e "$f" ] || continue
		n=${f##*/}
		tests+=("${n%.stp}")
	done
fi
if [ ${#tests[@]} -eq 0 ]; then
	echo "no tests in $E2E_DIR"
	echo "0 passed, 0 failed"
	exit 0
fi
for tool in "$STP" "$STPRUN"; do
	if [ ! -x "$tool" ]; then
		echo "FAIL setup: $tool is not built (make stp stprun)"
		echo "0 passed, 1 failed"
		exit 1
	fi
done

work=$(mktemp -d)
if [ "${KEEP:-0}" = 1 ]; then
	echo "work directory: $work"
else
	trap 'rm -rf "$work"' EXIT
fi
# Markers the guest prints around each test's results: with a token of
# this run, so that no test's output and no earlier console text can
# look like one.
mark="STP-E2E-$$-$RANDOM"
pass=0
fail=0
first_line=${STP_LINES%% *}

ok() { echo "ok $1 ($line)"; pass=$((pass + 1)); }
failed() { echo "FAIL $1 ($line)${2:+: $2}"; fail=$((fail + 1)); }
indent() { sed 's/^/    /'; }
# A section of the actual output in the .expect format.
section() {	# file
	cat "$1"
	if [ -s "$1" ] && [ "$(tail -c 1 "$1" | od -An -c | tr -d ' ')" != '\n' ]; then
		printf '\n--- no newline at end\n'
	fi
}

for line in $STP_LINES; do
	lw=$work/$line
	mkdir -p "$lw/files"
	if ! root=$(tests/kernel.sh --line "$line" 2>"$lw/kernel.err") ||
		! krel=$(tests/kernel.sh --line "$line" release 2>>"$lw/kernel.err"); then
		for t in "${tests[@]}"; do failed "$t" "no $line kernel"; done
		indent <"$lw/kernel.err"
		continue
	fi
	# The tests' --sysroot is the guest's root: the kernel's files and
	# /files with the user-space workloads (tests/guest/prog), which
	# process("/files/...") probes are found in.  At a fixed place, so
	# that the kernel's files keep their paths (and the caches their keys).
	groot=$top/build/guest-root/$line
	mkdir -p "$groot"
	for e in "$root"/*; do ln -sfn "$e" "$groot/"; done
	if ! tests/guest/prog/build.sh "$groot/files" >"$lw/prog.err" 2>&1; then
		for t in "${tests[@]}"; do failed "$t" "cannot build tests/guest/prog"; done
		indent <"$lw/prog.err"
		continue
	fi
	root=$groot
	bdir=$lw/build
	mkdir -p "$bdir"
	export root krel bdir

	# Build every module first, JOBS at a time.
	runnable=()
	for t in "${tests[@]}"; do
		# NAME.lines: the kernel lines the test is for (those with
		# debuginfo, for DWARF tests)
		if [ -f "$E2E_DIR/$t.lines" ] && ! grep -qw -- "$line" "$E2E_DIR/$t.lines"; then
			continue
		elif [[ ! $t =~ ^[A-Za-z0-9_]+$ ]]; then
			failed "$t" "not a module name (letters, digits, underscores)"
		elif [ ! -f "$E2E_DIR/$t.stp" ]; then
			failed "$t" "no $E2E_DIR/$t.stp"
		elif [ ! -f "$E2E_DIR/$t.expect" ] && { [ "$update" = 0 ] || [ "$line" != "$first_line" ]; }; then
			failed "$t" "no $t.expect (write one, or run with --update)"
		else
			runnable+=("$t")
		fi
	done
	[ ${#runnable[@]} -gt 0 ] || continue
	t_build=$SECONDS
	printf '%s\n' "${runnable[@]}" | xargs -P "${JOBS:-2}" -I{} "$top/tests/guest/run.sh" --build-one {}
	t_build=$((SECONDS - t_build))
	built=()
	for t in "${runnable[@]}"; do
		if [ -f "$bdir/$t/ko" ]; then
			built+=("$t")
			# Debug info is of no use to the guest and would only make
			# the initramfs bigger and the boot slower.
			if [ -f "$bdir/$t/runner" ]; then
				cp "$(cat "$bdir/$t/ko")" "$lw/files/$t.ko"
				strip -o "$lw/files/$t.run" "$(cat "$bdir/$t/runner")"
			else
				strip --strip-debug -o "$lw/files/$t.ko" "$(cat "$bdir/$t/ko")"
			fi
			[ ! -f "$E2E_DIR/$t.sh" ] || cp "$E2E_DIR/$t.sh" "$lw/files/"
		else
			failed "$t" "build failed"
			head -100 "$bdir/$t/log" | indent
		fi
	done
	[ ${#built[@]} -gt 0 ] || continue
	cp "$STPRUN" "$lw/files/stprun"
	# stp-vitals reads the store of the chopstix/vitals tests (static: the
	# guest has no libraries)
	[ -x build/stp-vitals.static ] || make -s build/stp-vitals.static >/dev/null
	cp build/stp-vitals.static "$lw/files/stp-vitals"
	cp "$groot"/files/* "$lw/files/"
	# Modules the tests load (trace_module; brd's /dev/ram0 for
	# vitals_blio; null_blk, set up through configfs, for vitals_blio_rq
	# and vitals_badio; nfsd, the NFS client and what they need, in load order,
	# for nfs_sunrpc and nfs_loop; 6.12 has no fscache module):
	# the target's own, for busybox's insmod, which takes them uncompressed.
	for m in drivers/watchdog/watchdog drivers/watchdog/softdog drivers/block/brd \
		fs/configfs/configfs drivers/block/null_blk/null_blk \
		net/sunrpc/sunrpc fs/nfs_common/grace fs/lockd/lockd \
		net/sunrpc/auth_gss/auth_rpcgss fs/nfs_common/nfs_acl fs/nfsd/nfsd \
		fs/netfs/netfs fs/fscache/fscache net/dns_resolver/dns_resolver fs/nfs/nfs \
		fs/nfs/nfsv4; do
		ko=$(find "$root/lib/modules/$krel/kernel/${m%/*}/" -name "${m##*/}.ko*" 2>/dev/null |
			head -1 || true)
		m=${m##*/}
		case $ko in
		*.xz) xz -dc "$ko" >"$lw/files/$m.ko" ;;
		*.zst) zstd -qdc "$ko" >"$lw/files/$m.ko" ;;
		?*) cp "$ko" "$lw/files/$m.ko" ;;
		esac
	done
	if ! gcc -O2 -static -o "$lw/files/loop" tests/bench/guest/loop.c 2>"$lw/loop.err"; then
		for t in "${built[@]}"; do failed "$t" "cannot build tests/bench/guest/loop.c"; done
		indent <"$lw/loop.err"
		continue
	fi

	# One guest runs them all.  The console log level goes down to
	# emergencies only, so that kernel messages do not land in the middle
	# of the results; dmesg, printed at the end, has them all, with a
	# line marking where each test begins and ends.  Results travel in
	# base64, so that output comes back byte for byte.  Each stprun gets
	# SIGTERM after TEST_TIMEOUT and SIGKILL 10 s later.  A CPU a test
	# took offline is brought back before the next test.
	{
		echo "dmesg -n 1"
		echo "cd /tmp"
		for t in "${built[@]}"; do
			args=
			[ ! -s "$E2E_DIR/$t.run" ] || args=$(head -1 "$E2E_DIR/$t.run")
			run="/files/stprun $args /files/$t.ko"
			[ ! -f "$bdir/$t/runner" ] || run="/files/$t.run /files/$t.ko $args"
			[ ! -f "$E2E_DIR/$t.sh" ] || run="sh /files/$t.sh /files/stprun /files/$t.ko $t"
			cat <<EOF
echo "$mark BEGIN $t"
echo "stp-e2e: begin $t" >/dev/kmsg
start=\$(date +%s)
timeout -s KILL $((TEST_TIMEOUT + 10)) timeout -s TERM $TEST_TIMEOUT $run </dev/null >/tmp/out 2>/tmp/err
echo "$mark RC $t \$?"
[ \$((\$(date +%s) - start)) -lt $TEST_TIMEOUT ] || echo "$mark TIMEOUT $t"
if [ -d /sys/module/$t ]; then echo "$mark LEFT $t"; rmmod -f $t 2>/dev/null; fi
for c in /sys/devices/system/cpu/cpu[1-9]*/online; do [ ! -f "\$c" ] || echo 1 >"\$c"; done
echo "stp-e2e: end $t" >/dev/kmsg
echo "$mark OUT $t"
base64 /tmp/out
echo "$mark ERR $t"
base64 /tmp/err
echo "$mark END $t"
EOF
		done
		echo "echo '$mark DMESG'"
		echo "dmesg"
		echo "echo '$mark DMESG-END'"
	} >"$lw/guest.sh"
	export GUEST_TIMEOUT=${GUEST_TIMEOUT:-$((120 + ${#built[@]} * (TEST_TIMEOUT + 15)))}
	brc=0
	t_guest=$SECONDS
	STP_KERNEL_LINE=$line GUEST_SMP=${GUEST_SMP:-2} tests/guest/boot.sh "$lw/guest.sh" "$lw"/files/* >"$lw/console" 2>&1 || brc=$?
	echo "figures ($line): ${#runnable[@]} modules built in ${t_build} s, run in one guest in $((SECONDS - t_guest)) s"

	# Split the console into per-test files under $lw/res/NAME/.
	mkdir -p "$lw/res"
	# Files are closed as soon as done with: there may be hundreds.
	awk -v mark="$mark" -v dir="$lw/res" '
		function to(f) { if (file != "") close(file); file = f; if (f != "") printf "" > f }
		function flag(f, text) { print text > f; close(f) }
		index($0, mark " ") == 1 {
			split(substr($0, length(mark) + 2), w, " ")
			if (w[1] == "DMESG") { to(dir "/dmesg"); next }
			if (w[1] == "DMESG-END") { to(""); flag(dir "/dmesg.end", ""); next }
			d = dir "/" w[2]
			if (w[1] == "BEGIN") { to(""); system("mkdir -p \"" d "\""); next }
			if (w[1] == "RC") { flag(d "/rc", w[3]); next }
			if (w[1] == "OUT") { to(d "/out.b64"); next }
			if (w[1] == "ERR") { to(d "/err.b64"); next }
			if (w[1] == "END") { to(""); flag(d "/end", ""); next }
			flag(d "/" tolower(w[1]), ""); next
		}
		file != "" { print > file }
	' "$lw/console"

	# Kernel log: which test, if any, each bad line came during.
	: >"$lw/kbad"
	if [ -f "$lw/res/dmesg" ]; then
		awk -v out="$lw/kbad" '
			/stp-e2e: begin / { cur = $NF; next }
			/stp-e2e: end / { cur = ""; next }
			/WARNING:|BUG:|Oops|Call Trace|general protection/ {
				print (cur == "" ? "-" : cur) "\t" $0 >> out
			}
		' "$lw/res/dmesg"
	fi

	tail_shown=0
	for t in "${built[@]}"; do
		r=$lw/res/$t
		if [ ! -f "$r/end" ]; then
			failed "$t" "no result from the guest"
			if [ "$tail_shown" = 0 ]; then
				[ "$brc" -ne 124 ] || echo "    guest killed after GUEST_TIMEOUT=$GUEST_TIMEOUT s"
				echo "    guest console, last 30 lines:"
				tail -30 "$lw/console" | indent
				tail_shown=1
			fi
			continue
		fi
		if ! base64 -d <"$r/out.b64" >"$r/out" 2>/dev/null ||
			! base64 -d <"$r/err.b64" >"$r/err" 2>/dev/null; then
			failed "$t" "output garbled on the console"
			indent <"$r/out.b64"
			continue
		fi
		{
			section "$r/out"
			echo "--- stderr"
			section "$r/err"
			echo "--- exit $(cat "$r/rc")"
		} >"$r/actual"
		[ ! -f "$E2E_DIR/$t.sed" ] || sed -E -i -f "$E2E_DIR/$t.sed" "$r/actual"
		why=
		if [ "$update" = 1 ] && [ "$line" = "$first_line" ]; then
			cp "$r/actual" "$E2E_DIR/$t.expect"
			echo "updated $t.expect from $line"
		elif ! diff -u --label "$t.expect" --label "$t ($line)" "$E2E_DIR/$t.expect" "$r/actual" >"$r/diff"; then
			why="output differs"
		fi
		[ ! -f "$r/timeout" ] || why="timed out after TEST_TIMEOUT=$TEST_TIMEOUT s${why:+; $why}"
		[ ! -f "$r/left" ] || why="module left loaded after stprun${why:+; $why}"
		grep -q "^$t	" "$lw/kbad" && why="kernel log${why:+; $why}"
		if [ -z "$why" ]; then
			ok "$t"
			continue
		fi
		failed "$t" "$why"
		[ ! -s "$r/diff" ] || indent <"$r/diff"
		if grep -q "^$t	" "$lw/kbad"; then
			echo "    kernel log while it ran:"
			sed -n "/stp-e2e: begin $t\$/,/stp-e2e: end $t\$/p" "$lw/res/dmesg" | head -60 | indent
		fi
	done
	# (a guest that died early has failed its tests already)
	if [ ! -f "$lw/res/dmesg.end" ] && [ "$tail_shown" = 0 ]; then
		failed "kernel log" "the guest did not print it"
	elif grep -q '^-	' "$lw/kbad"; then
		failed "kernel log" "trouble outside any test"
		grep '^-	' "$lw/kbad" | cut -f2- | head -20 | indent
	fi
done
[ "$update" = 0 ] || echo "(--update: check the new .expect files with git diff)"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
