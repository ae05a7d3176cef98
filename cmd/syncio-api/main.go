// Command syncio-api serves the syncio demo API: the same profile lookup and
// blob upload, sync and async, behind a bounded worker pool.
//
// By default it runs on embedded fakes: the in-process profile service and a
// loopback fakes/blobserver. AZURE_STORAGE_CONNECTION_STRING selects real
// storage (e.g. Azurite); -profile-url a remote fakes/profile server.
//
// SIGINT or SIGTERM stops it gracefully: no new connections, in-flight
// requests finish within -shutdown-timeout, and the connections still open
// then (slow clients, none of them answered) are closed and counted in the
// log. Exit status 0: stopped, and every request answered stands. 1: start-up
// failed, or stopping failed in a way that may have lost something (see
// Usage). 2: a usage error.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"

	"github.com/syncio/syncio/api"
	"github.com/syncio/syncio/blockwatch"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

func run(args []string, stderr io.Writer) int {
	cfg := api.DefaultConfig()
	fs := flag.NewFlagSet("syncio-api", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), `Usage: syncio-api [flags]

Serves the syncio demo API (sync vs async endpoints behind a bounded worker pool).
Storage: AZURE_STORAGE_CONNECTION_STRING if set, else an embedded fake blob server on loopback
that models Azure Blob storage: every request takes -storage-latency (50ms) plus its bytes at
-storage-bandwidth (60 MiB/s), plus up to -storage-jitter; "-storage-latency 0 -storage-bandwidth 0"
is an instant store. Blob bytes go to a temporary directory on disk (removed at exit; -storage-path
DIR keeps them across restarts), at most
-storage-max-bytes (4 GiB) and -storage-max-blobs; beyond that uploads answer 507 storage_full and
nothing stored is dropped.

Routes: GET /api/{sync,async,wrapped}/profile[?instancing=percall|shared|serialized]
        POST /api/{sync,async}/upload[?size=N][&client=shared|per-request]
        POST /api/{sync,async}/order  (JSON {"id":"A1","items":[{"sku":"pen","quantity":1,"priceCents":150}]})
        GET /api/orders/:id  (with -temporal: an order answered 202)
        GET /api/blobs/NAME (an upload, or a receipt: receipts/ID/RUN.json), /healthz, /readyz (storage, and Temporal with -temporal)
        /metrics, /debug/syncio/blocking[, /debug/pprof/ with -pprof]  (on -debug-addr's listener when set)

Connections: at most -max-conns (5000) open; past it -reserved-conns (32) more are accepted for
one request each: /healthz and /readyz answer, anything else gets 503 too_many_connections and the
connection is closed; past both, accepting waits. Keep-alives idle for -idle-timeout are closed.
At start the open-file limit is checked against the budget and what storage may hold open: the
default -max-conns is lowered to fit (logged), a -max-conns given that does not fit is an error.

SIGINT or SIGTERM: no new connections; in-flight requests finish within -shutdown-timeout; then
the connections still open (slow clients; none of their requests had been answered, so nothing
acknowledged is lost) are closed, counted in the log, and their handlers get up to 5 s to end
before storage and the Temporal worker stop (each within its own few seconds).
Exit status: 0 stopped, every answered request stands (also when stragglers were closed);
1 start-up failed, or stopping failed in a way that may have lost acknowledged data (serving
ended in an error, or the store kept with -storage-path did not close cleanly; the log says
which); 2 usage error.

Flags:
`)
		fs.PrintDefaults()
	}
	fs.StringVar(&cfg.Addr, "addr", cfg.Addr, "listen address (host:port; port 0 picks a free one)")
	fs.IntVar(&cfg.Workers, "workers", cfg.Workers, "worker slots in the pool: requests that can run at once")
	fs.IntVar(&cfg.Queue, "queue", cfg.Queue, "admission queue capacity; beyond workers+queue requests get 503 (negative: no queue)")
	fs.DurationVar(&cfg.ProfileLatency, "profile-latency", cfg.ProfileLatency, "latency of the in-process fake profile service")
	fs.DurationVar(&cfg.ProfileJitter, "profile-jitter", cfg.ProfileJitter, "random extra latency, up to this much, of the in-process profile service")
	fs.Float64Var(&cfg.ProfileErrorRate, "profile-error-rate", cfg.ProfileErrorRate, "fraction of profile calls that fail (0..1)")
	fs.StringVar(&cfg.ProfileURL, "profile-url", cfg.ProfileURL, "base URL of a remote fakes/profile server (empty: in-process fake)")
	fs.DurationVar(&cfg.StorageLatency, "storage-latency", cfg.StorageLatency, "embedded blob server: latency of every request (0: none; ignored with AZURE_STORAGE_CONNECTION_STRING, as are all -storage-* but the retries and try timeout)")
	fs.DurationVar(&cfg.StorageJitter, "storage-jitter", cfg.StorageJitter, "embedded blob server: random extra latency per request, up to this much")
	fs.Int64Var(&cfg.StorageBandwidth, "storage-bandwidth", cfg.StorageBandwidth, "embedded blob server: bytes per second a request's body moves at (0: unlimited)")
	fs.Int64Var(&cfg.StorageMaxBytes, "storage-max-bytes", 0, "embedded blob server: cap on the committed bytes (staged, uncommitted blocks have an allowance of the same size); 507 beyond it (0: 4 GiB)")
	fs.DurationVar(&cfg.StorageStagedExpiry, "storage-staged-block-expiry", 0, "embedded blob server: discard a blob's uncommitted blocks this long after its last Put Block (0: 5m; negative: never)")
	fs.IntVar(&cfg.StorageMaxBlobs, "storage-max-blobs", 0, "embedded blob server: cap on the number of blobs, whose index is in memory; 507 beyond it (0: 1048576)")
	fs.StringVar(&cfg.StorageDir, "storage-dir", "", "embedded blob server: where to make its temporary directory, removed at exit (empty: the system's temporary directory)")
	fs.StringVar(&cfg.StoragePath, "storage-path", "", "embedded blob server: keep blobs in `DIR`, used as is (made if missing) and never removed, so uploads and receipts outlive a restart or a kill (with -temporal, completed orders keep their receipts); one server per DIR. A directory named by you, not a switch on -storage-dir: the data never sits in a temporary directory that exits and later starts clean up (empty: temporary, removed at exit)")
	fs.StringVar(&cfg.Container, "container", cfg.Container, "blob container for uploads (created at start-up)")
	fs.Int64Var(&cfg.MaxUploadBytes, "max-upload", cfg.MaxUploadBytes, "largest accepted upload in bytes (413 beyond)")
	fs.Int64Var(&cfg.MaxInflightBytes, "max-inflight-bytes", cfg.MaxInflightBytes, "bound on the upload bytes the async upload route holds at once, each upload counting min(its size, 2 MiB of streaming buffers); 503 uploads_busy beyond it")
	fs.IntVar(&cfg.MaxInflightUploads, "max-inflight-uploads", cfg.MaxInflightUploads, "bound on the uploads the async upload route runs at once; past it an upload waits for a slot with its body unread, holding no worker, within -upstream-timeout (then 503 uploads_busy)")
	memLimit := fs.Int64("memory-limit", -1, "the Go runtime's soft memory limit in bytes: the collector works harder near it, so the heap stays under it unless live memory alone is above it. -1: 251658240 (240 MiB) with AZURE_STORAGE_CONNECTION_STRING, none with the embedded blob fake, whose in-memory index grows with what is stored; 0: none; GOMEMLIMIT in the environment wins unless this flag is given")
	fs.DurationVar(&cfg.BodyTimeout, "body-timeout", cfg.BodyTimeout, "how long one request may take to send its body (uploads, orders), set per request apart from the server's read timeout; 408 body_timeout beyond it")
	fs.DurationVar(&cfg.UpstreamTimeout, "upstream-timeout", cfg.UpstreamTimeout, "bound on each profile or storage call once a request runs (504 beyond)")
	fs.IntVar(&cfg.StorageRetries, "storage-retries", cfg.StorageRetries, "azcore retries per storage call (negative: none)")
	fs.IntVar(&cfg.StorageConns, "storage-conns", cfg.StorageConns, "most connections to storage, and so storage calls in flight (at least -workers); async uploads beyond it wait for one")
	fs.DurationVar(&cfg.StorageTryTimeout, "storage-try-timeout", cfg.StorageTryTimeout, "bound on each storage try")
	fs.DurationVar(&cfg.WriteTimeout, "write-timeout", cfg.WriteTimeout, "HTTP write timeout; includes admission queueing, so keep it above the worst sync queue wait")
	fs.DurationVar(&cfg.IdleTimeout, "idle-timeout", cfg.IdleTimeout, "how long a keep-alive connection may wait for its next request before it is closed; it holds a file descriptor and a place under -max-conns until then (keep it above a load balancer's own idle timeout)")
	fs.IntVar(&cfg.MaxConns, "max-conns", api.DefaultMaxConns, "cap on the open connections of -addr's listener; past it a connection serves one request on a reserved slot (-reserved-conns): /healthz and /readyz answer, anything else 503 too_many_connections (negative: no cap). The default is lowered, with a warning, to fit the open-file limit; a value given that does not fit fails start-up")
	fs.IntVar(&cfg.ReservedConns, "reserved-conns", cfg.ReservedConns, "connections accepted past -max-conns, one request each, so health probes are answered and other clients get a 503 while clients hold every connection (negative: none; past both, accepting waits)")
	fs.StringVar(&cfg.Temporal, "temporal", "", "`HOST:PORT` of a Temporal frontend: POST /api/async/order then runs the order workflow there (worker in this process), durable across crashes")
	fs.DurationVar(&cfg.TemporalWait, "temporal-wait", cfg.TemporalWait, "with -temporal: how long an order request waits before answering 202 with a status URL")
	fs.BoolVar(&cfg.Pprof, "pprof", false, "mount net/http/pprof under /debug/pprof/ and record block and mutex profiles")
	fs.StringVar(&cfg.DebugAddr, "debug-addr", "", "`HOST:PORT` of a second listener that alone serves /metrics and /debug/* (blocking watcher, pprof), which show stacks, build paths and load; the public one then answers them 404 (empty: both on -addr)")
	watch := fs.Bool("blockwatch", true, "serve GET /debug/syncio/blocking: where request goroutines block, sampled at -blockwatch-hz (false: no labels, no sampling)")
	fs.IntVar(&cfg.BlockwatchRate, "blockwatch-hz", blockwatch.DefaultRate, "blocking watcher sampling rate in Hz (1..1000)")
	fs.Float64Var(&cfg.BlockwatchBudget, "blockwatch-budget", blockwatch.DefaultBudget, "the most of one core's CPU time the blocking watcher may spend sampling, 0 < f <= 1 (on a busy host sampling slows below -blockwatch-hz to fit it)")
	shutdownTimeout := fs.Duration("shutdown-timeout", 30*time.Second, "how long a graceful shutdown waits for in-flight requests; the connections still open then are closed and counted, and the exit status stays 0")
	logLevel := fs.String("log-level", "info", "log level: debug, info, warn or error")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "syncio-api: unexpected arguments: %v\n", fs.Args())
		fs.Usage()
		return 2
	}
	if cfg.BlockwatchRate < 1 || cfg.BlockwatchRate > 1000 {
		fmt.Fprintf(stderr, "syncio-api: -blockwatch-hz %d: want 1 to 1000\n", cfg.BlockwatchRate)
		return 2
	}
	if !(cfg.BlockwatchBudget > 0 && cfg.BlockwatchBudget <= 1) {
		fmt.Fprintf(stderr, "syncio-api: -blockwatch-budget %g: want a share of one core, more than 0 and at most 1\n", cfg.BlockwatchBudget)
		return 2
	}
	if !*watch {
		cfg.BlockwatchRate = -1
	}
	if cfg.Temporal != "" {
		if _, _, err := net.SplitHostPort(cfg.Temporal); err != nil {
			fmt.Fprintf(stderr, "syncio-api: -temporal %q: want HOST:PORT (%v)\n", cfg.Temporal, err)
			return 2
		}
	}
	if cfg.DebugAddr != "" {
		if _, _, err := net.SplitHostPort(cfg.DebugAddr); err != nil {
			fmt.Fprintf(stderr, "syncio-api: -debug-addr %q: want HOST:PORT (%v)\n", cfg.DebugAddr, err)
			return 2
		}
	}
	if cfg.StoragePath != "" && cfg.StorageDir != "" {
		fmt.Fprintf(stderr, "syncio-api: -storage-path %q and -storage-dir %q: use one (-storage-path keeps blobs; -storage-dir holds a temporary directory)\n", cfg.StoragePath, cfg.StorageDir)
		return 2
	}
	if cfg.TemporalWait <= 0 {
		fmt.Fprintf(stderr, "syncio-api: -temporal-wait %s: must be positive\n", cfg.TemporalWait)
		return 2
	}
	if *memLimit < -1 {
		fmt.Fprintf(stderr, "syncio-api: -memory-limit %d: want bytes, 0 for none or -1 for the default\n", *memLimit)
		return 2
	}
	explicit, explicitConns := false, false
	fs.Visit(func(f *flag.Flag) {
		explicit = explicit || f.Name == "memory-limit"
		explicitConns = explicitConns || f.Name == "max-conns"
	})
	if !explicitConns {
		cfg.MaxConns = 0 // api.Start's default: DefaultMaxConns, lowered to fit the open-file limit
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		fmt.Fprintf(stderr, "syncio-api: -log-level: %v\n", err)
		return 2
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	cfg.StorageConnectionString = os.Getenv("AZURE_STORAGE_CONNECTION_STRING")
	// On the command line 0 means "none", as the help says; in api.Config 0
	// means "default" and negative "none".
	if cfg.StorageLatency == 0 {
		cfg.StorageLatency = -1
	}
	if cfg.StorageBandwidth == 0 {
		cfg.StorageBandwidth = -1
	}
	if cfg.Pprof {
		// The block and mutex profiles stay empty unless sampling is on; it
		// costs a little on every contended wait, hence only with -pprof.
		runtime.SetBlockProfileRate(int(time.Millisecond))
		runtime.SetMutexProfileFraction(100)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	if *memLimit == -1 {
		*memLimit = api.MemoryLimitFor(cfg)
	}
	limit := api.SetMemoryLimit(*memLimit, explicit)
	log.Info("memory limit", "bytes", limit, "from_GOMEMLIMIT", os.Getenv("GOMEMLIMIT") != "" && !explicit)
	srv, err := api.Start(ctx, cfg, log)
	if err != nil {
		// One line, no stack: the usual cause is a taken port or bad storage.
		fmt.Fprintf(stderr, "syncio-api: %v\n", err)
		return 1
	}
	<-ctx.Done()
	stop() // a second signal now kills the process the default way
	log.Info("shutting down", "timeout", *shutdownTimeout)
	sctx, cancel := context.WithTimeout(context.Background(), *shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		log.Error("shutdown incomplete", "err", err)
		return 1
	}
	return 0
}
