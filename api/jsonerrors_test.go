package api

import (
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"regexp"
	"runtime/pprof"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Every error response the API can give, by the request that gets it.
// Errors that need a state rather than a request (a full queue, storage
// down, hung or full, Temporal down, a spent connection budget, a handler
// panic) are checked JSON with a documented code by the tests that make
// that state (documentedError): TestFault…, TestConnBudget,
// TestRejectedUploadsSeeTheir503, TestPanicIs500AndServerStaysUp.

// handlerErrors reach a handler: each must be a JSON error body whose
// code docs/api.md documents.
var handlerErrors = []struct {
	name, raw string
	status    int
	code      string
}{
	{"unknown route", "GET /api/nope HTTP/1.1\r\nHost: x\r\n\r\n", http.StatusNotFound, codeNotFound},
	{"asterisk form", "GET * HTTP/1.1\r\nHost: x\r\n\r\n", http.StatusNotFound, codeNotFound},
	{"CONNECT", "CONNECT x:80 HTTP/1.1\r\nHost: x:80\r\n\r\n", http.StatusNotFound, codeNotFound},
	{"wrong method", "GET /api/async/upload HTTP/1.1\r\nHost: x\r\n\r\n", http.StatusMethodNotAllowed, codeMethodNotAllowed},
	{"bad instancing", "GET /api/sync/profile?instancing=x HTTP/1.1\r\nHost: x\r\n\r\n", http.StatusBadRequest, codeInvalidInstancing},
	{"bad client", "POST /api/async/upload?client=x HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n", http.StatusBadRequest, codeInvalidClient},
	{"bad size", "POST /api/sync/upload?size=x HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n", http.StatusBadRequest, codeInvalidSize},
	{"bad blob name", "GET /api/blobs/-x HTTP/1.1\r\nHost: x\r\n\r\n", http.StatusBadRequest, codeInvalidName},
	{"no such blob", "GET /api/blobs/nothing-here HTTP/1.1\r\nHost: x\r\n\r\n", http.StatusNotFound, codeNotFound},
	{"malformed chunked body", "POST /api/async/upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", http.StatusBadRequest, codeInvalidBody},
	{"declared too large", "POST /api/async/upload HTTP/1.1\r\nHost: x\r\nContent-Length: 2097152\r\n\r\n", http.StatusRequestEntityTooLarge, codeTooLarge},
	{"chunked past the limit", "POST /api/sync/upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" +
		"200001\r\n" + strings.Repeat("x", 2<<20+1) + "\r\n0\r\n\r\n", http.StatusRequestEntityTooLarge, codeTooLarge},
	{"stalled body", "POST /api/sync/upload HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nab", http.StatusRequestTimeout, codeBodyTimeout},
	{"bad order", "POST /api/sync/order HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\n{", http.StatusBadRequest, codeInvalidOrder},
	// The operational routes' handlers are net/http/pprof's, promhttp's
	// and the blocking watcher's; their errors were text/plain (pprof)
	// or JSON with an undocumented code (the watcher's bad_format).
	{"unknown profile", "GET /debug/pprof/nosuch HTTP/1.1\r\nHost: x\r\n\r\n", http.StatusNotFound, codeNotFound},
	{"bad profile seconds", "GET /debug/pprof/goroutine?seconds=x HTTP/1.1\r\nHost: x\r\n\r\n", http.StatusBadRequest, codeInvalidQuery},
	{"bad blocking format", "GET /debug/syncio/blocking?format=x HTTP/1.1\r\nHost: x\r\n\r\n", http.StatusBadRequest, codeInvalidQuery},
	{"CPU profile busy", "GET /debug/pprof/profile?seconds=1 HTTP/1.1\r\nHost: x\r\n\r\n", http.StatusInternalServerError, codeDebugFailed},
}

// connErrors are written by net/http on the connection before any
// handler runs, as text (417 with no body), and the connection is closed:
// nothing in the API can change them short of parsing HTTP itself.
// docs/api.md lists them; any other non-JSON error fails the test.
var connErrors = []struct {
	name, raw string
	status    int
}{
	{"malformed request line", "GARBAGE\r\n\r\n", http.StatusBadRequest},
	{"bad method", "G@T /healthz HTTP/1.1\r\nHost: x\r\n\r\n", http.StatusBadRequest},
	{"bad escape in the path", "GET /api/%zz HTTP/1.1\r\nHost: x\r\n\r\n", http.StatusBadRequest},
	{"no Host", "GET /healthz HTTP/1.1\r\n\r\n", http.StatusBadRequest},
	{"malformed Host", "GET /healthz HTTP/1.1\r\nHost: x y\r\n\r\n", http.StatusBadRequest},
	{"bad header name", "GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header: x\r\n\r\n", http.StatusBadRequest},
	{"bad Content-Length", "POST /api/async/upload HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n", http.StatusBadRequest},
	{"two Content-Lengths", "POST /api/async/upload HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", http.StatusBadRequest},
	{"unknown Expect", "GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: foo\r\n\r\n", http.StatusExpectationFailed},
	{"headers past 64 KiB", "GET /healthz HTTP/1.1\r\nHost: x\r\nX: " + strings.Repeat("a", 70<<10) + "\r\n\r\n", http.StatusRequestHeaderFieldsTooLarge},
	{"unknown transfer coding", "POST /api/async/upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", http.StatusNotImplemented},
	{"HTTP/2 request line", "GET /healthz HTTP/2.0\r\nHost: x\r\n\r\n", http.StatusHTTPVersionNotSupported},
	{"HTTP/0.9 request line", "GET /healthz HTTP/0.9\r\nHost: x\r\n\r\n", http.StatusHTTPVersionNotSupported},
}

// docNotJSON is the statuses of docs/api.md's table of responses that are
// not JSON (rows "| 431 | …" under "Responses that are not JSON").
func docNotJSON(t *testing.T) map[int]bool {
	t.Helper()
	b, err := os.ReadFile("../docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "## Responses that are not JSON")
	if !ok {
		t.Fatal("docs/api.md has no section \"Responses that are not JSON\"")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	statuses := make(map[int]bool)
	for _, m := range regexp.MustCompile(`(?m)^\| ([0-9]{3}) \|`).FindAllStringSubmatch(section, -1) {
		n, _ := strconv.Atoi(m[1])
		statuses[n] = true
	}
	return statuses
}

// TestEveryErrorResponseIsJSON sends each request that gets an error and
// checks the answer: a documented JSON error for those a handler writes,
// and for those net/http writes before any handler, a status docs/api.md
// lists among the responses that are not JSON.
func TestEveryErrorResponseIsJSON(t *testing.T) {
	cfg := testConfig()
	cfg.Pprof = true
	cfg.BodyTimeout = 200 * time.Millisecond
	cfg.MaxUploadBytes = 1 << 20
	s := startServer(t, cfg)

	// One CPU profile at a time: the test's own makes the route's fail.
	if err := pprof.StartCPUProfile(io.Discard); err != nil {
		t.Fatalf("starting a CPU profile: %v", err)
	}
	defer pprof.StopCPUProfile()

	for _, tc := range handlerErrors {
		t.Run(tc.name, func(t *testing.T) {
			r, err := readResponse(send(t, s, tc.raw))
			if err != nil {
				t.Fatal(err)
			}
			if ct := r.header.Get("Content-Type"); r.status != tc.status || !strings.HasPrefix(ct, "application/json") {
				t.Errorf("%d %s %q, want %d application/json", r.status, ct, r.body, tc.status)
			}
			if code := documentedError(t, r); code != tc.code {
				t.Errorf("code %q, want %q", code, tc.code)
			}
		})
	}
	notJSON := docNotJSON(t)
	for _, tc := range connErrors {
		t.Run(tc.name, func(t *testing.T) {
			conn := send(t, s, tc.raw)
			r, err := readResponse(conn)
			if err != nil {
				t.Fatal(err)
			}
			if r.status != tc.status || !notJSON[r.status] {
				t.Errorf("%d %v %q, want %d, and %d in docs/api.md's responses that are not JSON", r.status, r.header, r.body, tc.status, tc.status)
			}
			if _, err := conn.Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
				t.Errorf("after the answer: %v, want the connection closed", err)
			}
		})
	}
}

// send writes raw, a whole request, on a new connection to s.
func send(t *testing.T, s *Server, raw string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.URL(), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	_ = conn.SetDeadline(time.Now().Add(20 * time.Second)) // a bound against a hang
	if _, err := io.WriteString(conn, raw); err != nil {
		t.Fatal(err)
	}
	return conn
}
