#!/bin/bash
# The systemd unit (systemd/): make install into a temporary PREFIX
# writes stp-vitals.service with that PREFIX's paths; systemd-analyze
# verify has nothing to say about it (and does about a broken copy);
# its ExecStart names the files make install put there; it has the stop,
# restart and state settings the service needs and none of the
# hardening that stops a tracer; stp-pick-runtime adds --runtime=bpf in
# exactly the cases it should (a fake kernel in a private mount
# namespace each); and the ExecStart command itself, run as systemd runs
# it (no HOME, systemd's PATH) and stopped by its KillSignal, writes
# epochs to a store, the one SIGINT closed among them.  Needs root (BPF,
# mount namespaces).  Prints "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
pass=0 fail=0
tmp=$(mktemp -d) || exit 2
pid=
trap '[ -z "$pid" ] || kill -KILL "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $1"; shift; [ $# -eq 0 ] || printf '    %s\n' "$@"; }

# expect NAME EXPECTED_FILE ACTUAL_FILE
expect() {
	if cmp -s "$2" "$3"; then ok; else bad "$1" "$(diff "$2" "$3" | head -20)"; fi
}

P=$tmp/inst
unit=$P/lib/systemd/system/stp-vitals.service
if ! out=$(make -s install PREFIX="$P" 2>&1); then
	bad "make install PREFIX=$P" "$(printf '%s\n' "$out" | tail -5)"
	echo "$pass passed, $fail failed"
	exit 1
fi

# installed, readable by all, every @NAME@ replaced
if [ -f "$unit" ] && [ "$(stat -c %a "$unit")" = 644 ] &&
   ! grep -q '@[A-Z]*@' "$unit"; then ok
else bad "make install wrote $unit (mode 644, no @NAME@ left)" "$(ls -l "$unit" 2>&1)" \
	"$(grep -n '@[A-Z]*@' "$unit" 2>&1)"; fi

# systemd-analyze verify: exit 0 and not a word (it warns of unknown keys
# and bad values with exit 0).  It runs man on Documentation=: the
# pages are the ones this install put under PREFIX.
verify() {
	(cd / && MANPATH=$P/share/man systemd-analyze verify "$1" 2>&1)
}
if out=$(verify "$unit") && [ -z "$out" ]; then ok
else bad "systemd-analyze verify $unit" "$out"; fi
# ... and it does complain about a broken copy, so the check above can fail
mkdir "$tmp/broken"
sed -e 's/^Restart=on-failure$/Restart=sometimes/' "$unit" >"$tmp/broken/stp-vitals.service"
out=$(verify "$tmp/broken/stp-vitals.service")
case $out in *"Failed to parse service restart specifier"*) ok ;;
*) bad "systemd-analyze verify of a unit with Restart=sometimes said nothing of it" "$out" ;; esac

# ExecStart: the wrapper, stp and vitals.stp of this PREFIX, the store
# and its limits; each file is there and is the tree's
line=$(grep '^ExecStart=' "$unit")
want="ExecStart=$P/libexec/stp/stp-pick-runtime $P/bin/stp $P/share/stp/scripts/vitals.stp --vitals-db=/var/lib/stp/vitals.db --vitals-limit=512,30"
if [ "$line" = "$want" ]; then ok; else bad "the unit's ExecStart" "want: $want" "got:  $line"; fi
missing=
[ -x "$P/libexec/stp/stp-pick-runtime" ] && cmp -s systemd/stp-pick-runtime "$P/libexec/stp/stp-pick-runtime" ||
	missing="$missing stp-pick-runtime"
[ -x "$P/bin/stp" ] && cmp -s stp "$P/bin/stp" || missing="$missing stp"
cmp -s examples/vitals.stp "$P/share/stp/scripts/vitals.stp" || missing="$missing vitals.stp"
if [ -z "$missing" ]; then ok; else bad "files ExecStart names, not installed as the tree's:$missing"; fi

# the settings the service depends on, exactly
missing=
for l in Type=exec KillSignal=SIGINT TimeoutStopSec=30s Restart=on-failure RestartSec=30s \
	StateDirectory=stp CacheDirectory=stp Environment=STP_CACHE=/var/cache/stp \
	SyslogIdentifier=stp-vitals WantedBy=multi-user.target; do
	grep -qxF "$l" "$unit" || missing="$missing $l"
done
if [ -z "$missing" ]; then ok; else bad "the unit lacks:$missing"; fi
# none that keeps a tracer from its module, tracefs, debugfs, BPF, or
# from the executables and processes it names
found=$(grep -nxE 'Type=forking|ProtectKernelModules=(yes|true)|ProtectKernelTunables=(yes|true)|PrivateDevices=(yes|true)|PrivateTmp=(yes|true)|ProtectHome=(yes|true|tmpfs)|ProtectProc=(invisible|noaccess|ptraceable)|CapabilityBoundingSet=.*' "$unit")
if [ -z "$found" ]; then ok; else bad "the unit has settings that stop a tracer" "$found"; fi

# stp-pick-runtime in a fake kernel (a private mount namespace with
# tmpfs over /proc, /sys and /lib/modules): STATE's words say what it
# has: modules (/proc/modules), headers (/lib/modules/RELEASE/build),
# disabled (modules_disabled=1), sigenforce (sig_enforce=Y).
printf '#!/bin/sh\necho "stp $*"\n' >"$tmp/fake-stp"
chmod 755 "$tmp/fake-stp"
pick() {	# STATE ARG...
	unshare -m bash -c '
		set -e
		state=" $1 " wrapper=$2 r=$(uname -r)
		shift 2
		mount -t tmpfs none /proc
		mount -t tmpfs none /sys
		mount -t tmpfs none /lib/modules
		mkdir -p /proc/sys/kernel /sys/module/module/parameters
		echo 0 >/proc/sys/kernel/modules_disabled
		echo N >/sys/module/module/parameters/sig_enforce
		case $state in *" modules "*) : >/proc/modules ;; esac
		case $state in *" headers "*) mkdir -p "/lib/modules/$r/build" ;; esac
		case $state in *" disabled "*) echo 1 >/proc/sys/kernel/modules_disabled ;; esac
		case $state in *" sigenforce "*) echo Y >/sys/module/module/parameters/sig_enforce ;; esac
		exec "$wrapper" "$@"' pick "$1" "$P/libexec/stp/stp-pick-runtime" "$tmp/fake-stp" "${@:2}" 2>&1 |
		sed "s/$(uname -r)/RELEASE/g"
}
{
	echo "== no module support: left to stp's own pick"
	pick "headers" v.stp --vitals-db=db
	echo "== modules and headers: left to stp (kmod)"
	pick "modules headers" v.stp
	echo "== no headers"
	pick "modules" v.stp
	echo "== modules_disabled"
	pick "modules headers disabled" v.stp
	echo "== sig_enforce"
	pick "modules headers sigenforce" v.stp
	echo "== a runtime given: left as it is"
	pick "modules" --runtime=kmod v.stp
	pick "modules" v.stp --runtime bpf
} >"$tmp/pick.out"
cat >"$tmp/pick.exp" <<'X'
== no module support: left to stp's own pick
stp v.stp --vitals-db=db
== modules and headers: left to stp (kmod)
stp v.stp
== no headers
stp: using --runtime=bpf: no headers of kernel RELEASE to build a module with (/lib/modules/RELEASE/build)
stp --runtime=bpf v.stp
== modules_disabled
stp: using --runtime=bpf: module loading is disabled (kernel.modules_disabled=1)
stp --runtime=bpf v.stp
== sig_enforce
stp: using --runtime=bpf: it loads signed modules only (module.sig_enforce), and stp's are not signed
stp --runtime=bpf v.stp
== a runtime given: left as it is
stp --runtime=kmod v.stp
stp v.stp --runtime bpf
X
expect "stp-pick-runtime's choice" "$tmp/pick.exp" "$tmp/pick.out"

# ExecStart as systemd runs it: its environment (systemd's PATH, no
# HOME, the unit's STP_CACHE, here a temporary one) and the store in
# $tmp; one-second epochs.  Once two epochs are stored, the unit's
# KillSignal (SIGINT) must close the open one, store it and exit 0: every
# epoch printed is in the store, the last printed is "(the last)".
read -ra cmd <<<"${line#ExecStart=}"
db=$tmp/vitals.db
cmd=("${cmd[@]/#--vitals-db=\/var\/lib\/stp\/vitals.db/--vitals-db=$db}" -G chopstix_epoch_ms=1000)
(cd / && exec env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	STP_CACHE="$tmp/cache" "${cmd[@]}") >"$tmp/run.out" 2>"$tmp/run.err" &
pid=$!
stored() { sqlite3 "$db" 'SELECT count(*) FROM epoch' 2>/dev/null || echo 0; }
for _ in $(seq 600); do
	[ "$(stored)" -ge 2 ] && break
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.2
done
kill -s "$(sed -n 's/^KillSignal=//p' "$unit")" "$pid" 2>/dev/null
# SIGKILL after TimeoutStopSec (30 s), as systemd would: exit 137
for _ in $(seq 150); do
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.2
done
kill -KILL "$pid" 2>/dev/null
wait "$pid"
rc=$?
pid=
printed=$(grep -c '^vitals epoch [0-9]*: ' "$tmp/run.out")
n=$(stored)
dumped=$("$P/bin/stp-vitals" dump "$db" 2>&1 | grep '"kind":"vital"' |
	sed 's/.*"epoch_start":"\([^"]*\)".*/\1/' | sort -u | wc -l)
if [ "$rc" -eq 0 ] && [ "$n" -ge 3 ] && [ "$printed" -eq "$n" ] && [ "$dumped" -eq "$n" ] &&
   grep '^vitals epoch [0-9]*: ' "$tmp/run.out" | tail -1 | grep -q ' (the last)$'; then ok
else bad "ExecStart's command, stopped by its KillSignal: exit $rc, $printed epochs printed, $n stored, $dumped dumped (want exit 0, at least 3, all the same)" \
	"$(tail -5 "$tmp/run.err")"; fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
