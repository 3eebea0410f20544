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
