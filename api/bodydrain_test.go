package api

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/syncio/syncio/api/pool"
)

// sendThenRead is a client that writes its whole request, body included,
// before it reads the answer, as curl and many HTTP libraries do. Its small
// send buffer keeps the bytes in flight well under the body's size, so
// the outcome does not depend on how much the kernel's buffers absorb.
func sendThenRead(addr, head string, body []byte) (response, error) {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return response{}, err
	}
	defer conn.Close()
	_ = conn.(*net.TCPConn).SetWriteBuffer(64 << 10)
	// A bound against a hang, not a timing assertion.
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
	if _, err := io.WriteString(conn, head+"\r\n"); err != nil {
		return response{}, fmt.Errorf("writing the head: %w", err)
	}
	if _, err := conn.Write(body); err != nil {
		return response{}, fmt.Errorf("writing the body: %w", err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return response{}, fmt.Errorf("reading the answer: %w", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return response{resp.StatusCode, resp.Header, b}, err
}

// TestRejectedUploadsSeeTheir503: large uploads refused before their body
// is read (the admission queue full; the async route's in-flight bytes
// spent) get their 503 with Retry-After, not a broken pipe. net/http reads
// at most 256 KiB of a body its handler left unread; past that it stops
// reading, waits half a second and closes, and a client still sending
// then gets a reset instead of the answer. Before the fix every one of
// these uploads failed so.
func TestRejectedUploadsSeeTheir503(t *testing.T) {
	const clients, size = 8, 16 << 20
	body := make([]byte, size)
	for _, tc := range []struct {
		name, route, code string
		setup             func(*Config)
		hold              func(*testing.T, *Server)
	}{
		{
			name: "queue full", route: "/api/async/upload", code: codeQueueFull,
			// 8 s: long enough for every client to be refused, short
			// enough for the server's shutdown (10 s) to wait it out.
			setup: func(cfg *Config) { cfg.Workers, cfg.Queue, cfg.ProfileLatency = 1, -1, 8*time.Second },
			hold: func(t *testing.T, s *Server) {
				// A sync profile call holds its worker for the profile's latency.
				go func() { _, _ = fetch(t.Context(), http.MethodGet, s.URL()+"/api/sync/profile", nil) }()
				waitPool(t, s, "the one worker held", func(st pool.Stats) bool { return st.Busy == 1 })
			},
		},
		{
			name: "upload bytes spent", route: "/api/async/upload", code: codeUploadsBusy,
			setup: func(cfg *Config) { cfg.MaxInflightBytes = uploadMaxBuffered },
			hold: func(t *testing.T, s *Server) {
				rawRequest(t, s, fmt.Sprintf("POST /api/async/upload HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n", size), "ab")
				waitMetric(t, s, "syncio_upload_inflight_bytes", uploadMaxBuffered)
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig()
			cfg.MaxUploadBytes = 32 << 20
			cfg.BodyTimeout = time.Minute
			tc.setup(&cfg)
			s := startServer(t, cfg)
			tc.hold(t, s)
			addr := strings.TrimPrefix(s.URL(), "http://")
			head := fmt.Sprintf("POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: %d\r\n", tc.route, size)

			var (
				wg     sync.WaitGroup
				mu     sync.Mutex
				failed []string
			)
			for range clients {
				wg.Add(1)
				go func() {
					defer wg.Done()
					r, err := sendThenRead(addr, head, body)
					if err == nil {
						var code string
						if code, err = checkDocumented(r); err == nil && (r.status != http.StatusServiceUnavailable || code != tc.code || r.header.Get("Retry-After") == "") {
							err = fmt.Errorf("answered %d %s, want 503 %s with Retry-After", r.status, r.body, tc.code)
						}
					}
					if err != nil {
						mu.Lock()
						failed = append(failed, err.Error())
						mu.Unlock()
					}
				}()
			}
			wg.Wait()
			if len(failed) > 0 {
				t.Errorf("%d of %d refused uploads did not get their 503: %q", len(failed), clients, failed)
			}
		})
	}
}

// TestRefusalOfAStalledBodyIsAnswered: a request refused before its body
// was read, whose client then stops sending, gets its answer within the
// drain's bound and its connection is closed. Before, net/http read the
// rest of the body before writing the answer, bounded only by ReadTimeout
// (2 min by default; an hour here), holding the connection all along.
func TestRefusalOfAStalledBodyIsAnswered(t *testing.T) {
	cfg := testConfig()
	cfg.ReadTimeout = time.Hour
	s := startServer(t, cfg)
	conn := rawRequest(t, s, "POST /api/async/upload?client=bogus HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n", "ab")
	_ = conn.SetReadDeadline(time.Now().Add(4 * drainTime)) // a bound against a hang
	r, err := readResponse(conn)
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	if r.status != http.StatusBadRequest || documentedError(t, r) != codeInvalidClient {
		t.Errorf("%d %s, want 400 %s", r.status, r.body, codeInvalidClient)
	}
	if _, err := conn.Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
		t.Errorf("after the answer: %v, want the connection closed", err)
	}
}
