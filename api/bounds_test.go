package api

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
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
// timeout; the async route waits for the body holding no worker, the sync
// route (the demo's point) holds one until the deadline, and then no more.
func TestFaultSlowBodyLosesItsRequest(t *testing.T) {
	cfg := testConfig()
	cfg.BodyTimeout = 300 * time.Millisecond
	cfg.ReadTimeout = time.Hour
	s := startServer(t, cfg)
	for _, path := range []string{"/api/async/upload", "/api/sync/upload", "/api/async/order"} {
		conn := rawRequest(t, s, "POST "+path+" HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n", "{")
		if strings.Contains(path, "async") {
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
