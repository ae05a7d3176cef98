package after

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestServerBounds: every server-side bound is set, and the handler bound
// fits inside the write bound (otherwise the 503 could not be written).
func TestServerBounds(t *testing.T) {
	srv := NewServer("127.0.0.1:0", http.NotFoundHandler())
	if srv.ReadHeaderTimeout <= 0 || srv.ReadTimeout <= 0 || srv.WriteTimeout <= 0 || srv.IdleTimeout <= 0 {
		t.Fatalf("unbounded server: %+v", srv)
	}
	if handlerTimeout >= srv.WriteTimeout {
		t.Errorf("handler timeout %v does not fit in the write timeout %v", handlerTimeout, srv.WriteTimeout)
	}
}

// TestTimeoutHandlerCancelsTheHandler: when the server's handler bound
// fires, the handler's context ends, so a call it was making with
// r.Context() ends too, and the client gets the 503.
func TestTimeoutHandlerCancelsTheHandler(t *testing.T) {
	ended := make(chan error, 1)
	slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done() // stands for a call given r.Context()
		ended <- r.Context().Err()
	})
	h := http.TimeoutHandler(slow, 1, "timeout") // 1 ns: fires at once
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	if rec.Code != http.StatusServiceUnavailable {
		t.Errorf("status %d, want 503", rec.Code)
	}
	if err := <-ended; !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("handler's context ended with %v, want the deadline", err)
	}
}

// TestTimeoutHandlerCaveats pins down what TimeoutHandler costs: its
// writer buffers the response and is neither a Flusher nor a Hijacker
// (server-sent events and websockets break behind it), and its 503 body,
// JSON or not, is sent as text/plain.
func TestTimeoutHandlerCaveats(t *testing.T) {
	seen := make(chan [2]bool, 1)
	h := http.TimeoutHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, flusher := w.(http.Flusher)
		_, hijacker := w.(http.Hijacker)
		seen <- [2]bool{flusher, hijacker}
	}), time.Minute, "")
	srv := httptest.NewServer(h)
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := <-seen; got[0] || got[1] {
		flusher, hijacker := got[0], got[1]
		t.Errorf("behind TimeoutHandler: Flusher %v, Hijacker %v; want neither", flusher, hijacker)
	}

	rec := httptest.NewRecorder()
	slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	http.TimeoutHandler(slow, 1, `{"error":"request took too long","code":"timeout"}`).
		ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	if ct := rec.Header().Get("Content-Type"); ct == "application/json" {
		t.Errorf("TimeoutHandler's 503 is %q now: update the guide's caveat", ct)
	}
}

// TestWithDeadline: the handler's context gets the deadline, and it still
// writes to a writer that flushes.
func TestWithDeadline(t *testing.T) {
	seen := make(chan [2]bool, 1)
	h := WithDeadline(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, flusher := w.(http.Flusher)
		_, deadline := r.Context().Deadline()
		seen <- [2]bool{flusher, deadline}
	}), time.Minute)
	srv := httptest.NewServer(h)
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := <-seen; !got[0] || !got[1] {
		flusher, deadline := got[0], got[1]
		t.Errorf("Flusher %v, deadline %v; want both", flusher, deadline)
	}
}
