package api

// The fault suite: the API with a backend killed, hung or full, with slow
// or header-only clients, and stopped under load. Every test here is named
// TestFault…, so `make faults` (go test -run TestFault) runs the suite;
// each asserts that nothing acknowledged is lost, that memory stays within
// its bound where load could grow it, and that every error answered is a
// JSON error whose code docs/api.md documents.

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/syncio/syncio/api/activity/order"
	"github.com/syncio/syncio/api/activity/temporal/temporaltest"
	"github.com/syncio/syncio/api/pool"
	"github.com/syncio/syncio/fakes/blobserver"
)

// docCodes are the error codes docs/api.md documents, read from its table
// of codes (rows "| `code` | status | …").
var docCodes = sync.OnceValues(func() (map[string]bool, error) {
	b, err := os.ReadFile("../docs/api.md")
	if err != nil {
		return nil, err
	}
	codes := make(map[string]bool)
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z_]+)` \\| [0-9]{3}").FindAllSubmatch(b, -1) {
		codes[string(m[1])] = true
	}
	return codes, nil
})

// documentedError fails unless r is a JSON error body whose code docs/api.md
// documents, and returns its code.
func documentedError(t *testing.T, r response) string {
	t.Helper()
	code, err := checkDocumented(r)
	if err != nil {
		t.Error(err)
	}
	return code
}

// checkDocumented is documentedError for goroutines other than the test's.
func checkDocumented(r response) (string, error) {
	codes, err := docCodes()
	if err != nil {
		return "", err
	}
	var eb errorBody
	if err := json.Unmarshal(r.body, &eb); err != nil || eb.Error == "" || eb.Code == "" {
		return "", fmt.Errorf("%d %q: not a JSON error with error and code (%v)", r.status, r.body, err)
	}
	if !codes[eb.Code] {
		return eb.Code, fmt.Errorf("%d %s: code %q is not in docs/api.md's table", r.status, r.body, eb.Code)
	}
	return eb.Code, nil
}

// TestEveryErrorCodeDocumented: every code the API can answer with is in
// docs/api.md's table, so documentedError checks against the whole set.
func TestEveryErrorCodeDocumented(t *testing.T) {
	codes, err := docCodes()
	if err != nil {
		t.Fatal(err)
	}
	files, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	decl := regexp.MustCompile(`(?m)^\s*code[A-Z]\w*\s*=\s*"([a-z_]+)"`)
	seen := 0
	for _, f := range files {
		if !strings.HasSuffix(f.Name(), ".go") || strings.HasSuffix(f.Name(), "_test.go") {
			continue
		}
		b, err := os.ReadFile(f.Name())
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range decl.FindAllSubmatch(b, -1) {
			seen++
			if !codes[string(m[1])] {
				t.Errorf("%s declares code %q, missing from docs/api.md", f.Name(), m[1])
			}
		}
	}
	if seen < 20 {
		t.Fatalf("found %d code declarations, want the API's 20 or more", seen)
	}
}

// TestFaultTemporalKilled: with -temporal, /readyz answers 200 while the
// frontend answers and 503 temporal_unavailable (naming no address) once
// it is killed; orders then get 503 temporal_unavailable, the receipt of
// an order confirmed before stays readable, and when a frontend answers on
// the same address again /readyz and orders recover.
func TestFaultTemporalKilled(t *testing.T) {
	ts := temporaltest.Start(t)
	cfg := testConfig()
	cfg.Temporal, cfg.TemporalWait = ts.HostPort, 30*time.Second
	cfg.UpstreamTimeout = 20 * time.Second
	s := startServer(t, cfg)
	_, port, _ := net.SplitHostPort(ts.HostPort)

	if r := get(t, s.URL()+"/readyz"); r.status != http.StatusOK {
		t.Fatalf("readyz with Temporal up: %d %s", r.status, r.body)
	}
	before, err := postOrder(context.Background(), s, "async", orderBody("tk-before"))
	if err != nil || before.status != http.StatusCreated {
		t.Fatalf("order with Temporal up: %d %s %v", before.status, before.body, err)
	}

	if err := ts.Stop(); err != nil {
		t.Fatalf("killing the dev server: %v", err)
	}
	r := get(t, s.URL()+"/readyz")
	if r.status != http.StatusServiceUnavailable || documentedError(t, r) != codeTemporalDown {
		t.Errorf("readyz with Temporal down: %d %s, want 503 %s", r.status, r.body, codeTemporalDown)
	}
	if strings.Contains(string(r.body), ts.HostPort) || strings.Contains(string(r.body), port) {
		t.Errorf("readyz body names Temporal's address: %s", r.body)
	}
	r, err = postOrder(context.Background(), s, "async", orderBody("tk-down"))
	if err != nil || r.status != http.StatusServiceUnavailable || documentedError(t, r) != codeTemporalDown {
		t.Errorf("order with Temporal down: %d %s %v, want 503 %s", r.status, r.body, err, codeTemporalDown)
	}
	checkReceipt(t, s, before.body) // confirmed before the kill: still stored

	ts.Restart(t)
	deadline := time.Now().Add(90 * time.Second)
	for {
		r := get(t, s.URL()+"/readyz")
		if r.status == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("readyz after Temporal came back: %d %s", r.status, r.body)
		}
		time.Sleep(200 * time.Millisecond)
	}
	// The worker's pollers come back on their own backoff, so the order may
	// outlast TemporalWait: then it is followed on its status URL.
	after, err := postOrder(context.Background(), s, "async", orderBody("tk-after"))
	if err != nil || (after.status != http.StatusCreated && after.status != http.StatusAccepted) {
		t.Fatalf("order after Temporal came back: %d %s %v, want 201 or 202", after.status, after.body, err)
	}
	for deadline := time.Now().Add(2 * time.Minute); after.status == http.StatusAccepted; {
		var st struct {
			Status       string
			Confirmation json.RawMessage
		}
		r := get(t, s.URL()+"/api/orders/order-tk-after")
		if err := json.Unmarshal(r.body, &st); err != nil || r.status != http.StatusOK {
			t.Fatalf("order status: %d %s %v", r.status, r.body, err)
		}
		switch {
		case st.Status == "completed":
			after = response{status: http.StatusCreated, body: st.Confirmation}
		case st.Status != "running" || time.Now().After(deadline):
			t.Fatalf("order after Temporal came back: %s", r.body)
		default:
			time.Sleep(200 * time.Millisecond)
		}
	}
	checkReceipt(t, s, after.body)
	checkReceipt(t, s, before.body)
}

// TestFaultStorageKeptAcrossRestart: with Config.StoragePath the embedded
// store outlives the server: uploads (one Put Blob, one streamed in blocks)
// and an order's receipt are read back with their bytes by a server started
// later on the same directory. Without it, the directory is temporary and
// the second server finds nothing (checked too, so the test shows the
// option is what keeps them).
func TestFaultStorageKeptAcrossRestart(t *testing.T) {
	type kept struct{ name, md5 string }
	write := func(t *testing.T, cfg Config) (*Server, []kept) {
		s, err := Start(context.Background(), cfg, testLogger(t))
		if err != nil {
			t.Fatal(err)
		}
		var out []kept
		for _, path := range []string{"/api/sync/upload?size=1000", "/api/async/upload?size=" + strconv.Itoa(3<<20+17)} {
			u := decodeUpload(t, do(t, context.Background(), http.MethodPost, s.URL()+path, nil))
			out = append(out, kept{u.Name, u.MD5})
		}
		r, err := postOrder(context.Background(), s, "async", orderBody("kept-1"))
		if err != nil || r.status != http.StatusCreated {
			t.Fatalf("order: %d %s %v", r.status, r.body, err)
		}
		var conf order.Confirmation
		if err := json.Unmarshal(r.body, &conf); err != nil {
			t.Fatal(err)
		}
		return s, append(out, kept{conf.Receipt.Name, conf.Receipt.MD5})
	}
	stop := func(t *testing.T, s *Server) {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		if err := s.Shutdown(ctx); err != nil {
			t.Fatalf("Shutdown: %v", err)
		}
	}

	cfg := testConfig()
	cfg.MaxUploadBytes = 4 << 20
	cfg.StoragePath = filepath.Join(t.TempDir(), "blobs")
	s, blobs := write(t, cfg)
	stop(t, s)
	again := startServer(t, cfg)
	for _, b := range blobs {
		r := get(t, again.URL()+"/api/blobs/"+b.name)
		if r.status != http.StatusOK || md5hex(r.body) != b.md5 {
			t.Errorf("%s after a restart on the kept directory: %d, md5 %s, want 200 md5 %s", b.name, r.status, md5hex(r.body), b.md5)
		}
	}

	cfg.StoragePath, cfg.StorageDir = "", t.TempDir()
	s, blobs = write(t, cfg)
	stop(t, s)
	temp := startServer(t, cfg)
	if r := get(t, temp.URL()+"/api/blobs/"+blobs[0].name); r.status != http.StatusNotFound {
		t.Errorf("without StoragePath, a blob of the last run: %d, want 404 (the temporary store went with it)", r.status)
	}
}

// TestFaultStorageKilledAndRestarted: storage (the fake, keeping its
// directory) stops under a running API and starts again on the same address
// and directory. While it is down, uploads answer 502 storage_error and
// /readyz 503 storage_unavailable; once it is back, /readyz recovers on its
// own and every upload acknowledged before is read back with its MD5.
func TestFaultStorageKilledAndRestarted(t *testing.T) {
	dir := t.TempDir()
	ln := listenLoopback(t)
	addr := ln.Addr().String()
	_ = ln.Close()
	startStore := func() *blobserver.Server {
		st := blobserver.New(blobserver.WithPath(dir))
		if err := st.Start(addr); err != nil {
			t.Fatalf("storage on %s: %v", addr, err)
		}
		return st
	}
	store := startStore()
	cfg := testConfig()
	cfg.StorageConnectionString = store.ConnectionString()
	cfg.StorageRetries = 1
	s := startServer(t, cfg)

	var acked []uploadResult
	for i, kind := range []string{"sync", "async", "sync", "async"} {
		acked = append(acked, decodeUpload(t, do(t, context.Background(), http.MethodPost,
			s.URL()+"/api/"+kind+"/upload?size="+strconv.Itoa(1000+i*300000), nil)))
	}
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"sync", "async"} {
		r := do(t, context.Background(), http.MethodPost, s.URL()+"/api/"+kind+"/upload?size=10", nil)
		if r.status != http.StatusBadGateway || documentedError(t, r) != codeStorageError {
			t.Errorf("%s upload with storage down: %d %s, want 502 %s", kind, r.status, r.body, codeStorageError)
		}
	}
	if r := get(t, s.URL()+"/readyz"); r.status != http.StatusServiceUnavailable || documentedError(t, r) != codeStorageDown {
		t.Errorf("readyz with storage down: %d %s", r.status, r.body)
	}

	store = startStore()
	t.Cleanup(func() { _ = store.Close() })
	for deadline := time.Now().Add(30 * time.Second); ; {
		if r := get(t, s.URL()+"/readyz"); r.status == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("readyz did not recover once storage was back")
		}
		time.Sleep(50 * time.Millisecond)
	}
	for _, a := range acked {
		r := get(t, s.URL()+"/api/blobs/"+a.Name)
		if r.status != http.StatusOK || len(r.body) != a.Size || md5hex(r.body) != a.MD5 {
			t.Errorf("acknowledged %s after storage restarted: %d, %d bytes md5 %s, want %d bytes md5 %s",
				a.Name, r.status, len(r.body), md5hex(r.body), a.Size, a.MD5)
		}
	}
	decodeUpload(t, do(t, context.Background(), http.MethodPost, s.URL()+"/api/async/upload?size=10", nil))
}

// TestFaultSlowClientsKeepRoutesAnswering is the slow-body probe on
// the async route: clients that send headers and a little of a body, then
// nothing. They hold no worker while their bodies are awaited, so every
// other route keeps answering; the heap does not grow with what they
// declared; each loses its own request at the body deadline, 408
// body_timeout, and their in-flight bytes are given back.
func TestFaultSlowClientsKeepRoutesAnswering(t *testing.T) {
	const slow, declared = 20, 100000
	cfg := testConfig()
	cfg.Workers, cfg.Queue = 4, 16
	cfg.BodyTimeout = 3 * time.Second
	cfg.ReadTimeout = time.Hour
	s := startServer(t, cfg)
	before := heapInuse()

	conns := make([]net.Conn, slow)
	for i := range conns {
		conns[i] = rawRequest(t, s, "POST /api/async/upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: "+strconv.Itoa(declared)+"\r\n", "ab")
	}
	for deadline := time.Now().Add(10 * time.Second); s.app.inflight.inUse() < slow*declared; {
		if time.Now().After(deadline) {
			t.Fatalf("%d bytes in flight, want the %d slow uploads admitted", s.app.inflight.inUse(), slow)
		}
		time.Sleep(time.Millisecond)
	}
	waitPool(t, s, "no worker held by the slow bodies", func(st pool.Stats) bool { return st.Busy == 0 && st.Queued == 0 })
	for _, path := range []string{"/api/async/profile", "/api/sync/profile", "/api/wrapped/profile", "/healthz", "/readyz"} {
		if r := get(t, s.URL()+path); r.status != http.StatusOK {
			t.Errorf("GET %s with %d slow clients connected: %d %s", path, slow, r.status, r.body)
		}
	}
	if r := do(t, context.Background(), http.MethodPost, s.URL()+"/api/async/upload?size=1000", nil); r.status != http.StatusCreated {
		t.Errorf("an upload with %d slow clients connected: %d %s", slow, r.status, r.body)
	}
	if grew := int64(heapInuse()) - int64(before); grew > 16<<20 {
		t.Errorf("heap grew by %d MiB with %d slow uploads", grew>>20, slow)
	}
	for i, c := range conns {
		r, err := readResponse(c)
		if err != nil {
			t.Fatalf("slow client %d: %v", i, err)
		}
		if r.status != http.StatusRequestTimeout || documentedError(t, r) != codeBodyTimeout {
			t.Errorf("slow client %d: %d %s, want 408 %s", i, r.status, r.body, codeBodyTimeout)
		}
	}
	for deadline := time.Now().Add(10 * time.Second); s.app.inflight.inUse() != 0; {
		if time.Now().After(deadline) {
			t.Fatalf("%d bytes still in flight after every slow client lost its request", s.app.inflight.inUse())
		}
		time.Sleep(time.Millisecond)
	}
}
