package after

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestServerBounds: every server-side bound is set, and the handler bound
// fits inside the write bound (otherwise the 503 could not be written).
func TestServerBounds(t *testing.T) {
	srv := NewServer("127.0.0.1:0", http.NotFoundHandler())
	if srv.ReadHeaderTimeout <= 0 || srv.WriteTimeout <= 0 || srv.IdleTimeout <= 0 {
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
