#!/usr/bin/env bash
# tools/pprofwalk/run.sh OUTDIR: the "Goroutine and block profiles (pprof)"
# walkthrough of docs/remediation/pprof.md, run end to end in about 30 s.
#
# Builds bin/syncio-api and bin/syncio-load (PPROFWALK_BIN overrides bin/),
# then runs three short loads, each against a fresh `syncio-api -pprof -workers
# 8 -queue 64` on a free loopback port (-addr 127.0.0.1:0; the port is read from
# the API's "listening" log line):
#
#   sync/        200 users on /api/sync/profile (backend 2 s): /metrics, the
#                goroutine profile (debug=1 and `go tool pprof -top -cum`)
#   async/       the same on /api/async/profile
#   serialized/  200 users on /api/sync/profile?instancing=serialized (backend
#                2 ms, so the one lock changes hands often enough to be
#                sampled): the mutex and block profiles (debug=1 and -top)
#
# Each directory also holds the API's log (api.log) and the load run's results
# (load/, its summary in load/summary.md). Every process started here is
# stopped on exit, whatever happens.
set -euo pipefail

if [ $# -ne 1 ]; then
	echo "usage: $0 OUTDIR" >&2
	exit 2
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$1"
out=$(cd "$1" && pwd)
cd "$root"
bin=${PPROFWALK_BIN:-bin}
mkdir -p "$bin"
bin=$(cd "$bin" && pwd)

echo "pprofwalk: building $bin/syncio-api and $bin/syncio-load" >&2
go build -o "$bin/syncio-api" ./cmd/syncio-api
go build -o "$bin/syncio-load" ./cmd/syncio-load

pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null || true
	done
	for p in "${pids[@]}"; do
		wait "$p" 2>/dev/null || true
	done
}
trap cleanup EXIT

fail() {
	echo "pprofwalk: $*" >&2
	exit 1
}

# start_api DIR FLAGS...: starts the API with -pprof on a free loopback port
# and waits (at most 20 s) until /readyz answers; sets api_pid and url.
start_api() {
	local dir=$1
	shift
	mkdir -p "$dir"
	# The log exists before the API starts: the child opens its redirection
	# only when it runs, and a busy machine lets the loop below read first.
	: >"$dir/api.log"
	"$bin/syncio-api" -addr 127.0.0.1:0 -pprof -workers 8 -queue 64 -shutdown-timeout 2s "$@" 2>"$dir/api.log" &
	api_pid=$!
	pids+=("$api_pid")
	url=
	local i
	for i in $(seq 100); do
		url=$(sed -n 's/.*msg="syncio-api listening" url=\(http:\/\/127\.0\.0\.1:[0-9]*\).*/\1/p' "$dir/api.log")
		if [ -n "$url" ] && curl -fsS -m 2 -o /dev/null "$url/readyz"; then
			return 0
		fi
		kill -0 "$api_pid" 2>/dev/null || fail "syncio-api exited: $(cat "$dir/api.log")"
		sleep 0.2
	done
	fail "syncio-api not ready after 20 s: $(cat "$dir/api.log")"
}

stop_api() {
	kill -TERM "$api_pid" 2>/dev/null || true
	wait "$api_pid" 2>/dev/null || true
}

# start_load DIR SCENARIO SETTLE MEASURE: 200 users on SCENARIO against $url,
# in the background; sets load_pid.
start_load() {
	"$bin/syncio-load" -target "$url" -scenarios "$2" -users 200 -warmup 0s \
		-top-settle "$3" -top-settle-async "$3" -top-measure "$4" -drain 1s -quiet -out "$1/load" >"$1/load.log" 2>&1 &
	load_pid=$!
	pids+=("$load_pid")
}

wait_load() {
	wait "$load_pid" || fail "syncio-load failed: $(tail -n 20 "$1/load.log")"
}

# profile DIR NAME: the NAME profile as text (debug=1) and by function.
profile() {
	curl -fsS -m 10 "$url/debug/pprof/$2?debug=1" >"$1/$2.txt"
	curl -fsS -m 10 "$url/debug/pprof/$2" >"$1/$2.pb.gz"
	go tool pprof -top -cum "$1/$2.pb.gz" >"$1/$2-top.txt" 2>/dev/null
}

metrics() {
	curl -fsS -m 10 "$url/metrics" | grep -E '^syncio_pool_(workers|queue_length|rejected)' >"$1/metrics.txt"
}

# sync: the queue (64) fills within a second; profile it 6 s in.
d=$out/sync
echo "pprofwalk: sync-profile (${SECONDS}s)" >&2
start_api "$d"
start_load "$d" sync-profile 3s 5s
sleep 5
metrics "$d"
profile "$d" goroutine
wait_load "$d"
stop_api

# async: the same load on the endpoint that gives its worker back.
d=$out/async
echo "pprofwalk: async-profile (${SECONDS}s)" >&2
start_api "$d"
start_load "$d" async-profile 2s 2s
sleep 3
metrics "$d"
profile "$d" goroutine
wait_load "$d"
stop_api

# serialized: one mutex around the blocking call, held 2 ms at a time.
d=$out/serialized
echo "pprofwalk: sync-profile-serialized (${SECONDS}s)" >&2
start_api "$d" -profile-latency 2ms
start_load "$d" sync-profile-serialized 2s 8s
wait_load "$d"
profile "$d" mutex
profile "$d" block
metrics "$d"
stop_api

echo "pprofwalk: done in ${SECONDS}s; profiles in $out/{sync,async,serialized}/" >&2
