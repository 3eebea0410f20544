#!/bin/bash
# The man pages: every public tapset function and alias has a doc comment
# (named FILE:LINE when not), the generator's pages say exactly what the
# fixture's comments say, every page renders with groff -ww without a
# warning, stp(1) names every option of stp --help, stpprobes(7) every
# probe type, and make install puts the pages where man finds them.  Run from the top of the tree after
# `make man`; prints "N passed, N failed".
set -u
cd "$(dirname "$0")/../.."
pass=0 fail=0
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
GEN=man/gen/tapset-man.awk
FIX=tests/man/fixtures/doc.stp
TAPSETS=(tapsets/*.stp tapsets/linux/*.stp)

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $1"; shift; [ $# -eq 0 ] || printf '    %s\n' "$@"; }

# expect NAME EXPECTED_FILE ACTUAL_FILE
expect() {
	if cmp -s "$2" "$3"; then ok; else bad "$1" "$(diff "$2" "$3" | head -20)"; fi
}

# every shipped public function and alias is documented
if out=$(awk -v check=1 -f $GEN "${TAPSETS[@]}" 2>&1); then ok
else bad "tapsets without doc comments" "$out"; fi

# the checker names each undocumented one, and fails
awk -v check=1 -f $GEN $FIX >"$tmp/check.out" 2>&1
echo "exit $?" >>"$tmp/check.out"
cat >"$tmp/check.exp" <<'X'
tests/man/fixtures/doc.stp:7: function::bare has no doc comment
tests/man/fixtures/doc.stp:32: probe::demo.nodoc has no doc comment
exit 1
X
expect "checker on $FIX" "$tmp/check.exp" "$tmp/check.out"

# the generated pages of the fixture, exactly
mkdir "$tmp/fx"
awk -v out="$tmp/fx" -f $GEN $FIX
(cd "$tmp/fx" && ls) >"$tmp/ls.out"
cat >"$tmp/ls.exp" <<'X'
function::add.3stp
function::answer.3stp
function::bare.3stp
probe::demo.nodoc.3stp
probe::demo.second.3stp
probe::demo.tick.3stp
X
expect "pages of $FIX (private and _ ones skipped)" "$tmp/ls.exp" "$tmp/ls.out"
cat >"$tmp/add.exp" <<'X'
.TH "FUNCTION::ADD" 3stp "" stp "stp tapset reference"
.SH NAME
function::add \- Sums a and b
.SH SYNOPSIS
.nf
function add:long (a:long, b:long)
function add:long (a:long, b:long, c:long)
.fi
.SH DESCRIPTION
Defined in the tapset tests/man/fixtures/doc.stp.
.SH SEE ALSO
.BR stp (1),
.BR stpprobes (7)
X
expect "function::add (an overload: both signatures)" "$tmp/add.exp" "$tmp/fx/function::add.3stp"
cat >"$tmp/tick.exp" <<'X'
.TH "PROBE::DEMO.TICK" 3stp "" stp "stp tapset reference"
.SH NAME
probe::demo.tick, probe::demo.second \- a tick of the demo clock (timer.s(1))
.SH SYNOPSIS
.nf
probe demo.tick, demo.second = timer.s(1),
    timer.ms(1000)
.fi
.SH DESCRIPTION
Context: any CPU.
.PP
A second paragraph.
.PP
Defined in the tapset tests/man/fixtures/doc.stp.
.SH VALUES
The alias sets name, n, late.
.SH SEE ALSO
.BR stp (1),
.BR stpprobes (7)
X
expect "probe::demo.tick (kernel-doc comment, two points)" "$tmp/tick.exp" "$tmp/fx/probe::demo.tick.3stp"
expect "probe::demo.second (the alias's other name)" "$tmp/tick.exp" "$tmp/fx/probe::demo.second.3stp"

# every page renders without a warning: the hand-written ones, and all
# the generated ones (groff exits 0 on warnings: its stderr must be empty)
for p in man/*.[0-9]; do
	if out=$(groff -ww -z -man "$p" 2>&1) && [ -z "$out" ]; then ok
	else bad "groff -ww $p" "$out"; fi
done
n=$(ls build/man/man3 | wc -l)
if [ "$n" -lt 5000 ]; then
	bad "build/man/man3 has $n pages (make man)"
elif out=$(cd build/man/man3 && ls | xargs -d '\n' -n 500 groff -ww -z -man 2>&1 | head -20) &&
	[ -z "$out" ]; then ok
else bad "groff -ww on build/man/man3's $n pages" "$out"; fi

# every public function and alias stp knows has a page (the generator
# lost none to a construct it did not parse)
(./stp --dump-functions | sed 's/^/function::/'
 ./stp --dump-probe-aliases | awk '{ print "probe::" $1 }') | grep -v '::_' | sort -u >"$tmp/names"
(cd build/man/man3 && ls) | sed 's/\.3stp$//' | sort >"$tmp/pages"
lost=$(comm -23 "$tmp/names" "$tmp/pages")
if [ "$(wc -l <"$tmp/names")" -lt 5000 ]; then
	bad "stp --dump-functions/--dump-probe-aliases listed $(wc -l <"$tmp/names") names"
elif [ -n "$lost" ]; then
	bad "names of --dump-functions/--dump-probe-aliases without a page" $lost
else ok; fi

# man-db reads every page's NAME line (what whatis and apropos show)
out=$( (lexgrog man/*.[0-9]; cd build/man/man3 && ls | xargs -d '\n' lexgrog) 2>&1 |
	grep -v ': ".* - .*"$' | head -10)
if [ -z "$out" ]; then ok; else bad "lexgrog could not read NAME" "$out"; fi

# man -l renders a generated page
MANWIDTH=80 man -l build/man/man3/function::execname.3stp 2>&1 | sed -n '3,4p' >"$tmp/man.out"
printf '%s\n' 'NAME' '       function::execname - The name of the current process (its comm)' >"$tmp/man.exp"
expect "man -l function::execname.3stp" "$tmp/man.exp" "$tmp/man.out"
grep -q '^probe syscall.read = kernel.syscall(0)$' build/man/man3/probe::syscall.read.3stp &&
	grep -q '^The alias sets name, fd, buf_uaddr, count, argstr.$' build/man/man3/probe::syscall.read.3stp &&
	ok || bad "probe::syscall.read: SYNOPSIS and VALUES"

# stp(1) documents every option stp --help lists
missing=""
for o in $(./stp --help | grep -oE '^  -[-a-zA-Z]+' | sed 's/^ *//'); do
	grep -qF -- "$(printf '%s' "$o" | sed 's/-/\\-/g')" man/stp.1 || missing="$missing $o"
done
if [ -z "$missing" ]; then ok; else bad "stp.1 lacks options of stp --help:$missing"; fi

# stpprobes(7) names every kind of point stp --dump-probe-types lists (its
# first two components, arguments left out: kernel.function, timer.ms, ...)
MANWIDTH=300 man -l man/stpprobes.7 2>/dev/null | sed 's/([^)]*)//g' >"$tmp/probes.txt"
missing=""
for t in $(./stp --dump-probe-types | sed 's/([a-z]*)//g' |
	awk -F. '{ print ($2 == "" ? $1 : $1 "." $2) }' | sort -u); do
	grep -qF -- "$t" "$tmp/probes.txt" || missing="$missing $t"
done
if [ -z "$missing" ]; then ok; else bad "stpprobes.7 lacks probe types:$missing"; fi

# make install: the pages, the completion (found by man) and the manual
if out=$(make -s install PREFIX="$tmp/inst" 2>&1); then
	missing=""
	w=$(MANPATH="$tmp/inst/share/man" man -w 3stp function::execname 2>&1)
	if [ "$w" = "$tmp/inst/share/man/man3/function::execname.3stp" ]; then ok
	else bad "man -w 3stp function::execname after make install" "$w"; fi
	for f in man1/stp.1 man1/stp-vitals.1 man7/stpprobes.7 man7/stpex.7 man8/stprun.8 \
		man3/probe::syscall.read.3stp; do
		[ -f "$tmp/inst/share/man/$f" ] || missing="$missing $f"
	done
	[ -f "$tmp/inst/share/bash-completion/completions/stp" ] || missing="$missing completion"
	# the manual, beside the pages
	for f in README.md guide.md language.md probes.md tapsets.md bpf.md vitals.md web.md hacking.md; do
		[ -f "$tmp/inst/share/doc/stp/$f" ] || missing="$missing doc/$f"
	done
	if [ -z "$missing" ]; then ok; else bad "make install did not install:$missing"; fi
else
	bad "make install PREFIX=$tmp/inst" "$(printf '%s\n' "$out" | tail -5)"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
