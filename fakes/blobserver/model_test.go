package blobserver

import (
	"testing"
	"time"
)

// The storage model is arithmetic: these tests check the delays it computes, never how
// long anything took.
func TestDelayModel(t *testing.T) {
	s := New(WithLatency(50*time.Millisecond), WithBandwidth(1<<20))
	for _, tc := range []struct {
		n    int64
		want time.Duration
	}{
		{0, 50 * time.Millisecond},
		{1 << 20, 50*time.Millisecond + time.Second},
		{4 << 10, 50*time.Millisecond + 3906250*time.Nanosecond}, // 4 KiB at 1 MiB/s
	} {
		if got := s.delayFor(tc.n); got != tc.want {
			t.Errorf("delayFor(%d) = %v, want %v", tc.n, got, tc.want)
		}
	}
	if got := New().delayFor(1 << 30); got != 0 {
		t.Errorf("New() is not instant: delayFor(1 GiB) = %v", got)
	}
	if got := New(WithBandwidth(0), WithLatency(0)).transferTime(1 << 30); got != 0 {
		t.Errorf("bandwidth 0 should be unlimited, got %v", got)
	}
}

func TestDelayJitterStaysInRange(t *testing.T) {
	s := New(WithLatency(10*time.Millisecond), WithJitter(5*time.Millisecond), WithSeed(1))
	seen := map[time.Duration]bool{}
	for range 1000 {
		d := s.delayFor(0)
		if d < 10*time.Millisecond || d >= 15*time.Millisecond {
			t.Fatalf("delay %v outside [10ms, 15ms)", d)
		}
		seen[d] = true
	}
	if len(seen) < 100 {
		t.Fatalf("only %d distinct delays in 1000 draws: jitter is not random", len(seen))
	}
}

func TestDefaultConfigIsTheAzureModel(t *testing.T) {
	c := DefaultConfig()
	s := New(c.Options()...)
	if s.latency != DefaultLatency || s.bandwidth != DefaultBandwidth || s.jitter != 0 {
		t.Fatalf("model = %v + bytes/%d B/s, jitter %v", s.latency, s.bandwidth, s.jitter)
	}
	if got, want := s.delayFor(4<<10), DefaultLatency+65104*time.Nanosecond; got != want {
		t.Fatalf("a 4 KiB upload models %v, want %v", got, want)
	}
	if s.store.expiry != DefaultStagedBlockExpiry || New().store.expiry != DefaultStagedBlockExpiry {
		t.Fatalf("staged blocks expire after %v (DefaultConfig) and %v (New), want %v", s.store.expiry, New().store.expiry, DefaultStagedBlockExpiry)
	}
}
