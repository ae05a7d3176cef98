package after

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// TestWarmIsBounded: a burst of Warm requests starts at most cap(Warming)
// loads; the others are refused with 503 instead of piling up detached
// goroutines, and a finished warm-up frees its slot.
func TestWarmIsBounded(t *testing.T) {
	release := make(chan struct{})
	var inFlight, most atomic.Int32
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := inFlight.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		<-release
		inFlight.Add(-1)
	}))
	defer up.Close()
	const bound = 3
	h := &Handler{
		Store:   &Store{Client: up.Client(), URL: up.URL},
		Log:     slog.New(slog.NewTextHandler(io.Discard, nil)),
		Warming: make(chan struct{}, bound),
	}
	codes := map[int]int{}
	for range 10 {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, "/warm/k", nil)
		req.SetPathValue("key", "k")
		h.Warm(rec, req)
		codes[rec.Code]++
	}
	if codes[http.StatusAccepted] != bound || codes[http.StatusServiceUnavailable] != 10-bound {
		t.Fatalf("status counts %v, want %d × 202 and %d × 503", codes, bound, 10-bound)
	}
	close(release)
	// A hang guard, not a timing claim: the slots come back as the
	// warm-ups finish.
	for deadline := time.Now().Add(10 * time.Second); len(h.Warming) > 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("finished warm-ups did not free their slots")
		}
	}
	if m := most.Load(); m > bound {
		t.Errorf("%d loads ran at once, want at most %d", m, bound)
	}
}
