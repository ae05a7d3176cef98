package api

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/syncio/syncio/api/pool"
	"github.com/syncio/syncio/fakes/profile"
)

func TestProfileEndpointsAllVariants(t *testing.T) {
	s := startServer(t, testConfig())
	for _, kind := range []string{"sync", "async", "wrapped"} {
		for _, inst := range []string{"", "percall", "shared", "serialized"} {
			url := s.URL() + "/api/" + kind + "/profile"
			if inst != "" {
				url += "?instancing=" + inst
			}
			r := get(t, url)
			if r.status != http.StatusOK {
				t.Fatalf("GET %s = %d %s", url, r.status, r.body)
			}
			var p profile.Profile
			if err := json.Unmarshal(r.body, &p); err != nil {
				t.Fatalf("GET %s: %v", url, err)
			}
			if p.FirstName != "Alton" || p.LastName != "Hudgens" {
				t.Fatalf("GET %s = %+v", url, p)
			}
		}
	}
	if st := s.app.pool.Stats(); st.Busy != 0 {
		t.Fatalf("workers still busy after all requests: %+v", st)
	}
}

func TestInvalidInstancing(t *testing.T) {
	s := startServer(t, testConfig())
	for _, kind := range []string{"sync", "async", "wrapped"} {
		r := get(t, s.URL()+"/api/"+kind+"/profile?instancing=pooled")
		if r.status != http.StatusBadRequest || documentedError(t, r) != codeInvalidInstancing {
			t.Fatalf("%s: got %d %s, want 400 invalid_instancing", kind, r.status, r.body)
		}
	}
}

// With one worker and no queue, an in-flight sync call makes the next request
// bounce with 503, while an in-flight async call leaves the worker free.
func TestSyncHoldsWorkerAsyncReleasesIt(t *testing.T) {
	g, profileURL := newGate(t)
	cfg := testConfig()
	cfg.Workers, cfg.Queue, cfg.ProfileURL = 1, -1, profileURL
	s := startServer(t, cfg)

	results := make(chan response, 4)
	call := func(path string) {
		r, err := fetch(context.Background(), http.MethodGet, s.URL()+path, nil)
		if err != nil {
			r.status = -1
		}
		results <- r
	}

	// async: two calls in flight at the profile service with a single worker.
	go call("/api/async/profile")
	g.waitArrivals(t, 1)
	waitPool(t, s, "async released its worker", func(st pool.Stats) bool { return st.Busy == 0 })
	go call("/api/async/profile")
	g.waitArrivals(t, 1)

	// sync: holds the worker while it waits on the service ...
	go call("/api/sync/profile")
	g.waitArrivals(t, 1)
	waitPool(t, s, "sync holding the worker", func(st pool.Stats) bool { return st.Busy == 1 })
	// ... so the next arrival finds no worker and no queue.
	r := get(t, s.URL()+"/api/async/profile")
	if r.status != http.StatusServiceUnavailable {
		t.Fatalf("request behind a sync call: %d %s, want 503", r.status, r.body)
	}
	if eb := r.errorBody(t); eb.Code != codeQueueFull {
		t.Fatalf("code = %q, want %q", eb.Code, codeQueueFull)
	}
	if ra := r.header.Get("Retry-After"); ra != "1" {
		t.Fatalf("Retry-After = %q, want 1", ra)
	}

	g.open()
	for i := 0; i < 3; i++ {
		if r := <-results; r.status != http.StatusOK {
			t.Fatalf("in-flight call %d: %d %s", i, r.status, r.body)
		}
	}
	if got := g.count(); got != 3 {
		t.Fatalf("profile service saw %d calls, want 3 (the rejected one must not run)", got)
	}
}

// The wrapped endpoint runs its blocking call on a worker taken with
// continuation priority after handing its own back, so one worker is busy per
// in-flight call, like sync: it works on a one-worker pool with no queue.
func TestWrappedHoldsOneWorker(t *testing.T) {
	g, profileURL := newGate(t)
	cfg := testConfig()
	cfg.Workers, cfg.Queue, cfg.ProfileURL = 1, -1, profileURL
	s := startServer(t, cfg)

	done := make(chan response, 1)
	go func() {
		r, _ := fetch(context.Background(), http.MethodGet, s.URL()+"/api/wrapped/profile", nil)
		done <- r
	}()
	g.waitArrivals(t, 1)
	if st := s.app.pool.Stats(); st.Busy != 1 {
		t.Fatalf("busy = %d during a wrapped call, want 1", st.Busy)
	}
	g.open()
	if r := <-done; r.status != http.StatusOK {
		t.Fatalf("wrapped: %d %s", r.status, r.body)
	}
}

// TestWrappedSaturatedPoolDoesNotStarve is the deadlock the old pool.Do
// version had: with every worker and queue slot taken by wrapped requests,
// the blocking calls used to queue behind arrivals that only they could
// unblock. Now every request completes, and the service never sees more
// calls at once than there are workers (it scales like sync).
func TestWrappedSaturatedPoolDoesNotStarve(t *testing.T) {
	g, profileURL := newGate(t)
	cfg := testConfig()
	cfg.Workers, cfg.Queue, cfg.ProfileURL = 2, 4, profileURL
	s := startServer(t, cfg)

	const n = 6
	results := make(chan response, n)
	for i := 0; i < n; i++ {
		go func() {
			r, err := fetch(context.Background(), http.MethodGet, s.URL()+"/api/wrapped/profile", nil)
			if err != nil {
				r.status = -1
			}
			results <- r
		}()
	}
	g.waitArrivals(t, 2)
	waitPool(t, s, "the other 4 requests waiting", func(st pool.Stats) bool {
		return st.Busy == 2 && st.Queued+st.Continuations == n-2
	})
	if got := g.count(); got != 2 {
		t.Fatalf("profile service saw %d concurrent calls, want 2 (one per worker)", got)
	}
	g.open()
	for i := 0; i < n; i++ {
		if r := <-results; r.status != http.StatusOK {
			t.Fatalf("wrapped request %d: %d %s", i, r.status, r.body)
		}
	}
	if got := g.count(); got != n {
		t.Fatalf("profile service saw %d calls, want %d", got, n)
	}
}

func TestQueuedRequestWhoseClientLeftIsDropped(t *testing.T) {
	g, profileURL := newGate(t)
	g.open()
	cfg := testConfig()
	cfg.Workers, cfg.Queue, cfg.ProfileURL = 1, 4, profileURL
	s := startServer(t, cfg)

	// Take the only worker so the request has to queue.
	if err := s.app.pool.Acquire(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := fetch(ctx, http.MethodGet, s.URL()+"/api/async/profile", nil)
		errc <- err
	}()
	waitPool(t, s, "request queued", func(st pool.Stats) bool { return st.Queued == 1 })
	cancel()
	waitPool(t, s, "request dropped", func(st pool.Stats) bool { return st.Queued == 0 })
	s.app.pool.Release()
	if err := <-errc; err == nil {
		t.Fatal("cancelled request succeeded")
	}
	// A later request runs, and only it reaches the service.
	if r := get(t, s.URL()+"/api/async/profile"); r.status != http.StatusOK {
		t.Fatalf("follow-up: %d %s", r.status, r.body)
	}
	if got := g.count(); got != 1 {
		t.Fatalf("profile service saw %d calls, want 1: the dropped request must not run", got)
	}
}

func TestUpstreamTimeoutIs504(t *testing.T) {
	cfg := testConfig()
	cfg.ProfileLatency = time.Minute
	cfg.UpstreamTimeout = 20 * time.Millisecond
	s := startServer(t, cfg)
	for _, path := range []string{"/api/async/profile", "/api/async/profile?instancing=serialized"} {
		r := get(t, s.URL()+path)
		if r.status != http.StatusGatewayTimeout || documentedError(t, r) != codeUpstreamTimeout {
			t.Fatalf("%s: %d %s, want 504 upstream_timeout", path, r.status, r.body)
		}
	}

	// The sync and wrapped paths cannot cancel the in-process blocking call,
	// but a remote one is bounded by the upstream timeout too.
	_, profileURL := newGate(t)
	cfg.ProfileURL = profileURL
	s2 := startServer(t, cfg)
	for _, path := range []string{"/api/sync/profile", "/api/wrapped/profile", "/api/async/profile"} {
		r := get(t, s2.URL()+path)
		if r.status != http.StatusGatewayTimeout || documentedError(t, r) != codeUpstreamTimeout {
			t.Fatalf("remote %s: %d %s, want 504 upstream_timeout", path, r.status, r.body)
		}
	}
}

func TestProfileFailureIs502(t *testing.T) {
	cfg := testConfig()
	cfg.ProfileErrorRate = 1
	s := startServer(t, cfg)
	for _, kind := range []string{"sync", "async", "wrapped"} {
		r := get(t, s.URL()+"/api/"+kind+"/profile")
		if r.status != http.StatusBadGateway || documentedError(t, r) != codeUpstreamError {
			t.Fatalf("%s: %d %s, want 502 upstream_error", kind, r.status, r.body)
		}
	}
}
