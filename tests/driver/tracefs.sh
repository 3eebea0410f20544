#!/bin/bash
# Tracepoints' systems with and without tracefs on /sys/kernel/tracing,
# on this machine's own kernel (issue 26).  Each state is made in a mount
# namespace of its own, so the machine's mounts never change:
#
#   mounted      tracefs is on /sys/kernel/tracing before stp runs
#   unmounted    nothing is there: stp mounts it (and says so with -v),
#                and gives the same answers as when it was mounted
#   unmountable  nothing is there and stp may not mount it (no
#                CAP_SYS_ADMIN): SYSTEM:NAME is matched by NAME, with one
#                warning at the point (file:line:col and caret)
#
# The same answers: -l and -L of points named by system, -l '*' (the
# aliases on tracepoints among them), the bash completion of
# kernel.trace("sched:sched_sw, and stp -i's pass 2 of such a point.
#
#   tests/driver/tracefs.sh [STP]     last line "N passed, N failed"
set -u
cd "$(dirname "$0")/../.." || exit 2
STP=$(realpath "${1:-./stp}")
top=$PWD
pass=0 fail=0
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# in_state STATE CMD...: CMD's stdout and stderr, then "--- exit N", in a mount
# namespace in STATE
in_state() {
	local state=$1
	shift
	unshare --mount --propagation private /bin/bash -c '
		state=$1; shift
		umount -q /sys/kernel/tracing /sys/kernel/debug/tracing /sys/kernel/debug 2>/dev/null
		case $state in
		mounted) mount -t tracefs nodev /sys/kernel/tracing || exit 98 ;;
		unmountable) exec setpriv --bounding-set -sys_admin --inh-caps -sys_admin "$@" ;;
		esac
		exec "$@"' sh "$state" "$@" 2>&1
	echo "--- exit $?"
}

ok() { pass=$((pass + 1)); }
bad() {
	fail=$((fail + 1))
	echo "FAIL $1"
	shift
	printf '%s\n' "$@" | head -20 | sed 's/^/    /'
}

# same NAME CMD...: the output in the unmounted state equals the mounted
# state's, which must have succeeded and printed something
same() {
	local name=$1 a b
	shift
	a=$(in_state mounted "$@")
	b=$(in_state unmounted "$@")
	if [ "${a##*--- exit }" != 0 ] || [ "$(printf '%s\n' "$a" | wc -l)" -lt 2 ]; then
		bad "$name: fails with tracefs mounted" "$a"
	elif [ "$a" != "$b" ]; then
		bad "$name: differs without tracefs" "$(diff <(echo "$a") <(echo "$b"))"
	else
		ok
	fi
}

complete_sched() {	# the bash completion of -l kernel.trace("sched:sched_sw
	bash -c 'source /usr/share/bash-completion/bash_completion
		source "$0/completion/stp.bash"
		_stp_cmd=$1
		COMP_WORDS=(stp -l "kernel.trace(\"sched:sched_sw"); COMP_CWORD=2
		_stp; printf "%s\n" "${COMPREPLY[@]}" | sort' "$top" "$STP"
}
export -f complete_sched
export top STP

same "-l kernel.trace(\"sched:sched_sw*\")" "$STP" -l 'kernel.trace("sched:sched_sw*")'
same "-L kernel.trace(\"sched:sched_switch\")" "$STP" -L 'kernel.trace("sched:sched_switch")'
same "-l kernel.trace(\"*:sys_e*\")" "$STP" -l 'kernel.trace("*:sys_e*")'
same "-l '*' (aliases on tracepoints)" "$STP" -l '*'
same "-l 'scheduler.*'" "$STP" -l 'scheduler.*'
same "completion of kernel.trace(\"sched:sched_sw" bash -c complete_sched
printf 'add probe kernel.trace("sched:sched_switch") { println($$system) }\nset -p 2\nrun\n' >"$tmp/i.cmds"
same "stp -i, run -p2 of a SYSTEM:NAME point" bash -c '"$STP" -i <"$1"' sh "$tmp/i.cmds"

# -v says that stp mounted tracefs, once; not when it was there
got=$(in_state unmounted "$STP" -v -p2 -e 'probe kernel.trace("sched:sched_switch"), kernel.trace("irq:irq_handler_entry") {}')
n=$(printf '%s\n' "$got" | grep -c '^mounted tracefs on /sys/kernel/tracing')
[ "$n" = 1 ] && [ "${got##*--- exit }" = 0 ] && ok || bad "-v: 'mounted tracefs' $n times" "$got"
got=$(in_state mounted "$STP" -v -p2 -e 'probe kernel.trace("sched:sched_switch") {}')
case $got in *"mounted tracefs"*) bad "-v: 'mounted tracefs' with tracefs there" "$got" ;; *) ok ;; esac

# unmountable: matched by name, one warning with its caret, $$system as
# written; a wrong system is not caught (that is what the warning says)
printf '%s\n' 'probe kernel.trace("sched:sched_switch") { println($$system) }' \
	'probe kernel.trace("irq:irq_handler_entry") {}' >"$tmp/t.stp"
got=$(in_state unmountable "$STP" -p2 "$tmp/t.stp" | sed "s|/boot/vmlinuz-[^ )]*|/boot/vmlinuz-KREL|")
want="$tmp/t.stp:1:20: warning: the tracepoints' systems are unknown (nothing is mounted on /sys/kernel/tracing and mounting tracefs there failed: Operation not permitted; there is no /boot/vmlinuz-KREL): matched by name, the system not checked
probe kernel.trace(\"sched:sched_switch\") { println(\$\$system) }
                   ^~~~~~~~~~~~~~~~~~~~"
case $got in
"$want"*'stp_str_assign(STAP_RETVALUE, "sched");'*'kernel.trace("irq:irq_handler_entry")'*"--- exit 0") ok ;;
*) bad "unmountable: one warning, matched by name" "$got" ;;
esac
n=$(printf '%s\n' "$got" | grep -c 'warning:')
[ "$n" = 1 ] && ok || bad "unmountable: $n warnings, not 1" "$got"
got=$(in_state unmountable "$STP" -l 'kernel.trace("sched:sched_switch")')
case $got in
*'kernel.trace("sched:sched_switch")'*"--- exit 0") ok ;;
*) bad "unmountable: -l lists the point" "$got" ;;
esac
# a name that no tracepoint has is still an error
got=$(in_state unmountable "$STP" -p2 -e 'probe kernel.trace("sched:sched_swich") {}')
case $got in
*"no tracepoint 'sched:sched_swich' in the kernel (did you mean 'sched_switch'"*"--- exit 1") ok ;;
*) bad "unmountable: an unknown name is an error" "$got" ;;
esac

echo "$pass passed, $fail failed"
