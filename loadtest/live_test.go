package loadtest

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/syncio/syncio/loadtest/dashboard"
	"github.com/syncio/syncio/loadtest/scrape"
)

// livePoints runs one scenario of the live loop for d against a service
// whose /metrics writes exposition(elapsed), and returns the points.
func livePoints(t *testing.T, d time.Duration, exposition func(elapsed time.Duration) string) []dashboard.Point {
	t.Helper()
	start := time.Now()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, exposition(time.Since(start)))
	}))
	defer srv.Close()
	sc := scrape.New(srv.URL, slog.New(slog.DiscardHandler))
	defer sc.Close()
	var mu sync.Mutex
	var points []dashboard.Point
	lv := newLive(Config{ScrapeInterval: 50 * time.Millisecond, Live: func(p dashboard.Point) {
		mu.Lock()
		defer mu.Unlock()
		points = append(points, p)
	}}, sc)
	ctx, cancel := context.WithCancel(t.Context())
	var scraping sync.WaitGroup
	scraping.Go(func() { sc.Run(ctx, 50*time.Millisecond) })
	lv.begin("s", 2, time.Now().Add(time.Minute))
	time.Sleep(d)
	lv.end()
	lv.close()
	cancel()
	scraping.Wait()
	mu.Lock()
	defer mu.Unlock()
	return points
}

// TestLiveBlockedSeries: when the service exposes the blocking watcher's
// counter, the live points carry its rate (goroutines blocked holding a
// worker) and the capacity from the workers gauge, from samples of the
// running scenario only.
func TestLiveBlockedSeries(t *testing.T) {
	points := livePoints(t, 3500*time.Millisecond, func(elapsed time.Duration) string {
		// Three goroutines blocked all the time: the counter grows 3 s a second.
		return fmt.Sprintf("syncio_pool_workers 4\nsyncio_pool_workers_busy 3\nsyncio_pool_queue_length 0\n%s %g\n",
			scrape.MetricBlockedHoldingWorker, 3*elapsed.Seconds())
	})
	var seen bool
	for _, p := range points {
		if p.BlockedHoldingWorker != nil {
			seen = true
			if b := *p.BlockedHoldingWorker; b < 2.5 || b > 3.5 {
				t.Errorf("blocked holding a worker %v, want about 3", b)
			}
		}
		if p.Workers == nil || *p.Workers != 4 {
			t.Errorf("point %+v: capacity not read from the workers gauge", p)
		}
	}
	if !seen {
		t.Errorf("no point carries the blocked series (%d points)", len(points))
	}
}

// TestLiveBlockedWaitsForSamples: a watcher that samples six times a
// second gives a point no figure from the six or so samples of its own
// second; the next point's window reaches back to the last figure's
// sample, and reads the three goroutines blocked.
func TestLiveBlockedWaitsForSamples(t *testing.T) {
	points := livePoints(t, 3200*time.Millisecond, func(elapsed time.Duration) string {
		n := math.Floor(6 * elapsed.Seconds())
		watched := n / 6
		return fmt.Sprintf("syncio_pool_workers 4\n%s %g\n%s %g\n%s %g\n", scrape.MetricBlockedHoldingWorker, 3*watched,
			scrape.MetricWatched, watched, scrape.MetricWatcherSamples, n)
	})
	if len(points) < 3 {
		t.Fatalf("%d points, want 3 or more", len(points))
	}
	if b := points[1].BlockedHoldingWorker; b != nil {
		t.Errorf("second point: %v from about 6 samples, want none", *b)
	}
	var seen bool
	for _, p := range points[2:] {
		if b := p.BlockedHoldingWorker; b != nil {
			seen = true
			if *b < 2.99 || *b > 3.01 {
				t.Errorf("blocked holding a worker %v, want 3", *b)
			}
		}
	}
	if !seen {
		t.Error("no later point carries the figure once the samples sufficed")
	}
}
