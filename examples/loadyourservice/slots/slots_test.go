package slots

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/syncio/syncio/blockwatch"
)

// fire sends n GET path requests 20 ms apart, all in flight together
// against a 300 ms backend, and returns their status codes in order.
func fire(t *testing.T, url string, n int) []int {
	t.Helper()
	codes := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			resp, err := http.Get(url)
			if err != nil {
				t.Error(err)
				return
			}
			defer resp.Body.Close()
			codes[i] = resp.StatusCode
			if resp.StatusCode == http.StatusServiceUnavailable {
				var body struct{ Error, Code string }
				if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || body.Code != "overloaded" || body.Error == "" || resp.Header.Get("Retry-After") != "1" {
					t.Errorf("503 body %+v (%v), Retry-After %q", body, err, resp.Header.Get("Retry-After"))
				}
			}
		})
		time.Sleep(20 * time.Millisecond)
	}
	wg.Wait()
	return codes
}

func TestHeldRunsOutOfSlotsReleasedDoesNot(t *testing.T) {
	srv := httptest.NewServer(New(WithSlots(1), WithQueue(1), WithBackendLatency(300*time.Millisecond)))
	defer srv.Close()
	// One slot and one place in the queue: the third /held in flight is
	// turned away, while three /released share the slot between them.
	if got := fire(t, srv.URL+"/held", 3); !slices.Equal(got, []int{200, 200, 503}) {
		t.Errorf("/held codes %v, want [200 200 503]", got)
	}
	if got := fire(t, srv.URL+"/released", 3); !slices.Equal(got, []int{200, 200, 200}) {
		t.Errorf("/released codes %v, want all 200", got)
	}
}

func metrics(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestMetricsShowTheSlots: while two /held requests wait on a long
// backend with one slot, /metrics shows one slot in use and one waiter,
// under the names the docs map with -metric-busy and -metric-queue.
func TestMetricsShowTheSlots(t *testing.T) {
	srv := httptest.NewServer(New(WithSlots(1), WithQueue(4), WithBackendLatency(2*time.Second)))
	defer srv.Close()
	if m := metrics(t, srv.URL); !strings.Contains(m, MetricTotal+" 1\n") || !strings.Contains(m, MetricInUse+" 0\n") || !strings.Contains(m, MetricWaiting+" 0\n") {
		t.Fatalf("idle metrics:\n%s", m)
	}
	client := &http.Client{Timeout: 200 * time.Millisecond} // cut off; the handlers see the cancellation
	for range 2 {
		go func() {
			if resp, err := client.Get(srv.URL + "/held"); err == nil {
				resp.Body.Close()
			}
		}()
	}
	var m string
	for range 100 {
		if m = metrics(t, srv.URL); strings.Contains(m, MetricInUse+" 1\n") && strings.Contains(m, MetricWaiting+" 1\n") {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if !strings.Contains(m, MetricInUse+" 1\n") || !strings.Contains(m, MetricWaiting+" 1\n") {
		t.Errorf("busy metrics, want 1 in use and 1 waiting:\n%s", m)
	}
	// Cancelled requests give their slot and their place back.
	for range 200 {
		if m = metrics(t, srv.URL); strings.Contains(m, MetricInUse+" 0\n") && strings.Contains(m, MetricWaiting+" 0\n") {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("slots not given back after cancellation:\n%s", m)
}

// TestWatcherSeesTheHeldSlot: with a watcher wired in, /held's backend
// wait is seen blocked while holding a slot, on its own route, and
// /metrics carries the watcher's totals for syncio-load's blocked+worker
// column.
func TestWatcherSeesTheHeldSlot(t *testing.T) {
	w := blockwatch.New(blockwatch.WithWorker(SlotResource), blockwatch.WithRate(200), blockwatch.WithBudget(0.5))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go w.Run(ctx)
	srv := httptest.NewServer(New(WithSlots(1), WithQueue(4), WithBackendLatency(300*time.Millisecond), WithWatcher(w)))
	defer srv.Close()
	fire(t, srv.URL+"/held", 2)
	var held *blockwatch.Route
	for _, r := range w.Report().Routes {
		if r.Route == "GET /held" {
			held = &r
		}
	}
	if held == nil || held.BlockedHoldingWorkerS <= 0 || held.SlotShare == nil || *held.SlotShare < 0.5 {
		t.Fatalf("GET /held in the report: %+v; want blocked while holding its slot most of its slot time", held)
	}
	if m := metrics(t, srv.URL); !strings.Contains(m, "syncio_blockwatch_blocked_holding_worker_seconds_total ") {
		t.Errorf("/metrics lacks the watcher's totals:\n%s", m)
	}
	resp, err := http.Get(srv.URL + "/debug/syncio/blocking")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "slots.(*service).held") {
		t.Errorf("/debug/syncio/blocking: %s\n%s", resp.Status, body)
	}
}
