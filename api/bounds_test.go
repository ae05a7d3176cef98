package api

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/syncio/syncio/api/pool"
)

// rawRequest opens a connection to s and sends head (request line and
// headers) and body, then leaves it open.
func rawRequest(t *testing.T, s *Server, head, body string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.URL(), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	if _, err := io.WriteString(conn, head+"\r\n"+body); err != nil {
		t.Fatal(err)
	}
	return conn
}

func readResponse(conn net.Conn) (response, error) {
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return response{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return response{resp.StatusCode, resp.Header, b}, err
}

func heapInuse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// TestFaultHeaderFloodHoldsNoMemory is the header-only flood, scaled
// down: connections that declare a 32 MiB body and send none. The server
// allocates nothing from Content-Length (once it grew a 32 MiB buffer per
// request: 12 connections, 384 MiB), admits uploads only up to the
// in-flight byte bound and answers the rest 503 uploads_busy with
// Retry-After, and other routes keep answering.
func TestFaultHeaderFloodHoldsNoMemory(t *testing.T) {
	const conns, declared = 12, 32 << 20
	cfg := testConfig()
	cfg.MaxUploadBytes = declared
	cfg.MaxInflightBytes = 4 * uploadMaxBuffered // room for 4 of them
	cfg.Workers, cfg.Queue = 4, 64
	s := startServer(t, cfg)
	before := heapInuse()

	head := fmt.Sprintf("POST /api/async/upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: %d\r\n", declared)
	answers := make(chan response, conns)
	for range conns {
		conn := rawRequest(t, s, head, "")
		go func() {
			r, err := readResponse(conn)
			if err != nil {
				return // the admitted ones end when the test closes them
			}
			answers <- r
		}()
	}
	for i := 0; i < conns-4; i++ {
		select {
		case r := <-answers:
			if r.status != http.StatusServiceUnavailable || r.header.Get("Retry-After") == "" || documentedError(t, r) != codeUploadsBusy {
				t.Errorf("flood answer %d %v %s, want 503 %s with Retry-After", r.status, r.header, r.body, codeUploadsBusy)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("only %d of %d connections past the bound were answered", i, conns-4)
		}
	}
	if got := s.app.inflight.inUse(); got != cfg.MaxInflightBytes {
		t.Errorf("in-flight bytes %d, want the bound %d (4 admitted uploads of %d)", got, cfg.MaxInflightBytes, uploadMaxBuffered)
	}
	// The admitted four hold no worker while they wait for their bodies.
	waitPool(t, s, "no worker held by waiting bodies", func(st pool.Stats) bool { return st.Busy == 0 })
	if grew := int64(heapInuse()) - int64(before); grew > 16<<20 {
		t.Errorf("heap grew by %d MiB under %d header-only uploads declaring %d MiB each", grew>>20, conns, declared>>20)
	}
	for _, path := range []string{"/healthz", "/metrics", "/api/async/profile"} {
		if r := get(t, s.URL()+path); r.status != http.StatusOK {
			t.Errorf("GET %s during the flood: %d %s", path, r.status, r.body)
		}
	}
}

// TestUploadStreamsWithinTheBound: an upload larger than the streaming
// buffers is stored intact through both routes, and the async route's
// in-flight gauge never passes the buffers' size for it.
func TestUploadStreamsWithinTheBound(t *testing.T) {
	cfg := testConfig()
	cfg.MaxUploadBytes = 8 << 20
	s := startServer(t, cfg)
	const size = 5<<20 + 123 // several blocks and a partial one
	for _, kind := range []string{"sync", "async"} {
		r := do(t, context.Background(), http.MethodPost, fmt.Sprintf("%s/api/%s/upload?size=%d", s.URL(), kind, size), nil)
		if r.status != http.StatusCreated {
			t.Fatalf("%s: %d %s", kind, r.status, r.body)
		}
		var res uploadResult
		if err := json.Unmarshal(r.body, &res); err != nil || res.Size != size {
			t.Fatalf("%s: %s %v", kind, r.body, err)
		}
		data, err := readBlob(t, s, res.Name)
		if err != nil || len(data) != size || md5hex(data) != res.MD5 {
			t.Errorf("%s: stored %d bytes md5 %s, %v; want %d md5 %s", kind, len(data), md5hex(data), err, size, res.MD5)
		}
	}
	if got := metricValue(t, s, "syncio_upload_inflight_bytes"); got != 0 {
		t.Errorf("in-flight bytes after the uploads: %v, want 0", got)
	}
}

// TestFaultSlowBodyLosesItsRequest: a client that stops sending its body gets
// 408 body_timeout after Config.BodyTimeout, well before the server's read
// timeout; the async upload and both order routes wait for the body holding
// no worker, the sync upload (the demo's point, bodyHoldsWorker) holds one
// until the deadline, and then no more.
func TestFaultSlowBodyLosesItsRequest(t *testing.T) {
	cfg := testConfig()
	cfg.BodyTimeout = 300 * time.Millisecond
	cfg.ReadTimeout = time.Hour
	s := startServer(t, cfg)
	for _, path := range []string{"/api/async/upload", "/api/sync/upload", "/api/async/order", "/api/sync/order"} {
		conn := rawRequest(t, s, "POST "+path+" HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n", "{")
		if _, holds := bodyHoldsWorker["POST "+path]; !holds {
			waitPool(t, s, "the body read holding no worker", func(st pool.Stats) bool { return st.Busy == 0 && st.Queued == 0 })
		}
		r, err := readResponse(conn)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if r.status != http.StatusRequestTimeout || documentedError(t, r) != codeBodyTimeout {
			t.Errorf("%s: %d %s, want 408 %s", path, r.status, r.body, codeBodyTimeout)
		}
		waitPool(t, s, "every worker back", func(st pool.Stats) bool { return st.Busy == 0 })
	}
}

// waitMetric polls the server's /metrics until series reads want.
func waitMetric(t *testing.T, s *Server, series string, want float64) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; {
		got := metricValue(t, s, series)
		if got == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s reads %v, want %v", series, got, want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestAsyncUploadsPastTheSlotsWait: with MaxInflightUploads slots held (by
// two uploads whose bodies are slow), a third upload does not start: it
// waits, holding no worker, and never more than two run at once; when a
// slot frees it runs and is stored.
func TestAsyncUploadsPastTheSlotsWait(t *testing.T) {
	cfg := testConfig()
	cfg.MaxInflightUploads = 2
	cfg.BodyTimeout = time.Minute
	cfg.UpstreamTimeout = time.Minute
	s := startServer(t, cfg)

	slow := []net.Conn{
		rawRequest(t, s, "POST /api/async/upload HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n", "ab"),
		rawRequest(t, s, "POST /api/async/upload HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n", "ab"),
	}
	waitMetric(t, s, "syncio_upload_inflight_uploads", 2)

	third := make(chan response, 1)
	go func() {
		r, err := fetch(context.Background(), http.MethodPost, s.URL()+"/api/async/upload", strings.NewReader("0123456789"))
		if err != nil {
			t.Error(err)
		}
		third <- r
	}()
	waitMetric(t, s, "syncio_upload_waiting_uploads", 1)
	waitPool(t, s, "the waiting upload holding no worker", func(st pool.Stats) bool { return st.Busy == 0 && st.Queued == 0 })
	select {
	case r := <-third:
		t.Fatalf("the third upload was answered while both slots were held: %d %s", r.status, r.body)
	case <-time.After(200 * time.Millisecond):
	}

	_ = slow[0].Close() // its body read fails: the slot is given back
	select {
	case r := <-third:
		var res uploadResult
		if r.status != http.StatusCreated || json.Unmarshal(r.body, &res) != nil || res.Size != 10 {
			t.Fatalf("the third upload once a slot freed: %d %s", r.status, r.body)
		}
		if data, err := readBlob(t, s, res.Name); err != nil || string(data) != "0123456789" {
			t.Errorf("stored %q, %v", data, err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the third upload did not run once a slot freed")
	}
	if peak := s.app.slots.peak.Load(); peak != 2 {
		t.Errorf("at most %d uploads ran at once, want the bound 2", peak)
	}
	if got := metricValue(t, s, "syncio_upload_waiting_uploads"); got != 0 {
		t.Errorf("%v uploads still waiting", got)
	}
}

// TestAsyncUploadSlotWaitEndsIn503: an upload that finds no slot within
// the upstream timeout gets 503 uploads_busy with Retry-After, its body
// unread, and the worker pool is whole.
func TestAsyncUploadSlotWaitEndsIn503(t *testing.T) {
	cfg := testConfig()
	cfg.MaxInflightUploads = 1
	cfg.BodyTimeout = time.Minute
	cfg.UpstreamTimeout = 300 * time.Millisecond
	s := startServer(t, cfg)
	rawRequest(t, s, "POST /api/async/upload HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n", "ab")
	waitMetric(t, s, "syncio_upload_inflight_uploads", 1)

	r := do(t, context.Background(), http.MethodPost, s.URL()+"/api/async/upload", strings.NewReader("0123456789"))
	if r.status != http.StatusServiceUnavailable || r.header.Get("Retry-After") == "" || documentedError(t, r) != codeUploadsBusy {
		t.Errorf("upload with no slot free: %d %v %s, want 503 %s with Retry-After", r.status, r.header, r.body, codeUploadsBusy)
	}
	if got := metricValue(t, s, "syncio_upload_slot_timeouts_total"); got != 1 {
		t.Errorf("syncio_upload_slot_timeouts_total %v, want 1", got)
	}
	waitPool(t, s, "every worker back", func(st pool.Stats) bool { return st.Busy == 0 })
	if got := s.app.slots.peak.Load(); got != 1 {
		t.Errorf("at most %d uploads ran at once, want 1", got)
	}
}

// vmSize is this process's virtual memory size (VmSize in
// /proc/self/status), in bytes.
func vmSize(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skipf("no /proc/self/status: %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmSize:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Skip("no VmSize in /proc/self/status")
	return 0
}

// TestSmallUploadsMapNoBuffers: uploads that declare at most
// smallUploadMax bytes are stored from a heap buffer of their size, not
// through UploadStream, which maps (mmap) a 1 MiB buffer per upload and
// unmaps it under one process-wide lock. 600 small uploads held in flight
// by a slow store would map 600 MiB that way; the process's address space
// must grow by well under half of that (heap arenas and thread stacks
// may still grow it).
func TestSmallUploadsMapNoBuffers(t *testing.T) {
	const uploads, size = 600, 4 << 10
	cfg := testConfig()
	// No upload may finish before all 600 are in flight, however slowly a
	// race-built run on a busy CI machine gets them there: storage slower
	// than waitMetric waits (at 3 s, 527 were in flight when the first ones
	// finished), and a queue that admits every one of them (with the test
	// default of 16, a burst of arrivals is answered 503 and never counts).
	// Each storage try may take that long, the container's creation at
	// start included.
	cfg.StorageLatency = 15 * time.Second
	cfg.StorageTryTimeout = time.Minute
	cfg.UpstreamTimeout = time.Minute
	cfg.Queue = uploads
	s := startServer(t, cfg)
	body := strings.Repeat("x", size)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: uploads}}
	t.Cleanup(client.CloseIdleConnections)
	before := vmSize(t)

	done := make(chan int, uploads)
	for range uploads {
		go func() {
			resp, err := client.Post(s.URL()+"/api/async/upload", "application/octet-stream", strings.NewReader(body))
			if err != nil {
				done <- 0
				return
			}
			_ = resp.Body.Close()
			done <- resp.StatusCode
		}()
	}
	waitMetric(t, s, "syncio_upload_inflight_uploads", uploads)
	grew := vmSize(t) - before
	switch {
	case raceEnabled:
		// The race runtime maps shadow memory for every goroutine and
		// allocation (925 MiB here with the fix in place), which hides the
		// 1 MiB maps this looks for: make test-unit runs it again without
		// -race.
		t.Logf("under -race the address space grew by %d MiB; not judged", grew>>20)
	case grew > uploads<<20/2:
		t.Errorf("%d uploads of %d bytes in flight grew the address space by %d MiB; want under %d MiB (UploadStream maps 1 MiB each)",
			uploads, size, grew>>20, uploads/2)
	}
	for range uploads {
		if code := <-done; code != http.StatusCreated {
			t.Fatalf("an upload answered %d", code)
		}
	}
}
