package after

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// TestLoadKeptWhenEveryWaiterLeft: the only request waiting for a load
// gives up before it ends; the load still lands in the cache, so the next
// request is served without a second load.
func TestLoadKeptWhenEveryWaiterLeft(t *testing.T) {
	release := make(chan struct{})
	var loads atomic.Int32
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		loads.Add(1)
		<-release
		_, _ = w.Write([]byte("value"))
	}))
	defer up.Close()
	c := &Cache{Store: &Store{Client: up.Client(), URL: up.URL}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v/{key}", c.Get)

	ctx, cancel := context.WithCancel(context.Background())
	first := httptest.NewRequestWithContext(ctx, http.MethodGet, "/v/k", nil)
	done := make(chan struct{})
	go func() {
		defer close(done)
		mux.ServeHTTP(httptest.NewRecorder(), first)
	}()
	for loads.Load() == 0 { // until the shared load reaches the downstream
		select {
		case <-done:
			t.Fatal("first request returned before its load started")
		case <-time.After(time.Millisecond):
		}
	}
	cancel()
	<-done // the only waiter has left
	close(release)

	// The load goes on without waiters and publishes its result. The
	// bound only keeps a regression from hanging the suite.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		c.mu.Lock()
		_, ok := c.items["k"]
		c.mu.Unlock()
		if ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the load's result was not kept after its only waiter left")
		}
	}
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/v/k", nil))
	if rec.Code != http.StatusOK || rec.Body.String() != "value" {
		t.Fatalf("second request: %d %q", rec.Code, rec.Body.String())
	}
	if n := loads.Load(); n != 1 {
		t.Errorf("downstream loads = %d, want 1 (the result of the first was dropped)", n)
	}
}
