package after

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

func TestLittleLimit(t *testing.T) {
	for _, c := range []struct {
		target  float64
		latency time.Duration
		want    int64
	}{
		{620, 100 * time.Millisecond, 62},
		{620, 400 * time.Millisecond, 248},
		{50, 2 * time.Second, 100},
		{10, 15 * time.Millisecond, 1},
	} {
		if got := LittleLimit(c.target, c.latency); got != c.want {
			t.Errorf("LittleLimit(%v/s, %v) = %d, want %d", c.target, c.latency, got, c.want)
		}
	}
}

func TestLimiterShedsWhenFull(t *testing.T) {
	l := NewLimiter(1, 0)
	if err := l.Acquire(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := l.Acquire(context.Background()); !errors.Is(err, ErrShed) {
		t.Fatalf("second Acquire: %v, want ErrShed", err)
	}
	l.Release()
	if err := l.Acquire(context.Background()); err != nil {
		t.Fatalf("after Release: %v", err)
	}
}

// TestLimiterExportsWaiters: a caller waiting for a slot shows in Waiting
// and in the exported gauge, and gets the slot when it is released.
func TestLimiterExportsWaiters(t *testing.T) {
	l := NewLimiter(1, time.Hour)
	reg := prometheus.NewRegistry()
	if err := l.Register(reg, "prices"); err != nil {
		t.Fatal(err)
	}
	if err := l.Acquire(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := make(chan error, 1)
	go func() { got <- l.Acquire(context.Background()) }()
	for deadline := time.Now().Add(30 * time.Second); l.Waiting() != 1; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the second caller never showed as waiting")
		}
	}
	if v := gaugeValue(t, reg, "downstream_waiting"); v != 1 {
		t.Errorf("downstream_waiting = %v, want 1", v)
	}
	l.Release()
	if err := <-got; err != nil {
		t.Fatalf("waiter: %v", err)
	}
	if l.Waiting() != 0 || gaugeValue(t, reg, "downstream_in_flight") != 1 {
		t.Errorf("after hand-over: waiting %d, in flight %v; want 0 and 1", l.Waiting(), gaugeValue(t, reg, "downstream_in_flight"))
	}
}

// TestLimiterContextEndsTheWait: a client that leaves is not counted as shed.
func TestLimiterContextEndsTheWait(t *testing.T) {
	l := NewLimiter(1, time.Hour)
	_ = l.Acquire(context.Background())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := l.Acquire(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Acquire on a cancelled context: %v, want Canceled", err)
	}
	if l.shed.Load() != 0 {
		t.Errorf("a client that left counted as shed")
	}
}

// TestQuoteSheds: with the price service's limit taken, a request is
// answered 503 with Retry-After and a JSON error, without a call.
func TestQuoteSheds(t *testing.T) {
	var calls atomic.Int32
	prices := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		_, _ = w.Write([]byte("1.5"))
	}))
	defer prices.Close()
	q := &Quotes{Prices: &Prices{Client: prices.Client(), URL: prices.URL}, inflight: NewLimiter(1, 0)}
	_ = q.inflight.Acquire(context.Background()) // another request holds the only slot
	rec := httptest.NewRecorder()
	q.Quote(rec, httptest.NewRequest(http.MethodGet, "/quote?item=a", nil))
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" ||
		rec.Header().Get("Content-Type") != "application/json" || !strings.Contains(rec.Body.String(), `"code":"overloaded"`) {
		t.Errorf("got %d %v %s, want a JSON 503 with Retry-After", rec.Code, rec.Header(), rec.Body)
	}
	if n := calls.Load(); n != 0 {
		t.Errorf("%d calls made past the limit", n)
	}
	q.inflight.Release()
	q.inflight = NewLimiter(2, 0) // room for both items of the basket
	rec = httptest.NewRecorder()
	q.Quote(rec, httptest.NewRequest(http.MethodGet, "/quote?item=a&item=b", nil))
	if rec.Code != http.StatusOK || rec.Body.String() != "3.00" {
		t.Errorf("with the slot free: %d %q, want 200 3.00", rec.Code, rec.Body)
	}
}

func gaugeValue(t *testing.T, reg *prometheus.Registry, name string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == name {
			return mf.GetMetric()[0].GetGauge().GetValue()
		}
	}
	t.Fatalf("no series %s", name)
	return 0
}
