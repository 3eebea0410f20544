#!/bin/bash
# /metrics scraped by a real Prometheus (Debian's prometheus package):
# stp-vitals serve on the store of tests/vitals/writer.c's fixture, a
# Prometheus on loopback with a temporary config and data directory
# scraping it every second, and the series read back through
# Prometheus's HTTP API (/api/v1/query), each with its exact value; and
# every query of the Grafana dashboard (examples/grafana-vitals.json)
# answered by that Prometheus.
#
#   tests/vitals/prometheus.sh          last line: "N passed, N failed"
set -uo pipefail
cd "$(dirname "$0")/../.."
[ -x build/tests/vitals_writer ] || make -s vitals-tests >/dev/null
export LC_ALL=C
trap '' PIPE
pass=0
fail=0
work=$(mktemp -d)
srv=
prom=

ok() { echo "ok $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }

finish() {
	[ -n "$prom" ] && kill "$prom" 2>/dev/null && wait "$prom" 2>/dev/null
	[ -n "$srv" ] && kill "$srv" 2>/dev/null && wait "$srv" 2>/dev/null
	rm -rf "$work"
}
trap finish EXIT

# The server on a free port: sets $srv and $target (ADDR:PORT).
start_server() {
	./stp-vitals serve "$work/store.db" --listen 127.0.0.1:0 \
		--web "$work" >"$work/serve.out" 2>"$work/serve.err" &
	srv=$!
	for _ in $(seq 100); do
		target=$(sed -n 's|^stp-vitals: serving .* on http://\(.*\)/$|\1|p' \
			"$work/serve.out" 2>/dev/null)
		[ -n "$target" ] && return 0
		sleep 0.1
	done
	bad "stp-vitals serve did not start"; sed 's/^/    /' "$work/serve.err"
	return 1
}

# Prometheus on a port picked at random (again when it is taken): sets
# $prom and $api.
start_prometheus() {
	cat >"$work/prometheus.yml" <<EOC
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: stp-vitals
    static_configs:
      - targets: ["$target"]
EOC
	for _ in 1 2 3 4 5; do
		local port=$((20000 + RANDOM % 20000))
		prometheus --config.file="$work/prometheus.yml" \
			--storage.tsdb.path="$work/tsdb" \
			--web.listen-address="127.0.0.1:$port" \
			>"$work/prom.log" 2>&1 &
		prom=$!
		api="http://127.0.0.1:$port/api/v1"
		for _ in $(seq 100); do
			curl -sf "$api/status/buildinfo" >/dev/null && return 0
			kill -0 "$prom" 2>/dev/null || break
			sleep 0.2
		done
		kill "$prom" 2>/dev/null; wait "$prom" 2>/dev/null
		prom=
	done
	bad "prometheus did not start"; tail -5 "$work/prom.log" | sed 's/^/    /'
	return 1
}

# The single value of an instant query, or "" when it has none.
query() {
	curl -s -G --data-urlencode "query=$1" "$api/query" |
		sed -n 's/.*"result":\[{"metric":{[^}]*},"value":\[[0-9.]*,"\([^"]*\)"\]}\].*/\1/p'
}

# Wait for the first scrape: up{job="stp-vitals"} is 1.
wait_scrape() {
	for _ in $(seq 150); do
		[ "$(query 'up{job="stp-vitals"}')" = 1 ] &&
			[ -n "$(query 'count(stp_vitals_weight)')" ] && return 0
		sleep 0.2
	done
	bad "prometheus never scraped /metrics"
	curl -s "$api/targets" | head -c 600; echo
	return 1
}

# value NAME QUERY WANT
value() {
	local have
	have=$(query "$2")
	if [ "$have" = "$3" ]; then
		ok "$1: $3"
	else
		bad "$1: '$have', want '$3'"
	fi
}

series_cases() {
	value "scraped" 'up{job="stp-vitals"}' 1
	value "weight of box's cpuu" 'stp_vitals_weight{host="box",vital="cpuu"}' 0
	# the fixture's third epoch, of a host without a name: int64's
	# maximum, which Prometheus holds as the float 2^63 and prints in
	# its shortest form
	value "weight of the unnamed host's cpuu" \
		'stp_vitals_weight{host="",vital="cpuu"}' 9223372036854776000
	value "unique events of the unnamed host's cpuu" \
		'stp_vitals_unique_events{host="",vital="cpuu"}' 1
	value "samples of the unnamed host's cpuu" \
		'stp_vitals_samples{host="",vital="cpuu"}' 1
	value "dropped samples of box's cpuu" \
		'stp_vitals_dropped_samples{host="box",vital="cpuu"}' 0
	value "events of box's l2mi" 'stp_vitals_events{host="box",vital="l2mi"}' 0
	value "box's l2mi unavailable" 'stp_vitals_available{host="box",vital="l2mi"}' 0
	value "box's cpuu available" 'stp_vitals_available{host="box",vital="cpuu"}' 1
	value "box's newest epoch" 'stp_vitals_epoch_start_seconds{host="box"}' 1795545660
	value "its length" 'stp_vitals_epoch_length_seconds{host="box"}' 60
	value "a flag count per rule" 'count(stp_vitals_flags)' 10
	value "whether each rule was evaluated" 'count(stp_vitals_rule_evaluated)' 10
	value "series of the vital signs" \
		'count({__name__=~"stp_vitals_(weight|events|unique_events|samples|dropped_samples|available)"})' 18
	value "every series of the job" 'count({job="stp-vitals",__name__=~"stp_vitals_.*"})' 42
}

# Every query of examples/grafana-vitals.json, its variables as "all":
# Prometheus takes it, and one that is not a filter (== 0, > 0) has data.
dashboard_cases() {
	local n=0 e body
	while IFS= read -r e; do
		n=$((n + 1))
		e=${e//\$host/.*}; e=${e//\$vital/.*}; e=${e//\$instance/.*}
		body=$(curl -s -G --data-urlencode "query=$e" "$api/query")
		if [[ $body != '{"status":"success"'* ]]; then
			bad "dashboard query $n: $e: $body"
		elif [[ $e != *'=='* && $e != *'> 0'* && $body == *'"result":[]'* ]]; then
			bad "dashboard query $n: $e: no data"
		else
			ok "dashboard query $n: $e"
		fi
	done < <(sed -n 's/^ *"expr": "\(.*\)",\?$/\1/p' examples/grafana-vitals.json |
		sed 's/\\"/"/g')
	[ "$n" -ge 9 ] || bad "dashboard: only $n queries found"
}

if ! command -v prometheus >/dev/null; then
	bad "no prometheus (make deps installs it)"
elif build/tests/vitals_writer fixture "$work/store.db" &&
     start_server && start_prometheus && wait_scrape; then
	series_cases
	dashboard_cases
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
