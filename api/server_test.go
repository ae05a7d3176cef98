package api

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
)

func TestHealthReadyMetrics(t *testing.T) {
	s := startServer(t, testConfig())
	if r := get(t, s.URL()+"/healthz"); r.status != http.StatusOK {
		t.Fatalf("healthz: %d %s", r.status, r.body)
	}
	if r := get(t, s.URL()+"/readyz"); r.status != http.StatusOK {
		t.Fatalf("readyz: %d %s", r.status, r.body)
	}
	get(t, s.URL()+"/api/async/profile")
	get(t, s.URL()+"/no/such/route")
	r := get(t, s.URL()+"/metrics")
	if r.status != http.StatusOK {
		t.Fatalf("metrics: %d", r.status)
	}
	text := string(r.body)
	for _, want := range []string{
		"syncio_pool_workers 4",
		"syncio_pool_workers_busy ",
		"syncio_pool_queue_length ",
		"syncio_pool_rejected_total 0",
		"syncio_pool_queue_wait_seconds_bucket",
		`syncio_http_request_duration_seconds_bucket{route="/api/async/profile",status="200"`,
		`syncio_http_request_duration_seconds_count{route="unmatched",status="404"}`,
		"go_goroutines ",
		"process_resident_memory_bytes ",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
}

func TestEachServerHasItsOwnRegistry(t *testing.T) {
	a := startServer(t, testConfig())
	cfg := testConfig()
	cfg.Workers = 7
	b := startServer(t, cfg)
	if !strings.Contains(string(get(t, a.URL()+"/metrics").body), "syncio_pool_workers 4") ||
		!strings.Contains(string(get(t, b.URL()+"/metrics").body), "syncio_pool_workers 7") {
		t.Fatal("servers in one process do not report their own pool sizes")
	}
}

func TestUnknownRouteAndMethodAreJSON(t *testing.T) {
	s := startServer(t, testConfig())
	r := get(t, s.URL()+"/api/nope")
	if r.status != http.StatusNotFound || documentedError(t, r) != codeNotFound {
		t.Fatalf("unknown route: %d %s", r.status, r.body)
	}
	r = get(t, s.URL()+"/api/async/upload")
	if r.status != http.StatusMethodNotAllowed || documentedError(t, r) != codeMethodNotAllowed {
		t.Fatalf("GET on an upload route: %d %s", r.status, r.body)
	}
}

func TestPanicIs500AndServerStaysUp(t *testing.T) {
	s := startServer(t, testConfig())
	engine := s.http.Handler.(*gin.Engine)
	// Registered before any request reaches it; the global middleware
	// (recovery, metrics) applies as to every route.
	engine.GET("/api/panic", s.app.admit, func(*gin.Context) { panic("boom") })

	rec := httptest.NewRecorder()
	engine.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/panic", nil))
	r := response{status: rec.Code, body: rec.Body.Bytes()}
	if r.status != http.StatusInternalServerError || documentedError(t, r) != codeInternal {
		t.Fatalf("panicking handler: %d %s, want 500 internal", r.status, r.body)
	}
	if st := s.app.pool.Stats(); st.Busy != 0 {
		t.Fatalf("the panicking request kept its worker: %+v", st)
	}
	// Over the network too, and the server still answers afterwards.
	if r := get(t, s.URL()+"/api/panic"); r.status != http.StatusInternalServerError {
		t.Fatalf("panic over HTTP: %d %s", r.status, r.body)
	}
	if r := get(t, s.URL()+"/api/async/profile"); r.status != http.StatusOK {
		t.Fatalf("after a panic: %d %s", r.status, r.body)
	}
}

func TestPprofOnlyWhenEnabled(t *testing.T) {
	off := startServer(t, testConfig())
	if r := get(t, off.URL()+"/debug/pprof/"); r.status != http.StatusNotFound {
		t.Fatalf("pprof without the flag: %d", r.status)
	}
	cfg := testConfig()
	cfg.Pprof = true
	on := startServer(t, cfg)
	if r := get(t, on.URL()+"/debug/pprof/"); r.status != http.StatusOK || !strings.Contains(string(r.body), "goroutine") {
		t.Fatalf("pprof index: %d", r.status)
	}
	if r := get(t, on.URL()+"/debug/pprof/goroutine?debug=1"); r.status != http.StatusOK {
		t.Fatalf("pprof goroutine: %d", r.status)
	}
}

func TestStartFailsClearlyWhenPortTaken(t *testing.T) {
	ln := listenLoopback(t)
	defer ln.Close()
	cfg := testConfig()
	cfg.Addr = ln.Addr().String()
	s, err := Start(context.Background(), cfg, testLogger(t))
	if err == nil {
		_ = s.Shutdown(context.Background())
		t.Fatal("Start on a taken port succeeded")
	}
	if !strings.Contains(err.Error(), "listen on "+cfg.Addr) {
		t.Fatalf("error %q does not name the address", err)
	}
}

func TestStartFailsOnBadStorage(t *testing.T) {
	free := listenLoopback(t)
	addr := free.Addr().String()
	free.Close()
	cfg := testConfig()
	cfg.Addr = addr
	cfg.StorageConnectionString = "not a connection string"
	if s, err := Start(context.Background(), cfg, testLogger(t)); err == nil {
		_ = s.Shutdown(context.Background())
		t.Fatal("Start with a bad connection string succeeded")
	}
	// The failed Start released its listener: the address can be bound again.
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("address still taken after a failed Start: %v", err)
	}
	ln.Close()
}

func TestConfigDefaults(t *testing.T) {
	c := Config{Queue: -1, StorageRetries: -1}.withDefaults()
	d := DefaultConfig()
	if c.Addr != d.Addr || c.Workers != 100 || c.ProfileLatency != d.ProfileLatency {
		t.Fatalf("defaults not applied: %+v", c)
	}
	if c.Queue != 0 || c.StorageRetries != 0 {
		t.Fatalf("negative queue/retries must mean none, got %d/%d", c.Queue, c.StorageRetries)
	}
	if z := (Config{}).withDefaults(); z.Queue != 3000 || z.StorageRetries != d.StorageRetries {
		t.Fatalf("zero queue/retries must mean default, got %d/%d", z.Queue, z.StorageRetries)
	}
}

func TestShutdownTwice(t *testing.T) {
	s, err := Start(context.Background(), testConfig(), testLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Shutdown(context.Background()); err != nil {
		t.Fatalf("first Shutdown: %v", err)
	}
	if err := s.Shutdown(context.Background()); err != nil {
		t.Fatalf("second Shutdown: %v", err)
	}
	if _, err := http.Get(s.URL() + "/healthz"); err == nil {
		t.Fatal("server still answers after Shutdown")
	}
}

// Shutdown waits for a request that is in flight and lets it finish.
func TestShutdownFinishesInFlightRequest(t *testing.T) {
	g, profileURL := newGate(t)
	cfg := testConfig()
	cfg.ProfileURL = profileURL
	s, err := Start(context.Background(), cfg, testLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	inflight := make(chan response, 1)
	go func() {
		r, err := fetch(context.Background(), http.MethodGet, s.URL()+"/api/async/profile", nil)
		if err != nil {
			r.status = -1
		}
		inflight <- r
	}()
	g.waitArrivals(t, 1)
	stopped := make(chan error, 1)
	go func() { stopped <- s.Shutdown(context.Background()) }()
	// Shutdown closes the listener first; once new connections are refused
	// the request above is provably in flight during the shutdown.
	for deadline := time.Now().Add(10 * time.Second); ; {
		if c, err := net.Dial("tcp", strings.TrimPrefix(s.URL(), "http://")); err != nil {
			break
		} else {
			c.Close()
		}
		if time.Now().After(deadline) {
			t.Fatal("listener still open during Shutdown")
		}
		time.Sleep(time.Millisecond)
	}
	select {
	case err := <-stopped:
		t.Fatalf("Shutdown returned (%v) while a request was in flight", err)
	default:
	}
	g.open()
	if r := <-inflight; r.status != http.StatusOK {
		t.Fatalf("in-flight request: %d %s, want 200", r.status, r.body)
	}
	if err := <-stopped; err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
}

// TestDebugAddrMovesDebugRoutes: with Config.DebugAddr, /metrics and
// /debug/* (watcher, pprof) answer only on the second listener; the public
// one answers them 404 not_found and keeps its probes and routes. Without
// it (TestHealthReadyMetrics, TestPprofOnlyWhenEnabled) they stay public.
func TestDebugAddrMovesDebugRoutes(t *testing.T) {
	cfg := testConfig()
	cfg.Pprof = true
	cfg.DebugAddr = "127.0.0.1:0"
	s := startServer(t, cfg)
	if s.DebugURL() == "" || s.DebugURL() == s.URL() {
		t.Fatalf("debug URL %q, public %q: want a listener of its own", s.DebugURL(), s.URL())
	}
	if r := get(t, s.URL()+"/api/async/profile"); r.status != http.StatusOK {
		t.Fatalf("public profile: %d %s", r.status, r.body)
	}
	for _, path := range []string{"/metrics", "/debug/syncio/blocking", "/debug/pprof/", "/debug/pprof/goroutine?debug=1"} {
		if r := get(t, s.URL()+path); r.status != http.StatusNotFound || documentedError(t, r) != codeNotFound {
			t.Errorf("public GET %s: %d %s, want 404 %s", path, r.status, r.body, codeNotFound)
		}
		if r := get(t, s.DebugURL()+path); r.status != http.StatusOK {
			t.Errorf("debug GET %s: %d %s, want 200", path, r.status, r.body)
		}
	}
	// One registry: the debug listener's /metrics counts the public routes.
	if m := string(get(t, s.DebugURL()+"/metrics").body); !strings.Contains(m, `syncio_http_request_duration_seconds_count{route="/api/async/profile",status="200"} 1`) {
		t.Errorf("debug /metrics does not count the public request:\n%s", m)
	}
	for _, path := range []string{"/healthz", "/readyz"} {
		if r := get(t, s.URL()+path); r.status != http.StatusOK {
			t.Errorf("public GET %s: %d %s", path, r.status, r.body)
		}
	}
	for _, path := range []string{"/healthz", "/api/async/profile"} {
		if r := get(t, s.DebugURL()+path); r.status != http.StatusNotFound {
			t.Errorf("debug GET %s: %d %s, want 404: the debug listener serves only /metrics and /debug/*", path, r.status, r.body)
		}
	}
}

// TestDebugAddrTakenFailsStart: a taken -debug-addr stops start-up with an
// error naming it, and leaves the public port free.
func TestDebugAddrTakenFailsStart(t *testing.T) {
	ln := listenLoopback(t)
	defer ln.Close()
	cfg := testConfig()
	cfg.DebugAddr = ln.Addr().String()
	s, err := Start(context.Background(), cfg, testLogger(t))
	if err == nil {
		_ = s.Shutdown(context.Background())
		t.Fatal("Start succeeded on a taken debug address")
	}
	if !strings.Contains(err.Error(), "listen on "+cfg.DebugAddr+" (debug)") {
		t.Errorf("error %q does not name the debug address", err)
	}
}

// TestShutdownClosesStragglersAndSucceeds: a client still sending its body
// at the shutdown's bound is closed without an answer, counted in the log,
// and Shutdown returns nil (before, it returned the context's error).
func TestShutdownClosesStragglersAndSucceeds(t *testing.T) {
	cfg := testConfig()
	cfg.BodyTimeout = time.Hour
	var logs lockedBuffer
	s, err := Start(context.Background(), cfg, slog.New(slog.NewTextHandler(&logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	conn := rawRequest(t, s, "POST /api/async/upload HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n", "x")
	for deadline := time.Now().Add(10 * time.Second); s.app.inflight.inUse() == 0; {
		if time.Now().After(deadline) {
			t.Fatal("the slow upload was never admitted")
		}
		time.Sleep(time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown with a straggler: %v, want nil", err)
	}
	if r, err := readResponse(conn); err == nil {
		t.Errorf("the straggler was answered %d %s; its body never arrived", r.status, r.body)
	}
	if log := strings.Join(logs.lines(), "\n"); !strings.Contains(log, `msg="shutdown bound reached`) || !strings.Contains(log, "connections=1") {
		t.Errorf("no count of the closed connection in the log:\n%s", log)
	}
}
