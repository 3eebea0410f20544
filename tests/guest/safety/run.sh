#!/bin/bash
# The safety suite: scripts on the kernel's hottest paths, loaded and
# unloaded again and again under load, and scripts that misbehave, in
# one guest of each kernel line with 2 vCPUs.  The kernel must keep
# running: no oops, BUG, WARNING, RCU stall or soft lockup in its log,
# no module left loaded, every error, skipped probe and lost byte
# reported by stprun at exit.
#
#   tests/guest/safety/run.sh
#
#   hot_*.stp  probes on hot paths (kmem_cache_alloc, every system
#              call's return, schedule with timer.profile, vfs_read and
#              vfs_write); each prints "started" from its begin probe and
#              "hits N" from its end probe, and ends itself when given
#              -G exit_ms=N.  guest.sh runs each ROUNDS times ended by
#              SIGINT, by exit() and by SIGKILL of stprun.
#   bad_*.stp  scripts that go wrong in a hot probe: an endless loop,
#              endless recursion, a map that only grows, a division by
#              zero, a read through a NULL pointer; bad_NAME.want holds
#              the error line stprun must print first (and any other
#              line it must print).  bad_flood.stp prints more than the
#              transport carries: the bytes lost must add up.
#   guest.sh   what runs in the guest, with the workload (guest.sh says
#              what each round checks).
#
# Modules are built on the host as tests/guest/run.sh builds its own
# (its --build-one).  The last lines are the figures of each line
# (rounds, probe hits, errors reported, oopses) and "N passed, N failed".
#
# Environment:
#   STP_LINES      kernel lines, default "6.1 6.12" (see tests/kernel.sh)
#   ROUNDS         rounds of each hot script per way of ending, default 3
#                  (hot_syscalls: 1, guest.sh says why)
#   GUEST_TIMEOUT  seconds one guest may take, default 900
#   KEEP=1         keep the work directory (modules, console logs)
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
top=$PWD
here=$top/tests/guest/safety
STP_LINES=${STP_LINES:-6.1 6.12}
ROUNDS=${ROUNDS:-3}
pass=0
summary=()
fail=0
work=$(mktemp -d)
if [ "${KEEP:-0}" = 1 ]; then
	echo "work directory: $work"
else
	trap 'rm -rf "$work"' EXIT
fi

# what guest.sh looks for in dmesg too
KERNEL_BAD='WARNING:|BUG:|Oops|general protection|soft lockup|self-detected stall|rcu: INFO|blocked for more than'
# one per oops, whatever kind: "Oops: 0010 [#1] ...", "general protection
# fault ...: 0000 [#2] ...", "invalid opcode: 0000 [#1] ..."
OOPS=': [0-9a-f]{4} \[#[0-9]+\]'
failed() { echo "FAIL $1${2:+: $2}"; fail=$((fail + 1)); }
indent() { sed 's/^/    /'; }

for tool in stp stprun; do
	[ -x "$tool" ] || { failed setup "./$tool is not built (make stp stprun)"; echo "0 passed, $fail failed"; exit 1; }
done
export STP=$top/stp E2E_DIR=$here BUILD_TIMEOUT=${BUILD_TIMEOUT:-300}

# build LINE DIR: every script's module into DIR/files, with the
# workload and the guest's scripts; 1 if any of it failed.
build() {
	local line=$1 lw=$2 t names=() rc=0
	mkdir -p "$lw/files" "$lw/build"
	if ! root=$(tests/kernel.sh --line "$line" 2>"$lw/kernel.err") ||
		! krel=$(tests/kernel.sh --line "$line" release 2>>"$lw/kernel.err"); then
		failed "$line" "no $line kernel"
		indent <"$lw/kernel.err"
		return 1
	fi
	bdir=$lw/build
	export root krel bdir
	for t in "$here"/*.stp; do
		t=${t##*/}
		names+=("${t%.stp}")
	done
	printf '%s\n' "${names[@]}" | xargs -P "${JOBS:-2}" -I{} tests/guest/run.sh --build-one {}
	for t in "${names[@]}"; do
		if [ -f "$bdir/$t/ko" ]; then
			strip --strip-debug -o "$lw/files/$t.ko" "$(cat "$bdir/$t/ko")"
		else
			failed "$t ($line)" "build failed"
			head -50 "$bdir/$t/log" | indent
			rc=1
		fi
	done
	for t in "$here"/*.want; do	# this line's lines
		sed -n "s/^$line	//p" "$t" >"$lw/files/${t##*/}"
	done
	cp "$here/guest.sh" "$lw/files/"
	gcc -O2 -static -o "$lw/files/loop" tests/bench/guest/loop.c 2>"$lw/loop.err" ||
		{ failed "$line" "cannot build tests/bench/guest/loop.c"; indent <"$lw/loop.err"; rc=1; }
	return $rc
}

# guest LINE DIR: one boot of LINE's kernel with 2 vCPUs runs guest.sh.
# oops=panic: a kernel that oopsed ends the boot at once (rather than
# limping on until GUEST_TIMEOUT), and the oops is shown.
guest() {
	local line=$1 lw=$2 rc=0 p f
	printf 'ROUNDS=%s\n. /files/guest.sh\n' "$ROUNDS" >"$lw/run.sh"
	GUEST_APPEND="oops=panic ${GUEST_APPEND:-}" STPRUN=$top/stprun \
		staprun/stp-qemu --kernel "$root/boot/vmlinuz-$krel" --smp 2 \
		--timeout "${GUEST_TIMEOUT:-900}" --console "$lw/console" \
		"$lw/run.sh" "$lw"/files/* >"$lw/out" 2>"$lw/err" || rc=$?
	grep -v '^figure ' "$lw/out" | sed -E "s/^(ok|FAIL) ([^:]*)/\1 \2 ($line)/"
	[ ! -s "$lw/err" ] || indent <"$lw/err"
	if [ $rc -ne 0 ]; then
		failed "guest ($line)" "stp-qemu exit $rc (the last round finished: $(sed -n 's/^figure seconds\.//p' "$lw/out" | tail -1 | cut -d' ' -f1))"
		if grep -q -a -E "$KERNEL_BAD" "$lw/console"; then
			echo "    the kernel's first complaint:"
			grep -a -m1 -A40 -E "$KERNEL_BAD" "$lw/console" | indent
		else
			tail -30 "$lw/console" | indent
		fi
		grep -q '^figure oopses ' "$lw/out" ||
			echo "figure oopses $(grep -a -c -E "$OOPS" "$lw/console")" >>"$lw/out"
	fi
	p=$(grep -c '^ok ' "$lw/out")
	f=$(grep -c '^FAIL ' "$lw/out")
	pass=$((pass + p))
	fail=$((fail + f))
}

figures() {	# LINE DIR: the guest's figures on one line
	awk -v line="$1" '$1 == "figure" { v[$2] = $3 }
		$2 ~ /^seconds\./ { done++ }
		END {
			if (!("rounds" in v))	# the guest died: the rounds finished
				v["rounds"] = done
			printf "figures (%s): %d rounds, %d probe hits, %d errors reported, %d probes skipped, %d kretprobe returns missed, %d output bytes dropped (%d of %d flood lines arrived), %d oopses\n",
				line, v["rounds"], v["hits"], v["errors"], v["skipped"], v["kretprobe_missed"],
				v["dropped"], v["flood.arrived"], v["flood.printed"], v["oopses"]
		}' "$2/out"
}

for line in $STP_LINES; do
	lw=$work/$line
	start=$(date +%s)
	if build "$line" "$lw"; then
		guest "$line" "$lw"
		summary+=("$(figures "$line" "$lw"), $(($(date +%s) - start)) s")
	fi
done
for s in "${summary[@]}"; do echo "$s"; done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
