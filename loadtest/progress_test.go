package loadtest

import "testing"

// A pool that completes in lockstep batches every 2 s must not read as 0
// when sampled on the quiet second.
func TestRateHistoryAveragesBatches(t *testing.T) {
	var h rateHistory
	var done int64
	var rps float64
	for sec := 1; sec <= 10; sec++ {
		if sec%2 == 1 {
			done += 100 // a batch completes on odd seconds only
		}
		rps, _ = h.add(done, done, 10)
	}
	if rps != 50 {
		t.Fatalf("rate over 10 s of 100-request batches every 2 s = %v, want 50", rps)
	}
	// A new scenario resets the counters: the rate restarts from zero.
	rps, okps := h.add(20, 10, 10)
	if rps != 20 || okps != 10 {
		t.Fatalf("after reset: rps %v ok/s %v, want 20 and 10", rps, okps)
	}
}
