#!/usr/bin/env bash
# Runs a command with a throwaway Azurite blob service, e.g.
#
#   tools/azurite/run.sh go test -race -count=1 ./...
#
# It installs the pinned Azurite (package-lock.json) into tools/azurite/node_modules if it
# is missing, starts azurite-blob in memory on 127.0.0.1 (port 10000 if free, else any free
# port), waits until it accepts connections, exports SYNCIO_AZURITE_CONNECTION_STRING, runs
# the command, stops Azurite and exits with the command's status. If Azurite cannot start,
# it fails with its log rather than letting the tests skip the real-storage variant.
#
# If SYNCIO_AZURITE_CONNECTION_STRING is already set, that Azurite is used and none is started.
#
# Environment: AZURITE_START_TIMEOUT (seconds, default 60), AZURITE_PORT (force a port).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
want_version="3.37.0"
account="devstoreaccount1"
key="Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="

log() { echo "azurite/run.sh: $*" >&2; }
die() { log "ERROR: $*"; exit 1; }

[ $# -gt 0 ] || die "usage: $0 CMD [ARGS...]"

if [ -n "${SYNCIO_AZURITE_CONNECTION_STRING:-}" ]; then
	log "SYNCIO_AZURITE_CONNECTION_STRING is already set; using that Azurite"
	exec "$@"
fi

command -v node >/dev/null || die "node is not installed (Azurite needs Node.js and npm)"
command -v npm >/dev/null || die "npm is not installed (Azurite needs Node.js and npm)"
# Azurite 3.37.0 declares node >= 22. It has been seen to work on node 20; older ones are
# untested, so say so up front in case start-up fails below.
node_major="$(node -p 'process.versions.node.split(".")[0]')"
if [ "$node_major" -lt 22 ]; then
	log "note: node $(node --version) is older than the >=22 Azurite $want_version declares (works on 20 here)"
fi

# Install only when the pinned version is not already there.
installed_version() {
	node -e 'try { process.stdout.write(require(process.argv[1]).version) } catch (e) {}' \
		"$here/node_modules/azurite/package.json"
}
if [ "$(installed_version)" != "$want_version" ] || [ ! -x "$here/node_modules/.bin/azurite-blob" ]; then
	log "installing azurite@$want_version into $here/node_modules (about a minute)"
	(cd "$here" && npm ci --no-audit --no-fund --loglevel=error) >&2 ||
		die "npm ci failed in $here"
	[ "$(installed_version)" = "$want_version" ] || die "npm installed azurite $(installed_version), want $want_version"
fi

port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
if [ -n "${AZURITE_PORT:-}" ]; then
	port="$AZURITE_PORT"
	! port_busy "$port" || die "AZURITE_PORT=$port is already in use on 127.0.0.1"
elif ! port_busy 10000; then
	port=10000
else
	# Ask the kernel for a free port. A tiny race with other processes remains; the
	# start-up check below catches it.
	port="$(node -e 'const s=require("net").createServer(); s.listen(0,"127.0.0.1",()=>{process.stdout.write(String(s.address().port)); s.close()})')"
fi

workdir="$(mktemp -d "${TMPDIR:-/tmp}/syncio-azurite.XXXXXX")"
azlog="$workdir/azurite.log"
pid=""

stop_azurite() {
	if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
		kill -TERM "$pid" 2>/dev/null || true
		# Azurite exits 1-4 s after SIGTERM; give it 15 s, then force it.
		for _ in $(seq 1 150); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		if kill -0 "$pid" 2>/dev/null; then
			log "Azurite ($pid) ignored SIGTERM for 15 s; killing it"
			kill -KILL "$pid" 2>/dev/null || true
		fi
		wait "$pid" 2>/dev/null || true
	fi
	pid=""
	rm -rf "$workdir"
}
trap stop_azurite EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Run from a scratch directory: even in memory, Azurite may drop files in its cwd.
(cd "$workdir" && exec "$here/node_modules/.bin/azurite-blob" \
	--inMemoryPersistence --blobHost 127.0.0.1 --blobPort "$port" \
	--silent --disableTelemetry --skipApiVersionCheck) >"$azlog" 2>&1 &
pid=$!

timeout="${AZURITE_START_TIMEOUT:-60}"
deadline=$((SECONDS + timeout))
# Ready means Azurite itself says it listens AND the port answers: the port alone could
# be someone else's if another process grabbed it first.
ready() { grep -q "successfully listens on" "$azlog" && port_busy "$port"; }
until ready; do
	if ! kill -0 "$pid" 2>/dev/null; then
		wait "$pid" 2>/dev/null && rc=0 || rc=$?
		pid=""
		log "Azurite exited (status $rc) before listening on 127.0.0.1:$port. Its log:"
		cat "$azlog" >&2
		exit 1
	fi
	if [ "$SECONDS" -ge "$deadline" ]; then
		log "Azurite did not listen on 127.0.0.1:$port within ${timeout}s. Its log:"
		cat "$azlog" >&2
		exit 1
	fi
	sleep 0.2
done
log "Azurite $want_version (pid $pid) is listening on 127.0.0.1:$port"

export SYNCIO_AZURITE_CONNECTION_STRING="DefaultEndpointsProtocol=http;AccountName=$account;AccountKey=$key;BlobEndpoint=http://127.0.0.1:$port/$account;"

set +e
"$@"
status=$?
set -e
stop_azurite
exit "$status"
