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
	a := New(closedloop.Target{Attack: "t", Method: "GET", URL: srv.URL}, srv.Client(), 100, func(r *vegeta.Result) {
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
