package closedloop

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// collector gathers emitted results.
type collector struct {
	mu  sync.Mutex
	res []vegeta.Result
}

func (c *collector) emit(r *vegeta.Result) {
	c.mu.Lock()
	c.res = append(c.res, *r)
	c.mu.Unlock()
}

func (c *collector) all() []vegeta.Result {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]vegeta.Result(nil), c.res...)
}

// waitFor polls until cond holds; it fails the test after a generous bound
// instead of asserting how fast anything is.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// poolServer answers like the demo API's pool: W concurrent requests each
// sleep, and the rest get 503 with retryAfter.
func poolServer(w int, sleep time.Duration, retryAfter string) (*httptest.Server, *atomic.Int64) {
	sem := make(chan struct{}, w)
	var rejected atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		select {
		case sem <- struct{}{}:
		default:
			rejected.Add(1)
			if retryAfter != "" {
				rw.Header().Set("Retry-After", retryAfter)
			}
			rw.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		defer func() { <-sem }()
		select {
		case <-time.After(sleep):
		case <-r.Context().Done():
		}
		_, _ = rw.Write([]byte(`{"ok":true}`))
	}))
	return srv, &rejected
}

func TestUsersAreClosedLoopAndSeqFollowsTimestamps(t *testing.T) {
	srv, rejected := poolServer(4, 20*time.Millisecond, "1")
	defer srv.Close()
	var c collector
	a := New(context.Background(), Target{Attack: "t", Method: http.MethodGet, URL: srv.URL}, c.emit)
	a.SetUsers(2)
	waitFor(t, func() bool { return len(c.all()) >= 10 })
	a.SetUsers(4)
	if a.Users() != 4 {
		t.Fatalf("Users = %d, want 4", a.Users())
	}
	waitFor(t, func() bool { return len(c.all()) >= 30 })
	a.Stop()

	if n := rejected.Load(); n != 0 {
		t.Errorf("%d requests rejected: closed-loop users never exceed the 4 slots", n)
	}
	res := c.all()
	seen := map[uint64]bool{}
	for _, r := range res {
		if r.Code != http.StatusOK || r.Error != "" || r.BytesIn != uint64(len(`{"ok":true}`)) {
			t.Fatalf("result %+v, want a clean 200", r)
		}
		if seen[r.Seq] {
			t.Fatalf("sequence %d emitted twice", r.Seq)
		}
		seen[r.Seq] = true
	}
	// Seq and Timestamp share one order (vegeta's plot relies on it).
	bySeq := map[uint64]time.Time{}
	for _, r := range res {
		bySeq[r.Seq] = r.Timestamp
	}
	for _, r := range res {
		if prev, ok := bySeq[r.Seq-1]; ok && r.Seq > 0 && r.Timestamp.Before(prev) {
			t.Fatalf("seq %d stamped before seq %d", r.Seq, r.Seq-1)
		}
	}
	// Per user, a request starts only after the previous one ended: with
	// 4 users there are never more than 4 overlapping requests.
	for _, r := range res {
		overlap := 0
		for _, o := range res {
			if !o.Timestamp.After(r.Timestamp) && o.End().After(r.Timestamp) {
				overlap++
			}
		}
		if overlap > 4 {
			t.Fatalf("%d requests in flight at %v with 4 users", overlap, r.Timestamp)
		}
	}
}

func TestRetryAfterWaitIsNotLatency(t *testing.T) {
	// The first request is rejected with Retry-After: 1; later ones pass.
	var mu sync.Mutex
	var arrivals []time.Time
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		mu.Lock()
		arrivals = append(arrivals, time.Now())
		first := len(arrivals) == 1
		mu.Unlock()
		if first {
			rw.Header().Set("Retry-After", "1")
			rw.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		rw.WriteHeader(http.StatusOK)
	}))
	defer srv.Close()
	var c collector
	a := New(context.Background(), Target{Attack: "t", Method: http.MethodGet, URL: srv.URL}, c.emit)
	a.SetUsers(1)
	waitFor(t, func() bool { return len(c.all()) >= 2 })
	a.Stop()

	res := c.all()
	rej, next := res[0], res[1]
	if rej.Code != http.StatusServiceUnavailable || rej.Error == "" {
		t.Fatalf("first result %+v, want a 503 with an error", rej)
	}
	if next.Code != http.StatusOK {
		t.Fatalf("second result %+v, want 200", next)
	}
	gap := next.Timestamp.Sub(rej.End())
	if gap < time.Second {
		t.Errorf("user waited %v after the 503, want at least the 1 s Retry-After", gap)
	}
	mu.Lock()
	serverGap := arrivals[1].Sub(arrivals[0])
	mu.Unlock()
	if serverGap < time.Second {
		t.Errorf("server saw the retry %v after the rejection, want at least 1 s", serverGap)
	}
	// The wait sits between results: neither latency contains it.
	if rej.Latency >= gap || next.Latency >= gap {
		t.Errorf("latencies %v and %v include the %v wait", rej.Latency, next.Latency, gap)
	}
}

func TestRejectedUsersDoNotSpin(t *testing.T) {
	srv, rejected := poolServer(0, 0, "") // every request is rejected, no header
	defer srv.Close()
	var c collector
	a := New(context.Background(), Target{Attack: "t", Method: http.MethodGet, URL: srv.URL}, c.emit,
		WithRetryAfter(time.Hour, time.Hour))
	a.SetUsers(3)
	waitFor(t, func() bool { return len(c.all()) >= 3 })
	time.Sleep(100 * time.Millisecond)
	a.Stop() // also proves the wait is cancellable
	// Each user waits the fallback after its 503: one request each.
	if n := rejected.Load(); n != 3 {
		t.Errorf("%d rejected requests from 3 users, want 3: they spin instead of waiting", n)
	}
}

func TestErrorStatusesBackOff(t *testing.T) {
	// A failing backend (500) and a target without the route (404) both
	// answer at once; without a wait each user would spin.
	// A 200 whose body is cut short (code 0 below) fails as fast.
	for _, code := range []int{http.StatusInternalServerError, http.StatusNotFound, 0} {
		var hits atomic.Int64
		srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
			hits.Add(1)
			if code == 0 {
				rw.Header().Set("Content-Length", "100")
				_, _ = rw.Write([]byte("short")) // net/http then closes the connection
				return
			}
			http.Error(rw, "boom", code)
		}))
		var c collector
		a := New(context.Background(), Target{Attack: "t", Method: http.MethodGet, URL: srv.URL}, c.emit, WithErrorBackoff(time.Hour))
		a.SetUsers(2)
		waitFor(t, func() bool { return len(c.all()) >= 2 })
		time.Sleep(100 * time.Millisecond)
		a.Stop()
		srv.Close()
		// With an hour's backoff each user sends exactly one request.
		if n := hits.Load(); n != 2 {
			t.Errorf("%d requests from 2 users after %d responses, want 2", n, code)
		}
		want := code
		if code == 0 {
			want = http.StatusOK
		}
		if r := c.all()[0]; int(r.Code) != want || r.Error == "" {
			t.Errorf("result %+v, want code %d with an error", r, want)
		}
	}
}

func TestStopDropsInFlightResults(t *testing.T) {
	block := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		select {
		case <-block:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(block)
	var c collector
	a := New(context.Background(), Target{Attack: "t", Method: http.MethodGet, URL: srv.URL}, c.emit)
	a.SetUsers(3)
	time.Sleep(50 * time.Millisecond)
	a.Stop() // must return although the server never answers
	if n := len(c.all()); n != 0 {
		t.Errorf("%d results emitted for requests cut short by Stop", n)
	}
}

func TestUploadBodyIsSent(t *testing.T) {
	var got atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		got.Store(r.ContentLength)
		rw.WriteHeader(http.StatusCreated)
	}))
	defer srv.Close()
	var c collector
	body := make([]byte, 1234)
	a := New(context.Background(), Target{Attack: "up", Method: http.MethodPost, URL: srv.URL, Body: body}, c.emit)
	a.SetUsers(1)
	waitFor(t, func() bool { return len(c.all()) >= 2 })
	a.Stop()
	if got.Load() != 1234 {
		t.Errorf("server saw Content-Length %d, want 1234", got.Load())
	}
	if r := c.all()[0]; r.BytesOut != 1234 || r.Code != http.StatusCreated || r.Method != http.MethodPost {
		t.Errorf("result %+v", r)
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	h := func(v string) http.Header { return http.Header{"Retry-After": {v}} }
	cases := []struct {
		name string
		h    http.Header
		want time.Duration
	}{
		{"absent", nil, 500 * time.Millisecond},
		{"seconds", h("3"), 3 * time.Second},
		{"zero", h("0"), 0},
		{"capped", h("120"), 10 * time.Second},
		{"negative", h("-1"), 500 * time.Millisecond},
		{"garbage", h("soon"), 500 * time.Millisecond},
		{"http date", h(now.Add(4 * time.Second).Format(http.TimeFormat)), 4 * time.Second},
		{"date in the past", h(now.Add(-time.Minute).Format(http.TimeFormat)), 0},
	}
	for _, c := range cases {
		if got := RetryAfter(c.h, now, 500*time.Millisecond, 10*time.Second); got != c.want {
			t.Errorf("%s: RetryAfter = %v, want %v", c.name, got, c.want)
		}
	}
}
