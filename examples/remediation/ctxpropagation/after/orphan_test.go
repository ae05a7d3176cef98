package after

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestTimeoutHandlerOrphansADeafHandler: TimeoutHandler answers 503 and
// returns, but it cannot stop the handler's goroutine. A handler that does
// not watch r.Context() (here it waits on a channel, as a call not given
// the context would) runs on after the client has its 503, holding
// whatever it holds; its context was done all along; and its late write
// fails with ErrHandlerTimeout. TestTimeoutHandlerCancelsTheHandler is the
// other half: a handler that watches r.Context() returns when it ends.
func TestTimeoutHandlerOrphansADeafHandler(t *testing.T) {
	release := make(chan struct{})
	started := make(chan context.Context, 1)
	finished := make(chan error, 1)
	deaf := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		started <- r.Context()
		<-release
		_, err := w.Write([]byte("late"))
		finished <- err
	})
	rec := httptest.NewRecorder()
	http.TimeoutHandler(deaf, 1, "timeout").ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil)) // 1 ns
	// ServeHTTP has returned, the handler is still blocked on release.
	if rec.Code != http.StatusServiceUnavailable {
		t.Errorf("status %d, want 503", rec.Code)
	}
	ctx := <-started
	if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Errorf("the orphaned handler's context: %v, want DeadlineExceeded (it could have returned)", ctx.Err())
	}
	select {
	case err := <-finished:
		t.Fatalf("the handler finished (%v) before it was released", err)
	default:
	}
	close(release)
	if err := <-finished; !errors.Is(err, http.ErrHandlerTimeout) {
		t.Errorf("late write: %v, want http.ErrHandlerTimeout", err)
	}
}
