#!/bin/bash
# stp-vitals serve (vitals/serve*.c, vitals/api*.c) on the host, over the
# store of tests/vitals/writer.c's fixture: the API's answers compared
# exactly with serve.expect (status and body of each request), then
# hostile and malformed requests, each with its exact status: bad and
# huge ranges, unknown vitals and parameters, bad epoch ids, path
# traversal in every spelling (../, %2e%2e, %2f, backslashes, NUL),
# a symbolic link out of the web directory, overlong URLs, methods
# other than GET and HEAD, requests that are not HTTP.  Afterwards the
# server still answers, and strace shows it opened nothing but its
# libraries, the store and the web directory's files.  stp-vitals
# metrics prints what /metrics serves.  The same runs again with
# stp-vitals built under ASan and UBSan.
#
#   tests/vitals/serve.sh          last line: "N passed, N failed"
set -uo pipefail
cd "$(dirname "$0")/../.."
[ -x build/asan/stp-vitals ] || make -s vitals-tests >/dev/null
[ -x build/tests/rules_gen ] || make -s build/tests/rules_gen >/dev/null
export LC_ALL=C
# a server that closes a connection early must not end the script
trap '' PIPE
pass=0
fail=0
root=$(mktemp -d)
here=tests/vitals
writer=build/tests/vitals_writer
tag=
pid=
srv=

ok() { echo "ok $tag$1"; pass=$((pass + 1)); }
bad() { echo "FAIL $tag$1"; fail=$((fail + 1)); }

# stop: SIGTERM to the server (strace's child); strace ends with it
stop() {
	[ -n "$pid" ] || return 0
	kill "$srv" 2>/dev/null
	wait "$pid" 2>/dev/null
	pid=
}
trap 'stop; rm -rf "$root"' EXIT

# A web directory with a file, a subdirectory, and a link that leads out
# of it to a secret beside it.
make_web() {
	mkdir -p "$work/web/sub"
	printf '<html>stp</html>\n' >"$work/web/index.html"
	printf 'let x = 1;\n' >"$work/web/app.js"
	printf 'sub\n' >"$work/web/sub/index.html"
	printf 'secret\n' >"$work/secret.txt"
	ln -s ../secret.txt "$work/web/escape.txt"
}

# start: the server on a free port, under strace; sets $pid (strace's),
# $srv (the server's) and $url.
start() {
	strace -f -qq -e trace=open,openat,openat2 -o "$work/trace" \
		"$vitals" serve "$work/store.db" --listen 127.0.0.1:0 \
		--web "$work/web" >"$work/serve.out" 2>"$work/serve.err" &
	pid=$!
	for _ in $(seq 100); do
		url=$(sed -n 's|^stp-vitals: serving .* on \(http://.*\)/$|\1|p' \
			"$work/serve.out" 2>/dev/null)
		srv=$(pgrep -P "$pid" -x stp-vitals)
		[ -n "$url" ] && [ -n "$srv" ] && return 0
		sleep 0.1
	done
	bad "the server did not start"; sed 's/^/    /' "$work/serve.err"
	return 1
}

# get METHOD TARGET: "== METHOD TARGET -> STATUS" and the body
get() {
	local status
	status=$(curl -s -g --path-as-is -X "$1" -o "$work/body" \
		-w '%{http_code}' "$url$2")
	echo "== $1 $2 -> $status"
	cat "$work/body"
}

# The answers of serve.expect, request by request.
api_cases() {
	local t
	grep '^== ' "$here/serve.expect" | while read -r _ m t _; do
		get "$m" "$t"
	done >"$work/answers"
	if diff -u "$here/serve.expect" "$work/answers" >"$work/diff"; then
		ok "$(grep -c '^== ' "$here/serve.expect") answers as serve.expect says"
	else
		bad "answers differ from serve.expect"
		sed 's/^/    /' "$work/diff" | head -40
	fi
}

# status NAME WANT METHOD TARGET: the status only
status() {
	local have
	have=$(curl -s -g --path-as-is -X "$3" -o "$work/body" \
		-w '%{http_code}' "$url$4")
	if [ "$have" = "$2" ]; then
		ok "$1: $2"
	else
		bad "$1: status $have, want $2"; head -c 300 "$work/body"; echo
	fi
}

# raw NAME WANT REQUEST: the first line of the answer to bytes sent as is
raw() {
	local have port=${url##*:}
	exec 3<>"/dev/tcp/127.0.0.1/$port"
	printf '%b' "$3" >&3 2>/dev/null
	have=$(timeout 5 head -1 <&3 | tr -d '\r')
	exec 3<&-
	if [ "$have" = "$2" ]; then
		ok "$1: ${2:-closed without an answer}"
	else
		bad "$1: '$have', want '$2'"
	fi
}

hostile_cases() {
	local long
	long=$(printf '%05000d' 0)
	status "flags: a range" 200 GET "/api/flags?from=0&to=9223372036853"
	status "diff: two ranges" 200 GET "/api/diff?a=0-1795545660000&b=1795545660000-1795545780000&limit=5"
	status "overlong URL (5000 bytes)" 414 GET "/api/meta?x=$long"
	long=$(printf '%040000d' 0)
	status "overlong URL (40000 bytes, past the header limit)" 414 GET "/$long"
	for m in POST PUT DELETE PATCH OPTIONS TRACE; do
		status "method $m" 405 "$m" /api/meta
	done
	raw "HEAD" "HTTP/1.1 200 OK" 'HEAD /api/meta HTTP/1.1\r\nHost: x\r\n\r\n'
	raw "unknown method" "HTTP/1.1 405 Method Not Allowed" \
		'BREW /api/meta HTTP/1.1\r\nHost: x\r\n\r\n'
	raw "HTTP/9.9" "HTTP/1.1 505 HTTP Version Not Supported" \
		'GET /api/meta HTTP/9.9\r\nHost: x\r\n\r\n'
	raw "not HTTP" "" 'GARBAGE\r\n\r\n'
	raw "absolute-form target" "HTTP/1.1 400 Bad Request" \
		'GET http://x/api/meta HTTP/1.1\r\nHost: x\r\n\r\n'
	# libmicrohttpd hands over the target up to a NUL
	raw "a NUL in the request line after ../" "HTTP/1.1 400 Bad Request" \
		'GET /../\0/x HTTP/1.1\r\nHost: x\r\n\r\n'
	status "the page" 200 GET /
	status "a file" 200 GET /app.js
	status "a subdirectory's index" 200 GET /sub/
	status "a subdirectory without /" 404 GET /sub
	status "no such file" 404 GET /nope.js
	status "a link out of the web directory" 404 GET /escape.txt
	status "../" 400 GET /../secret.txt
	status "../../etc/passwd" 400 GET /../../etc/passwd
	status "%2e%2e" 400 GET /%2e%2e/%2e%2e/etc/passwd
	status "%2E%2E" 400 GET /%2E%2E/secret.txt
	status "..%2f" 400 GET /..%2f..%2fetc%2fpasswd
	status "%2e%2e%2f" 400 GET /%2e%2e%2fsecret.txt
	status "sub/../../" 400 GET /sub/../../secret.txt
	status "/./" 400 GET /./index.html
	status "%5c (backslash)" 400 GET /..%5c..%5csecret.txt
	status "%00" 400 GET /index.html%00.js
	status "a bad escape in the path" 400 GET /%zz
	status "a cut escape in the path" 400 GET /index.html%2
	status "/api/../" 400 GET /api/../../etc/passwd
	status "unknown API path" 404 GET /api/nope
	status "API path with a dot" 404 GET /api/meta.json
	status "an epoch scale with more than 20000 epochs is fine below" 200 GET "/api/series?scale=epoch&from=0&to=9223372036853"
	status "series: huge range at the hour" 400 GET "/api/series?scale=hour&from=0&to=9223372036853"
	status "series: huge range at the day" 400 GET "/api/series?scale=day&from=0&to=9223372036853"
	status "series: 20000 hours" 400 GET "/api/series?scale=hour&from=0&to=72000000000"
	status "series: 19990 hours" 200 GET "/api/series?scale=hour&from=0&to=71964000000"
	status "series: from = to" 400 GET "/api/series?scale=epoch&from=5&to=5"
	status "series: from > to" 400 GET "/api/series?scale=epoch&from=6&to=5"
	status "series: negative from" 400 GET "/api/series?scale=epoch&from=-1&to=5"
	status "series: past 2262" 400 GET "/api/series?scale=epoch&from=0&to=9223372036854"
	status "series: 20 digits" 400 GET "/api/series?scale=epoch&from=0&to=99999999999999999999"
	status "series: a fraction" 400 GET "/api/series?scale=epoch&from=0.5&to=5"
	status "series: hex" 400 GET "/api/series?scale=epoch&from=0x10&to=5"
	status "series: empty to" 400 GET "/api/series?scale=epoch&from=0&to="
	status "series: no to" 400 GET "/api/series?scale=epoch&from=0"
	status "series: unknown scale" 400 GET "/api/series?scale=week&from=0&to=5"
	status "series: no scale" 400 GET "/api/series?from=0&to=5"
	status "series: unknown parameter" 400 GET "/api/series?scale=epoch&from=0&to=5&vital=cpuu"
	status "series: a parameter twice" 400 GET "/api/series?scale=epoch&from=0&to=5&to=6"
	status "series: a bad escape" 400 GET "/api/series?scale=epoch&from=0&to=%zz"
	status "series: %00" 400 GET "/api/series?scale=epoch%00&from=0&to=5"
	status "series: 17 parameters" 400 GET "/api/series?$(printf 'p%d=1&' $(seq 17))"
	status "epoch: no epoch at 0" 404 GET "/api/epoch?at=0"
	status "epoch: no such id" 404 GET "/api/epoch?id=999"
	status "epoch: id -1" 400 GET "/api/epoch?id=-1"
	status "epoch: id abc" 400 GET "/api/epoch?id=abc"
	status "epoch: id past int64" 400 GET "/api/epoch?id=9223372036854775808"
	status "epoch: at and id" 400 GET "/api/epoch?at=1795545600000&id=1"
	status "epoch: neither" 400 GET "/api/epoch"
	status "samples: no epoch" 400 GET "/api/samples"
	status "samples: no such epoch" 404 GET "/api/samples?epoch=999"
	status "samples: unknown vital" 400 GET "/api/samples?epoch=1&vital=nope"
	status "samples: one known, one not" 400 GET "/api/samples?epoch=1&vital=cpuu,nope"
	status "samples: an empty vital" 400 GET "/api/samples?epoch=1&vital=cpuu,"
	status "samples: a vital of another epoch" 400 GET "/api/samples?epoch=2&vital=kmem"
	status "samples: pid past 32 bits" 400 GET "/api/samples?epoch=1&pid=4294967296"
	status "samples: uid -1" 400 GET "/api/samples?epoch=1&uid=-1"
	status "flags: no range" 400 GET "/api/flags"
	status "flags: from > to" 400 GET "/api/flags?from=9&to=1"
	status "diff: no b" 400 GET "/api/diff?a=0-1"
	status "diff: a backwards" 400 GET "/api/diff?a=5-1&b=0-1"
	status "diff: not a range" 400 GET "/api/diff?a=x&b=0-1"
	status "diff: negative" 400 GET "/api/diff?a=-5-1&b=0-1"
	status "diff: limit 0" 400 GET "/api/diff?a=0-1&b=1-2&limit=0"
	status "diff: limit 1001" 400 GET "/api/diff?a=0-1&b=1-2&limit=1001"
	status "metrics: a parameter" 400 GET "/metrics?x=1"
}

# The server, after all of that, is alive and answers.
alive_cases() {
	if kill -0 "$pid" 2>/dev/null &&
	   [ "$(curl -s -o /dev/null -w '%{http_code}' "$url/api/meta")" = 200 ]; then
		ok "the server still answers"
	else
		bad "the server died or stopped answering"; sed 's/^/    /' "$work/serve.err"
	fi
}

# Every file the server opened: a library, libc's /etc/localtime (for
# the Date header), ASan's /proc/self/, the store (with -wal, -shm, -journal) or a file
# inside the web directory; never the secret.
opened_cases() {
	local web store
	stop
	web=$(realpath "$work/web")
	store=$(realpath "$work/store.db")
	sed -n 's/.*open[a-z0-9]*([^"]*"\([^"]*\)".*/\1/p' "$work/trace" |
		sort -u >"$work/opened"
	grep -v -e '^/etc/ld\.so\.' -e '^/etc/localtime$' -e '^/dev/urandom$' -e "^$work\$" -e "^$(dirname "$store")\$" -e '^/lib/' -e '^/lib64/' -e '^/usr/lib/' \
		-e "^$store\(-wal\|-shm\|-journal\)\?$" -e "^$work/store.db\(-wal\|-shm\|-journal\)\?$" \
		-e "^$web/" -e '^/proc/sys/' -e '^/proc/self/' -e '^/sys/devices/system/cpu' \
		"$work/opened" >"$work/outside"
	if [ -s "$work/outside" ]; then
		bad "opened outside the store and the web directory:"
		sed 's/^/    /' "$work/outside"
	elif ! grep -q "^$web/index.html$" "$work/opened"; then
		bad "strace saw no open of the web page (is the trace empty?)"
	else
		ok "opened only libraries, the store and the web directory ($(wc -l <"$work/opened") paths)"
	fi
}

metrics_cases() {
	if ! "$vitals" metrics "$work/store.db" >"$work/metrics" 2>"$work/err"; then
		bad "metrics: exit $?"; sed 's/^/    /' "$work/err"
	elif [ "$(curl -s "$url/metrics")" != "$(cat "$work/metrics")" ]; then
		bad "metrics: /metrics differs from stp-vitals metrics"
	elif ! grep -v '^stp_vitals_\(flags\|rule_evaluated\){' "$work/metrics" |
		diff -u "$here/metrics.expect" - >"$work/diff"; then
		bad "metrics: differs from metrics.expect"; sed 's/^/    /' "$work/diff" | head -30
	else
		ok "metrics: as metrics.expect, and /metrics the same"
	fi
}

# The flag counts of a store built to trigger rule 2 (memory leak) in
# its newest epochs: 1 for rule 2, 0 for the others, all evaluated.
flag_metrics_cases() {
	local want
	build/tests/rules_gen case memory-leak-yes "$work/leak.db" >/dev/null ||
		{ bad "metrics: rules_gen failed"; return; }
	want=$(for r in $(seq 10); do
		echo "stp_vitals_flags{rule=\"$r\"} $((r == 2))"; done
		for r in $(seq 10); do
		echo "stp_vitals_rule_evaluated{rule=\"$r\"} 1"; done)
	if [ "$("$vitals" metrics "$work/leak.db" |
		grep '^stp_vitals_\(flags\|rule_evaluated\){')" = "$want" ]; then
		ok "metrics: a memory leak's flag counted under rule 2"
	else
		bad "metrics: the leak's flag counts"
		"$vitals" metrics "$work/leak.db" | grep '^stp_vitals_flags{' | sed 's/^/    /'
	fi
}

usage_cases() {
	local out
	out=$("$vitals" serve 2>&1 >/dev/null; echo "rc=$?")
	[ "$out" = "$(printf 'stp-vitals: serve: no store given\nusage: stp-vitals serve DB [--listen ADDR:PORT] [--web DIR]\nrc=2')" ] &&
		ok "serve: no store: usage, 2" || bad "serve: no store: $out"
	out=$("$vitals" serve "$work/store.db" --listen nope 2>&1 >/dev/null; echo "rc=$?")
	[ "$out" = "$(printf "stp-vitals: serve: --listen: 'nope' is not ADDR:PORT\nusage: stp-vitals serve DB [--listen ADDR:PORT] [--web DIR]\nrc=2")" ] &&
		ok "serve: bad --listen: usage, 2" || bad "serve: bad --listen: $out"
	out=$("$vitals" serve "$work/none.db" 2>&1 >/dev/null; echo "rc=$?")
	[ "$out" = "$(printf "stp-vitals: $work/none.db: not a vital-signs store (No such file or directory)\nrc=1")" ] &&
		ok "serve: not a store: 1" || bad "serve: not a store: $out"
}

suite() {
	mkdir -p "$work"
	"$writer" fixture "$work/store.db" || { bad "the writer failed"; return; }
	make_web
	usage_cases
	start || return
	api_cases
	hostile_cases
	metrics_cases
	flag_metrics_cases
	alive_cases
	opened_cases
}

vitals=./stp-vitals
work=$root/plain
suite
vitals=build/asan/stp-vitals
work=$root/asan
tag="asan: "
suite
tag=
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
