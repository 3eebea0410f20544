# Shared by run-parse.sh and run-elab.sh (sourced; needs $cpu_limit).

# status RC: describe an exit status
status() {
	case $1 in
	137) echo "killed (signal 9)" ;;
	152) echo "killed by SIGXCPU (over ${cpu_limit}s of CPU: a loop?)" ;;
	134) echo "aborted (signal 6)" ;;
	139) echo "crashed (signal 11)" ;;
	*) if [ "$1" -gt 128 ]; then echo "killed by signal $(( $1 - 128 ))"; else echo "exit $1"; fi ;;
	esac
}

# words ARRAY TEXT: split TEXT at blanks into the array named ARRAY
words() { read -r -a "$1" <<< "$2"; }

# caret_ok FILE L C SHOWN CARET: is the diagnostic at FILE:L:C shown as
# stp shows it (parser/diag.c, show_line)?  SHOWN must be line L of FILE
# exactly, tabs expanded to 8 columns, bytes below ' ' as '?', and a
# line over 120 bytes cut to the 120 around C with "..." on the cut
# side(s); CARET must be blanks up to C's column in SHOWN, then "^" and
# only "~" after it.  On a mismatch, c_want and c_why say what was
# expected.  Bash builtins only: run-elab.sh runs it for every test.
caret_ok() {
	local LC_ALL=C
	local file=$1 line=$2 col=$3 shown=$4 caret=$5
	local -a src
	local text len at from to i ch disp='' dcol=0 ccol=-1 tilde
	c_why='' c_want=''
	mapfile -t -n "$line" src < "$file"
	text=${src[line - 1]-}
	text=${text%%$'\r'*}
	len=${#text}
	at=$((col - 1))
	[ "$at" -le "$len" ] || at=$len
	from=0 to=$len
	if [ "$len" -gt 120 ]; then
		from=$((at - 60 > 0 ? at - 60 : 0))
		to=$((from + 120 < len ? from + 120 : len))
	fi
	[ "$from" -eq 0 ] || { disp=...; dcol=3; }
	for ((i = from; i < to; i++)); do
		[ "$i" -ne "$at" ] || ccol=$dcol
		ch=${text:i:1}
		if [ "$ch" = $'\t' ]; then
			disp+=' '; dcol=$((dcol + 1))
			while ((dcol % 8)); do disp+=' '; dcol=$((dcol + 1)); done
		else
			[[ $ch > $'\x1f' ]] || ch='?'
			disp+=$ch; dcol=$((dcol + 1))
		fi
	done
	[ "$to" -ge "$len" ] || disp+=...
	[ "$ccol" -ge 0 ] || ccol=$dcol
	if [ "$shown" != "$disp" ]; then
		c_why="the source line shown is not line $line of ${file##*/}"
		c_want=$disp
		return 1
	fi
	printf -v c_want '%*s^' "$ccol" ''
	tilde=${caret#"$c_want"}
	if [ "$tilde" = "$caret" ] || [ -n "${tilde//\~/}" ]; then
		c_why="the caret is not at column $col"
		return 1
	fi
}

# loc_of DIAG: set d_file, d_line, d_col from "FILE:L:C: ..." (0 when
# the diagnostic has no location)
loc_of() {
	local rest
	d_file='' d_line=0 d_col=0
	[[ $1 =~ ^([^:]+):([0-9]+):([0-9]+):\  ]] || return 1
	d_file=${BASH_REMATCH[1]} d_line=${BASH_REMATCH[2]} d_col=${BASH_REMATCH[3]}
	rest=$d_file
	[ -f "$rest" ]
}
