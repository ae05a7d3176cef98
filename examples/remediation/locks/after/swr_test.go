package after

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// slowStore is a downstream whose loads wait for the test: each load
// returns the next version, "v1", "v2", ..., once the test releases it.
type slowStore struct {
	release chan struct{}
	loads   atomic.Int32
}

func (s *slowStore) load(ctx context.Context, _ string) ([]byte, error) {
	n := s.loads.Add(1)
	select {
	case <-s.release:
		return []byte{'v', byte('0' + n)}, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// clock is a settable time.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// hotKey fills one key with v1, then lets the clock pass its TTL by
// elapsed, and returns 50 concurrent requests' answers for that key while
// the refresh is held back. Requests that waited for the refresh would
// answer v2, which exists only once the test releases it.
func hotKey(t *testing.T, stale, elapsed time.Duration) (answers []string, s *slowStore, c *TTLCache) {
	t.Helper()
	s = &slowStore{release: make(chan struct{}, 100)}
	clk := &clock{t: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)}
	c = NewTTLCache(s.load, time.Minute, stale)
	c.now = clk.now
	s.release <- struct{}{}
	if v, err := c.Get(context.Background(), "hot"); err != nil || string(v) != "v1" {
		t.Fatalf("first Get: %q %v", v, err)
	}
	clk.add(elapsed)
	out := make(chan string, 50)
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			v, err := c.Get(context.Background(), "hot")
			if err != nil {
				t.Error(err)
			}
			out <- string(v)
		})
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(200 * time.Millisecond):
		// Still waiting: they wait for the refresh. Let it finish.
		s.release <- struct{}{}
		<-done
	}
	close(out)
	for v := range out {
		answers = append(answers, v)
	}
	return answers, s, c
}

// TestStaleWhileRevalidate: past the TTL but within the stale window, the
// hot key's 50 requests are all answered with v1 while the one refresh is
// held back, so none waited for it; the refresh then publishes v2.
func TestStaleWhileRevalidate(t *testing.T) {
	answers, s, c := hotKey(t, time.Minute, 61*time.Second)
	for _, v := range answers {
		if v != "v1" {
			t.Fatalf("answers %v: a request waited for the refresh", answers)
		}
	}
	// The refresh runs in the background (singleflight's DoChan starts
	// it in a goroutine of its own): the requests may all have answered
	// before its load begins. Wait for it, then count.
	for deadline := time.Now().Add(30 * time.Second); s.loads.Load() < 2 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	if n := s.loads.Load(); n != 2 {
		t.Errorf("%d loads, want 2: the fill and one shared refresh", n)
	}
	s.release <- struct{}{}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(time.Millisecond) {
		if v, _ := c.Get(context.Background(), "hot"); string(v) == "v2" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the refresh never published v2")
		}
	}
}

// TestTTLOnlyWaits is the contrast: without a stale window, every request
// for the expired hot key waits for the shared reload (they answer v2, the
// refreshed value), though singleflight still makes it one load.
func TestTTLOnlyWaits(t *testing.T) {
	answers, s, _ := hotKey(t, 0, 61*time.Second)
	for _, v := range answers {
		if v != "v2" {
			t.Fatalf("answers %v: want every request to have waited for v2", answers)
		}
	}
	if n := s.loads.Load(); n != 2 {
		t.Errorf("%d loads, want 2", n)
	}
}

// TestTooStaleWaits: past ttl+stale the old value is not served.
func TestTooStaleWaits(t *testing.T) {
	answers, _, _ := hotKey(t, time.Minute, 2*time.Minute+time.Second)
	for _, v := range answers {
		if v != "v2" {
			t.Fatalf("answers %v: a value older than ttl+stale was served", answers)
		}
	}
}
