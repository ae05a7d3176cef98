#!/usr/bin/env bash
# Compares the upload pair on the embedded blob fake with the same pair on Azurite, with the
# same storage latency in front of both: the fake adds it itself (-storage-latency), Azurite
# gets it from tools/delayproxy. Run it under tools/azurite/run.sh, which provides Azurite:
#
#   tools/azurite/run.sh tools/azurite/compare-upload.sh [RESULTS_DIR]
#
# Azurite is one Node process that handles about 600 small uploads/s here, so the load is
# kept under that: 10 workers, a queue of 100, 1/20/60 users, 200 ms of storage latency
# (sync ≈ 10 ÷ 0.2 s = 50 OK/s, async ≈ 60 ÷ 0.2 s = 300 OK/s at 60 users).
# Environment: LATENCY (default 200ms), USERS (default 1,20,60).
set -euo pipefail

out="${1:-results/azurite-compare}"
latency="${LATENCY:-200ms}"
users="${USERS:-1,20,60}"
cs="${SYNCIO_AZURITE_CONNECTION_STRING:?run under tools/azurite/run.sh}"
hostport="$(sed -E 's#.*BlobEndpoint=http://([^/;]+)/.*#\1#' <<<"$cs")"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
mkdir -p bin "$out"
go build -o bin/ ./cmd/syncio-api ./cmd/syncio-load ./tools/delayproxy

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT

# wait_line FILE PREFIX: the first line of FILE starting with PREFIX, without it.
wait_line() {
	for _ in $(seq 100); do
		if line="$(grep -m1 "^$2" "$1" 2>/dev/null)"; then echo "${line#"$2"}"; return 0; fi
		sleep 0.1
	done
	echo "compare-upload.sh: no '$2' in $1" >&2; cat "$1" >&2; return 1
}
# wait_port PORT: until something listens on 127.0.0.1:PORT.
wait_port() { for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.1; done; return 1; }

load() { # load NAME URL
	bin/syncio-load -target "$2" -scenarios upload -users "$users" -warmup 2s -settle 5s -measure 10s \
		-top-settle 10s -top-settle-async 10s -top-measure 20s -storage-latency "$latency" -storage-bandwidth 0 \
		-quiet -out "$out/$1"
}

bin/delayproxy -upstream "$hostport" -delay "$latency" >"$out/proxy.log" 2>&1 &
pids+=($!)
proxy="$(wait_line "$out/proxy.log" "listening ")"
azurite_cs="$(sed -E "s#BlobEndpoint=http://[^/;]+/#BlobEndpoint=http://$proxy/#" <<<"$cs")"

api_flags=(-workers 10 -queue 100 -log-level warn)
AZURE_STORAGE_CONNECTION_STRING="$azurite_cs" bin/syncio-api -addr 127.0.0.1:18081 "${api_flags[@]}" 2>"$out/api-azurite.log" &
pids+=($!)
wait_port 18081
load azurite http://127.0.0.1:18081

bin/syncio-api -addr 127.0.0.1:18082 "${api_flags[@]}" -storage-latency "$latency" -storage-bandwidth 0 2>"$out/api-fake.log" &
pids+=($!)
wait_port 18082
load fake http://127.0.0.1:18082
