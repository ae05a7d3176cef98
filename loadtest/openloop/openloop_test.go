package openloop

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/syncio/syncio/loadtest/closedloop"
)

// TestArrivalsDoNotWait: against a service that takes 300 ms, requests
// keep arriving at the rate instead of waiting for answers, so many are
// in flight at once (a closed loop of one user would have one); after
// Stop every request sent has been emitted.
func TestArrivalsDoNotWait(t *testing.T) {
	var inFlight, most atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := inFlight.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		time.Sleep(300 * time.Millisecond)
		inFlight.Add(-1)
	}))
	defer srv.Close()
	var mu sync.Mutex
	var got []*vegeta.Result
	a := New(closedloop.Target{Attack: "t", Method: "GET", URL: srv.URL}, srv.Client(), 100, func(r *vegeta.Result, _ Sent) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, r)
	})
	a.SetRate(50)
	time.Sleep(600 * time.Millisecond)
	a.Stop()
	if most.Load() < 4 {
		t.Errorf("at most %d requests in flight at 50/s against a 300 ms service; an open loop keeps arriving", most.Load())
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) == 0 || inFlight.Load() != 0 {
		t.Errorf("%d results, %d still in flight after Stop", len(got), inFlight.Load())
	}
	for _, r := range got {
		if r.Code != 200 || r.Attack != "t" {
			t.Errorf("result %+v", r)
			break
		}
	}
}

// TestCapShowsAsLateAndAtCap: with two requests allowed in flight against
// a 200 ms service, 100/s cannot be sent: the pacer falls behind (Late
// grows) and answers arrive with the cap reached. Without a cap in reach,
// at a rate the box sends easily, requests leave on time.
func TestCapShowsAsLateAndAtCap(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			time.Sleep(200 * time.Millisecond)
		}
	}))
	defer srv.Close()
	collect := func(path string, maxInFlight int, rate float64) (n, atCap int, late time.Duration) {
		var mu sync.Mutex
		a := New(closedloop.Target{Attack: "t", Method: "GET", URL: srv.URL + path}, srv.Client(), maxInFlight, func(r *vegeta.Result, s Sent) {
			mu.Lock()
			defer mu.Unlock()
			n++
			if s.AtCap {
				atCap++
			}
			late = max(late, s.Late)
		})
		a.SetRate(rate)
		time.Sleep(time.Second)
		a.Stop()
		return
	}
	n, atCap, late := collect("/slow", 2, 100)
	if n > 20 || atCap < n/2 || late < 300*time.Millisecond {
		t.Errorf("capped at 2 in flight, 100/s to a 200 ms service: %d sent, %d answers at the cap, latest %v behind; want about 10, most at the cap, seconds behind", n, atCap, late)
	}
	n, atCap, _ = collect("/fast", 100, 20)
	if n < 15 || atCap != 0 {
		t.Errorf("20/s to a fast service: %d sent, %d at the cap; want about 20, none", n, atCap)
	}
}
