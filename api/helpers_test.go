package api

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/syncio/syncio/api/pool"
	"github.com/syncio/syncio/fakes/blobserver"
	"github.com/syncio/syncio/fakes/profile"
)

// testLogger discards logs unless -v, where they help explain failures.
func testLogger(t *testing.T) *slog.Logger {
	if testing.Verbose() {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.DiscardHandler)
}

// testConfig is a fast configuration: a few ms of profile latency, small
// pool, loopback on a free port, embedded storage.
func testConfig() Config {
	c := DefaultConfig()
	c.Addr = "127.0.0.1:0"
	c.Workers = 4
	c.Queue = 16
	c.ProfileLatency = 5 * time.Millisecond
	c.UpstreamTimeout = 5 * time.Second
	c.StorageTryTimeout = 5 * time.Second
	c.MaxUploadBytes = 1 << 20
	c.StorageLatency, c.StorageBandwidth = -1, -1 // an instant store: these tests check behaviour, not speed
	return c
}

// startServer starts a Server and shuts it down when the test ends.
func startServer(t *testing.T, cfg Config) *Server {
	t.Helper()
	s, err := Start(context.Background(), cfg, testLogger(t))
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := s.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
	})
	return s
}

// storageBackend is a storage the upload tests run against.
type storageBackend struct {
	name       string
	connString string
}

// storageBackends returns the fake blob server (always) and Azurite when
// SYNCIO_AZURITE_CONNECTION_STRING is set. Without it the Azurite variant is
// skipped with a message, except under CI=true, where that is a failure: CI
// must never silently lose its real-storage coverage.
func storageBackends(t *testing.T) []storageBackend {
	t.Helper()
	fake := blobserver.New()
	if err := fake.Start("127.0.0.1:0"); err != nil {
		t.Fatalf("start fake blob server: %v", err)
	}
	t.Cleanup(func() { _ = fake.Close() })
	backends := []storageBackend{{"fake", fake.ConnectionString()}}
	if cs := os.Getenv("SYNCIO_AZURITE_CONNECTION_STRING"); cs != "" {
		backends = append(backends, storageBackend{"azurite", cs})
	} else if ci, _ := strconv.ParseBool(os.Getenv("CI")); ci {
		t.Errorf("SYNCIO_AZURITE_CONNECTION_STRING is not set under CI=true; run the tests via `make test`")
	} else {
		t.Logf("SYNCIO_AZURITE_CONNECTION_STRING not set: skipping the Azurite variant (make test sets it)")
	}
	return backends
}

// gate is a remote profile service whose calls block until released, so
// tests can observe the pool while a call is provably in flight.
type gate struct {
	arrived chan struct{} // one value per call that reached the service
	release chan struct{} // closed to let every call answer
	once    sync.Once
	calls   int
	mu      sync.Mutex
}

func newGate(t *testing.T) (*gate, string) {
	g := &gate{arrived: make(chan struct{}, 100), release: make(chan struct{})}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		g.mu.Lock()
		g.calls++
		g.mu.Unlock()
		g.arrived <- struct{}{}
		select {
		case <-g.release:
		case <-r.Context().Done():
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(profile.Profile{FirstName: "Alton", LastName: "Hudgens"})
	})}
	ln := listenLoopback(t)
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() {
		g.open()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	})
	return g, "http://" + ln.Addr().String()
}

func (g *gate) open() { g.once.Do(func() { close(g.release) }) }

func (g *gate) count() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.calls
}

func (g *gate) waitArrivals(t *testing.T, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		select {
		case <-g.arrived:
		case <-time.After(10 * time.Second):
			t.Fatalf("only %d of %d calls reached the profile service", i, n)
		}
	}
}

// waitPool polls the server's pool until cond holds.
func waitPool(t *testing.T, s *Server, what string, cond func(pool.Stats) bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond(s.app.pool.Stats()) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s; pool %+v", what, s.app.pool.Stats())
		}
		time.Sleep(200 * time.Microsecond)
	}
}

type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) errorBody(t *testing.T) errorBody {
	t.Helper()
	var eb errorBody
	if err := json.Unmarshal(r.body, &eb); err != nil {
		t.Fatalf("error body is not JSON: %v: %q", err, r.body)
	}
	if eb.Error == "" || eb.Code == "" {
		t.Fatalf("error body %q lacks error or code", r.body)
	}
	return eb
}

func do(t *testing.T, ctx context.Context, method, url string, body io.Reader) response {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: read body: %v", method, url, err)
	}
	return response{resp.StatusCode, resp.Header, b}
}

func get(t *testing.T, url string) response {
	t.Helper()
	return do(t, context.Background(), http.MethodGet, url, nil)
}

func listenLoopback(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ln
}

// fetch is do for goroutines other than the test's: it returns errors.
func fetch(ctx context.Context, method, url string, body io.Reader) (response, error) {
	req, err := http.NewRequestWithContext(ctx, method, url, body)
	if err != nil {
		return response{}, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return response{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return response{resp.StatusCode, resp.Header, b}, err
}
