# bash completion for stp: options, script files, and probe points after
# -l and -L (asked of `stp -l`, so aliases and tracepoints are offered).
# Installed as $(PREFIX)/share/bash-completion/completions/stp.

# ORDER: the options of `stp --help` (tests/man/completion.sh checks).
_stp_opts='-p -v -e -I -D -g -m -r -o -S -F -c -x -k -B -G -s -T -u -w -W
-l -L -i -d --compatible= --prologue-searching --remote=qemu --smp= --runtime= --dump-probe-types
--dump-functions --dump-probe-aliases --vmlinux= --sysroot= --vitals-db=
--vitals-limit= --all-modules --ldd --help --version'

# The probe points that start with $1: the point itself completed within
# its last component (WORD*), and the points below it (WORD*.**).  A
# string argument left open (kernel.function("vfs_re) is closed after
# the star.
_stp_probes() {
	local word=$1 close=
	shift
	case $word in
	*'("'*) [[ ${word##*\(\"} == *'"'* ]] || close='")' ;;
	esac
	"${_stp_cmd:-stp}" "$@" -l "$word*$close" 2>/dev/null
	[ -n "$close" ] || "${_stp_cmd:-stp}" "$@" -l "$word*.**" 2>/dev/null
}

# The options already typed that change what -l lists: the target
# kernel and the tapset directories.  bash splits --sysroot=DIR into
# three words (= breaks words): they are joined again.
_stp_target() {
	local i w
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		case $w in
		--sysroot | --vmlinux)
			[ "${COMP_WORDS[i + 1]-}" = = ] && printf '%s\n' "$w=${COMP_WORDS[i + 2]-}"
			;;
		--sysroot=?* | --vmlinux=?* | -r?* | -I?*) printf '%s\n' "$w" ;;
		-r | -I) printf '%s\n' "$w" "${COMP_WORDS[i + 1]-}" ;;
		esac
	done
}

# A value after an option written OPT=VALUE: the runtimes for
# --runtime, directories for --sysroot, files for the others.
_stp_path_value() {
	case $1 in
	--runtime) COMPREPLY=($(compgen -W 'kmod bpf' -- "$2")); return ;;
	esac
	compopt -o filenames 2>/dev/null
	case $1 in
	--sysroot) COMPREPLY=($(compgen -d -- "$2")) ;;
	--vmlinux | --vitals-db) COMPREPLY=($(compgen -f -- "$2")) ;;
	esac
}

_stp() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=
	[ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD - 1]}
	COMPREPLY=()
	if [ "$cur" = = ]; then
		_stp_path_value "$prev" ""
		return
	elif [ "$prev" = = ] && [ "$COMP_CWORD" -gt 1 ]; then
		_stp_path_value "${COMP_WORDS[COMP_CWORD - 2]}" "$cur"
		return
	fi
	case $prev in
	-l | -L)
		cur=${cur#[\'\"]}
		local IFS=$'\n'
		COMPREPLY=($(_stp_probes "$cur" $(_stp_target)))
		compopt -o nospace 2>/dev/null
		return
		;;
	-I)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -d -- "$cur"))
		return
		;;
	-o | -d | --vmlinux)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -f -- "$cur"))
		return
		;;
	-p)
		COMPREPLY=($(compgen -W '1 2 3 4 5' -- "$cur"))
		return
		;;
	-e | -D | -m | -r | -S | -c | -x | -B | -G | -s | -T)
		return
		;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$_stp_opts" -- "$cur"))
		[[ ${COMPREPLY[0]-} == *= ]] && compopt -o nospace 2>/dev/null
		return
	fi
	# the script: *.stp files and directories to find them in
	local IFS=$'\n'
	compopt -o filenames 2>/dev/null
	COMPREPLY=($(compgen -f -X '!*.stp' -- "$cur") $(compgen -d -- "$cur"))
}
complete -F _stp stp
