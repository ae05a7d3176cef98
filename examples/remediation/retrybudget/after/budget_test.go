package after

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/syncio/syncio/examples/remediation/retrybudget/before"
)

// pricing is a dependency that fails the first failFirst calls (all of
// them when negative) with 503, and counts the calls.
type pricing struct {
	calls     atomic.Int64
	failFirst int64
}

func (p *pricing) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if n := p.calls.Add(1); p.failFirst < 0 || n <= p.failFirst {
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	_, _ = w.Write([]byte("9.99"))
}

func quote(t *testing.T, h http.HandlerFunc) int {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /quotes/{id}", h)
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/quotes/1", nil))
	return rec.Code
}

func newHandler(url string, client *http.Client, b *Budget, base time.Duration) *Handler {
	c := &Client{HTTP: client, URL: url, Budget: b, Attempts: 3, Base: base, Max: 4 * base,
		jitter: func(limit time.Duration) time.Duration { return limit }}
	return &Handler{Quotes: &Service{Prices: c}, Timeout: time.Minute, Log: slog.New(slog.DiscardHandler)}
}

// TestRetriesMultiplyAcrossLayers: three layers of three attempts turn
// one request into 27 calls to a failing dependency.
func TestRetriesMultiplyAcrossLayers(t *testing.T) {
	dep := &pricing{failFirst: -1}
	srv := httptest.NewServer(dep)
	defer srv.Close()
	h := &before.Handler{Quotes: &before.Service{Prices: &before.Client{HTTP: srv.Client(), URL: srv.URL}}}
	if code := quote(t, h.Quote); code != http.StatusBadGateway {
		t.Fatalf("quote: %d, want 502", code)
	}
	if got := dep.calls.Load(); got != 27 {
		t.Errorf("one request made %d calls to the failing dependency, want 27", got)
	}
}

// TestBudgetCapsAttempts: 100 requests to a dependency that fails every
// call. With a budget of 10% (and a burst of 10), the retries stay near
// 20 (10 + 0.1 × 100) and the calls near 120; with a budget too large to
// bind, the same requests make 300 calls.
func TestBudgetCapsAttempts(t *testing.T) {
	const requests = 100
	run := func(b *Budget) int64 {
		dep := &pricing{failFirst: -1}
		srv := httptest.NewServer(dep)
		defer srv.Close()
		h := newHandler(srv.URL, srv.Client(), b, 0)
		for range requests {
			if code := quote(t, h.Quote); code != http.StatusBadGateway {
				t.Fatalf("quote: %d, want 502", code)
			}
		}
		return dep.calls.Load()
	}
	budget := NewBudget(0.1, 10)
	capped := run(budget)
	unbounded := run(NewBudget(1, 1e9))
	if retries := capped - requests; retries < 15 || retries > 21 {
		t.Errorf("with a 10%% budget: %d calls, %d retries; want about 20 retries (10 + 0.1 × 100)", capped, retries)
	}
	if budget.Denied() == 0 {
		t.Error("the budget denied no retry")
	}
	if unbounded != 3*requests {
		t.Errorf("without a binding budget: %d calls, want %d", unbounded, 3*requests)
	}
	t.Logf("%d requests to a failing dependency: %d calls with the budget (%d retries denied), %d without", requests, capped, budget.Denied(), unbounded)
}

// TestRetryRecovers: a dependency that fails once is retried and the
// quote succeeds.
func TestRetryRecovers(t *testing.T) {
	dep := &pricing{failFirst: 1}
	srv := httptest.NewServer(dep)
	defer srv.Close()
	h := newHandler(srv.URL, srv.Client(), NewBudget(0.1, 10), time.Millisecond)
	if code := quote(t, h.Quote); code != http.StatusOK || dep.calls.Load() != 2 {
		t.Errorf("quote: %d after %d calls, want 200 after 2", code, dep.calls.Load())
	}
}

// TestNoRetryPastTheDeadline: a pause the caller's deadline would cut
// short is not started: one call, the error at once, no token spent.
func TestNoRetryPastTheDeadline(t *testing.T) {
	dep := &pricing{failFirst: -1}
	srv := httptest.NewServer(dep)
	defer srv.Close()
	b := NewBudget(0.1, 10)
	c := newHandler(srv.URL, srv.Client(), b, time.Hour).Quotes.Prices
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := c.Price(ctx, "1")
	if err == nil || !strings.Contains(err.Error(), "no time left to retry") || dep.calls.Load() != 1 {
		t.Errorf("Price: %v after %d calls; want the first failure, no time left, 1 call", err, dep.calls.Load())
	}
	if !b.Retry() || b.Denied() != 0 {
		t.Error("the budget was spent on a retry that was not made")
	}
}

// TestPauseCapped: the pause's range doubles per attempt up to Max.
func TestPauseCapped(t *testing.T) {
	c := &Client{Base: time.Second, Max: 4 * time.Second, jitter: func(limit time.Duration) time.Duration { return limit }}
	var got []time.Duration
	for attempt := 1; attempt <= 5; attempt++ {
		got = append(got, c.pause(attempt))
	}
	if want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 4 * time.Second, 4 * time.Second}; !slices.Equal(got, want) {
		t.Errorf("pauses %v, want %v", got, want)
	}
}
