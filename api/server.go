package api

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"reflect"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/syncio/syncio/api/pool"
	"github.com/syncio/syncio/blockwatch"
	"github.com/syncio/syncio/fakes/blobserver"
	"github.com/syncio/syncio/fakes/profile"
)

// workerResource is the name a request holding a pool worker carries in
// its blockwatch labels.
const workerResource = "pool"

// poolPackage is api/pool's import path, whose waits the watcher ignores.
var poolPackage = reflect.TypeFor[pool.Pool]().PkgPath()

// app holds what the handlers share.
type app struct {
	cfg      Config
	log      *slog.Logger
	pool     *pool.Pool
	profiles *profiles
	store    *store
	orders   *orderWorkflows
	ledger   *ledger             // idempotency of the in-process order routes
	inflight *byteGate           // the async upload route's bound on bytes in flight
	slots    *slotGate           // the async upload route's bound on uploads in flight
	conns    *connBudget         // the public listener's cap on connections, or nil
	handlers running             // requests whose handlers have not returned
	watcher  *blockwatch.Watcher // nil with a negative BlockwatchRate
	durable  *durable            // the order workflow on Temporal, or nil
	// cleanups counts the releases of failed uploads' staged blocks still
	// running; storage is closed only after them.
	cleanups sync.WaitGroup
}

// Server is a running demo API.
type Server struct {
	app      *app
	http     *http.Server
	url      string
	blobs    *blobserver.Server // embedded storage, or nil
	profiles *http.Client       // client of a remote profile service, or nil
	served   chan error         // result of Serve
	debug    *http.Server       // the Config.DebugAddr listener's, or nil
	debugURL string
	// debugServed is the result of the debug listener's Serve.
	debugServed chan error
	unwatch     func()       // stops the watcher's sampling and waits for it
	open        atomic.Int64 // connections of the public listener not closed yet

	stopOnce sync.Once
	stopErr  error
}

// Start builds the API from cfg, listens on cfg.Addr and serves in the
// background. Without a storage connection string it starts the embedded
// fakes/blobserver on a loopback port (bytes on disk, capped, with the
// Azure-like storage model of Config); without a profile URL it uses the
// in-process fake profile service. The upload container is created here,
// once. ctx bounds start-up only, not the server's lifetime: stop it with
// Shutdown.
func Start(ctx context.Context, cfg Config, log *slog.Logger) (*Server, error) {
	fit := cfg.MaxConns == 0 // the default budget is lowered to fit the open-file limit; one asked for is not
	cfg = cfg.withDefaults()
	if log == nil {
		log = slog.Default()
	}
	// Every log line of the server, its fakes, net/http and the Temporal
	// SDK goes through the redacting handler: storage errors carry URLs
	// with SAS signatures, and those must not reach a log in clear.
	log = slog.New(newRedactingHandler(log.Handler()))
	cfg, err := fitOpenFiles(cfg, fit, systemOpenFiles, log)
	if err != nil {
		return nil, err
	}
	s, err := start(ctx, cfg, log)
	if err != nil {
		return nil, redactedError{err}
	}
	return s, nil
}

func start(ctx context.Context, cfg Config, log *slog.Logger) (*Server, error) {
	reg := prometheus.NewRegistry()
	reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		// Read at each scrape: the limit is the process's, set by whoever
		// runs the API (SetMemoryLimit), not by Start.
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "syncio_memory_limit_bytes",
			Help: "The Go runtime's soft memory limit of this process (-memory-limit or GOMEMLIMIT; 9.2e18 is none).",
		}, func() float64 { return float64(debug.SetMemoryLimit(-1)) }),
	)
	a := &app{
		cfg:    cfg,
		log:    log,
		ledger: newLedger(ledgerSize),
		// Await and Offload hand the worker back while they wait; the
		// watcher must see those waits as holding nothing.
		pool: pool.New(cfg.Workers, cfg.Queue, pool.WithRegisterer(reg),
			pool.WithYield(func(ctx context.Context) func() { return blockwatch.Drop(ctx, workerResource) })),
	}
	a.inflight = newByteGate(cfg.MaxInflightBytes, reg)
	a.slots = newSlotGate(cfg.MaxInflightUploads, reg)
	s := &Server{app: a, served: make(chan error, 1), unwatch: func() {}}
	if cfg.BlockwatchRate >= 0 {
		a.watcher = blockwatch.New(
			blockwatch.WithRate(cmp.Or(cfg.BlockwatchRate, blockwatch.DefaultRate)),
			blockwatch.WithBudget(cmp.Or(cfg.BlockwatchBudget, blockwatch.DefaultBudget)),
			blockwatch.WithWorker(workerResource),
			// Queueing for a worker is the pool's declared wait, not I/O:
			// it shows in syncio_pool_queue_wait_seconds instead.
			blockwatch.WithIgnore(poolPackage+"."),
			blockwatch.WithLogger(log.With("component", "blockwatch")),
		)
		reg.MustRegister(blockwatch.NewCollector(a.watcher)) // its sums on /metrics, for the load lab
	}

	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", cfg.Addr, err)
	}
	reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "syncio_http_connections",
		Help: "Open connections of the public listener, reserved ones included.",
	}, func() float64 { return float64(s.open.Load()) }))
	if cfg.MaxConns > 0 {
		a.conns = newConnBudget(cfg.MaxConns, cfg.ReservedConns, reg)
		ln = a.conns.listen(ln)
	}
	var debugLn net.Listener
	if cfg.DebugAddr != "" {
		if debugLn, err = net.Listen("tcp", cfg.DebugAddr); err != nil {
			_ = ln.Close()
			return nil, fmt.Errorf("listen on %s (debug): %w", cfg.DebugAddr, err)
		}
	}
	// From here on, every failure must undo what was started.
	fail := func(err error) (*Server, error) {
		_ = ln.Close()
		if debugLn != nil {
			_ = debugLn.Close()
		}
		if cerr := s.closeBackends(); cerr != nil {
			log.Warn("undoing a failed start", "err", cerr)
		}
		return nil, err
	}

	connString := cfg.StorageConnectionString
	if connString == "" {
		s.blobs = blobserver.New(
			blobserver.WithLogger(log.With("component", "blobserver")),
			// Negative knobs mean "none"; blobserver reads anything <= 0 so.
			blobserver.WithLatency(cfg.StorageLatency),
			blobserver.WithJitter(cfg.StorageJitter),
			blobserver.WithBandwidth(cfg.StorageBandwidth),
			blobserver.WithMaxBytes(cmp.Or(cfg.StorageMaxBytes, blobserver.DefaultMaxBytes)),
			blobserver.WithStagedBlockExpiry(cfg.StagedExpiry()),
			blobserver.WithMaxBlobs(cmp.Or(cfg.StorageMaxBlobs, blobserver.DefaultMaxBlobs)),
			blobserver.WithDir(cfg.StorageDir),
			blobserver.WithPath(cfg.StoragePath),
		)
		if err := s.blobs.Start("127.0.0.1:0"); err != nil {
			s.blobs = nil
			return fail(fmt.Errorf("start embedded blob server: %w", err))
		}
		connString = s.blobs.ConnectionString()
		log.Info("embedded blob storage started", "url", s.blobs.URL(), "kept_in", cfg.StoragePath)
	}
	a.store, err = newStore(connString, cfg.Container, max(cfg.StorageConns, cfg.Workers), cfg.StorageRetries, cfg.StorageTryTimeout)
	if err != nil {
		return fail(err)
	}
	initCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := a.store.ensureContainer(initCtx); err != nil {
		return fail(err)
	}

	a.profiles = &profiles{timeout: cfg.UpstreamTimeout}
	if cfg.ProfileURL != "" {
		s.profiles = &http.Client{Transport: newTransport(max(cfg.Workers, 16))}
		a.profiles.remote = profile.NewClient(cfg.ProfileURL, s.profiles)
	} else {
		a.profiles.opts = []profile.Option{
			profile.WithLatency(cfg.ProfileLatency),
			profile.WithJitter(cfg.ProfileJitter),
			profile.WithErrorRate(cfg.ProfileErrorRate),
		}
		a.profiles.local = profile.New(a.profiles.opts...)
	}

	if a.orders, err = a.newOrderWorkflows(reg); err != nil {
		return fail(err)
	}
	if cfg.Temporal != "" {
		if a.durable, err = newDurable(initCtx, cfg.Temporal, a.orders.async, log); err != nil {
			return fail(err)
		}
	}

	s.http = &http.Server{
		Handler:           a.newRouter(reg, cfg.Pprof, debugLn == nil),
		ReadHeaderTimeout: cfg.ReadHeaderTimeout,
		ReadTimeout:       cfg.ReadTimeout,
		WriteTimeout:      cfg.WriteTimeout,
		IdleTimeout:       cfg.IdleTimeout,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		ConnState:         s.countConn,
	}
	if a.conns != nil {
		s.http.ConnContext = a.conns.connContext
	}
	s.url = "http://" + ln.Addr().String()
	if a.watcher != nil {
		wctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); a.watcher.Run(wctx) }()
		s.unwatch = func() { cancel(); <-done }
	}
	go func() { s.served <- s.http.Serve(ln) }()
	if debugLn != nil {
		s.debug = &http.Server{
			Handler:           a.newOpsRouter(reg, cfg.Pprof),
			ReadHeaderTimeout: cfg.ReadHeaderTimeout,
			WriteTimeout:      cfg.WriteTimeout, // a CPU profile takes 30 s by default
			IdleTimeout:       cfg.IdleTimeout,
			MaxHeaderBytes:    64 << 10,
			ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		}
		s.debugURL = "http://" + debugLn.Addr().String()
		s.debugServed = make(chan error, 1)
		go func() { s.debugServed <- s.debug.Serve(debugLn) }()
		log.Info("syncio-api debug listening", "url", s.debugURL, "routes", "/metrics /debug/*")
	}
	log.Info("syncio-api listening", "url", s.url, "workers", cfg.Workers, "queue", cfg.Queue,
		"max_conns", cfg.MaxConns, "reserved_conns", cfg.ReservedConns, "idle_timeout", cfg.IdleTimeout,
		"profile_latency", cfg.ProfileLatency, "storage", storageKind(cfg), "pprof", cfg.Pprof,
		"blockwatch", a.watcher != nil, "temporal", cfg.Temporal)
	if s.blobs != nil {
		log.Info("embedded storage model", "latency", max(cfg.StorageLatency, 0), "jitter", max(cfg.StorageJitter, 0),
			"bandwidth_bytes_per_s", max(cfg.StorageBandwidth, 0))
	}
	return s, nil
}

func storageKind(cfg Config) string {
	if cfg.StorageConnectionString == "" {
		return "embedded"
	}
	return "external"
}

// URL returns the base URL, e.g. "http://127.0.0.1:41234".
func (s *Server) URL() string { return s.url }

// DebugURL returns the base URL of the Config.DebugAddr listener, which
// serves /metrics and /debug/*, or "" when they are on URL's.
func (s *Server) DebugURL() string { return s.debugURL }

// handlerGrace bounds how long Shutdown waits, after it closed the
// connections still open at its bound, for their handlers to return before
// it closes storage. They return soon: a body read fails at once and the
// request's context is cancelled. Only a blocking call that ignores it
// (the sync routes' in-process profile call, -profile-latency) can last.
const handlerGrace = 5 * time.Second

// countConn keeps s.open, the public listener's connections not closed
// yet, for the count Shutdown logs when it closes them at its bound and
// for syncio_http_connections, and tells the connection budget which
// connections have sent their first request.
func (s *Server) countConn(c net.Conn, state http.ConnState) {
	if s.app.conns != nil {
		s.app.conns.connState(c, state)
	}
	switch state {
	case http.StateNew:
		s.open.Add(1)
	case http.StateClosed, http.StateHijacked:
		s.open.Add(-1)
	}
}

// Shutdown stops accepting connections and waits for in-flight requests
// (including those still queued for a worker) until ctx ends. If ctx ends
// first, the connections still open are closed: none of their requests had
// been answered, so nothing acknowledged is lost; their count is logged,
// their handlers get a few seconds (handlerGrace) to return, and Shutdown
// still returns nil. Then the embedded fakes and the
// Temporal worker stop. An error means stopping itself failed in a way
// that may have lost something the server acknowledged: serving ended in
// an error, or storage did not close cleanly. Later calls return the first
// call's result.
func (s *Server) Shutdown(ctx context.Context) error {
	s.stopOnce.Do(func() { s.stopErr = s.shutdown(ctx) })
	return s.stopErr
}

func (s *Server) shutdown(ctx context.Context) error {
	defer s.unwatch()
	var err error
	switch herr := s.http.Shutdown(ctx); {
	case herr == nil:
	case ctx.Err() != nil: // the bound
		cut := s.open.Load()
		_ = s.http.Close()
		s.app.log.Warn("shutdown bound reached: closed the connections still open (none of their requests had been answered)",
			"connections", cut)
		if !s.app.handlers.wait(handlerGrace) {
			s.app.log.Warn("handlers still running after the connections were closed; stopping storage under them",
				"handlers", s.app.handlers.count(), "waited", handlerGrace)
		}
	default: // closing a listener failed
		_ = s.http.Close()
		err = fmt.Errorf("graceful shutdown: %w", herr)
	}
	if serveErr := <-s.served; serveErr != nil && !errors.Is(serveErr, http.ErrServerClosed) {
		err = errors.Join(err, fmt.Errorf("serve: %w", serveErr))
	}
	if s.debug != nil {
		// Metrics and profiles stayed up while the API drained; a
		// profile still being taken is cut short, which loses nothing.
		_ = s.debug.Close()
		if serveErr := <-s.debugServed; serveErr != nil && !errors.Is(serveErr, http.ErrServerClosed) {
			err = errors.Join(err, fmt.Errorf("serve debug: %w", serveErr))
		}
	}
	err = errors.Join(err, s.closeBackends())
	s.app.log.Info("syncio-api stopped", "url", s.url)
	return err
}

// closeBackends releases storage and profile connections and stops the
// embedded blob server. Only after the HTTP server has drained: an in-flight
// upload still needs its storage.
func (s *Server) closeBackends() error {
	var err error
	s.app.cleanups.Wait() // each is bounded by releaseTimeout
	if s.app.durable != nil {
		s.app.durable.close() // stops the worker first: its activities use storage
	}
	if s.app.orders != nil {
		s.app.orders.stop() // after the last compensation, before storage closes
	}
	if s.app.store != nil {
		s.app.store.close()
	}
	if s.profiles != nil {
		s.profiles.CloseIdleConnections()
	}
	if s.blobs != nil {
		// A temporary directory goes with it, so a failed close loses
		// nothing that would have outlived the process: a warning. A
		// kept one (StoragePath) is what the next start reads: an error.
		if cerr := s.blobs.Close(); cerr != nil && s.app.cfg.StoragePath != "" {
			err = fmt.Errorf("closing the kept blob store: %w", cerr)
		} else if cerr != nil {
			s.app.log.Warn("closing embedded blob server", "err", cerr)
		}
	}
	return err
}
