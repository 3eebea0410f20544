#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build and run the front-end fuzzer (libFuzzer + ASan + UBSan).
#
#   tests/fuzz/run.sh [SECONDS]       default 60; "make fuzz FUZZ_SECONDS=N"
#
# Environment:
#   FUZZ_TARGET=parse|pp|format   which target (default parse: lex,
#                          preprocess, parse, print, reparse, print again;
#                          format: runtime/format.c's stp_format against
#                          the snprintf contract, tests/fuzz/fuzz_format.c)
#   FUZZ_JOBS=N            run N fuzzing processes in libFuzzer's fork mode,
#                          which keeps going after a crash (default: one
#                          process, which stops at the first finding)
#   FUZZ_ARGS="..."        extra libFuzzer flags
#   CC=clang-NN            the compiler (default clang)
#   FUZZ_PARSER_DIR=DIR    fuzz a copy of parser/ (default parser): to get
#                          past a known crash while parser/ awaits its fix
#
# Builds build/fuzz/fuzz_parse and build/fuzz/fuzz_pp, seeds
# build/fuzz/corpus from the conformance scripts and small tapsets, and
# copies every crash, timeout or out-of-memory input to tests/fuzz/regress/
# under a name saying what went wrong.  Exits 1 if anything was found,
# 2 if the build failed.
set -u

cd "$(dirname "$0")/../.." || exit 2
SECONDS_TO_RUN=${1:-60}
TARGET=${FUZZ_TARGET:-parse}
JOBS=${FUZZ_JOBS:-0}
CC=${CC:-clang}
PARSER=${FUZZ_PARSER_DIR:-parser}
case $PARSER in /*) PARSER_ABS=$PARSER ;; *) PARSER_ABS=$PWD/$PARSER ;; esac
OUT=build/fuzz
CORPUS=$OUT/corpus
ARTIFACTS=$OUT/artifacts
REGRESS=tests/fuzz/regress
TAPSETS=/usr/share/systemtap/tapset

mkdir -p "$OUT" "$CORPUS" "$ARTIFACTS" "$REGRESS" || exit 2

# ---- build ----
# tests/fuzz/fuzz_alloc.c overrides lib/mem.c's weak arena with a
# per-input, ASan-visible one.
# parser/diag.c is compiled through tests/fuzz/fuzz_diag.c, which makes
# its error count and its already-reported set per input.
CFLAGS="-std=c11 -D_GNU_SOURCE -g -O1 -fno-omit-frame-pointer \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-I$PARSER"
build() {	# build NAME EXTRA-FLAGS
	objs=
	for f in lib/*.c "$PARSER"/*.c; do
		o=$OUT/obj-$1-$(basename "$f" .c).o
		[ "$f" = "$PARSER/diag.c" ] && continue	# fuzz_diag.c has it
		# shellcheck disable=SC2086
		$CC $CFLAGS $2 -c "$f" -o "$o" || return 1
		objs="$objs $o"
	done
	# shellcheck disable=SC2086
	$CC $CFLAGS $2 -DFUZZ_DIAG_C="\"$PARSER_ABS/diag.c\"" $objs \
		tests/fuzz/fuzz_diag.c tests/fuzz/fuzz_alloc.c \
		tests/fuzz/fuzz_parse.c -o "$OUT/fuzz_$1"
}
# The runtime's printf, built as the host unit tests build it (-DSTP_HOST).
build_format() {
	# shellcheck disable=SC2086
	$CC $CFLAGS -DSTP_HOST -Iruntime runtime/out.c runtime/map.c \
		runtime/stat.c runtime/format.c tests/fuzz/fuzz_format.c \
		-o "$OUT/fuzz_format"
}
# Formats, then a NUL, then the bytes arguments are made from.
seed_format() {
	i=0
	for f in '%d|%5i|%-5u|%05x|%+X|% o|%#x|%#o' '%p %20p %-#8p %020p' \
		 '%s|%10s|%-10.3s|%.*s|%*s|%05s' '%c%3c%-3c%#c%#4c' \
		 '%b|%1b|%2b|%4b|%.8b|%10.2b|%-3b' '%m|%.4m|%8.2M|%-8.3M|%03m' \
		 '%lld %ld %hd %hhd %Lx %llu %%' '%*.*d %-*d %.*d' '%' '%5' '%q'; do
		printf '%s\000\005\003abc\200\377\001\002\003\004\005\006\007\010\007\377\377\377\377\377\377\377\377' \
			"$f" >"$CORPUS/seed-format-$i"
		i=$((i + 1))
	done
	echo "fuzz: $i seed formats, $(ls "$CORPUS" | wc -l) inputs in $CORPUS"
}
if [ "$TARGET" = format ]; then
	# Its findings are not scripts for regress.sh: they become
	# tests/unit/rt_format.c cases.
	REGRESS=$OUT/findings-format
	CORPUS=$OUT/corpus-format
	mkdir -p "$REGRESS" || exit 2
	mkdir -p "$CORPUS" || exit 2
	echo "fuzz: building $OUT/fuzz_format from runtime/ with $CC"
	build_format || { echo "fuzz: build failed" >&2; exit 2; }
else
	echo "fuzz: building $OUT/fuzz_parse and $OUT/fuzz_pp from $PARSER/ with $CC"
	build parse "" || { echo "fuzz: build failed" >&2; exit 2; }
	build pp -DFUZZ_PP || { echo "fuzz: build failed" >&2; exit 2; }
fi

# ---- seeds ----
n=0
if [ "$TARGET" = format ]; then
	seed_format
fi
[ "$TARGET" = format ] ||
for f in tests/conformance/parse/ok/*.stp tests/conformance/parse/ko/*.stp; do
	[ -f "$f" ] || continue
	cp "$f" "$CORPUS/seed-$(echo "$f" | tr / _)" && n=$((n + 1))
done
if [ "$TARGET" != format ] && [ -d "$TAPSETS" ]; then
	# Every third tapset under 20 KB, in a fixed order.
	for f in $(find "$TAPSETS" -name '*.stp' -size -20k | sort |
		   awk 'NR % 3 == 1'); do
		cp "$f" "$CORPUS/tapset-$(echo "${f#"$TAPSETS"/}" | tr / _)" &&
			n=$((n + 1))
	done
fi
[ "$TARGET" = format ] ||
	echo "fuzz: $n seed files, $(ls "$CORPUS" | wc -l) inputs in $CORPUS"

# ---- run ----
BEFORE=$(ls "$ARTIFACTS")
LOG=$OUT/fuzz-$TARGET.log
DICT=-dict=tests/fuzz/stp.dict
[ "$TARGET" = format ] && DICT=	# the seeds carry the vocabulary
FLAGS="-max_total_time=$SECONDS_TO_RUN -max_len=4096 -timeout=10 \
	-rss_limit_mb=4096 -detect_leaks=0 $DICT \
	-artifact_prefix=$ARTIFACTS/ -print_final_stats=1"
if [ "$JOBS" -gt 0 ]; then
	FLAGS="$FLAGS -fork=$JOBS -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1"
fi
echo "fuzz: $OUT/fuzz_$TARGET for ${SECONDS_TO_RUN}s, log in $LOG"
# shellcheck disable=SC2086
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=0} \
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
	"$OUT/fuzz_$TARGET" $FLAGS ${FUZZ_ARGS:-} "$CORPUS" >"$LOG" 2>&1
rc=$?
grep -aE '^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss_mb)' \
	"$LOG" | tail -n 3
echo "fuzz: libFuzzer exit status $rc"

# ---- findings ----
# Name each new artifact after what its reproduction reports:
#   crash-heap-buffer-overflow-print.c-123-expr-1a2b3c4d.stp
describe() {	# describe ARTIFACT -> a short name, no extension
	kind=${1##*/}
	kind=${kind%%-*}
	out=$(ASAN_OPTIONS=detect_leaks=0 timeout 60 "$OUT/fuzz_$TARGET" \
		-timeout=10 -rss_limit_mb=4096 "$1" 2>&1)
	sum=$(echo "$out" | grep -aE '^==FUZZ== FAIL:|^SUMMARY: [A-Za-z]+Sanitizer:' | head -n 1)
	case $sum in
	*"==FUZZ== FAIL: "*)
		what=$(echo "$sum" | sed 's/^==FUZZ== FAIL: //; s/ (round trip)//') ;;
	SUMMARY:*)
		# "SUMMARY: AddressSanitizer: heap-buffer-overflow /x/parse.c:12:3 in f"
		what=$(echo "$sum" | sed -E 's/^SUMMARY: [A-Za-z]+: //;
			s#[^ ]*/([^/ :]+):([0-9]+)(:[0-9]+)?#\1-\2#; s/ in *$//') ;;
	*)	# timeout, out of memory: the innermost parser function on the stack
		what=$(echo "$out" |
			grep -aE "^ +#[0-9]+ .* in [a-z_]+ .*/${PARSER##*/}/[a-z_]+\.c:" |
			head -n 1 |
			sed -E 's/.* in ([a-z_]+) .*\/([a-z_]+\.c):([0-9]+).*/in-\1-\2-\3/') ;;
	esac
	[ "$TARGET" = parse ] || what="$TARGET-$what"
	hash=$(sha1sum <"$1" | cut -c1-8)
	echo "$kind-$what" | tr -c 'A-Za-z0-9._\n-' '-' | tr -s - |
		sed "s/-\$//; s/\$/-$hash/" | cut -c1-120
}
found=0
for a in "$ARTIFACTS"/crash-* "$ARTIFACTS"/timeout-* "$ARTIFACTS"/oom-* \
	 "$ARTIFACTS"/leak-* "$ARTIFACTS"/slow-unit-*; do
	[ -f "$a" ] || continue
	echo "$BEFORE" | grep -qxF "${a##*/}" && continue	# an old one
	case ${a##*/} in slow-unit-*) continue ;; esac
	name=$(describe "$a").stp
	cp "$a" "$REGRESS/$name"
	echo "fuzz: FOUND $REGRESS/$name"
	found=$((found + 1))
done
if [ "$found" -gt 0 ]; then
	echo "fuzz: $found finding(s); reproduce with $OUT/fuzz_$TARGET FILE"
	[ "$TARGET" = format ] ||
		echo "fuzz: after the fix, write each one's .expect (see tests/fuzz/regress.sh)"
	exit 1
fi
case $rc in
0) echo "fuzz: nothing found" ;;
*) echo "fuzz: libFuzzer failed without an artifact, see $LOG"; exit 1 ;;
esac
exit 0
