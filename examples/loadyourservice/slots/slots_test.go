package slots

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
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
