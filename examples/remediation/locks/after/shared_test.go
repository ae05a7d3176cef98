package after

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
)

// gatedTransport is a downstream in memory: each load hands its context to
// the test and waits for release (or for its context to end).
type gatedTransport struct {
	loads   chan context.Context
	release chan struct{}
}

func (g *gatedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	g.loads <- r.Context()
	select {
	case <-g.release:
		return &http.Response{StatusCode: http.StatusOK, Body: io.NopCloser(strings.NewReader("value")), Request: r}, nil
	case <-r.Context().Done():
		return nil, r.Context().Err()
	}
}

// TestSharedLoadSurvivesFirstCallerLeaving: caller 1 misses and starts the
// load; while the load is blocked, caller 1's context is cancelled and it
// returns; the load's context is not cancelled (it has its own deadline);
// caller 2 joins the same load and gets the value; there is one load.
// synctest.Wait returns once every goroutine is blocked, so each step
// happens in this order, with no sleeps.
func TestSharedLoadSurvivesFirstCallerLeaving(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := &gatedTransport{loads: make(chan context.Context, 2), release: make(chan struct{})}
		c := &Cache{Store: &Store{Client: &http.Client{Transport: g}, URL: "http://store"}}
		mux := http.NewServeMux()
		mux.HandleFunc("GET /v/{key}", c.Get)

		ctx1, leave := context.WithCancel(context.Background())
		rec1 := httptest.NewRecorder()
		var wg sync.WaitGroup
		wg.Go(func() { mux.ServeHTTP(rec1, httptest.NewRequestWithContext(ctx1, http.MethodGet, "/v/k", nil)) })
		synctest.Wait() // caller 1 waits for the load, the load for release
		loadCtx := <-g.loads

		leave()
		wg.Wait() // caller 1 has returned
		if rec1.Body.Len() != 0 {
			t.Errorf("caller 1 left, yet was answered %q", rec1.Body.String())
		}
		if err := loadCtx.Err(); err != nil {
			t.Fatalf("the shared load's context ended with caller 1: %v", err)
		}
		if _, ok := loadCtx.Deadline(); !ok {
			t.Error("the shared load has no deadline of its own")
		}

		rec2 := httptest.NewRecorder()
		wg.Go(func() { mux.ServeHTTP(rec2, httptest.NewRequest(http.MethodGet, "/v/k", nil)) })
		synctest.Wait() // caller 2 is waiting on the same load
		if n := len(g.loads); n != 0 {
			t.Fatalf("caller 2 started a load of its own (%d more)", n)
		}
		if err := loadCtx.Err(); err != nil {
			t.Fatalf("the shared load's context ended before it was released: %v", err)
		}
		close(g.release)
		wg.Wait()
		if rec2.Code != http.StatusOK || rec2.Body.String() != "value" {
			t.Errorf("caller 2: %d %q, want 200 \"value\"", rec2.Code, rec2.Body.String())
		}
	})
}

// TestLoadErrorIsNotEchoed: a failed load is logged; the client gets a
// generic JSON error without the downstream's URL.
func TestLoadErrorIsNotEchoed(t *testing.T) {
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close() // every load fails to connect
	c := &Cache{Store: &Store{Client: down.Client(), URL: down.URL + "/internal/secret"}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v/{key}", c.Get)
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/v/k", nil))
	if rec.Code != http.StatusBadGateway {
		t.Errorf("status %d, want 502", rec.Code)
	}
	if body := rec.Body.String(); strings.Contains(body, down.URL) || strings.Contains(body, "secret") || !strings.Contains(body, `"code":"upstream"`) {
		t.Errorf("body %q: want a generic JSON error that names no URL", body)
	}
}
