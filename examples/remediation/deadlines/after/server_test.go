package after

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"
)

// serve starts h on a test server built by NewServer with t.
func serve(tb testing.TB, t Timeouts) *httptest.Server {
	tb.Helper()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	ts := httptest.NewUnstartedServer(h)
	ts.Config = NewServer("", h, t)
	ts.Start()
	tb.Cleanup(ts.Close)
	return ts
}

// closedByServer reads from conn until the server closes it, or gives up
// after wait. The wait is no measure of the server: one that closes passes
// whenever it closes within it, and one with no timeout never closes at all.
func closedByServer(t *testing.T, conn net.Conn, r io.Reader, wait time.Duration) bool {
	t.Helper()
	if err := conn.SetReadDeadline(time.Now().Add(wait)); err != nil {
		t.Fatal(err)
	}
	_, err := io.Copy(io.Discard, r)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return false
	}
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	return true // EOF: the server closed the connection
}

// TestSlowHeadersAreCut: a client that opens a connection and never
// finishes its headers (a slow-loris) is cut off by ReadHeaderTimeout, so
// it holds no goroutine or connection past it.
func TestSlowHeadersAreCut(t *testing.T) {
	ts := serve(t, Timeouts{Header: 20 * time.Millisecond, Idle: time.Minute})
	conn, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "GET / HTTP/1.1\r\nHost: x\r\n"); err != nil { // no blank line: headers never end
		t.Fatal(err)
	}
	if !closedByServer(t, conn, conn, 30*time.Second) {
		t.Fatal("the server kept a connection whose headers never ended")
	}
}

// TestZeroTimeoutsKeepSlowHeaders is the before: with no timeouts (what
// http.ListenAndServe and a bare http.Server have), the same client still
// holds its connection when the test stops waiting.
func TestZeroTimeoutsKeepSlowHeaders(t *testing.T) {
	ts := serve(t, Timeouts{})
	conn, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "GET / HTTP/1.1\r\nHost: x\r\n"); err != nil {
		t.Fatal(err)
	}
	if closedByServer(t, conn, conn, 200*time.Millisecond) {
		t.Fatal("a server with no timeouts closed the connection: the slow client was not held")
	}
}

// TestIdleConnectionsAreClosed: after a request is served, a keep-alive
// connection that sends nothing more is closed by IdleTimeout.
func TestIdleConnectionsAreClosed(t *testing.T) {
	ts := serve(t, Timeouts{Header: time.Minute, Idle: 20 * time.Millisecond})
	conn, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("status %d, want 204", resp.StatusCode)
	}
	if !closedByServer(t, conn, br, 30*time.Second) {
		t.Fatal("the server kept an idle keep-alive connection")
	}
}

// TestDefaultsBoundBoth: the timeouts a service starts with bound both
// waits (a zero would be no bound at all).
func TestDefaultsBoundBoth(t *testing.T) {
	srv := NewServer(":0", http.NotFoundHandler(), Defaults)
	if srv.ReadHeaderTimeout <= 0 || srv.IdleTimeout <= 0 {
		t.Fatalf("ReadHeaderTimeout %v, IdleTimeout %v: both must be set", srv.ReadHeaderTimeout, srv.IdleTimeout)
	}
	if srv.WriteTimeout != 0 {
		t.Fatalf("WriteTimeout %v would cut off streams; a streaming handler sets its own with http.ResponseController", srv.WriteTimeout)
	}
}
