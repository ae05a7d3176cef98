package api

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// keepAlive opens a connection to s, gets /healthz on it and leaves it
// open and idle: a keep-alive client between requests.
func keepAlive(t *testing.T, s *Server) net.Conn {
	t.Helper()
	conn := rawRequest(t, s, "GET /healthz HTTP/1.1\r\nHost: x\r\n", "")
	r, err := readResponse(conn)
	if err != nil || r.status != http.StatusOK {
		t.Fatalf("a keep-alive's first request: %d %s %v", r.status, r.body, err)
	}
	return conn
}

// oneRequest sends head on a new connection and reads the answer, and
// reports whether the server closed the connection after it.
func oneRequest(t *testing.T, s *Server, head, body string) (response, bool) {
	t.Helper()
	conn := rawRequest(t, s, head, body)
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second)) // a bound against a hang
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("%q: %v", strings.SplitN(head, "\r\n", 2)[0], err)
	}
	b, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	_, err = br.ReadByte()
	return response{resp.StatusCode, resp.Header, b}, errors.Is(err, io.EOF)
}

// waitClosed waits until the server has closed conn.
func waitClosed(t *testing.T, conn net.Conn) {
	t.Helper()
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second)) // a bound against a hang
	if _, err := conn.Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
		t.Fatalf("want the server to close the connection, got %v", err)
	}
}

// TestConnBudget: with Config.MaxConns idle keep-alives open (the issue's
// 1,250 idle connections, scaled down), a new connection is still
// answered: /healthz and /readyz with 200, anything else with 503
// too_many_connections, Retry-After and a closed connection, an upload's
// body included; the process never holds more than MaxConns plus the
// reserved connections; and when the idle ones go, the budget is back.
// Before, the API had no cap: the new connection was served as any other.
func TestConnBudget(t *testing.T) {
	const max, reserved = 6, 2
	cfg := testConfig()
	cfg.MaxConns, cfg.ReservedConns = max, reserved
	s := startServer(t, cfg)

	idle := make([]net.Conn, max)
	for i := range idle {
		idle[i] = keepAlive(t, s)
	}
	for _, path := range []string{"/healthz", "/readyz"} {
		r, closed := oneRequest(t, s, "GET "+path+" HTTP/1.1\r\nHost: x\r\n", "")
		if r.status != http.StatusOK || !closed {
			t.Errorf("GET %s with the budget spent: %d %s, closed %v; want 200 and the connection closed", path, r.status, r.body, closed)
		}
	}
	for _, req := range []struct{ head, body string }{
		{"GET /api/async/profile HTTP/1.1\r\nHost: x\r\n", ""},
		{"GET /metrics HTTP/1.1\r\nHost: x\r\n", ""},
		{"POST /healthz HTTP/1.1\r\nHost: x\r\n", ""},
		{"GET /no/such/route HTTP/1.1\r\nHost: x\r\n", ""},
		// Past 256 KiB: net/http alone would reset the connection under
		// a client still sending it.
		{"POST /api/async/upload HTTP/1.1\r\nHost: x\r\nContent-Length: 1048576\r\n", strings.Repeat("x", 1<<20)},
	} {
		r, closed := oneRequest(t, s, req.head, req.body)
		if r.status != http.StatusServiceUnavailable || r.header.Get("Retry-After") == "" || !closed || documentedError(t, r) != codeTooManyConns {
			t.Errorf("%q with the budget spent: %d %v %s, closed %v; want 503 %s with Retry-After, then closed",
				strings.SplitN(req.head, "\r\n", 2)[0], r.status, r.header, r.body, closed, codeTooManyConns)
		}
	}
	if got := metricValueOn(t, idle[0], "syncio_http_connections_rejected_total"); got != 5 {
		t.Errorf("syncio_http_connections_rejected_total %v, want 5", got)
	}

	// Connections that send nothing past the budget hold a reserved slot
	// for at most its head deadline, and the listener holds the rest
	// back: a probe behind them waits and is answered.
	silent := make([]net.Conn, reserved+3)
	for i := range silent {
		conn, err := net.Dial("tcp", strings.TrimPrefix(s.URL(), "http://"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = conn.Close() })
		silent[i] = conn
	}
	probe := rawRequest(t, s, "GET /healthz HTTP/1.1\r\nHost: x\r\n", "")
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if slots, res := s.app.conns.held(); slots > max || res > reserved {
			t.Fatalf("the server holds %d connections within the budget and %d reserved, want at most %d and %d", slots, res, max, reserved)
		}
		if got := s.open.Load(); got > max+reserved {
			t.Fatalf("the server holds %d connections, want at most %d", got, max+reserved)
		}
		if waits := metricValueOn(t, idle[1], "syncio_http_connections_accept_waits_total"); waits > 0 {
			break
		}
	}
	_ = probe.SetReadDeadline(time.Now().Add(20 * time.Second)) // a bound against a hang
	if r, err := readResponse(probe); err != nil || r.status != http.StatusOK {
		t.Errorf("a probe behind %d silent connections: %d %s %v, want 200", len(silent), r.status, r.body, err)
	}
	for _, c := range silent {
		waitClosed(t, c)
	}

	// The idle keep-alives go (their clients leave): the budget is back.
	for _, c := range idle {
		_ = c.Close()
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		if slots, _ := s.app.conns.held(); slots == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the closed keep-alives' slots did not come back")
		}
	}
	if r := get(t, s.URL()+"/api/async/profile"); r.status != http.StatusOK {
		t.Errorf("with the keep-alives gone: %d %s, want 200", r.status, r.body)
	}
}

// TestConnBudgetIdleTimeout: idle keep-alives that never leave are closed
// by the server after Config.IdleTimeout, and their slots taken by new
// clients.
func TestConnBudgetIdleTimeout(t *testing.T) {
	cfg := testConfig()
	cfg.MaxConns, cfg.ReservedConns = 2, 1
	cfg.IdleTimeout = 300 * time.Millisecond
	s := startServer(t, cfg)
	a, b := keepAlive(t, s), keepAlive(t, s)
	if r, _ := oneRequest(t, s, "GET /api/async/profile HTTP/1.1\r\nHost: x\r\n", ""); r.status != http.StatusServiceUnavailable {
		t.Fatalf("with two idle keep-alives: %d %s, want 503", r.status, r.body)
	}
	waitClosed(t, a)
	waitClosed(t, b)
	if r := get(t, s.URL()+"/api/async/profile"); r.status != http.StatusOK {
		t.Errorf("once the idle ones timed out: %d %s, want 200", r.status, r.body)
	}
}

// metricValueOn reads one series of /metrics over conn, a keep-alive
// within the budget (a new connection may find it spent).
func metricValueOn(t *testing.T, conn net.Conn, series string) float64 {
	t.Helper()
	if _, err := io.WriteString(conn, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	r, err := readResponse(conn)
	if err != nil || r.status != http.StatusOK {
		t.Fatalf("/metrics: %d %v", r.status, err)
	}
	return seriesValue(string(r.body), series)
}

// seriesValue is the value of series in a /metrics text, or -1 if absent.
func seriesValue(text, series string) float64 {
	for _, line := range strings.Split(text, "\n") {
		if rest, ok := strings.CutPrefix(line, series+" "); ok {
			var v float64
			if _, err := fmt.Sscan(rest, &v); err == nil {
				return v
			}
		}
	}
	return -1
}
